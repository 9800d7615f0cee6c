//! The seed claims of issue 4 (BVT, real-time classes, EEVDF, deadline), checked on the real
//! kernel on the emulator. Each test names the claim and its seed; the figures are ours.

use runqueue_kernel_claims::{Run, kernel};

/// Hackbench's time: when its last sender or receiver finished (the hog stops after them).
fn hackbench_ns(run: &Run) -> u64 {
    run.result.tasks.iter().filter(|t| !t.name.starts_with("hog")).map(|t| t.finish_ns).max().unwrap()
}

/// One sender and one receiver whose every message fills the pipe: at most one hackbench
/// task is runnable at a time, like seed 002's hackbench cgroup against `eatcpu`'s. The trace
/// is off: BVT traces more per switch than CFS, which would blur a comparison of times.
const PING_PONG: &str = "trace=off workload=hackbench wl.groups=1 wl.fds=1 wl.loops=1000 wl.msg_bytes=4096 wl.pipe_bytes=4096 wl.hog=1";

/// 002: "with BVT (warp 40 ms, 1 ms, 0.1 ms) hackbench beside a CPU hog took 5.0-5.5 s
/// against 2.6 s under CFS: sched_bvt_place_epsilon leaves woken tasks without sleeper
/// compensation"; "placing from the already compensated vruntime fixed it (2.4 s)".
#[test]
fn hackbench_bvt_epsilon_placement_is_slow_and_the_fix_restores_cfs() {
    let cfs = hackbench_ns(&kernel(&format!("sched=cfs {PING_PONG}")));
    let epsilon = hackbench_ns(&kernel(&format!("sched=bvt bvt.rules=patch bvt.placement=epsilon wl.warp_us=100 {PING_PONG}")));
    let fixed = hackbench_ns(&kernel(&format!("sched=bvt bvt.rules=patch bvt.placement=fixed wl.warp_us=100 {PING_PONG}")));
    assert!(epsilon as f64 > 1.6 * cfs as f64, "epsilon placement {epsilon} ns is not clearly slower than cfs {cfs} ns");
    assert!((fixed as f64) < 1.15 * cfs as f64, "fixed placement {fixed} ns, cfs {cfs} ns");
}

/// The measuring thread's worst wakeup latency, in ns.
fn max_latency(append: &str) -> u64 {
    let run = kernel(&format!("workload=cyclictest {append}"));
    let lat = run.result.tasks.iter().find_map(|t| t.lat.as_ref()).expect("cyclictest reports a latency");
    assert_eq!(lat.samples, 1000, "`{append}`: every wakeup is measured");
    lat.max_ns
}

/// 000: "under load, cyclictest's max latency is far lower with the measuring thread under
/// SCHED_FIFO than under SCHED_OTHER" (chrt -f against the default policy).
#[test]
fn cyclictest_fifo_max_latency_is_far_below_fair() {
    let fifo = max_latency("wl.policy=fifo");
    let fair = max_latency("wl.policy=fair");
    assert!(fifo * 5 < fair, "max latency fifo {fifo} ns, fair {fair} ns");
}

/// 000: the same claim with hackbench as the load, as the seed ran it: pipe senders and
/// receivers waking each other all the time, on the measuring thread's hart.
#[test]
fn cyclictest_fifo_max_latency_is_far_below_fair_under_hackbench() {
    let fifo = max_latency("wl.load_type=hackbench wl.policy=fifo");
    let fair = max_latency("wl.load_type=hackbench wl.policy=fair");
    assert!(fifo * 5 < fair, "hackbench load: max latency fifo {fifo} ns, fair {fair} ns");
}

/// 000 / 003: latency comes from what cannot be preempted: the max grows by about the length
/// of the non-preemptible sections in the load.
#[test]
fn cyclictest_max_latency_grows_by_the_non_preemptible_section() {
    let base = max_latency("wl.policy=fifo");
    for hold_us in [200, 500] {
        // A wakeup that lands near the start of a section waits nearly all of it, then the
        // usual path.
        let held = max_latency(&format!("wl.policy=fifo wl.hold_us={hold_us}"));
        let hold = hold_us * 1000;
        assert!(held >= hold * 9 / 10 && held <= hold + base, "hold {hold_us} us: max {held} ns, without holds {base} ns");
    }
}

/// 003: "isolcpus: keep everything else off the real-time CPU" brings the max latency down
/// (1475 us to 12 us in the seed's source): the load's non-preemptible sections no longer
/// reach the measuring hart's latency.
#[test]
fn cyclictest_isolating_the_measuring_hart_drops_the_max_latency() {
    let hold = 500_000;
    let shared = max_latency("smp=2 wl.policy=fifo wl.hold_us=500");
    let isolated = max_latency("smp=2 wl.policy=fifo wl.hold_us=500 wl.isolate=1");
    assert!(shared >= hold * 9 / 10, "with the load on every hart the max {shared} ns misses the {hold} ns hold");
    // Not the seed's 100x: the kernel lock is one for all harts, and the isolated hart's
    // wakeup can queue behind the other hart's switch, pick and tick in a row (about 200 us
    // at 100 MIPS; docs/kernel.md, known issues). What isolation must remove is the hold.
    assert!(isolated < hold / 2 && isolated * 2 < shared, "max latency with the load on every hart {shared} ns, kept off {isolated} ns");
}

