//! Chapter 10's theory on the real kernel (issue 16): Dhall's effect and its reverse for global
//! against partitioned EDF on two harts (the deadline class keeps one queue for all harts;
//! `affinity=` partitions), and rate-monotonic response times against Joseph and Pandya's
//! response-time analysis.

use runqueue_kernel_claims::{Run, kernel};
use runqueue_report::trace::Kind;

/// Jobs done by their deadline, per task (each late job is a `miss=` mark instead).
fn met(append: &str) -> Vec<u64> {
    kernel(&format!("sched=cfs workload=deadline smp=2 trace=off wl.run_ms=1000 {append}")).iterations()
}

/// One heavy task (20 ms every 20 ms) and two light ones (1.8 ms every 9.5 ms): U = 1.38 on
/// two harts. At each release of the light jobs their deadlines come first, so global EDF runs
/// both on both harts and the heavy job, which has little slack, ends late (Dhall and Liu
/// 1978). Pinned, the heavy task alone on hart 0 and the light pair on hart 1 meet every
/// deadline. Jobs do 88 % of their C: the light jobs need that margin for the kernel's work
/// charged to them on two harts, and the heavy job then has 12 % of slack, which the light
/// jobs' interference must exceed; that is why the set is not closer to U = 1.
const DHALL: &str = "wl.period_us=20000,9500,9500 wl.runtime_us=20000,1800,1800 wl.work_pct=88";

#[test]
fn global_edf_misses_dhalls_set_that_a_partition_meets() {
    let jobs = [50, 106, 106];
    let global = met(DHALL);
    // How many of the heavy jobs land on a bad release pattern moves with the kernel's own
    // timing (about half of them in recent builds); Dhall's point is that they miss at all, and
    // often, while the partition misses none.
    assert!(global[0] * 5 < jobs[0] * 4, "global EDF: the heavy task met {} of its {} deadlines", global[0], jobs[0]);
    let pinned = met(&format!("{DHALL} affinity=1,2,2"));
    // The heavy task meets every deadline; a light job now and then overruns its reservation by
    // the kernel work charged to it (a few µs past C), so one miss each is allowed there.
    assert_eq!(pinned[0], jobs[0], "partitioned EDF: the heavy task meets every deadline (global: {global:?}, pinned: {pinned:?})");
    assert!(pinned[1..].iter().zip(&jobs[1..]).all(|(m, j)| m + 1 >= *j), "partitioned EDF: the light tasks met {pinned:?} of {jobs:?}");
}

/// Three tasks of utilisation 0.55 (2.2 of 4, 2.2 of 4, 5.5 of 10 ms): any two on one hart need
/// 1.1 of it, so no partition exists (bin packing fails), yet global EDF, which moves jobs
/// between harts, meets every deadline.
const PACKING: &str = "wl.period_us=4000,4000,10000 wl.runtime_us=2200,2200,5500";

#[test]
fn global_edf_meets_a_set_that_no_partition_fits() {
    let jobs = vec![250, 250, 100];
    assert_eq!(met(PACKING), jobs, "global EDF meets every deadline");
    for pins in ["1,1,2", "1,2,2", "1,2,1"] {
        let pinned = met(&format!("{PACKING} affinity={pins}"));
        let worst = pinned.iter().zip(&jobs).map(|(m, j)| *m as f64 / *j as f64).fold(1.0, f64::min);
        assert!(worst < 0.9, "affinity={pins}: some task misses many deadlines ({pinned:?} of {jobs:?})");
    }
}

/// Response-time analysis (Joseph and Pandya 1986): R_i = C_i + sum over higher priorities j of
/// ceil(R_i / T_j) C_j, iterated from R_i = C_i until it stops (or passes the deadline).
fn rta(tasks: &[(u64, u64)]) -> Vec<u64> {
    (0..tasks.len())
        .map(|i| {
            let (c, t) = tasks[i];
            let mut r = c;
            loop {
                let next = c + tasks[..i].iter().map(|&(cj, tj)| r.div_ceil(tj) * cj).sum::<u64>();
                if next == r || next > t {
                    return next;
                }
                r = next;
            }
        })
        .collect()
}

/// Each task's worst `resp=` mark, in tid order.
fn worst_responses(run: &Run) -> Vec<u64> {
    run.result
        .tasks
        .iter()
        .map(|t| {
            let marks = run.events.iter().filter(|e| e.kind == Kind::Mark && e.tid == t.tid);
            marks.filter_map(|e| e.get("resp")?.parse().ok()).max().expect("every task marks its response times")
        })
        .collect()
}

/// (1, 4), (2, 6), (3, 12) ms: U = 0.83, above Liu and Layland's bound for three tasks (0.780),
/// so only the exact analysis says RM meets every deadline: R = 1, 3 and 10 ms. All tasks are
/// released together (the critical instant), so the measured worst responses come close: each
/// job does 90 % of its C (`wl.work_pct`), so at least 85 % of the bound.
#[test]
fn rate_monotonic_worst_responses_stay_within_the_analysis_and_near_it() {
    let tasks = [(1_000_000, 4_000_000), (2_000_000, 6_000_000), (3_000_000, 12_000_000)];
    let bounds = rta(&tasks);
    assert_eq!(bounds, [1_000_000, 3_000_000, 10_000_000]);
    let run = kernel("sched=cfs workload=deadline wl.class=rm wl.period_us=4000,6000,12000 wl.runtime_us=1000,2000,3000");
    let measured = worst_responses(&run);
    for (i, (m, b)) in measured.iter().zip(&bounds).enumerate() {
        assert!(*m <= *b && *m * 100 >= *b * 85, "job{i}: worst response {m} ns against the analysis' {b} ns");
    }
}
