//! EEVDF by Linux version (issue 14): what 6.6 and 6.12's `kernel/sched/fair.c` do, checked on
//! the real kernel on the emulator. Each test names the Linux code it follows.

use runqueue_kernel_claims::{Run, kernel};
use runqueue_report::Kind;
use std::collections::BTreeMap;

/// `yield_task_fair` (Linux 6.6, from commit 147f3efaa241 "sched/fair: Implement an EEVDF-like
/// scheduling policy"): `se->deadline += calc_delta_fair(se->slice, se)`. Two tasks that yield
/// after every tiny unit never reach their deadlines by running, so each time one is switched
/// in again its deadline is exactly one request later: 0.75 ms of virtual time at nice 0,
/// 0.75 ms * 1024 / 335 at nice 5 (until one exits: a task alone keeps its deadline).
#[test]
fn linux_6_6_yield_moves_the_deadline_by_exactly_one_request() {
    let run = kernel("sched=eevdf eevdf.version=6.6 workload=yield-speed wl.tasks=2 wl.units=300 nice=0,5");
    let vslice = |weight: i64| 750_000 * 1024 / weight;
    let expected = BTreeMap::from([(1, vslice(1024)), (2, vslice(335))]);
    let mut last: BTreeMap<u32, i64> = BTreeMap::new();
    let mut checked = 0;
    for e in run.events.iter().take_while(|e| e.kind != Kind::Exit).filter(|e| e.kind == Kind::In) {
        let vd = e.num("vd").unwrap();
        if let Some(before) = last.insert(e.tid, vd) {
            assert_eq!(vd - before, expected[&e.tid], "task {} at {} ns: deadline {before} then {vd}", e.tid, e.time_ns);
            checked += 1;
        }
    }
    assert!(checked > 300, "only {checked} yields seen");
}

/// The measuring thread's worst wakeup latency in `workload=cyclictest`, a fair task asking
/// for 1 ms slices (`slice_us=1000`) beside two CPU hogs asking for 6 ms, over runs with
/// several periods: a hog's protection matters only at a wakeup that finds both the hog and
/// the sleeper eligible, and how often that happens moves with the period and with any change
/// to the kernel's timing, so one period alone may never show it.
fn short_slice_latency(features: &str) -> u64 {
    [1000, 1100, 1300, 1700]
        .iter()
        .map(|interval| {
            let run = kernel(&format!(
                "sched=eevdf workload=cyclictest wl.policy=fair wl.load=2 wl.load_sleep_us=0 wl.loops=1000 wl.interval_us={interval} slice_us=1000,6000,6000 eevdf.features={features}"
            ));
            run.result.tasks[0].lat.as_ref().unwrap().max_ns
        })
        .max()
        .unwrap()
}

/// PREEMPT_SHORT (Linux 6.12, commit 85e511df3cec "sched/eevdf: Allow shorter slices to
/// wakeup-preempt"; `do_preempt_short` in `check_preempt_wakeup_fair`): a woken task with a
/// shorter request than the running one, eligible and with the earlier deadline, cancels the
/// runner's RUN_TO_PARITY protection. Without it a hog keeps the CPU while it stays eligible,
/// up to its whole 6 ms slice; with it the short task waits at most until it is eligible.
#[test]
fn preempt_short_lowers_a_short_slice_tasks_worst_latency_beside_long_slice_hogs() {
    let with = short_slice_latency("PREEMPT_SHORT");
    let without = short_slice_latency("NO_PREEMPT_SHORT");
    assert!(with + 2_000_000 < without, "worst latency {with} ns with PREEMPT_SHORT, {without} ns without");
}

fn sleeper_share(run: &Run) -> f64 {
    let cpu = run.cpu();
    cpu[0] as f64 / (cpu[0] + cpu[1]) as f64
}

const HALF_SLEEPER: &str = "sched=eevdf workload=intr wl.tasks=1 wl.hogs=1 wl.work_us=1500 wl.sleep_us=1500";

/// A sleeper that always blocks owing time and always wakes before it is owed again: nice 0
/// beside a nice -10 hog (weight 9548), asking for 100 ms requests, so that in 400 ms (under
/// 40 ms of its CPU) it never reaches its first deadline (half a request, 50 ms) and RUN_TO_PARITY
/// gives it each 0.6 ms unit in one stint. When it is picked the hog leads it by at most the
/// hog's slice and a tick (1.7 ms, 0.18 ms of virtual time); each unit puts it 0.6 ms further,
/// so it blocks owing at least 0.4 ms of virtual time, which takes the hog 3.9 ms to pay: it
/// wakes after 0.6 ms still queued and still owing, every time. Its weight's share of the hart
/// (1024 / 10572) is 39 ms of the 400: at most 64 units, so 64 wakeups (59 in the run).
const ALWAYS_OWING: &str = "sched=eevdf workload=intr wl.tasks=1 wl.hogs=1 wl.work_us=600 wl.sleep_us=600 wl.run_ms=400 nice=0,-10 slice_us=100000,0";

