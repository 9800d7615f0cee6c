//! The comparison suite: every policy that names a Linux version runs the same workload, with
//! the same arguments and hart count, on the teaching kernel and on that Linux on the same
//! machine (`sched=cfs` against Linux 6.1, `sched=eevdf eevdf.version=6.12` against Linux
//! 6.12), and what a student reads off the charts must agree within a tolerance that each
//! comparison justifies.
//!
//! The two machines' code paths differ in ways no scheduler decision hides, and the tolerances
//! are sized from them:
//! - Linux's tasks are processes that enter the kernel for every sleep, wakeup, trace marker
//!   and pipe transfer (a few microseconds each on this machine); the teaching kernel's are
//!   kernel threads whose calls are function calls.
//! - Linux's CPU time is `sum_exec_runtime`, charged at every switch and tick; ours is charged
//!   the same way, but our scheduler loop's own time is charged to no task, Linux's to the
//!   task switched out.
//! - Linux starts the workload's tasks from a forking init, ours from the boot hart; both start
//!   them together, a few hundred microseconds apart at most.
//!
//! They need the kernels `make linux` builds, so they are ignored unless asked for:
//! `make test-fidelity` runs them (`--ignored`, with `RUNQUEUE_LINUX_DIR`), and with
//! `RUNQUEUE_FIDELITY_TABLE=FILE` writes the table of every figure (ours, Linux, tolerance).

use runqueue_kernel_claims::{Comparison, Run, Within, kernel, linux};

/// The teaching kernel with `ours` (its scheduler and version) and Linux `version`, each with
/// `common`.
fn pair(ours: &str, version: &str, common: &str) -> (Run, Run) {
    (kernel(&format!("{ours} {common}")), linux(&format!("linux-{version}"), common))
}

const CFS: (&str, &str) = ("sched=cfs", "6.1");
const EEVDF: (&str, &str) = ("sched=eevdf eevdf.version=6.12", "6.12");

#[test]
#[ignore = "needs `make linux`"]
fn nice_weights_on_one_hart() {
    let mut all = Vec::new();
    for (ours, version) in [CFS, EEVDF] {
        let (o, l) = pair(ours, version, "workload=spin wl.tasks=2 wl.run_ms=1000 nice=0,5");
        let mut c = Comparison::new(&format!("nice 0 vs 5, 1 hart, {ours} vs {version}"));
        c.figure("spin0 CPU share", "points", o.share("spin0"), l.share("spin0"), Within::Abs(2.0));
        c.figure("spin0 preemptions", "", o.preemptions("spin0") as f64, l.preemptions("spin0") as f64, Within::Rel(0.5));
        c.figure("spin1 preemptions", "", o.preemptions("spin1") as f64, l.preemptions("spin1") as f64, Within::Rel(0.5));
        all.push(c);
    }
    Comparison::check_all(&all);
}

#[test]
#[ignore = "needs `make linux`"]
fn half_sleeper_beside_a_hog() {
    let mut all = Vec::new();
    for (ours, version) in [CFS, EEVDF] {
        let (o, l) = pair(ours, version, "workload=intr wl.tasks=1 wl.hogs=1 wl.sleep_us=8000");
        let mut c = Comparison::new(&format!("8 ms sleeper beside a hog, 1 hart, {ours} vs {version}"));
        c.figure("sleeper's CPU share", "points", o.share("intr0"), l.share("intr0"), Within::Abs(2.0));
        c.figure("hog preemptions", "", o.preemptions("hog0") as f64, l.preemptions("hog0") as f64, Within::Rel(0.2));
        all.push(c);
    }
    Comparison::check_all(&all);
}

#[test]
#[ignore = "needs `make linux`"]
fn wakeup_preemption_of_a_short_sleeper() {
    let mut all = Vec::new();
    for (ours, version) in [CFS, EEVDF] {
        let (o, l) = pair(ours, version, "workload=cyclictest wl.policy=fair wl.load=1 wl.load_sleep_us=0 wl.loops=500");
        let mut c = Comparison::new(&format!("fair cyclictest beside a hog, 1 hart, {ours} vs {version}"));
        let (lo, ll) = (o.latency("cyclic"), l.latency("cyclic"));
        c.figure("latency median", "us", lo.median as f64 / 1e3, ll.median as f64 / 1e3, Within::Abs(30.0));
        c.figure("latency p99", "us", lo.p99 as f64 / 1e3, ll.p99 as f64 / 1e3, Within::Abs(100.0));
        c.figure("latency max", "us", lo.max as f64 / 1e3, ll.max as f64 / 1e3, Within::Abs(200.0));
        c.figure("hog preemptions", "", o.preemptions("load0") as f64, l.preemptions("load0") as f64, Within::Rel(0.1));
        all.push(c);
    }
    Comparison::check_all(&all);
}

