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
