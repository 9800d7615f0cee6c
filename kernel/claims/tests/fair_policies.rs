//! SCHED_BATCH and SCHED_IDLE (`policy=`) under CFS and EEVDF, as Linux's fair class has them
//! (`check_preempt_wakeup` in CFS, `check_preempt_wakeup_fair` in 6.6 and 6.12, and
//! `WEIGHT_IDLEPRIO`): a batch task's wakeup waits for the tick, an idle task gets its weight's
//! sliver beside a normal one and gives way to a normal wakeup at once.

use runqueue_kernel_claims::{Run, kernel};
use runqueue_report::{Event, Kind, props};

const FAIR: &[&str] = &["cfs", "eevdf", "eevdf eevdf.version=6.6"];
/// The way from a wakeup through the scheduler to the switch (35 us under CFS, 110 us under
/// EEVDF on one hart).
const SWITCH_NS: u64 = 200_000;

/// For each wakeup of `tid` that found another task running on its hart: how long until `tid`
/// was switched in.
fn wakeup_delays(run: &Run, tid: u32) -> Vec<u64> {
    let events = props::by_time(&run.events);
    let mut running = None;
    let mut woke = None;
    let mut delays = Vec::new();
    for e in events {
        match e.kind {
            Kind::In if e.tid == tid => {
                if let Some(at) = woke.take() {
                    delays.push(e.time_ns - at);
                }
                running = Some(tid);
            }
            Kind::In => running = Some(e.tid),
            Kind::Out => running = None,
            Kind::Wake if e.tid == tid && running.is_some() => woke = Some(e.time_ns),
            _ => {}
        }
    }
    delays
}

fn count(delays: &[u64], f: impl Fn(u64) -> bool) -> usize {
    delays.iter().filter(|&&d| f(d)).count()
}

/// A sleeper that works 0.5 ms and sleeps 5 ms beside a hog: a normal one is owed CPU when it
/// wakes and preempts the hog at once; a batch one waits for the tick (up to 1 ms), so its
/// time spent waiting is several times larger.
#[test]
fn batch_wakeups_never_preempt() {
    for sched in FAIR {
        let setup = |policy| format!("sched={sched} workload=intr wl.tasks=1 wl.hogs=1 wl.work_us=500 wl.sleep_us=5000 wl.run_ms=500 policy={policy}");
        let (normal, batch) = (kernel(&setup("normal")), kernel(&setup("batch")));
        let (n, b) = (wakeup_delays(&normal, 1), wakeup_delays(&batch, 1));
        assert!(n.len() > 50 && b.len() > 50, "{sched}: {} and {} wakeups beside the hog", n.len(), b.len());
        // EEVDF may protect the hog's slice (RUN_TO_PARITY) at a few of them.
        assert!(count(&n, |d| d > SWITCH_NS) * 10 <= n.len(), "{sched}: normal wakeups waited: {n:?}");
        // A wakeup just before a tick is switched in by that tick, not by the wakeup.
        assert!(count(&b, |d| d <= SWITCH_NS) * 4 <= b.len(), "{sched}: batch wakeups switched in at once: {b:?}");
        let waited = |run: &Run| run.result.tasks[0].wait_ns;
        assert!(waited(&batch) > 3 * waited(&normal), "{sched}: batch waited {} ns, normal {} ns", waited(&batch), waited(&normal));
    }
}

/// CPU share of task 2 in a run of two hogs with `policy=` and `nice=`.
fn share_of_second(sched: &str, policy: &str, nice: &str) -> f64 {
    let cpu = kernel(&format!("sched={sched} workload=spin wl.tasks=2 wl.run_ms=3000 policy={policy} nice={nice} trace=off")).cpu();
    cpu[1] as f64 / (cpu[0] + cpu[1]) as f64
}

/// `WEIGHT_IDLEPRIO`: beside a nice-0 hog a SCHED_IDLE hog gets about 3/1027 of the hart,
/// whatever its own nice (-20 here: a normal task at that nice would take 99 %).
#[test]
fn idle_gets_its_weight_share_beside_a_normal_hog() {
    let expected = 3.0 / 1027.0;
    for sched in FAIR {
        for nice in ["0,0", "0,-20"] {
            let share = share_of_second(sched, "normal,idle", nice);
            assert!(share > 0.5 * expected && share < 2.0 * expected, "{sched} nice={nice}: SCHED_IDLE share {share}, weight share {expected}");
        }
    }
}

/// The SCHED_IDLE hog runs while the sleeper sleeps; each time the sleeper wakes, it
/// preempts the hog at once. The sleeper is at nice 19 (weight 15), so that its vruntime alone
/// would often not let it preempt: beside a normal hog the same wakeups wait.
#[test]
fn a_normal_wakeup_preempts_an_idle_task_at_once() {
    for sched in FAIR {
        let setup = |policy| format!("sched={sched} workload=intr wl.tasks=1 wl.hogs=1 wl.work_us=500 wl.sleep_us=1000 wl.run_ms=500 nice=19,0 policy={policy}");
        let idle = kernel(&setup("normal,idle"));
        let delays = wakeup_delays(&idle, 1);
        assert!(delays.len() > 20, "{sched}: {} wakeups beside the SCHED_IDLE hog", delays.len());
        assert_eq!(count(&delays, |d| d > SWITCH_NS), 0, "{sched}: a wakeup waited beside the SCHED_IDLE hog: {delays:?}");
        props::idle_policy_preempted(&idle.events, SWITCH_NS).unwrap_or_else(|v| panic!("{sched}: {v}"));
        // Not vacuous: beside a normal hog the same wakeups wait.
        let normal = wakeup_delays(&kernel(&setup("normal,normal")), 1);
        assert!(count(&normal, |d| d > SWITCH_NS) * 2 > normal.len(), "{sched}: beside a normal hog: {normal:?}");
    }
}

/// Only the policies that follow Linux take `policy=`; a real-time task cannot have one.
#[test]
fn other_policies_refuse_batch_and_idle() {
    for sched in ["fifo", "rr", "sjf", "mlfq", "lottery", "stride", "o1", "bvt"] {
        let out = runqueue_kernel_claims::boot_error(&format!("sched={sched} workload=spin policy=normal,idle"));
        assert!(out.contains("only sched=cfs and sched=eevdf"), "{sched}: {out}");
    }
    let out = runqueue_kernel_claims::boot_error("sched=cfs workload=realtime rtprio=5 policy=batch");
    assert!(out.contains("cannot also be real-time"), "{out}");
}

/// The trace tells a reader each task's policy.
#[test]
fn new_events_carry_the_policy() {
    let run = kernel("sched=eevdf workload=spin wl.tasks=3 wl.run_ms=50 policy=normal,batch,idle");
    let policies: Vec<Option<&str>> = run.events.iter().filter(|e: &&Event| e.kind == Kind::New).map(|e| e.get("policy")).collect();
    assert_eq!(policies, [None, Some("batch"), Some("idle")]);
}