#[test]
#[ignore = "needs `make linux`"]
fn seed_004_intr_spread_on_two_harts() {
    let mut all = Vec::new();
    for (ours, version) in [CFS, EEVDF] {
        let (o, l) = pair(ours, version, "workload=intr smp=2");
        let mut c = Comparison::new(&format!("seed 004 intr, 2 harts, {ours} vs {version}"));
        let spread = |r: &Run| runqueue_kernel_claims::spread(&r.cpu()) * 100.0;
        let loops = |r: &Run| r.iterations().iter().sum::<u64>() as f64;
        let migrations = |r: &Run| r.result.tasks.iter().map(|t| r.migrations(&t.name)).sum::<usize>() as f64;
        let switches = |r: &Run| r.result.mean(|t| t.switches);
        c.figure("CPU time spread", "points", spread(&o), spread(&l), Within::Abs(5.0));
        c.figure("loops, all tasks", "", loops(&o), loops(&l), Within::Rel(0.05));
        c.figure("switches per task", "", switches(&o), switches(&l), Within::Rel(0.25));
        c.figure("migrations, all tasks", "", migrations(&o), migrations(&l), Within::Rel(0.5));
        all.push(c);
    }
    Comparison::check_all(&all);
}

#[test]
#[ignore = "needs `make linux`"]
fn hackbench_beside_a_hog() {
    let mut all = Vec::new();
    for (ours, version) in [CFS, EEVDF] {
        let (o, l) = pair(ours, version, "workload=hackbench wl.groups=1 wl.fds=1 wl.loops=1000 wl.msg_bytes=4096 wl.pipe_bytes=4096 wl.hog=1");
        let mut c = Comparison::new(&format!("hackbench beside a hog, 1 hart, {ours} vs {version}"));
        let done = |r: &Run| r.task("recv0").finish_ns.max(r.task("send0").finish_ns) as f64 / 1e6;
        c.figure("hackbench time", "ms", done(&o), done(&l), Within::Rel(0.15));
        c.figure("hog's CPU share", "points", o.share("hog0"), l.share("hog0"), Within::Abs(5.0));
        all.push(c);
    }
    Comparison::check_all(&all);
}

#[test]
#[ignore = "needs `make linux`"]
fn cyclictest_fifo_beside_a_fair_load() {
    let mut all = Vec::new();
    for (ours, version) in [CFS, EEVDF] {
        let (o, l) = pair(ours, version, "workload=cyclictest");
        let mut c = Comparison::new(&format!("cyclictest SCHED_FIFO beside 8 fair tasks, 1 hart, {ours} vs {version}"));
        let (lo, ll) = (o.latency("cyclic"), l.latency("cyclic"));
        c.figure("latency median", "us", lo.median as f64 / 1e3, ll.median as f64 / 1e3, Within::Abs(30.0));
        c.figure("latency p99", "us", lo.p99 as f64 / 1e3, ll.p99 as f64 / 1e3, Within::Abs(50.0));
        c.figure("latency max", "us", lo.max as f64 / 1e3, ll.max as f64 / 1e3, Within::Abs(80.0));
        all.push(c);
    }
    Comparison::check_all(&all);
}

#[test]
#[ignore = "needs `make linux`"]
fn rt_hog_and_the_fair_task_it_starves() {
    let mut all = Vec::new();
    for (ours, version) in [("sched=cfs", "6.1"), ("sched=eevdf eevdf.version=6.12 rt.starvation=server", "6.12")] {
        let (o, l) = pair(ours, version, "workload=spin wl.tasks=2 rtprio=50,0 wl.run_ms=3000");
        let mut c = Comparison::new(&format!("a FIFO hog and a fair task, 1 hart, {ours} vs {version}"));
        c.figure("fair task's CPU", "ms", o.task("spin1").cpu_ns as f64 / 1e6, l.task("spin1").cpu_ns as f64 / 1e6, Within::Rel(0.1));
        c.figure("fair task's first run", "ms", o.task("spin1").response_ns as f64 / 1e6, l.task("spin1").response_ns as f64 / 1e6, Within::Abs(5.0));
        all.push(c);
    }
    Comparison::check_all(&all);
}

