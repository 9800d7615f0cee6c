//! Properties every schedule must have, checked over the trace of every scheduler on every
//! workload: on one hart, on four sharing one run queue, and on two to four with a run queue
//! each.

use runqueue_kernel_claims::kernel;
use runqueue_report::props;

const SCHEDULERS: &[&str] = &["fifo", "rr", "cfs", "sjf", "mlfq", "bvt", "eevdf", "lottery", "stride", "o1"];
const WORKLOADS: &[&str] = &["fairness-equal", "fairness-unequal", "yield-speed", "realtime", "occupy", "spin", "intr", "arrivals"];
/// A hart that goes idle notices new work at its next tick at the latest (1 ms by default),
/// plus the way through the scheduler (a hart spinning for the kernel lock for milliseconds,
/// as a test-and-set lock allowed, fails this).
const SLACK_NS: u64 = 1_100_000;
/// With a run queue per hart, an idle hart pulls a waiting task at once unless it is
/// cache-hot; it balances at every tick, and a hot task moves once two passes have failed
/// (`cache_nice_tries`): three ticks, plus the slack. This bounds both a task waiting while a
/// hart idles and a hart idling beside a queue of two or more (`props::balanced`).
const PERHART_SLACK_NS: u64 = 3_000_000 + SLACK_NS;

fn check_all(smp: u32, rq: &str) {
    let slack = if rq == "perhart" && smp > 1 { PERHART_SLACK_NS } else { SLACK_NS };
    let mut failures = Vec::new();
    for sched in SCHEDULERS {
        for workload in WORKLOADS {
            let append = format!("sched={sched} workload={workload} smp={smp} rq={rq}");
            let run = kernel(&append);
            if let Err(v) = props::consistent(&run.events) {
                failures.push(format!("{append}: {v}"));
            }
            if let Err(v) = props::work_conserving(&run.events, smp, slack) {
                failures.push(format!("{append}: {v}"));
            }
            if rq == "perhart"
                && let Err(v) = props::balanced(&run.events, smp, slack)
            {
                failures.push(format!("{append}: {v}"));
            }
            let traced = props::cpu_by_task(&run.events);
            for t in &run.result.tasks {
                if traced.get(&t.tid) != Some(&t.cpu_ns) {
                    failures.push(format!("{append}: task {} RESULT cpu_ns {} but the trace sums to {:?}", t.tid, t.cpu_ns, traced.get(&t.tid)));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_policy_on_one_hart() {
    check_all(1, "perhart");
}

#[test]
fn every_policy_on_four_harts_sharing_a_queue() {
    check_all(4, "global");
}

#[test]
fn every_policy_on_two_harts_with_a_queue_each() {
    check_all(2, "perhart");
}

#[test]
fn every_policy_on_three_harts_with_a_queue_each() {
    check_all(3, "perhart");
}

#[test]
fn every_policy_on_four_harts_with_a_queue_each() {
    check_all(4, "perhart");
}

/// SCHED_IDLE as Linux has it (`policy=idle`, CFS and EEVDF): while a normal task is runnable
/// in its hart's queue, an idle task gets at most its weight's share (3 against the lightest
/// normal task's 1024, nice 0 here) plus one stint, and a normal task that wakes or is moved
/// there preempts it at once. A stint is CFS's `sysctl_sched_idle_min_granularity` (0.75 ms,
/// not scaled) and EEVDF's request: the base slice (0.70 ms in 6.12, 0.75 ms in 6.6) times
/// 1 + log2(harts) (`get_update_sysctl_factor`), which an idle task gets as any other does.
/// Sleepers, hogs and jobs that arrive late, on one hart and on two or four with a queue each.
#[test]
fn sched_idle_yields_to_normal_tasks() {
    const SWITCH_NS: u64 = 200_000;
    let mut failures = Vec::new();
    for sched in ["cfs", "eevdf", "eevdf eevdf.version=6.6"] {
        for workload in [
            "workload=spin wl.tasks=4 policy=idle,normal,idle,normal",
            "workload=intr wl.tasks=3 wl.hogs=2 wl.run_ms=1000 policy=normal,idle,normal,idle,idle",
            "workload=bursts wl.burst_ms=200,30,40,300 arrive_ms=0,50,120,10 policy=idle,normal,normal,idle",
        ] {
            for (harts, machine) in [(1u64, "smp=1"), (2, "smp=2 rq=perhart"), (4, "smp=4 rq=perhart")] {
                let request = match sched {
                    "cfs" => 750_000,
                    "eevdf" => 700_000 * (1 + harts.ilog2() as u64),
                    _ => 750_000 * (1 + harts.ilog2() as u64),
                };
                let append = format!("sched={sched} {workload} {machine}");
                let run = kernel(&append);
                let checks = [props::idle_policy_preempted(&run.events, SWITCH_NS), props::idle_policy_share(&run.events, (3, 1027), request + SLACK_NS)];
                failures.extend(checks.into_iter().filter_map(Result::err).map(|v| format!("{append}: {v}")));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
