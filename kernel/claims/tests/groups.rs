//! cgroup v2 CPU groups in the fair classes, checked on the real kernel on the emulator.
//! Sources: Linux 6.12 `kernel/sched/fair.c` (`calc_group_shares`: a group's entity weighs its
//! shares, so sibling groups share their parent by `cpu.weight` whatever tasks they hold;
//! `sched_cfs_bandwidth` / `throttle_cfs_rq`: a group with `cpu.max` runs at most its quota per
//! period), `Documentation/admin-guide/cgroup-v2.rst` (`cpu.weight` 100 = shares 1024), and
//! seed 002 (hackbench beside a CPU hog, the hackbench tasks in a BVT cgroup with a warp).

use runqueue_kernel_claims::{Run, kernel};
use runqueue_report::{Event, Kind};
use std::collections::BTreeMap;

/// Each task's group (`cg=` on its `new`; 0: the root).
fn group_of(events: &[Event]) -> BTreeMap<u32, u64> {
    events.iter().filter(|e| e.kind == Kind::New).map(|e| (e.tid, e.num("cg").unwrap_or(0) as u64)).collect()
}

/// CPU time per group over the whole run.
fn group_cpu(run: &Run) -> BTreeMap<u64, u64> {
    let groups = group_of(&run.events);
    let mut cpu = BTreeMap::new();
    for t in &run.result.tasks {
        *cpu.entry(groups[&(t.tid as u32)]).or_default() += t.cpu_ns;
    }
    cpu
}

fn share(cpu: &BTreeMap<u64, u64>, group: u64) -> f64 {
    cpu[&group] as f64 / cpu.values().sum::<u64>() as f64
}

/// Share tolerance of the weight claims: 2 points on one hart (CFS's slices are 0.75-6 ms, so
/// 2 s hold hundreds of them); 4 on two harts, where where the balancer puts each task moves
/// the per-hart split a little.
const ONE_HART_TOLERANCE: f64 = 0.02;
const TWO_HART_TOLERANCE: f64 = 0.04;

fn check_weights(args: &str, tolerance: f64) {
    let run = kernel(&format!("{args} cpu.weight=a:100,b:300"));
    let cpu = group_cpu(&run);
    let a = share(&cpu, 1);
    assert!((a - 0.25).abs() <= tolerance, "`{args}`: group a (cpu.weight 100 against 300) got {a:.3} of the CPU, not 0.25 ± {tolerance}");
    assert!((share(&cpu, 2) - 0.75).abs() <= tolerance, "`{args}`: group b got {:.3}, not 0.75", share(&cpu, 2));
}

/// `calc_group_shares`: weights 100 and 300 give 25 % and 75 % whichever group holds more tasks.
#[test]
fn weights_100_and_300_share_one_hart_25_75_whatever_the_task_counts() {
    for sched in ["cfs", "eevdf", "bvt"] {
        check_weights(&format!("sched={sched} workload=spin wl.tasks=4 wl.run_ms=2000 cgroup=a,b,b,b"), ONE_HART_TOLERANCE);
        check_weights(&format!("sched={sched} workload=spin wl.tasks=4 wl.run_ms=2000 cgroup=a,a,a,b"), ONE_HART_TOLERANCE);
    }
}

/// The same on two harts with a queue per hart: each hart's entity of a group weighs its
/// shares times that hart's part of the group's load, so the split holds across harts.
#[test]
fn weights_100_and_300_share_two_harts_with_per_hart_queues() {
    for sched in ["cfs", "eevdf"] {
        check_weights(&format!("sched={sched} smp=2 rq=perhart workload=spin wl.tasks=6 wl.run_ms=2000 cgroup=a,a,b,b,b,b"), TWO_HART_TOLERANCE);
    }
    check_weights("sched=cfs smp=2 rq=global workload=spin wl.tasks=6 wl.run_ms=2000 cgroup=a,b,b,b,b,b", TWO_HART_TOLERANCE);
}

const CAPPED: &str = "sched=cfs workload=spin wl.tasks=2 wl.run_ms=2000 cgroup=capped cpu.max=capped:20000/100000";

/// `cpu.max=20000/100000` caps a group at 20 % beside a root hog that would take the rest;
/// within 1.5 points (a throttle lands at the tick after the quota runs out: up to 1 ms a period).
#[test]
fn cpu_max_caps_a_group_at_its_quota_per_period() {
    let run = kernel(CAPPED);
    let capped = share(&group_cpu(&run), 1);
    assert!((capped - 0.20).abs() <= 0.015, "`{CAPPED}`: the capped group got {capped:.3} of the CPU, not 0.20 ± 0.015");
    assert!(run.events.iter().any(|e| e.kind == Kind::Throttle), "no throttle event");
}

/// A throttled group's task waits out the rest of the period. Beside one hog of equal weight
/// the group runs its 20 ms at half the CPU, over about 40 ms, and is then throttled for the
/// other 60: its task's longest wait for the CPU is at least that, less a few ms (where in the
/// period the quota runs out moves with the slices); without throttling it would be a slice.
#[test]
fn a_capped_groups_task_waits_out_the_throttled_part_of_the_period() {
    let run = kernel(CAPPED);
    let mut out_at = None;
    let mut worst = 0;
    for e in run.events.iter().filter(|e| e.tid == 1) {
        match e.kind {
            Kind::Out => out_at = Some(e.time_ns),
            Kind::In => worst = worst.max(out_at.take().map_or(0, |t| e.time_ns - t)),
            _ => {}
        }
    }
    assert!(worst >= 55_000_000, "the capped task's worst wait was {worst} ns, less than the about 60 ms its group is throttled each period");
}

