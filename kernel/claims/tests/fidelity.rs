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
//! A figure out of its tolerance is either fixed in the teaching kernel or marked a known
//! divergence (`Comparison::known`, with what differs; the book's appendix on Linux says it
//! too): a marked figure that agrees again fails the suite, so the mark cannot outlive the
//! difference.
//!
//! They need the kernels `make linux` builds, so they are ignored unless asked for:
//! `make test-fidelity` runs them (`--ignored`, with `RUNQUEUE_LINUX_DIR`), and with
//! `RUNQUEUE_FIDELITY_TABLE=FILE` writes the table of every figure (ours, Linux, tolerance).

use runqueue_kernel_claims::{Comparison, Run, Spread, Within, kernel, linux};
use runqueue_report::trace::Kind;

/// The teaching kernel with `ours` (its scheduler and version) and Linux `version`, each with
/// `common`, and Linux with `linux_only` too.
fn pair(ours: &str, version: &str, common: &str, linux_only: &str) -> (Run, Run) {
    (kernel(&format!("{ours} {common}")), linux(&format!("linux-{version}"), format!("{common} {linux_only}").trim()))
}

/// Runs `common` on each pair (the teaching kernel's scheduler, the Linux version), and checks
/// the figures `figures` reads off the two runs, as the case `case` of the table.
fn compare(pairs: [(&str, &str); 2], common: &str, case: &str, figures: impl Fn(&mut Comparison, &str, &Run, &Run)) {
    compare_with(pairs, common, ["", ""], case, figures);
}

/// [`compare`], with words for each pair's Linux alone (a debugfs feature ours has no name for).
fn compare_with(pairs: [(&str, &str); 2], common: &str, linux_only: [&str; 2], case: &str, figures: impl Fn(&mut Comparison, &str, &Run, &Run)) {
    let all: Vec<Comparison> = pairs
        .iter()
        .zip(linux_only)
        .map(|(&(ours, version), extra)| {
            let (o, l) = pair(ours, version, common, extra);
            let mut c = Comparison::new(&format!("{case}, {ours} vs {version}{}{extra}", if extra.is_empty() { "" } else { " " }));
            figures(&mut c, version, &o, &l);
            c
        })
        .collect();
    Comparison::check_all(&all);
}

/// The seeds Linux runs the balancing cases with. Where its balancer first acts depends on the
/// boot's length, which each seed moves (and so does any change to the boot), and one run of
/// four tasks on three harts ends anywhere from 2,550 to 2,780 ms, and 6.12's CPU time spread in
/// seed 004's `intr` from 2 to 16 points: these cases compare with the median of nine runs (of
/// five, that spread's median still moved by 5 points with the boot's length). Seed 0 is the
/// word left out, as every other case runs.
const SEEDS: [u64; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 8];

/// [`compare`], with Linux run once per seed of [`SEEDS`].
fn compare_over_seeds(pairs: [(&str, &str); 2], common: &str, case: &str, figures: impl Fn(&mut Comparison, &str, &Run, &[Run])) {
    let all: Vec<Comparison> = pairs
        .iter()
        .map(|&(ours, version)| {
            let o = kernel(&format!("{ours} {common}"));
            let ls: Vec<Run> = SEEDS.iter().map(|&seed| linux(&format!("linux-{version}"), &seeded(common, seed))).collect();
            let mut c = Comparison::new(&format!("{case}, {ours} vs {version}"));
            figures(&mut c, version, &o, &ls);
            c
        })
        .collect();
    Comparison::check_all(&all);
}

/// `common` with the word for `seed` (none for seed 0, the default).
fn seeded(common: &str, seed: u64) -> String {
    if seed == 0 { common.to_string() } else { format!("{common} seed={seed}") }
}

/// `figure` of each of `runs`.
fn each(runs: &[Run], figure: impl Fn(&Run) -> f64) -> Vec<f64> {
    runs.iter().map(figure).collect()
}

const CFS: (&str, &str) = ("sched=cfs", "6.1");

/// The teaching kernel's timer interrupt: when a timer expires with the tick, the tick's
/// preemption switches to the next fair task before the timer's task is woken (seen in the
/// trace: the wakeup comes 78 us after the expiry, behind the tick's switch); Linux's hrtimer
/// interrupt runs both expiries and then schedules once.
const TICK_FIRST: &str = "ours switches at the tick before waking a timer that expired with it";
const EEVDF: (&str, &str) = ("sched=eevdf eevdf.version=6.12", "6.12");
/// Linux's default (HRTICK_DL off) notices a used-up deadline budget at the next tick; ours
/// stops the task on time, as Linux does with HRTICK_DL on (`constrained_deadline_task`).
const TICK_BUDGET: &str = "Linux enforces the budget at its tick (HRTICK_DL off), ours on time";
/// Seen in Linux's trace, with every seed: fork balancing put the three free tasks on hart 1,
/// idle at each fork (the children made before sleep until the start), so task0 had hart 0
/// alone until the first pull, about 150 ms in on 6.1 (24 ms with one seed of five, and task0
/// then agrees) and 100 to 240 ms on 6.12; ours places each new task on the hart with fewest.
const FORK_PLACEMENT: &str = "Linux forks the free tasks onto the idle hart, and task0 runs alone until the first pull";