/// The sleeper's share of the CPU in `sched=... workload=intr` with one 50 % sleeper (works
/// 1.5 ms, sleeps 1.5 ms: well inside CFS's sleeper credit of latency/2 = 3 ms) against one
/// task that never sleeps.
fn sleeper_share(sched: &str) -> f64 {
    let cpu = kernel(&format!("sched={sched} workload=intr wl.tasks=1 wl.hogs=1 wl.work_us=1500 wl.sleep_us=1500")).cpu();
    cpu[0] as f64 / (cpu[0] + cpu[1]) as f64
}

/// Linux commit 76cae9dbe185 (EEVDF series after 147f3efaa241): FAIR_SLEEPERS "would have a
/// 50%/50% time distribution for a 50% sleeper vs a 100% runner, while strictly speaking
/// this should (of course) result in a 33%/67% split" - which lag-based placement gives.
#[test]
fn eevdf_gives_a_half_sleeper_a_third_where_cfs_gives_half() {
    let cfs = sleeper_share("cfs");
    // The commit's kernel: 6.12's DELAY_DEQUEUE lets the sleeper's debt decay while it sleeps.
    let eevdf = sleeper_share("eevdf eevdf.version=6.6");
    assert!((cfs - 0.5).abs() < 0.05, "cfs: the sleeper had {:.0}% of the CPU", cfs * 100.0);
    // Ticks (1 ms) quantise EEVDF's 0.75 ms slices, which leaves the sleeper a little more.
    assert!(eevdf > 0.28 && eevdf < 0.42, "eevdf: the sleeper had {:.0}% of the CPU", eevdf * 100.0);
}

/// Per task, in `workload=deadline`: jobs done by their deadline, jobs late, and jobs that used
/// up their reservation (switched out with runtime left below zero: the server throttles them).
struct Jobs {
    met: Vec<u64>,
    missed: Vec<usize>,
    overran: Vec<usize>,
}

fn deadline_jobs(append: &str) -> Jobs {
    let run = kernel(&format!("workload=deadline {append}"));
    let per_task = |pick: &dyn Fn(&runqueue_report::Event) -> bool| {
        run.result.tasks.iter().map(|t| run.events.iter().filter(|e| e.tid == t.tid && pick(e)).count()).collect()
    };
    let overran = |e: &runqueue_report::Event| {
        e.kind == runqueue_report::Kind::Out && e.get("left").is_some_and(|left| left.parse::<i64>().unwrap() < 0)
    };
    Jobs { met: run.iterations(), missed: per_task(&|e| e.get("miss").is_some()), overran: per_task(&overran) }
}

/// Liu and Layland (the book's EDF section, sched-deadline.rst): "EDF schedules any task set
/// with utilisation up to 1 on one CPU; fixed priorities only up to the rate-monotonic bound".
/// Two tasks, C/T = 2/5 and 3.85/7 (U = 0.95 > 0.83), each job's work 90 % of its C. The kernel's
/// own time (ticks, the other task's wakeups, the trace) is charged to the running job, as Linux
/// charges it, so a job can use up its C before its work is done; SCHED_DEADLINE then throttles
/// it to its next period (chapter 10 shows one such job). What EDF guarantees is that every job
/// that stays within its reservation meets its deadline: a miss by any other job is EDF's fault.
#[test]
fn edf_meets_every_deadline_that_fixed_priorities_miss() {
    let edf = deadline_jobs("wl.class=edf");
    let rm = deadline_jobs("wl.class=rm");
    // 1000 ms of jobs every 5 ms and every 7 ms, each either met or missed.
    let released: Vec<u64> = edf.met.iter().zip(&edf.missed).map(|(&met, &missed)| met + missed as u64).collect();
    assert_eq!(released, [200, 143], "EDF: jobs met {:?}, missed {:?}", edf.met, edf.missed);
    for (task, (&missed, &overran)) in edf.missed.iter().zip(&edf.overran).enumerate() {
        assert!(missed <= overran, "EDF: task {task} missed {missed} deadlines but overran its reservation only {overran} times");
    }
    let (rm_met, rm_misses) = (&rm.met, rm.missed.iter().sum::<usize>());
    assert!(rm_misses > 0 && rm_met[1] < 143, "rate-monotonic: jobs met {rm_met:?}, {rm_misses} missed");
}
