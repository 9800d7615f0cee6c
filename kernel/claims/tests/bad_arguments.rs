//! A bad command line is refused by the kernel itself with exit code 2 and a message that names
//! the argument and what is accepted (`docs/kernel.md`, contract 3), and `catalog` describes
//! every table. These used to run on QEMU (kernel/tests/check.sh); the kernel's words are read
//! the same on both machines, and qemu-smoke.sh still boots QEMU with a bad scheduler.

use runqueue::run::{KERNEL, execute};
use runqueue_kernel_claims::{boot_error, machine};

#[test]
fn every_bad_argument_is_named_with_what_is_accepted() {
    for (append, says) in [
        ("sched=nope", "unknown scheduler 'nope'; accepted: fifo, rr, cfs, sjf, mlfq"),
        ("workload=nope", "unknown workload 'nope'; accepted: fairness-equal, "),
        ("cfs.latency_ns=12ms", "bad value '12ms' for cfs.latency_ns: expected an integer in 100000..=1000000000 ns"),
        ("cfs.features=NO_SPEED", "from: START_DEBIT, FAIR_SLEEPERS, GENTLE_FAIR_SLEEPERS, WAKEUP_PREEMPT"),
        ("sched=mlfq mlfq.levels=3 mlfq.quantum_ms=1,2", "mlfq.quantum_ms: give one value (doubled per level) or exactly mlfq.levels values"),
        ("sjf.alpha=2/1", "bad value '2/1' for sjf.alpha"),
        ("workload=spin wl.units=3", "unknown argument 'wl.units'"),
        ("tick_us=500 tick_us=600", "argument 'tick_us' given twice"),
        ("sched=cfs verbose", "argument 'verbose' is not NAME=VALUE"),
        ("workload=deadline wl.runtime_us=3000,3850", "total bandwidth"),
        ("workload=cyclictest wl.isolate=1", "wl.isolate: keeping the load off the measuring hart needs smp=2"),
        ("workload=inversion wl.cs_us=15000", "wl.period_us: must exceed"),
        ("workload=spin affinity=2", "a task may run on no hart"),
        ("workload=spin isolcpus=1", "names a hart this run does not have"),
    ] {
        let console = boot_error(append);
        assert!(console.contains(&format!("error: {says}")) || console.contains(says), "`{append}`: expected {says:?} in:\n{console}");
    }
    let unknown = boot_error("workload=spin wl.units=3");
    assert!(unknown.contains("and spin's: wl.tasks, wl.run_ms"), "the workload's own words are listed: {unknown}");
}

#[test]
fn more_harts_than_the_machine_has_are_refused() {
    let options = machine("smp=2").with_harts(1);
    let out = execute(KERNEL, &options, 1 << 30, |_| {}).unwrap();
    assert_eq!(out.exit, Some(2), "{}", out.console);
    assert!(out.console.contains("error: smp=2 but the machine has 1 hart(s)"), "{}", out.console);
}

#[test]
fn the_catalog_describes_every_table() {
    let out = execute(KERNEL, &machine("catalog"), 1 << 30, |_| {}).unwrap();
    assert_eq!(out.exit, Some(0), "{}", out.console);
    let line = out.console.lines().find(|l| l.starts_with("CATALOG ")).expect("a CATALOG line");
    for part in [
        r#"CATALOG {"version":2,"#,
        r#""name":"mlfq.boost_ms","type":"int","default":1000,"min":0,"max":100000"#,
        r#""name":"cfs.features","type":"features","default":"START_DEBIT,FAIR_SLEEPERS,GENTLE_FAIR_SLEEPERS,WAKEUP_PREEMPT,LAST_BUDDY,BASE_SLICE""#,
        r#""workloads":[{"name":"fairness-equal""#,
    ] {
        assert!(line.contains(part), "the catalog lacks {part}");
    }
}