/// Moves to another hart's run queue, all tasks.
fn migrations(r: &Run) -> f64 {
    r.result.tasks.iter().map(|t| r.migrations(&t.name)).sum::<usize>() as f64
}

/// The latency figures of `name`: its floor (the fastest wakeup, the kernel's own path from a
/// timer's expiry to the woken task running) and how far above it the median, 99th percentile
/// and maximum lie, which is what the scheduler decides. The floors differ by the two kernels'
/// code (a path of a few hundred instructions against Linux's thousands through the hrtimer
/// and the syscall return), so they are compared apart from what lies above them.
/// `known` marks the figures above the floor (median, p99, max) that diverge, with why.
fn latency_above_floor(c: &mut Comparison, o: &Run, l: &Run, name: &str, within: [f64; 3], known: [Option<&str>; 3]) {
    let (lo, ll) = (o.latency(name), l.latency(name));
    let us = |ns: u64| ns as f64 / 1e3;
    c.figure("latency floor (min)", "us", us(lo.min), us(ll.min), Within::Abs(10.0))
        .known("ours takes longer from a timer's expiry to the woken task");
    let above = |s: Spread| [s.median, s.p99, s.max].map(|ns| us(ns.saturating_sub(s.min)));
    let (ao, al) = (above(lo), above(ll));
    for (i, what) in ["median", "p99", "max"].iter().enumerate() {
        c.figure(&format!("latency {what} above the floor"), "us", ao[i], al[i], Within::Abs(within[i])).known_if(known[i].is_some(), known[i].unwrap_or(""));
    }
}

/// Two spinning tasks of nice 0 and 5 on one hart: shares follow the weights (1024 against
/// 335, 75.3 %). 2 points: both kernels charge a task to the nanosecond at every switch and
/// tick, and the last few milliseconds, when one task has finished its run and the other
/// spins alone, tip the share by at most 1 point each way. Preemptions within half: each is
/// a tick that found the slice used up, and the two kernels' ticks drift apart by the
/// workload's start (up to a tick), which shifts every slice boundary.
#[test]
#[ignore = "needs `make linux`"]
fn nice_weights_on_one_hart() {
    compare([CFS, EEVDF], "workload=spin wl.tasks=2 wl.run_ms=1000 nice=0,5", "nice 0 vs 5, 1 hart", |c, _, o, l| {
        c.figure("spin0 CPU share", "points", o.share("spin0"), l.share("spin0"), Within::Abs(2.0));
        c.figure("spin0 preemptions", "", o.preemptions("spin0") as f64, l.preemptions("spin0") as f64, Within::Rel(0.5));
        c.figure("spin1 preemptions", "", o.preemptions("spin1") as f64, l.preemptions("spin1") as f64, Within::Rel(0.5));
    });
}

/// A task sleeping 8 ms between bursts beside a hog (chapter 7's half-sleeper): its share is
/// what sleeper placement gives it. 2 points as above; the hog's preemptions within a fifth:
/// each is a wakeup of the sleeper, whose count the sleeps fix, or a tick at the end of a
/// slice.
#[test]
#[ignore = "needs `make linux`"]
fn half_sleeper_beside_a_hog() {
    compare([CFS, EEVDF], "workload=intr wl.tasks=1 wl.hogs=1 wl.sleep_us=8000", "8 ms sleeper beside a hog, 1 hart", |c, _, o, l| {
        c.figure("sleeper's CPU share", "points", o.share("intr0"), l.share("intr0"), Within::Abs(2.0));
        c.figure("hog preemptions", "", o.preemptions("hog0") as f64, l.preemptions("hog0") as f64, Within::Rel(0.2));
    });
}

/// A fair cyclictest thread (1 ms period) beside a fair hog: whether its wakeup preempts the
/// hog at once (CFS's wakeup granularity, EEVDF's eligibility and deadline) sets its latency
/// above the floor. 30 us at the median: two switches' difference between the kernels'
/// paths; the tail gets more (100 and 200 us), as a wakeup that does not preempt waits for
/// the tick, whose phase against the timer differs by the workload's start. Preemptions of
/// the hog: one per wakeup that preempts, within a tenth.
#[test]
#[ignore = "needs `make linux`"]
fn wakeup_preemption_of_a_short_sleeper() {
    compare([CFS, EEVDF], FAIR_CYCLICTEST, "fair cyclictest beside a hog, 1 hart", |c, version, o, l| {
        let tail = (version == "6.12").then_some(LAG_BALANCE);
        latency_above_floor(c, o, l, "cyclic", [30.0, 100.0, 200.0], [None, tail, tail]);
        c.figure("hog preemptions", "", o.preemptions("load0") as f64, l.preemptions("load0") as f64, Within::Rel(0.1));
    });
}

