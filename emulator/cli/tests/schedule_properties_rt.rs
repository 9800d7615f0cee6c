//! Properties of issue 4's schedules, checked over traces: the class layer (real-time above
//! fair, RT throttling), BVT's switch allowance, and the soundness of every trace of the new
//! workloads (pipes block and wake; nothing is lost).

mod common;
use common::kernel;
use runqueue_report::props;

/// One tick (1 ms by default) plus the few microseconds an interrupt and a switch take.
const TICK_SLACK_NS: u64 = 1_100_000;

/// Every fair policy on the new workloads: consistent traces whose CPU times add up.
#[test]
fn new_workloads_give_sound_traces_under_every_policy() {
    let mut failures = Vec::new();
    for sched in ["fifo", "rr", "cfs", "bvt", "eevdf", "sjf", "mlfq"] {
        for (workload, smp) in [("hackbench", 1), ("hackbench", 2), ("cyclictest wl.loops=300", 1), ("cyclictest wl.loops=300 wl.isolate=1", 2)] {
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
            props::rt_preempts_fair(&run.events, TICK_SLACK_NS).unwrap_or_else(|v| panic!("{append}: {v}"));
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

/// sched-deadline.rst: "each task runs for at most its runtime every period" (CBS). Checked
/// per server period, with one tick of slack: the kernel notices a spent budget at a tick.
#[test]
fn deadline_tasks_never_exceed_their_budget_per_period() {
    for setup in ["", "wl.period_us=4000,6000,10000 wl.runtime_us=1000,2000,2000 wl.work_pct=100 smp=2", "wl.work_pct=100 rt.runtime_us=-1"] {
        let append = format!("sched=cfs workload=deadline {setup}");
        let run = kernel(&append);
        let budgets = run
            .events
            .iter()
            .filter(|e| e.get("class") == Some("dl"))
            .map(|e| (e.tid, e.num("left").expect("a deadline task's new event shows its runtime") as u64))
            .collect();
        props::dl_within_budget(&run.events, &budgets, TICK_SLACK_NS).unwrap_or_else(|v| panic!("{append}: {v}"));
    }
}
