//! Properties of issue 4's schedules, checked over traces: the class layer (real-time above
//! fair, RT throttling), BVT's switch allowance, and the soundness of every trace of the new
//! workloads (pipes block and wake; nothing is lost).

use runqueue_kernel_claims::kernel;
use runqueue_report::{Event, Kind, props};
use std::collections::BTreeMap;

/// One tick (1 ms by default) plus the few microseconds an interrupt and a switch take.
const TICK_SLACK_NS: u64 = 1_100_000;

/// Every fair policy on the new workloads: consistent traces whose CPU times add up.
#[test]
fn new_workloads_give_sound_traces_under_every_policy() {
    let mut failures = Vec::new();
    for sched in ["fifo", "rr", "cfs", "bvt", "eevdf", "sjf", "mlfq"] {
        for (workload, smp) in [
            ("hackbench", 1),
            ("hackbench", 2),
            ("cyclictest wl.loops=300", 1),
            ("cyclictest wl.loops=300 wl.isolate=1", 2),
            ("cyclictest wl.loops=300 wl.load_type=hackbench wl.load=4", 1),
            ("cyclictest wl.loops=300 wl.load_type=hackbench wl.load=4 wl.hold_us=100", 2),
        ] {
            let append = format!("sched={sched} workload={workload} smp={smp}");
            let run = kernel(&append);
            if let Err(v) = props::consistent(&run.events) {
                failures.push(format!("{append}: {v}"));
            }
            let traced = props::cpu_by_task(&run.events);
            for t in &run.result.tasks {
                if traced.get(&t.tid) != Some(&t.cpu_ns) {
                    failures.push(format!("{append}: task {} cpu_ns {} but the trace sums to {:?}", t.tid, t.cpu_ns, traced.get(&t.tid)));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// sched(7): "a SCHED_FIFO or SCHED_RR thread that becomes runnable preempts any running
/// SCHED_OTHER thread". Here: within one tick, on one hart and on two.
#[test]
fn real_time_tasks_preempt_fair_ones_within_a_tick() {
    let setups = [
        "workload=cyclictest wl.policy=fifo",
        "workload=cyclictest wl.policy=rr smp=2",
        // Mixed classes from the command line: the first two sleepers are real-time.
        "workload=intr wl.tasks=3 wl.hogs=2 wl.run_ms=500 rtprio=50,20 rtpolicy=rr rt.runtime_us=-1",
        "workload=intr wl.tasks=3 wl.hogs=2 wl.run_ms=500 rtprio=50,20 rt.runtime_us=-1 smp=2",
    ];
    for sched in ["cfs", "bvt", "eevdf"] {
        for setup in setups {
            let append = format!("sched={sched} {setup}");
            let run = kernel(&append);
            props::consistent(&run.events).unwrap_or_else(|v| panic!("{append}: {v}"));
            let rt_runs = run.events.iter().filter(|e| e.get("class").is_some_and(|c| c == "fifo" || c == "rr")).count();
            assert!(rt_runs > 0, "{append}: no real-time task was created");
            props::rt_preempts_lower(&run.events, TICK_SLACK_NS).unwrap_or_else(|v| panic!("{append}: {v}"));
        }
    }
}

/// sched-rt-group.rst: real-time tasks get at most `sched_rt_runtime_us` of each
/// `sched_rt_period_us`; the rest is left to fair tasks. A real-time hog gets its share and
/// not more, per period and per hart.
#[test]
fn throttling_caps_real_time_time_at_its_share() {
    for (runtime_us, smp) in [(500_000u64, 1), (300_000, 2)] {
        let append = format!("sched=cfs workload=spin wl.tasks=3 wl.run_ms=2000 rtprio=10,10 smp={smp} rt.runtime_us={runtime_us} rt.period_us=1000000");
        let run = kernel(&append);
        props::rt_share_capped(&run.events, runtime_us * 1000, 1_000_000_000, TICK_SLACK_NS).unwrap_or_else(|v| panic!("{append}: {v}"));
        // The cap binds (it is not met by running the real-time tasks less): over the two
        // periods they get nearly all of their allowance.
        let rt_cpu: u64 = run.result.tasks[..2].iter().map(|t| t.cpu_ns).sum();
        let allowance = 2 * runtime_us * 1000 * smp;
        assert!(rt_cpu as f64 > 0.9 * allowance as f64, "{append}: real-time tasks ran {rt_cpu} ns of {allowance} ns allowed");
    }
}

/// Duda and Cheriton: "switch from the running thread i to j only if E_j <= E_i - C/w_i".
/// The trace shows E (`evt=`) on every tick; a task more than C above a waiting one is gone
/// by the next tick.
#[test]
fn bvt_never_runs_a_task_past_the_switch_allowance() {
    for setup in [
        "workload=hackbench wl.hog=1 wl.warp_us=4000",
        "workload=hackbench wl.groups=1 wl.fds=1 wl.loops=500 wl.msg_bytes=4096 wl.pipe_bytes=4096 wl.hog=1 warp_us=1000",
        "workload=intr wl.tasks=3 wl.hogs=2 wl.run_ms=500 warp_us=2000,0,500 bvt.warp_limit_us=3000 bvt.unwarp_us=5000",
        "workload=spin wl.tasks=4 wl.run_ms=300 bvt.csa_us=3000",
    ] {
        let append = format!("sched=bvt {setup}");
        let csa = append.split_whitespace().find_map(|w| w.strip_prefix("bvt.csa_us=")).map_or(1000, |v| v.parse::<i64>().unwrap());
        let run = kernel(&append);
        props::bvt_within_csa(&run.events, csa * 1000, TICK_SLACK_NS).unwrap_or_else(|v| panic!("{append}: {v}"));
    }
}

/// What the precise timer of the deadline class allows past the exact instant: the
/// interrupt, the switch and the trace lines on the emulator (about 20 us for an idle
/// wakeup, `cyclictest wl.load=0`), plus, with two harts, waiting for the kernel lock while
/// the other hart finishes its turn in it; far below a 1 ms tick. Measured worst case: 115 us
/// on two harts, where a budget timer armed for 21.3128 ms was taken at 21.39 ms because its
/// hart spun, interrupts masked, for the lock the other hart held through its own timer
/// interrupt (the scans of every server and priority queue).
const PRECISE_SLACK_NS: u64 = 150_000;

/// Setups of `workload=deadline` whose jobs use their whole budget, so servers throttle.
const DL_SETUPS: [&str; 4] = [
    "",
    "wl.period_us=4000,6000,10000 wl.runtime_us=1000,2000,2000 wl.work_pct=100 smp=2",
    "wl.work_pct=100 rt.runtime_us=-1",
    "wl.period_us=5000 wl.runtime_us=2000 wl.work_pct=100",
];

/// Each deadline task's runtime, from its `new` event.
fn dl_budgets(events: &[Event]) -> BTreeMap<u32, u64> {
    events
        .iter()
        .filter(|e| e.get("class") == Some("dl"))
        .map(|e| (e.tid, e.num("left").expect("a deadline task's new event shows its runtime") as u64))
        .collect()
}

/// sched-deadline.rst: "each task runs for at most its runtime every period" (CBS). The
/// budget's end is a timer event, so the overrun is the interrupt path, not a tick.
#[test]
fn deadline_tasks_never_exceed_their_budget_per_period() {
    for setup in DL_SETUPS {
        let append = format!("sched=cfs workload=deadline {setup}");
        let run = kernel(&append);
        props::dl_within_budget(&run.events, &dl_budgets(&run.events), PRECISE_SLACK_NS).unwrap_or_else(|v| panic!("{append}: {v}"));
    }
}

/// sched-deadline.rst: a throttled task "can be scheduled again" at its replenishment
/// instant, its old scheduling deadline. The trace shows a throttle as a `state` with
/// `left<=0` after the task left its hart; the task must be back on a hart within the slack
/// of that `dl`, unless another deadline task held the hart (EDF may rightly prefer it).
#[test]
fn throttled_deadline_tasks_restart_at_their_replenishment() {
    // The first setup leaves 10% of each budget unused: nothing throttles there.
    for setup in &DL_SETUPS[1..] {
        let append = format!("sched=cfs workload=deadline {setup}");
        let run = kernel(&append);
        let dl_tasks = dl_budgets(&run.events);
        let events = props::by_time(&run.events);
        let mut restarts = 0;
        for (i, e) in events.iter().enumerate() {
            let throttled = e.kind == Kind::State && dl_tasks.contains_key(&e.tid) && e.num("left").is_some_and(|l| l <= 0);
            let Some(replenish) = e.num("dl").filter(|_| throttled).map(|d| d as u64) else {
                continue;
            };
            let later = &events[i + 1..];
            let Some(back) = later.iter().find(|x| x.tid == e.tid && matches!(x.kind, Kind::In | Kind::Wake)) else {
                continue;
            };
            let contended =
                later.iter().take_while(|x| x.time_ns < back.time_ns).any(|x| x.kind == Kind::In && x.tid != e.tid && dl_tasks.contains_key(&x.tid));
            if contended || back.kind == Kind::Wake {
                continue;
            }
            restarts += 1;
            let late = back.time_ns.saturating_sub(replenish);
            assert!(late <= PRECISE_SLACK_NS, "{append}: task {} throttled until {replenish} ns ran again {late} ns late", e.tid);
        }
        assert!(restarts > 0, "{append}: no throttled task restarted uncontended");
    }
}