#[test]
#[ignore = "needs `make linux`"]
fn constrained_deadline_task() {
    let mut all = Vec::new();
    for (ours, version) in [CFS, EEVDF] {
        let args = "workload=deadline wl.period_us=10000 wl.runtime_us=2000 wl.deadline_us=2000 wl.work_pct=190 wl.sleep_us=1000 wl.run_ms=200";
        let (o, l) = pair(ours, version, args);
        let mut c = Comparison::new(&format!("constrained SCHED_DEADLINE task (2 ms per 10 ms, D 2 ms), 1 hart, {ours} vs {version}"));
        let most = |r: &Run| *r.cpu_per_period("job0", 10_000_000).iter().max().unwrap() as f64 / 1e6;
        let over = |r: &Run| r.cpu_per_period("job0", 10_000_000).iter().filter(|&&ns| ns > 2_050_000).count() as f64;
        c.figure("most CPU in a period", "ms", most(&o), most(&l), Within::Abs(0.1));
        c.figure("periods over the 2 ms reservation", "", over(&o), over(&l), Within::Abs(0.0));
        all.push(c);
    }
    Comparison::check_all(&all);
}

#[test]
#[ignore = "needs `make linux`"]
fn group_weights_and_a_cap() {
    let mut all = Vec::new();
    for (ours, version) in [CFS, EEVDF] {
        let (o, l) = pair(ours, version, "workload=spin wl.tasks=2 wl.run_ms=1000 cgroup=a,b cpu.weight=a:100,b:300");
        let mut c = Comparison::new(&format!("cpu.weight 100:300, 1 hart, {ours} vs {version}"));
        c.figure("group b's CPU share", "points", o.share("spin1"), l.share("spin1"), Within::Abs(2.0));
        all.push(c);
        let (o, l) = pair(ours, version, "workload=spin wl.tasks=1 wl.run_ms=500 cgroup=a cpu.max=a:20000/100000");
        let mut c = Comparison::new(&format!("cpu.max 20 ms per 100 ms, 1 hart, {ours} vs {version}"));
        let used = |r: &Run| r.task("spin0").cpu_ns as f64 / 1e6;
        let (ot, lt) = (o.throttling(), l.throttling());
        c.figure("CPU time in 500 ms", "ms", used(&o), used(&l), Within::Abs(5.0));
        c.figure("times throttled", "", ot.0 as f64, lt.0 as f64, Within::Abs(1.0));
        c.figure("time throttled", "ms", ot.1 as f64 / 1e6, lt.1 as f64 / 1e6, Within::Abs(20.0));
        all.push(c);
    }
    Comparison::check_all(&all);
}

#[test]
#[ignore = "needs `make linux`"]
fn four_tasks_on_three_harts() {
    let mut all = Vec::new();
    for (ours, version) in [CFS, EEVDF] {
        let (o, l) = pair(ours, version, "workload=fairness-equal wl.units=600 smp=3");
        let mut c = Comparison::new(&format!("four tasks on three harts, balancing, {ours} vs {version}"));
        let spread = |r: &Run| runqueue_kernel_claims::spread(&r.finish()) * 100.0;
        let migrations = |r: &Run| r.result.tasks.iter().map(|t| r.migrations(&t.name)).sum::<usize>() as f64;
        let last = |r: &Run| *r.finish().iter().max().unwrap() as f64 / 1e6;
        c.figure("finish time spread", "points", spread(&o), spread(&l), Within::Abs(10.0));
        c.figure("last finish", "ms", last(&o), last(&l), Within::Rel(0.05));
        c.figure("migrations", "", migrations(&o), migrations(&l), Within::Rel(0.5));
        all.push(c);
    }
    Comparison::check_all(&all);
}

#[test]
#[ignore = "needs `make linux`"]
fn a_pinned_and_an_isolated_task() {
    let mut all = Vec::new();
    for (ours, version) in [CFS, EEVDF] {
        let (o, l) = pair(ours, version, "workload=fairness-equal wl.tasks=5 smp=3 isolcpus=2 affinity=1,0,0,0,4");
        let mut c = Comparison::new(&format!("a task pinned to hart 0 and one to isolated hart 2, {ours} vs {version}"));
        for t in ["task0", "task1", "task2", "task3", "task4"] {
            c.figure(&format!("{t} finish"), "ms", o.task(t).finish_ns as f64 / 1e6, l.task(t).finish_ns as f64 / 1e6, Within::Rel(0.1));
        }
        c.figure("pinned tasks' migrations", "", (o.migrations("task0") + o.migrations("task4")) as f64, (l.migrations("task0") + l.migrations("task4")) as f64, Within::Abs(0.0));
        all.push(c);
    }
    Comparison::check_all(&all);
}