/// The sleeper's (tid 1, nice 0) wakeups that find it still owing (negative lag), each checked
/// to find it where it went to sleep: its vruntime that of its last switch-in plus what it ran.
/// Returns (delayed sleeps, wakeups still owing, other wakeups), until the first exit (after
/// it the sleeper, alone, is owed nothing).
fn delayed_wakeups(run: &Run) -> (usize, usize, usize) {
    let (mut vr_in, mut vr_out) = (0, None);
    let (mut delayed, mut owing, mut other) = (0, 0, 0);
    for e in run.events.iter().take_while(|e| e.kind != Kind::Exit).filter(|e| e.tid == 1) {
        match e.kind {
            Kind::In => vr_in = e.num("vr").unwrap(),
            Kind::Out => vr_out = Some(vr_in + e.num("ran").unwrap()),
            Kind::State if e.num("delayed") == Some(1) => delayed += 1,
            Kind::Wake if e.num("lag").unwrap() < 0 => {
                assert_eq!(Some(e.num("vr").unwrap()), vr_out, "at {} ns the delayed sleeper woke elsewhere", e.time_ns);
                owing += 1;
            }
            Kind::Wake => other += 1,
            _ => {}
        }
    }
    (delayed, owing, other)
}

/// DELAY_DEQUEUE (Linux 6.12, commit 152e11f6df29 "sched/fair: Implement delayed dequeue";
/// `dequeue_entity`, `requeue_delayed_entity`): a task that goes to sleep with negative lag
/// stays queued, in V, "competing until they are eligible"; if it wakes first it wakes where
/// it was, its negative lag kept exactly (not clamped, not placed again). While it sleeps the
/// others run and V catches up with it, so its debt shrinks with the sleep instead of being
/// "carried around indefinitely" as 6.6's placement does: the half sleeper gets more.
/// How many of the half sleeper's wakeups still find it owing is no property of Linux: it
/// leaves the queue at the first pick that finds it eligible (`pick_next_entity`: the hog's
/// deadline tick after the debt is paid; DELAY_ZERO then drops its credit) and wakes owed
/// (`requeue_delayed_entity` places it at lag 0) if no pick came, so the count moves with where
/// the ticks fall in its 3 ms cycle (0 to 572 of 2 s with the unit or the sleep 0.1 ms longer
/// or shorter). The sleeper that always wakes owing (`ALWAYS_OWING`) gives the count.
#[test]
fn delay_dequeue_keeps_a_sleepers_vruntime_and_lets_its_debt_decay_while_it_sleeps() {
    let delayed = kernel(HALF_SLEEPER);
    let (sleeps, _, _) = delayed_wakeups(&delayed);
    assert!(sleeps > 100, "{sleeps} delayed sleeps");
    let (sleeps, owing, other) = delayed_wakeups(&kernel(ALWAYS_OWING));
    assert!(owing > 40 && other == 0, "always owing: {sleeps} delayed sleeps, {owing} wakes with negative lag, {other} without");

    let share = sleeper_share(&delayed);
    let kept_forever = sleeper_share(&kernel(&format!("{HALF_SLEEPER} eevdf.features=NO_DELAY_DEQUEUE")));
    assert!(share > kept_forever + 0.02, "the sleeper had {share:.3} with DELAY_DEQUEUE, {kept_forever:.3} without");
}

/// Per-task requests (Linux 6.12, commit 857b158dc5e8 "sched/eevdf: Use sched_attr::sched_runtime
/// to set request/slice suggestion"): r_i sets the deadline `v + r/w`, the weight alone sets the
/// share. Three CPU hogs asking for 1, 8 and 8 ms: the short request waits far less between
/// runs, and every task still gets a third of the CPU. Linux 6.6 ignores the request.
#[test]
fn a_tasks_slice_changes_its_latency_not_its_share() {
    let mean_waits = |run: &Run| -> Vec<f64> {
        let mut out_at: BTreeMap<u32, u64> = BTreeMap::new();
        let mut waits: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
        for e in &run.events {
            match e.kind {
                Kind::Out => drop(out_at.insert(e.tid, e.time_ns)),
                Kind::In if out_at.contains_key(&e.tid) => {
                    let w = waits.entry(e.tid).or_default();
                    *w = (w.0 + e.time_ns - out_at[&e.tid], w.1 + 1);
                }
                _ => {}
            }
        }
        waits.values().map(|(sum, n)| *sum as f64 / *n as f64).collect()
    };
    let spin = "sched=eevdf workload=spin wl.tasks=3 wl.run_ms=1000 slice_us=1000,8000,8000";
    for (version, short_waits_less) in [("6.12", true), ("6.6", false)] {
        let run = kernel(&format!("{spin} eevdf.version={version}"));
        let total: u64 = run.cpu().iter().sum();
        for (tid, cpu) in run.cpu().iter().enumerate() {
            let share = *cpu as f64 / total as f64;
            assert!((share - 1.0 / 3.0).abs() < 0.02, "{version}: task {} had {share:.3} of the CPU", tid + 1);
        }
        let waits = mean_waits(&run);
        let ratio = waits[1].min(waits[2]) / waits[0];
        if short_waits_less {
            assert!(ratio > 1.6, "{version}: mean waits {waits:?} ns");
        } else {
            assert!((0.8..1.25).contains(&ratio), "{version}: mean waits {waits:?} ns");
        }
    }
}