const FAIR_CYCLICTEST: &str = "workload=cyclictest wl.policy=fair wl.load=1 wl.load_sleep_us=0 wl.loops=500";

/// Seen in the two traces (`eevdf_lag_balance_of_a_fair_cyclictest`): EEVDF keeps a sleeper's
/// lag, and each period moves the cyclictest thread's lag by half of (its wait for the CPU
/// after its wakeup, less its run). Ours waits longer than it runs (its wakeup path is the
/// floor's), so its lag climbs to the clamp and every wakeup preempts the hog; Linux runs
/// longer than it waits (each period is syscalls), so its lag falls until a wakeup finds the
/// hog's deadline the earlier one, and that wakeup waits for the tick, every few periods.
const LAG_BALANCE: &str = "ours waits longer than it runs after each wakeup, so its lag climbs and it always preempts";

/// Each time `name` woke and then ran: how long it waited for the CPU and how long it ran, ns.
fn waits_and_runs(r: &Run, name: &str) -> Vec<(u64, u64)> {
    let tid = r.task(name).tid;
    let (mut woke, mut ran_from, mut out) = (None, None, Vec::new());
    for e in r.events.iter().filter(|e| e.tid == tid) {
        match e.kind {
            Kind::Wake => woke = Some(e.time_ns),
            Kind::In => ran_from = woke.take().map(|w| (w, e.time_ns)),
            Kind::Out => out.extend(ran_from.take().map(|(w, i)| (i - w, e.time_ns - i))),
            _ => {}
        }
    }
    out
}

/// The mechanism behind `LAG_BALANCE`, pinned on both kernels, so the mark on 6.12's tail
/// goes if either side changes: ours waits longer than it runs, its lag at the last wakeup is
/// EEVDF's clamp (two base slices of 0.70 ms; Linux's `update_entity_lag` clamps the same) and
/// no wakeup waits for a tick; Linux's thread, at the wakeups that preempt, runs longer than it
/// waited, and the wakeups that wait past a third of a period are a minority at one steady
/// spacing of several periods: four gaps in five within a period of the commonest (on 6.12,
/// all 61 gaps are of 8 periods; with a boot of another length, 45 of 52 were within one of 8).
#[test]
#[ignore = "needs `make linux`"]
fn eevdf_lag_balance_of_a_fair_cyclictest() {
    let (o, l) = pair(EEVDF.0, EEVDF.1, FAIR_CYCLICTEST, "");
    let mean = |v: &[u64]| v.iter().sum::<u64>() as f64 / v.len().max(1) as f64;
    let split = |w: &[(u64, u64)]| (w.iter().map(|x| x.0).collect::<Vec<_>>(), w.iter().map(|x| x.1).collect::<Vec<_>>());

    let (waits, runs) = split(&waits_and_runs(&o, "cyclic"));
    assert!(mean(&waits) > mean(&runs), "ours: waits {:.0} ns, runs {:.0} ns a period", mean(&waits), mean(&runs));
    assert!(waits.iter().all(|&w| w < 300_000), "ours: a wakeup waited for a tick: {:?}", waits.iter().max());
    let tid = o.task("cyclic").tid;
    let last_lag = o.events.iter().rev().find(|e| e.kind == Kind::Wake && e.tid == tid).and_then(|e| e.num("lag"));
    assert_eq!(last_lag, Some(2 * 700_000), "ours: the lag at the last wakeup is the clamp");

    let both = waits_and_runs(&l, "cyclic");
    let preempting: Vec<(u64, u64)> = both.iter().copied().filter(|w| w.0 < 300_000).collect();
    let (waits, runs) = split(&preempting);
    assert!(mean(&runs) > mean(&waits), "Linux: waits {:.0} ns, runs {:.0} ns a period", mean(&waits), mean(&runs));
    let late: Vec<usize> = both.iter().enumerate().filter(|(_, w)| w.0 >= 300_000).map(|(i, _)| i).collect();
    let gaps: Vec<usize> = late.windows(2).map(|p| p[1] - p[0]).collect();
    let mode = (1..=20).max_by_key(|g| gaps.iter().filter(|&&x| x == *g).count()).unwrap();
    let steady = gaps.iter().filter(|&&g| g.abs_diff(mode) <= 1).count();
    assert!(late.len() >= 20 && late.len() * 3 < both.len() && mode >= 3 && steady * 5 >= gaps.len() * 4, "Linux: late wakeups {late:?}");
}

