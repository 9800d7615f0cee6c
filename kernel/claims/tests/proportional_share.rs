//! Lottery, stride and Linux's O(1) scheduler: each claim names the paper or the kernel source
//! whose behaviour it pins, checked on the real kernel on the emulator (1 hart).
//!
//! - Lottery: Waldspurger and Weihl, "Lottery Scheduling: Flexible Proportional-Share Resource
//!   Management", OSDI '94 (a task with a fraction p of the tickets wins a binomial n·p of n
//!   draws, variance n·p·(1-p)).
//! - Stride: Waldspurger and Weihl, "Stride Scheduling: Deterministic Proportional-Share
//!   Resource Management", MIT/LCS/TM-528, 1995 (errors bounded by one quantum; a client that
//!   leaves keeps its `remain` and earns nothing while away).
//! - O(1): Linux 2.6.11 `kernel/sched.c` (`task_timeslice`, `effective_prio`,
//!   `recalc_task_prio`, `TASK_INTERACTIVE`, `scheduler_tick`).

use runqueue_kernel_claims::{Run, kernel};
use runqueue_report::{Event, Kind};
use std::collections::BTreeMap;

/// The three tasks and tickets of the share claims; 3 s at the default 10 ms quantum is 300
/// draws (or quanta).
const SPIN: &str = "workload=spin wl.tasks=3 wl.run_ms=3000 tickets=100,200,300";
const TICKETS: [f64; 3] = [100.0, 200.0, 300.0];
const QUANTUM_NS: f64 = 10_000_000.0;
/// A quantum ends at the tick nearest to its end (`lottery::quantum_end`): up to half a 1 ms
/// tick past it.
const QUANTUM_AT_TICKS_NS: f64 = QUANTUM_NS + 500_000.0;

fn shares(run: &Run) -> Vec<f64> {
    let cpu = run.cpu();
    let total: u64 = cpu.iter().sum();
    cpu.iter().map(|&c| c as f64 / total as f64).collect()
}

/// Lottery's bound: each share within three standard deviations of its ticket fraction p
/// after n draws, sqrt(p·(1-p)/n) (the paper's binomial; three sigma holds for 99.7 % of
/// seeds).
fn within_binomial_bound(run: &Run, draws: f64) -> Result<(), String> {
    let total: f64 = TICKETS.iter().sum();
    for (i, share) in shares(run).into_iter().enumerate() {
        let p = TICKETS[i] / total;
        let sigma = (p * (1.0 - p) / draws).sqrt();
        if (share - p).abs() > 3.0 * sigma {
            return Err(format!("task {i}: share {share:.3}, tickets say {p:.3} ± {:.3} (3σ)", 3.0 * sigma));
        }
    }
    Ok(())
}

/// OSDI '94: "probabilistically fair": over 300 draws each task's CPU share is its fraction
/// of the tickets, within the binomial spread; and the draws come from the seed, so the same
/// arguments give the same schedule byte for byte.
#[test]
fn lottery_shares_follow_the_tickets_within_the_binomial_spread() {
    let args = format!("sched=lottery {SPIN}");
    let run = kernel(&args);
    within_binomial_bound(&run, 300.0).unwrap_or_else(|e| panic!("{args}: {e} (CPU {:?})", run.cpu()));
    let again = kernel(&args);
    assert_eq!(run.console, again.console, "the same arguments gave another console");
    assert_eq!(run.events, again.events, "the same arguments gave another trace");
}

/// OSDI '94: the schedule is random: another seed gives other draws, so other CPU times, and
/// those too lie within the binomial spread.
#[test]
fn lottery_another_seed_gives_another_schedule_also_within_the_spread() {
    let first = kernel(&format!("sched=lottery {SPIN}"));
    let other = kernel(&format!("sched=lottery {SPIN} seed=1"));
    assert_ne!(first.cpu(), other.cpu(), "seeds 0 and 1 gave the same CPU times");
    within_binomial_bound(&other, 300.0).unwrap_or_else(|e| panic!("seed=1: {e} (CPU {:?})", other.cpu()));
}

