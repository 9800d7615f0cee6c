//! The workload starts at a fixed time (`dispatch::START_AT_NS`), whatever the boot before it
//! took: a run is the same to the byte however its command line is spelled, so a change to
//! the boot's code (the parser, a policy's constructor, a workload's planning) changes no
//! trace and no figure.

use runqueue_kernel_claims::kernel;

/// The same run with its defaults spelled out (more words to read, and a longer boot).
#[test]
fn how_long_the_boot_took_does_not_show_in_the_run() {
    for (short, long) in [
        ("sched=fifo workload=fairness-equal", "sched=fifo workload=fairness-equal seed=0 tick_us=1000 rr.slice_ms=5 cfs.latency_ns=6000000 nice=0 lock.pi=1"),
        ("sched=cfs workload=spin smp=2", "workload=spin smp=2 sched=cfs rq=perhart balance_ms=32 cfs.features=START_DEBIT wl.tasks=10"),
        ("sched=mlfq workload=intr wl.tasks=3", "sched=mlfq workload=intr wl.tasks=3 mlfq.levels=8 mlfq.boost_ms=1000 sjf.alpha=1/16 trace=on"),
    ] {
        let (a, b) = (kernel(short), kernel(long));
        assert_eq!(a.events, b.events, "`{short}` and `{long}`: the traces differ");
        let mut b_result = b.result.clone();
        b_result.args = a.result.args.clone();
        assert_eq!(a.result, b_result, "`{short}` and `{long}`: the results differ beyond their command lines");
        let first = a.events.first().map(|e| e.time_ns).unwrap_or(0);
        assert!((5_000_000..5_100_000).contains(&first), "`{short}`: the first event at {first} ns, not just after the start at 5 ms");
    }
}

/// The kernel names no folder of this checkout (emulator/cli/build.rs remaps them): its layout,
/// and so the data cache's figures, are the same wherever the repository was cloned.
#[test]
fn the_kernel_does_not_depend_on_where_the_repository_is() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap();
    let root = root.to_str().unwrap().as_bytes();
    let kernel = runqueue::run::KERNEL;
    assert!(!kernel.windows(root.len()).any(|w| w == root), "the kernel ELF holds the path {}", String::from_utf8_lossy(root));
}