/// Seed 004's `intr` (ten tasks computing 8 ms and sleeping 1 ms) on 2 harts: how evenly the
/// CPU time spreads (5 points: the run ends when the first task finishes its loops, so a task
/// a burst behind is 1/60 of its time behind), the loops done (the harts' time, less the
/// kernels' own: 5 %), switches per task (a quarter: a switch is a sleep or a slice's end),
/// migrations (half: each is a placement or a balance, counted per event).
#[test]
#[ignore = "needs `make linux`"]
fn seed_004_intr_spread_on_two_harts() {
    compare_over_seeds([CFS, EEVDF], "workload=intr smp=2", "seed 004 intr, 2 harts", |c, version, o, l| {
        let spread = |r: &Run| runqueue_kernel_claims::spread(&r.cpu()) * 100.0;
        let loops = |r: &Run| r.iterations().iter().sum::<u64>() as f64;
        let switches = |r: &Run| r.result.mean(|t| t.switches);
        c.figure_over("CPU time spread", "points", spread(o), &each(l, spread), Within::Abs(5.0));
        c.figure_over("loops, all tasks", "", loops(o), &each(l, loops), Within::Rel(0.05)).known_if(version == "6.12", EEVDF_OWN_TIME);
        c.figure_over("switches per task", "", switches(o), &each(l, switches), Within::Rel(0.25));
        c.figure_over("migrations, all tasks", "", migrations(o), &each(l, migrations), Within::Rel(0.5));
    });
}

/// Under EEVDF the two kernels switch about as often, but ours spends more of the harts' time
/// on itself: over 40 us a switch charged to no task (Linux's, under 10 us) and more of each
/// 8 ms loop charged to the tasks (its ticks and switches), some 27 loops.
const EEVDF_OWN_TIME: &str = "our EEVDF's own time at switches and ticks leaves the tasks fewer loops";

/// Where each task first ran after the workload's start.
fn first_harts(r: &Run) -> Vec<u32> {
    let start = r.start_ns();
    r.result.tasks.iter().map(|t| r.events.iter().find(|e| e.kind == Kind::In && e.tid == t.tid && e.time_ns >= start).map_or(u32::MAX, |e| e.hart)).collect()
}

/// Pinned on both kernels: `FORK_PLACEMENT` in seed 004's `intr` on 6.1, with every seed of
/// [`SEEDS`]: the init forks six to eight of the ten tasks onto one hart, and the other hart
/// runs the rest nearly alone until the balancer evens the harts, so those few end with more
/// CPU (Linux's spread is within the tolerance of ours); ours places the ten five and five from
/// the start. And the mechanism behind `EEVDF_OWN_TIME`.
#[test]
#[ignore = "needs `make linux`"]
fn seed_004_on_both_kernels() {
    let o = kernel(&format!("{} workload=intr smp=2", CFS.0));
    let on = |harts: &[u32], h: u32| harts.iter().filter(|&&x| x == h).count();
    let ours = first_harts(&o);
    assert_eq!((on(&ours, 0), on(&ours, 1)), (5, 5), "ours places five and five");
    for seed in SEEDS {
        let l = linux(&format!("linux-{}", CFS.1), &seeded("workload=intr smp=2", seed));
        let linux = first_harts(&l);
        let crowded = if on(&linux, 0) > on(&linux, 1) { 0 } else { 1 };
        assert!(on(&linux, crowded) >= 6, "Linux, seed {seed}: first runs by hart {linux:?}");
        let mean_cpu = |pulled: bool| {
            let cpu: Vec<u64> = (0..linux.len()).filter(|&i| (linux[i] != crowded) == pulled).map(|i| l.result.tasks[i].cpu_ns).collect();
            cpu.iter().sum::<u64>() as f64 / cpu.len() as f64
        };
        assert!(mean_cpu(true) > mean_cpu(false) * 1.01, "Linux, seed {seed}: the pulled tasks' CPU {:.0} ns against the others' {:.0}", mean_cpu(true), mean_cpu(false));
    }

    let (o, l) = pair(EEVDF.0, EEVDF.1, "workload=intr smp=2", "");
    let switches = |r: &Run| r.result.tasks.iter().map(|t| t.switches).sum::<u64>() as f64;
    let cpu = |r: &Run| r.result.tasks.iter().map(|t| t.cpu_ns).sum::<u64>() as f64;
    let uncharged_per_switch = |r: &Run| (2.0 * r.result.time_ns as f64 - cpu(r)) / switches(r);
    let per_loop = |r: &Run| cpu(r) / r.iterations().iter().sum::<u64>() as f64;
    assert!((switches(&o) / switches(&l) - 1.0).abs() < 0.05, "the kernels switch as often: {} and {}", switches(&o), switches(&l));
    assert!(uncharged_per_switch(&o) > 40_000.0 && uncharged_per_switch(&l) < 10_000.0, "ns a switch charged to no task: ours {:.0}, Linux {:.0}", uncharged_per_switch(&o), uncharged_per_switch(&l));
    assert!(per_loop(&o) > per_loop(&l) + 100_000.0, "CPU a loop: ours {:.0}, Linux {:.0}", per_loop(&o), per_loop(&l));
}