/// Each task's CPU time at every `in` and `out` event (the running tasks' stints counted up
/// to that moment), with the tickets the `new` events show.
fn cpu_at_every_switch(events: &[Event]) -> (BTreeMap<u32, f64>, Vec<BTreeMap<u32, f64>>) {
    let mut tickets = BTreeMap::new();
    let mut cpu: BTreeMap<u32, f64> = BTreeMap::new();
    let mut since: BTreeMap<u32, u64> = BTreeMap::new();
    let mut moments = Vec::new();
    for e in events {
        match e.kind {
            Kind::New => {
                tickets.insert(e.tid, e.num("tickets").expect("stride shows tickets= on new") as f64);
                cpu.insert(e.tid, 0.0);
            }
            Kind::In => {
                since.insert(e.tid, e.time_ns);
            }
            Kind::Out => {
                *cpu.get_mut(&e.tid).unwrap() += (e.time_ns - since.remove(&e.tid).unwrap()) as f64;
            }
            _ => continue,
        }
        let mut now = cpu.clone();
        for (tid, &start) in &since {
            *now.get_mut(tid).unwrap() += (e.time_ns - start) as f64;
        }
        moments.push(now);
    }
    (tickets, moments)
}

/// TM-528: stride scheduling is exact to within a quantum. Three tasks that never sleep: at
/// every switch of the run, each task's CPU time is within one quantum (10 ms, as the ticks
/// end it) of its ticket share of the CPU time given out so far, and for every pair the task
/// with fewer tickets is within one quantum of its share relative to the other (the paper's
/// pairwise bound). Lottery on the same run strays by many quanta.
#[test]
fn stride_is_exact_within_one_quantum_at_every_moment() {
    let run = kernel(&format!("sched=stride {SPIN}"));
    let (tickets, moments) = cpu_at_every_switch(&run.events);
    let total_tickets: f64 = tickets.values().sum();
    let (mut worst, mut worst_pair) = (0.0f64, 0.0f64);
    for cpu in &moments {
        let given: f64 = cpu.values().sum();
        for (tid, &c) in cpu {
            worst = worst.max((c - given * tickets[tid] / total_tickets).abs());
            for (other, &o) in cpu {
                if tickets[tid] < tickets[other] {
                    worst_pair = worst_pair.max((c - o * tickets[tid] / tickets[other]).abs());
                }
            }
        }
    }
    assert!(moments.len() > 100, "too few switches to check: {}", moments.len());
    assert!(worst < QUANTUM_AT_TICKS_NS, "a task strayed {:.2} ms from its share", worst / 1e6);
    assert!(worst_pair < QUANTUM_AT_TICKS_NS, "a pair strayed {:.2} ms from its ratio", worst_pair / 1e6);
    let lottery = kernel(&format!("sched=lottery {SPIN}"));
    let (_, moments) = cpu_at_every_switch(&lottery.events);
    let strayed = moments
        .iter()
        .map(|cpu| {
            let given: f64 = cpu.values().sum();
            cpu.iter().map(|(tid, &c)| (c - given * TICKETS[*tid as usize - 1] / 600.0).abs()).fold(0.0, f64::max)
        })
        .fold(0.0, f64::max);
    assert!(strayed > 3.0 * QUANTUM_NS, "lottery stayed within {:.1} ms of the shares", strayed / 1e6);
}

/// TM-528's join and leave: a task that sleeps keeps `remain = pass - global_pass` and comes
/// back at `global_pass + remain`, so sleeping earns it nothing. A task that works 8 ms and
/// sleeps 8 ms beside one that never sleeps then gets the strict third of the CPU that Peter
/// Zijlstra's commit 76cae9dbe185 (EEVDF, Linux 6.6) names as the fair split, where CFS's
/// sleeper credit gives it more.
#[test]
fn stride_gives_a_half_time_sleeper_a_third_and_no_sleeper_credit() {
    let args = "workload=intr wl.tasks=1 wl.hogs=1 wl.sleep_us=8000";
    let stride = shares(&kernel(&format!("sched=stride {args}")))[0];
    let cfs = shares(&kernel(&format!("sched=cfs {args}")))[0];
    assert!((stride - 1.0 / 3.0).abs() < 0.02, "stride gave the sleeper {:.1} %", stride * 100.0);
    assert!(cfs > stride + 0.02, "CFS gave the sleeper {:.1} %, stride {:.1} %", cfs * 100.0, stride * 100.0);
}