/// Trace property: no task of a throttled group is switched in between its group's `throttle`
/// and `unthrottle`, and one running at the throttle leaves within a tick (1 ms).
#[test]
fn no_task_of_a_throttled_group_runs_while_throttled() {
    for args in [CAPPED.to_string(), CAPPED.replace("sched=cfs", "sched=eevdf"), "sched=cfs smp=2 rq=perhart workload=spin wl.tasks=4 wl.run_ms=1000 cgroup=c,c cpu.max=c:50000/100000".into()] {
        let run = kernel(&args);
        let groups = group_of(&run.events);
        let mut throttled: BTreeMap<(u64, u64), u64> = BTreeMap::new();
        let mut running: BTreeMap<u32, u64> = BTreeMap::new();
        let mut seen = 0;
        for e in &run.events {
            let key = || (e.num("cg").unwrap() as u64, e.num("rq").unwrap() as u64);
            match e.kind {
                Kind::Throttle => {
                    seen += 1;
                    throttled.insert(key(), e.time_ns);
                }
                Kind::Unthrottle => drop(throttled.remove(&key())),
                Kind::In => {
                    let g = groups[&e.tid];
                    assert!(!throttled.contains_key(&(g, e.hart as u64)), "`{args}`: task {} of group {g} switched in at {} while throttled on hart {}", e.tid, e.time_ns, e.hart);
                    running.insert(e.tid, e.hart as u64);
                }
                Kind::Out => {
                    let hart = running.remove(&e.tid).unwrap_or(0);
                    if let Some(&since) = throttled.get(&(groups[&e.tid], hart)) {
                        assert!(e.time_ns - since <= 1_000_000, "`{args}`: task {} ran {} ns past its group's throttle", e.tid, e.time_ns - since);
                    }
                }
                _ => {}
            }
        }
        assert!(seen > 0, "`{args}`: never throttled");
    }
}

/// Trace property: over each 250 ms window after the first, the groups' shares stay within 5
/// points of their weights (25/75): the hierarchy is fair over short spans too, not only in sum.
/// Three tasks in `a` and one in `b`, so that weighing tasks instead of groups would give `a`
/// 75 % (with one in `a` and three in `b`, 100:300 is a quarter per task either way).
#[test]
fn group_shares_hold_in_every_window() {
    let args = "sched=cfs workload=spin wl.tasks=4 wl.run_ms=2000 cgroup=a,a,a,b cpu.weight=a:100,b:300";
    let run = kernel(args);
    let groups = group_of(&run.events);
    const WINDOW: u64 = 250_000_000;
    let mut per_window: BTreeMap<u64, [u64; 2]> = BTreeMap::new();
    let mut since: BTreeMap<u32, u64> = BTreeMap::new();
    for e in &run.events {
        match e.kind {
            Kind::In => drop(since.insert(e.tid, e.time_ns)),
            Kind::Out => {
                let (mut t, end) = (since.remove(&e.tid).unwrap(), e.time_ns);
                while t < end {
                    let cut = ((t / WINDOW + 1) * WINDOW).min(end);
                    per_window.entry(t / WINDOW).or_default()[groups[&e.tid] as usize - 1] += cut - t;
                    t = cut;
                }
            }
            _ => {}
        }
    }
    let last = *per_window.keys().last().unwrap();
    for (w, [a, b]) in per_window.iter().filter(|(w, _)| **w > 0 && **w < last) {
        let share = *a as f64 / (a + b) as f64;
        assert!((share - 0.25).abs() <= 0.05, "`{args}`: window {w}: group a got {share:.3}, not 0.25 ± 0.05");
    }
}

const HACKBENCH: &str = "workload=hackbench smp=1 trace=off wl.groups=1 wl.fds=1 wl.loops=1000 wl.msg_bytes=4096 wl.pipe_bytes=4096 wl.hog=1 cgroup=lat,lat,batch";

fn hackbench_s(args: &str) -> f64 {
    kernel(args).result.time_ns as f64 / 1e9
}

/// Seed 002: hackbench in a BVT cgroup with a warp, beside a hog in another group, runs slower
/// than under plain CFS with the same groups, because BVT_PLACEMENT places a woken entity just
/// after min_vruntime (no sleeper credit): the group never sleeps (each task is woken by the
/// other), so this acts inside it, where the woken receiver no longer preempts the sender and
/// every message costs a second sleep and wakeup (the book's chapter 7 shows it in the trace);
/// the seed's fix (placement after CFS's credited point) brings it back to CFS's time. What reproduces is the direction and the fix: the
/// seed measured about 2x (2.6 s against 5.0-5.5 s); ours, with two hackbench tasks, at least
/// 8 % slower with epsilon placement and within 5 % of CFS with the fix.
#[test]
fn seed002_hackbench_beside_a_hog_is_slower_in_a_warped_group_until_the_placement_fix() {
    let cfs = hackbench_s(&format!("sched=cfs {HACKBENCH}"));
    let bvt = "sched=bvt bvt.rules=patch bvt.group_warp_us=lat:1000";
    let epsilon = hackbench_s(&format!("{bvt} {HACKBENCH}"));
    let fixed = hackbench_s(&format!("{bvt} bvt.placement=fixed {HACKBENCH}"));
    assert!(epsilon >= cfs * 1.08, "epsilon placement: {epsilon:.3} s, not 8 % slower than CFS's {cfs:.3} s");
    assert!((fixed / cfs - 1.0).abs() <= 0.05, "fixed placement: {fixed:.3} s, not within 5 % of CFS's {cfs:.3} s");
}