/// Hackbench (one sender, one receiver, 1000 messages of 4 KiB through a 4 KiB pipe) beside a
/// hog: its time within 15 % (each message is two pipe calls, which cost Linux a syscall and
/// a copy and cost ours a function call, about a tenth of hackbench's time) and the hog's
/// share within 5 points.
#[test]
#[ignore = "needs `make linux`"]
fn hackbench_beside_a_hog() {
    let args = "workload=hackbench wl.groups=1 wl.fds=1 wl.loops=1000 wl.msg_bytes=4096 wl.pipe_bytes=4096 wl.hog=1";
    compare([CFS, EEVDF], args, "hackbench beside a hog, 1 hart", |c, version, o, l| {
        let done = |r: &Run| r.task("recv0").finish_ns.max(r.task("send0").finish_ns) as f64 / 1e6;
        let why = if version == "6.1" { RECEIVER_AHEAD } else { UNCHARGED_SWITCHES };
        c.figure("hackbench time", "ms", done(o), done(l), Within::Rel(0.15)).known(why);
        c.figure("hog's CPU share", "points", o.share("hog0"), l.share("hog0"), Within::Abs(5.0)).known_if(version == "6.1", RECEIVER_AHEAD);
    });
}

const HACKBENCH_AND_HOG: &str = "workload=hackbench wl.groups=1 wl.fds=1 wl.loops=1000 wl.msg_bytes=4096 wl.pipe_bytes=4096 wl.hog=1";

/// Seen in the traces (`hackbench_pair_on_both_kernels`): under CFS our receiver wakes a whole
/// sleeper credit (3 ms) behind the sender, so each of its wakeups preempts the sender, which
/// then never sleeps; a message costs the pair a switch less and 150 us against Linux's 262,
/// and the hog's share grows with what the pair saves. Linux's pair stays level (its receiver's
/// and sender's CPU differ by 0.1 us a message) and both sleep every message. Ours gets there
/// at the start (START_DEBIT places the hog before the sender, and the receiver sleeps through
/// the hog's first 4 ms turn; Linux's tasks, forked ahead, wake level at the start), and would
/// anyway: its receiver's turn is 5 us shorter than the sender's, a drift that crosses the 1 ms
/// wakeup granularity within the run (with NO_START_DEBIT, 873 of the 1000 wakeups preempt).
const RECEIVER_AHEAD: &str = "ours's receiver runs ahead of the sender and preempts it at every message; Linux's pair stays level and both sleep";
/// Under EEVDF neither receiver runs ahead (the senders sleep at 85 % and 60 % of their turns'
/// ends, ours and Linux's), but our scheduler's own time at
/// each switch, about 30 us, is charged to no task (the file's header), 75 ms over the run's
/// 2,300 switches; Linux charges its own to the tasks, and its run's time is its tasks' CPU.
const UNCHARGED_SWITCHES: &str = "ours charges its scheduler's time at each switch (about 30 us) to no task; Linux charges it to the tasks";