/// The figures of task `tid` on its `new`, `in`, `wake` and `state` events, in order.
fn states<'a>(run: &'a Run, tid: u32, key: &'a str) -> impl Iterator<Item = i64> + 'a {
    run.events.iter().filter(move |e| e.tid == tid && matches!(e.kind, Kind::New | Kind::In | Kind::Wake | Kind::State)).filter_map(move |e| e.num(key))
}

/// 2.6.11 `recalc_task_prio` / `effective_prio` / `TASK_INTERACTIVE`: a task that sleeps
/// (1 ms after every 8 ms of work) earns the full bonus of 5 (dynamic priority 115 at nice
/// 0), two CPU hogs beside it the full penalty (125), and the bonus lets it preempt them
/// whenever it wakes: it takes most of the CPU. CFS has no such bonus and gives it a third.
#[test]
fn o1_gives_a_sleeping_task_a_bonus_that_cfs_does_not() {
    let args = "workload=intr wl.tasks=1 wl.hogs=2";
    let o1 = kernel(&format!("sched=o1 {args}"));
    let last = |tid, key| states(&o1, tid, key).last().unwrap();
    assert_eq!(last(1, "bonus"), 5, "the sleeper's last bonus");
    assert!(last(1, "prio") <= 116, "the sleeper's last priority: {}", last(1, "prio"));
    for hog in [2, 3] {
        assert_eq!(last(hog, "prio"), 125, "hog {hog}'s last priority");
    }
    let cfs = kernel(&format!("sched=cfs {args}"));
    let (o1_share, cfs_share) = (shares(&o1)[0], shares(&cfs)[0]);
    assert!(o1_share > 0.7, "O(1) gave the sleeper {:.1} % of the CPU", o1_share * 100.0);
    assert!((cfs_share - 1.0 / 3.0).abs() < 0.03, "CFS gave the sleeper {:.1} % of the CPU", cfs_share * 100.0);
}

/// 2.6.11 `scheduler_tick`: a task whose slice runs out goes to the expired array unless it
/// is interactive, which goes back to the active one. In the same run each hog's slice ends
/// in the expired array at least once; the sleeper is never there.
#[test]
fn o1_puts_the_hogs_in_the_expired_array_behind_the_interactive_task() {
    let run = kernel("sched=o1 workload=intr wl.tasks=1 wl.hogs=2");
    for hog in [2, 3] {
        assert!(states(&run, hog, "expired").any(|x| x == 1), "hog {hog} never reached the expired array");
    }
    assert!(states(&run, 1, "expired").all(|x| x == 0), "the interactive task reached the expired array");
}

/// 2.6.11 `task_timeslice`: 420 ms at nice -1, 100 ms at nice 0. Two loops that never sleep
/// share the CPU about in that ratio under O(1); CFS's weights (1277 and 1024) make nice -1
/// worth 25 % more, not four times more.
#[test]
fn o1_time_slices_follow_nice_in_steps_cfs_smooths() {
    let args = "workload=spin wl.tasks=2 wl.run_ms=3000 nice=-1,0";
    let ratio = |sched: &str| {
        let cpu = kernel(&format!("sched={sched} {args}")).cpu();
        cpu[0] as f64 / cpu[1] as f64
    };
    let (o1, cfs) = (ratio("o1"), ratio("cfs"));
    assert!((o1 / 4.2 - 1.0).abs() < 0.25, "O(1): nice -1 / nice 0 CPU = {o1:.2}");
    assert!((cfs / 1.247 - 1.0).abs() < 0.05, "CFS: nice -1 / nice 0 CPU = {cfs:.2}");
}

