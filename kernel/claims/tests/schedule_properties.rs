//! Properties every schedule must have, checked over the trace of every scheduler on every
//! workload, on one hart and on four.

use runqueue_kernel_claims::kernel;
use runqueue_report::props;

const SCHEDULERS: &[&str] = &["fifo", "rr", "cfs", "sjf", "mlfq"];
const WORKLOADS: &[&str] = &["fairness-equal", "fairness-unequal", "yield-speed", "realtime", "occupy", "spin", "intr"];
/// A hart that goes idle notices new work at its next tick at the latest (1 ms by default),
/// plus the way through the scheduler (a hart spinning for the kernel lock for milliseconds,
/// as a test-and-set lock allowed, fails this).
const SLACK_NS: u64 = 1_100_000;

fn check_all(smp: u32) {
    let mut failures = Vec::new();
    for sched in SCHEDULERS {
        for workload in WORKLOADS {
            let append = format!("sched={sched} workload={workload} smp={smp}");
            let run = kernel(&append);
            if let Err(v) = props::consistent(&run.events) {
                failures.push(format!("{append}: {v}"));
            }
            if let Err(v) = props::work_conserving(&run.events, smp, SLACK_NS) {
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
    check_all(1);
}

#[test]
fn every_policy_on_four_harts() {
    check_all(4);
}