/// The mechanisms behind `RECEIVER_AHEAD` and `UNCHARGED_SWITCHES`, pinned on both kernels so
/// each mark goes if its cause does.
#[test]
#[ignore = "needs `make linux`"]
fn hackbench_pair_on_both_kernels() {
    let share = |part: usize, of: usize| part as f64 / of.max(1) as f64;
    let cpu = |r: &Run, name: &str| r.task(name).cpu_ns as f64;
    let (o, l) = pair(CFS.0, CFS.1, HACKBENCH_AND_HOG, "");
    let wakes = o.task("recv0").switches as usize;
    assert!(share(o.preemptions("send0"), wakes) > 0.9, "ours: the sender preempted {} times in {wakes}", o.preemptions("send0"));
    assert!(cpu(&o, "recv0") < 0.95 * cpu(&o, "send0"), "ours: the receiver's turns are the shorter");
    let sleeps = l.task("send0").switches as usize - l.preemptions("send0");
    assert!(share(sleeps, l.task("send0").switches as usize) > 0.95, "Linux 6.1: the sender slept {sleeps} times");
    assert!((cpu(&l, "recv0") / cpu(&l, "send0") - 1.0).abs() < 0.01, "Linux 6.1: the pair's CPU is level");

    let (o, l) = pair(EEVDF.0, EEVDF.1, HACKBENCH_AND_HOG, "");
    let uncharged = |r: &Run| r.result.time_ns as f64 - r.result.tasks.iter().map(|t| t.cpu_ns as f64).sum::<f64>();
    let switches = o.result.tasks.iter().map(|t| t.switches).sum::<u64>() as f64;
    let slower = o.result.time_ns as f64 - l.result.time_ns as f64;
    assert!(uncharged(&o) / switches > 20_000.0 && uncharged(&o) > 0.5 * slower, "ours: {:.0} ns uncharged over {switches} switches, {slower:.0} ns slower", uncharged(&o));
    assert!(uncharged(&l) < 0.01 * l.result.time_ns as f64, "Linux 6.12: {:.0} ns uncharged", uncharged(&l));
    let sleeping = |r: &Run| share(r.task("send0").switches as usize - r.preemptions("send0"), r.task("send0").switches as usize);
    assert!(sleeping(&o) > 0.5 && sleeping(&l) > 0.5, "neither receiver runs ahead: the senders sleep at {:.2} and {:.2} of their turns' ends", sleeping(&o), sleeping(&l));
}

/// Cyclictest at SCHED_FIFO beside eight fair tasks (seed 003's run on one hart): a FIFO
/// wakeup preempts any fair task at once, so above the floor lie only the kernels' own
/// paths: 30 us at the median, 50 at the 99th percentile, 80 at the maximum (a wakeup that
/// meets the tick pays for it). Under our EEVDF most wakeups pay the tick's switch first
/// (`TICK_FIRST`): 721 of the 1000 latencies lie between 260 and 270 us, and the worst,
/// 304 us, is their tail. Where Linux's timer falls against its tick moves with the boot's
/// length: on 6.12 the two expire together now and one interrupt runs both (1.3 us above the
/// floor at the median, 56 at the 99th percentile); with a boot of another length the timer
/// expired 2 us after the tick, and its wakeups paid for the tick too (24 us at the median).
#[test]
#[ignore = "needs `make linux`"]
fn cyclictest_fifo_beside_a_fair_load() {
    compare([CFS, EEVDF], "workload=cyclictest", "cyclictest SCHED_FIFO beside 8 fair tasks, 1 hart", |c, version, o, l| {
        let eevdf = (version == "6.12").then_some(TICK_FIRST);
        latency_above_floor(c, o, l, "cyclic", [30.0, 50.0, 80.0], [Some(TICK_FIRST), eevdf, eevdf]);
    });
}

/// A SCHED_FIFO hog beside a fair task for 3 s: RT throttling (6.1: 950 ms of each second) or
/// the fair server (6.12: 50 ms of each second, deferred to its zero-laxity point) decides
/// the fair task's CPU (within a tenth: each period gives it 50 ms less what the kernels'
/// own paths take) and its first run (5 ms).
#[test]
#[ignore = "needs `make linux`"]
fn rt_hog_and_the_fair_task_it_starves() {
    let pairs = [("sched=cfs", "6.1"), ("sched=eevdf eevdf.version=6.12 rt.starvation=server", "6.12")];
    compare(pairs, "workload=spin wl.tasks=2 rtprio=50,0 wl.run_ms=3000", "a FIFO hog and a fair task, 1 hart", |c, _, o, l| {
        c.figure("fair task's CPU", "ms", o.task("spin1").cpu_ns as f64 / 1e6, l.task("spin1").cpu_ns as f64 / 1e6, Within::Rel(0.1));
        c.figure("fair task's first run", "ms", o.task("spin1").response_ns as f64 / 1e6, l.task("spin1").response_ns as f64 / 1e6, Within::Abs(5.0))
            .known("Linux's period began in the init's set-up, before the start");
    });
}