/// The estimator is what makes O(1) responsive: with static priorities only
/// (`o1.interactive=0`, ours) a task that works 1 ms and sleeps 9 ms waits behind two hogs'
/// 100 ms slices and does a fraction of the loops it does with the bonus.
#[test]
fn o1_without_the_estimator_leaves_a_short_sleeper_behind_long_slices() {
    let args = "sched=o1 workload=intr wl.tasks=1 wl.hogs=2 wl.work_us=1000 wl.sleep_us=9000";
    let with = kernel(args).iterations()[0];
    let without = kernel(&format!("{args} o1.interactive=0")).iterations()[0];
    assert!(with > 5 * without, "loops with the bonus {with}, without {without}");
}

/// The CPU shares of a lottery run of three loops for 3 s: `extra` names their groups and
/// tickets.
fn lottery_shares(extra: &str) -> Vec<f64> {
    shares(&kernel(&format!("sched=lottery workload=spin wl.tasks=3 wl.run_ms=3000 {extra}")))
}

/// OSDI '94, ticket currencies: a currency's tasks share its funding by their tickets in it, so
/// inflating one currency dilutes its own tasks only. Groups `a` and `b` are funded alike; the
/// root draws between them 300 times, `b` between its two loops about 150 times, each share
/// within three binomial standard deviations. Without currencies the same inflation takes
/// `a`'s loop down to its 100 of 1100 tickets.
#[test]
fn lottery_currencies_keep_one_groups_inflation_from_diluting_another() {
    let within = |share: f64, p: f64, draws: f64| (share - p).abs() <= 3.0 * (p * (1.0 - p) / draws).sqrt();
    for (tickets, inner) in [("100,100,300", 0.75), ("100,100,900", 0.9)] {
        let s = lottery_shares(&format!("cgroup=a,b,b tickets={tickets}"));
        assert!(within(s[0], 0.5, 300.0), "tickets={tickets} in currencies a,b,b: a's loop got {:.3}, not half", s[0]);
        let in_b = s[2] / (s[1] + s[2]);
        assert!(within(in_b, inner, 150.0), "tickets={tickets}: b's second loop got {in_b:.3} of b, its tickets say {inner}");
    }
    let flat = lottery_shares("tickets=100,100,900");
    assert!(within(flat[0], 100.0 / 1100.0, 300.0), "without currencies the first loop got {:.3}, its tickets say 0.091", flat[0]);
}

/// OSDI '94, ticket transfers: a client blocked on a server lends it its tickets; our mutexes
/// lend them where they lend a priority (`lock.pi=1`). `high` (1000 tickets) waits for the
/// mutex `low` (100) holds while a hog (400) competes, each draw 1 ms: without the transfer
/// (`lock.pi=0`) `low` wins a fifth of the draws while it holds the lock, with it eleven
/// fifteenths, so `high`'s average wait falls by more than half and no wait is longer.
#[test]
fn lottery_transfers_lend_a_waiters_tickets_to_the_mutex_owner() {
    let wait = |transfer| {
        let run = kernel(&format!("sched=lottery workload=inversion rtprio=0,0,0 tickets=1000,100,400 lottery.quantum_ms=1 wl.periods=50 lock.pi={transfer}"));
        run.result.task("high").and_then(|t| t.lock.clone()).expect("the high task reports its lock waits")
    };
    let (off, on) = (wait(0), wait(1));
    assert!(off.contended >= 40 && on.contended >= 40, "high waited in {} and {} of 50 periods: the lock is hardly contended", off.contended, on.contended);
    assert!(on.avg_wait_ns * 2 < off.avg_wait_ns, "high's average wait {} ns with the transfer, {} ns without", on.avg_wait_ns, off.avg_wait_ns);
    assert!(on.max_wait_ns < off.max_wait_ns, "high's worst wait {} ns with the transfer, {} ns without", on.max_wait_ns, off.max_wait_ns);
}