/// A constrained SCHED_DEADLINE task (2 ms every 10 ms, deadline 2 ms) whose jobs want 3.8 ms
/// with a 1 ms sleep half way: `dl_check_constrained_dl` throttles it when it wakes past its
/// deadline, so no period gives it more than its reservation and one tick (Linux, with
/// HRTICK_DL off by default, notices a used-up budget at the next 1 ms tick and takes the
/// overrun from the next period; ours stops it on time, as HRTICK_DL would). Before the fix
/// ours gave up to 4 ms in a period. The mean per period within 0.1 ms.
///
/// The mean differs under Linux's default, and the trace shows why: a budget overrun to the
/// tick moves each job's halfway sleep, so on Linux the job has used its budget up when it
/// sleeps and wakes past its deadline (throttled, the rest of its work in the next period),
/// where on ours it sleeps with budget left and wakes before its deadline, when the revised
/// wakeup rule (`dl_revised_wakeup`) leaves it only what its density allows until the deadline
/// (periods of 1.03 and 1.36 ms). With HRTICK_DL on, Linux stops the task on time as ours does,
/// and every figure agrees: the same periods, in the same pattern.
#[test]
#[ignore = "needs `make linux`"]
fn constrained_deadline_task() {
    let args = "workload=deadline wl.period_us=10000 wl.runtime_us=2000 wl.deadline_us=2000 wl.work_pct=190 wl.sleep_us=1000 wl.run_ms=200";
    let per = |r: &Run| r.cpu_per_period("job0", 10_000_000);
    let most = |r: &Run| *per(r).iter().max().unwrap() as f64 / 1e6;
    let mean = |r: &Run| per(r).iter().sum::<u64>() as f64 / per(r).len() as f64 / 1e6;
    let over = |r: &Run, limit: u64| per(r).iter().filter(|&&ns| ns > limit).count() as f64;
    let case = "constrained SCHED_DEADLINE task (2 ms per 10 ms, D 2 ms), 1 hart";
    compare([CFS, EEVDF], args, case, |c, _, o, l| {
        c.figure("periods over the reservation and a tick (3.05 ms)", "", over(o, 3_050_000), over(l, 3_050_000), Within::Abs(0.0));
        c.figure("mean CPU per period", "ms", mean(o), mean(l), Within::Abs(0.1)).known(TICK_BUDGET);
        c.figure("most CPU in a period", "ms", most(o), most(l), Within::Abs(0.1)).known(TICK_BUDGET);
    });
    compare_with([CFS, EEVDF], args, ["cfs.features=HRTICK_DL", "eevdf.features=HRTICK_DL"], case, |c, _, o, l| {
        c.figure("mean CPU per period", "ms", mean(o), mean(l), Within::Abs(0.1));
        c.figure("most CPU in a period", "ms", most(o), most(l), Within::Abs(0.1));
    });
}

/// Group scheduling: two groups of weights 100 and 300, one spinning task each, share 1:3
/// (2 points, as for nice). A group capped by `cpu.max` at 20 ms per 100 ms: its CPU time in
/// 500 ms within one quota and a tick (21 ms): Linux's period timer runs from before the
/// workload starts (its first refill came 8.5 ms after the first throttle, 30 ms into the run),
/// ours from the start, so a 500 ms run spans six quotas on Linux and five on ours; times
/// throttled within one (the same phase) and the time spent throttled within 20 ms.
#[test]
#[ignore = "needs `make linux`"]
fn group_weights_and_a_cap() {
    compare([CFS, EEVDF], "workload=spin wl.tasks=2 wl.run_ms=1000 cgroup=a,b cpu.weight=a:100,b:300", "cpu.weight 100:300, 1 hart", |c, _, o, l| {
        c.figure("group b's CPU share", "points", o.share("spin1"), l.share("spin1"), Within::Abs(2.0));
    });
    // Chapter 6a's groups, three loops in a and one in b: the shares as above; the switches of
    // a loop in a within a fifth (each is a tick that ended its turn). CFS 5.13-6.5 gives a
    // group's task its share of the period at every level up to the root (`sched_slice` walks
    // `for_each_sched_entity`), a quarter of 2 ms here, so each turn ends at the next tick; ours
    // gives it its part of the group's own slice, 2 ms, and it switches half as often (the book
    // says so beside the experiment). EEVDF's slice is the entity's own request on both.
    compare([CFS, EEVDF], "workload=spin wl.tasks=4 wl.run_ms=2000 cgroup=a,a,a,b cpu.weight=a:100,b:300", "three in a, one in b, cpu.weight 100:300, 1 hart", |c, version, o, l| {
        c.figure("group b's CPU share", "points", o.share("spin3"), l.share("spin3"), Within::Abs(2.0));
        c.figure("spin0's switches", "", o.task("spin0").switches as f64, l.task("spin0").switches as f64, Within::Rel(0.2))
            .known_if(version == "6.1", "ours gives a group's task its part of the group's slice, not scaled by the group's share");
    });
    compare([CFS, EEVDF], "workload=spin wl.tasks=1 wl.run_ms=500 cgroup=a cpu.max=a:20000/100000", "cpu.max 20 ms per 100 ms, 1 hart", |c, _, o, l| {
        let used = |r: &Run| r.task("spin0").cpu_ns as f64 / 1e6;
        let (ot, lt) = (o.throttling(), l.throttling());
        c.figure("CPU time in 500 ms", "ms", used(o), used(l), Within::Abs(21.0));
        c.figure("times throttled", "", ot.0 as f64, lt.0 as f64, Within::Abs(1.0));
        c.figure("time throttled", "ms", ot.1 as f64 / 1e6, lt.1 as f64 / 1e6, Within::Abs(20.0));
    });
}

/// Four equal tasks on three harts with per-hart queues and balancing: the balancer keeps
/// moving one so all finish together. Finish spread within 10 points and the last finish
/// within 5 % (the harts' time, less the kernels' own); migrations within half.
#[test]
#[ignore = "needs `make linux`"]
fn four_tasks_on_three_harts() {
    compare_over_seeds([CFS, EEVDF], "workload=fairness-equal wl.units=600 smp=3", "four tasks on three harts, balancing", |c, _, o, l| {
        let spread = |r: &Run| runqueue_kernel_claims::spread(&r.finish()) * 100.0;
        let last = |r: &Run| *r.finish().iter().max().unwrap() as f64 / 1e6;
        c.figure_over("finish time spread", "points", spread(o), &each(l, spread), Within::Abs(10.0));
        c.figure_over("last finish", "ms", last(o), &each(l, last), Within::Rel(0.05));
        c.figure_over("migrations", "", migrations(o), &each(l, migrations), Within::Rel(0.5));
    });
}

/// The same without balancing. Ours never balances with `balance_ms=0` and keeps each task
/// where it placed it (the hart with the fewest tasks: task0 and task3 share hart 0). Linux's
/// balancer cannot be turned off, so its tasks are pinned to those harts (`affinity=1,2,4,1`,
/// Linux's words alone). On both the two that share a hart finish at twice the others' time,
/// an idle hart taking nothing from it; finish times within 5 % (the harts' time, less the
/// kernels' own), and no migration.
#[test]
#[ignore = "needs `make linux`"]
fn four_tasks_on_three_harts_without_balancing() {
    let pairs = [("sched=cfs balance_ms=0", "6.1"), ("sched=eevdf eevdf.version=6.12 balance_ms=0", "6.12")];
    compare_with(pairs, "workload=fairness-equal wl.units=600 smp=3", ["affinity=1,2,4,1"; 2], "four tasks on three harts, no balancing", |c, _, o, l| {
        let first = |r: &Run| *r.finish().iter().min().unwrap() as f64 / 1e6;
        let last = |r: &Run| *r.finish().iter().max().unwrap() as f64 / 1e6;
        c.figure("first finish", "ms", first(o), first(l), Within::Rel(0.05));
        c.figure("last finish", "ms", last(o), last(l), Within::Rel(0.05));
        c.figure("migrations", "", migrations(o), migrations(l), Within::Abs(0.0));
    });
}

/// Five tasks on three harts, hart 2 isolated (`isolcpus=2`): task0 pinned to hart 0, task4
/// to hart 2, the rest free. task4 runs alone on the isolated hart; the other four share
/// harts 0 and 1. Finish times within a tenth (the harts' time, less the kernels' own, and
/// where the balancer leaves the free tasks); the free tasks' as a set, since which of them the
/// balancer moves, and so which finishes first, is its choice of the moment; the pinned tasks
/// never migrate.
#[test]
#[ignore = "needs `make linux`"]
fn a_pinned_and_an_isolated_task() {
    const FREE: [&str; 3] = ["task1", "task2", "task3"];
    let args = "workload=fairness-equal wl.tasks=5 smp=3 isolcpus=2 affinity=1,0,0,0,4";
    compare_over_seeds([CFS, EEVDF], args, "a task pinned to hart 0 and one to isolated hart 2", |c, _, o, l| {
        let finish = |t: &'static str| move |r: &Run| r.task(t).finish_ns as f64 / 1e6;
        c.figure_over("task0 finish", "ms", finish("task0")(o), &each(l, finish("task0")), Within::Rel(0.1)).known(FORK_PLACEMENT);
        c.figure_over("task4 finish", "ms", finish("task4")(o), &each(l, finish("task4")), Within::Rel(0.1));
        let free_mean = |r: &Run| FREE.map(|t| finish(t)(r)).iter().sum::<f64>() / 3.0;
        let free_last = |r: &Run| FREE.map(|t| finish(t)(r)).iter().copied().fold(0.0, f64::max);
        c.figure_over("free tasks' mean finish", "ms", free_mean(o), &each(l, free_mean), Within::Rel(0.1));
        c.figure_over("free tasks' last finish", "ms", free_last(o), &each(l, free_last), Within::Rel(0.1));
        // In every run, not their median.
        let pinned = |r: &Run| (r.migrations("task0") + r.migrations("task4")) as f64;
        c.figure("pinned tasks' migrations, most of any seed", "", pinned(o), each(l, pinned).into_iter().fold(0.0, f64::max), Within::Abs(0.0));
    });
}
