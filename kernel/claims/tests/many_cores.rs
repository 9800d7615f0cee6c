//! Several harts as Linux runs them (`rq=perhart`): each claim below names the behaviour of
//! Linux's per-CPU run queues it pins (`kernel/sched/fair.c`, `rt.c`, `Documentation/timers/
//! no_hz.rst`, `Documentation/admin-guide/kernel-parameters.txt` for `isolcpus`).

use runqueue_kernel_claims::{Run, kernel};
use runqueue_report::{Event, Kind, props};
use std::collections::BTreeMap;

fn migrations(run: &Run, tid: u32) -> Vec<&Event> {
    run.events.iter().filter(|e| e.kind == Kind::Migrate && e.tid == tid).collect()
}

/// Four equal CPU-bound tasks on three harts: placement puts two on one hart (2/1/1). With
/// no balancing the pair takes twice as long as the others; periodic balancing moves a task
/// every few passes (a task too heavy to even the loads moves once `nr_balance_failed` has
/// halved its load below the imbalance), so all four finish close to the fair 4/3 of their
/// CPU time.
#[test]
fn balancing_evens_out_four_tasks_on_three_harts() {
    let base = "sched=cfs workload=fairness-equal smp=3";
    let alone = kernel(&format!("{base} balance_ms=0"));
    let finish = alone.finish();
    let (min, max) = (*finish.iter().min().unwrap(), *finish.iter().max().unwrap());
    assert!(max as f64 > 1.8 * min as f64, "without balancing the pair should take about twice as long: {finish:?}");
    assert!(alone.events.iter().all(|e| e.kind != Kind::Migrate), "balance_ms=0 moved a task");
    // The schedule property the per-hart tests check fails here: two harts sit idle while the
    // pair shares the third.
    assert!(props::balanced(&alone.events, 3, 4_100_000).is_err(), "an unbalanced run passed the idle-hart property");

    // Which task is moved when depends on where the passes fall among the ticks, so one task
    // can be unlucky for a while: 400 units each ended 3 %, 22 % and 30 % apart in three
    // builds; 600 units 19 % in the last, 800 units 16 %, against 80 % or more unbalanced.
    let balanced = kernel(&format!("{base} wl.units=600"));
    let spread = runqueue_kernel_claims::spread(&balanced.finish());
    assert!(spread < 0.25, "with balancing the finish times should be within 25 % of each other: {:?}", balanced.finish());
    let periodic = balanced.events.iter().filter(|e| e.kind == Kind::Migrate && e.get("why") == Some("periodic")).count();
    assert!(periodic >= 3, "balancing should have moved tasks several times, moved {periodic}");
}

/// `taskset` and `isolcpus`: a pinned task never migrates and runs only where it may; the
/// others never run on the isolated hart.
#[test]
fn affinity_and_isolcpus_are_honoured() {
    let run = kernel("sched=cfs workload=fairness-equal wl.tasks=5 smp=3 isolcpus=2 affinity=1,0,0,0,4");
    let masks: BTreeMap<u32, u32> = [(1, 0b001), (2, 0b011), (3, 0b011), (4, 0b011), (5, 0b100)].into_iter().collect();
    props::affinity_honoured(&run.events, &masks).unwrap_or_else(|v| panic!("{v}"));
    for pinned in [1, 5] {
        assert!(migrations(&run, pinned).is_empty(), "pinned task {pinned} migrated");
    }
    assert!(run.events.iter().any(|e| e.kind == Kind::In && e.tid == 5 && e.hart == 2), "the task pinned to the isolated hart never ran there");
}

/// `nohz_full`: a hart that runs a single task takes no tick, so a CPU-bound task pinned
/// there finishes its fixed work sooner than its twin on a ticking hart.
#[test]
fn nohz_full_stops_the_tick_of_a_hart_with_one_task() {
    let append = "sched=cfs workload=fairness-equal wl.tasks=2 smp=2 affinity=1,2";
    let ticking = kernel(append);
    let quiet = kernel(&format!("{append} nohz_full=1"));
    let (with_tick, without) = (ticking.finish()[1], quiet.finish()[1]);
    assert!((without as f64) < 0.99 * with_tick as f64, "hart 1 without its tick: {without} ns, with it: {with_tick} ns");
    // Hart 0 keeps its tick: its task's time is unchanged within the noise of the other hart.
    let (a, b) = (ticking.finish()[0] as f64, quiet.finish()[0] as f64);
    assert!((a - b).abs() < 0.005 * a, "hart 0's task: {a} ns vs {b} ns");
}

/// `timer_migration`: a task sleeping on a `nohz_full` hart is woken by a housekeeping
/// hart's timer, or by its own hart's with the switch off.
#[test]
fn timer_migration_moves_sleep_timers_off_quiet_harts() {
    let append = "sched=cfs workload=intr wl.tasks=1 wl.hogs=0 wl.run_ms=100 smp=2 affinity=2 nohz_full=1";
    let woken_on = |run: &Run| run.events.iter().filter(|e| e.kind == Kind::Wake && e.tid == 1).map(|e| e.hart).collect::<Vec<_>>();
    let moved = woken_on(&kernel(append));
    assert!(!moved.is_empty() && moved.iter().all(|&h| h == 0), "with timer_migration the wakeups should come from hart 0: {moved:?}");
    let kept = woken_on(&kernel(&format!("{append} timer_migration=0")));
    assert!(!kept.is_empty() && kept.iter().all(|&h| h == 1), "without it they should come from hart 1: {kept:?}");
}

/// Real-time tasks across harts (Linux's RT push): a woken real-time task takes the hart
/// running the lowest-priority task, and a displaced one moves on at once, so no real-time
/// task waits behind a lower priority for longer than an IPI and a switch.
#[test]
fn real_time_tasks_never_wait_behind_lower_priorities_on_other_harts() {
    for sched in ["cfs", "eevdf"] {
        for setup in [
            "workload=intr wl.tasks=4 wl.hogs=2 wl.run_ms=300 rtprio=10,20,30,40 rt.runtime_us=-1 smp=2",
            "workload=intr wl.tasks=3 wl.hogs=3 wl.run_ms=300 rtprio=10,20,30 rt.runtime_us=-1 smp=3",
            "workload=spin wl.tasks=3 wl.run_ms=100 rtprio=10,20,30 rt.runtime_us=-1 smp=2",
        ] {
            let append = format!("sched={sched} {setup}");
            let run = kernel(&append);
            props::consistent(&run.events).unwrap_or_else(|v| panic!("{append}: {v}"));
            props::rt_preempts_lower(&run.events, 200_000).unwrap_or_else(|v| panic!("{append}: {v}"));
        }
    }
}

/// Migration keeps a task's place (`migrate_task_rq_fair`): CFS moves its vruntime with the
/// queues' min_vruntime, EEVDF keeps its lag. The queues' min_vruntimes drift far apart (a
/// hart with one task advances its own twice as fast as a hart with two), yet a task arrives
/// next to its new queue's min_vruntime, not at a vruntime from another queue's clock.
#[test]
fn migration_renormalises_a_tasks_virtual_time() {
    let run = kernel("sched=cfs workload=spin wl.tasks=3 wl.run_ms=2000 smp=2");
    let moves: Vec<_> = run.events.iter().filter(|e| e.kind == Kind::Migrate).collect();
    assert!(moves.len() >= 10, "balancing moved tasks only {} times", moves.len());
    for m in &moves {
        let (vr, min) = (m.num("vr").unwrap(), m.num("min").unwrap());
        // Within a period (6 ms) of the new queue's min_vruntime, plus one balance interval.
        assert!((vr - min).abs() < 40_000_000, "task {} arrived at vr {vr} on a queue whose min is {min}", m.tid);
    }
    let mut last_min: BTreeMap<u32, i64> = BTreeMap::new();
    let mut drift = 0;
    for e in run.events.iter().filter(|e| e.kind == Kind::In) {
        last_min.insert(e.hart, e.num("min").unwrap());
        if let (Some(a), Some(b)) = (last_min.get(&0), last_min.get(&1)) {
            drift = drift.max((a - b).abs());
        }
    }
    // Far beyond the 40 ms the arrivals are held to (how far is chaotic in the kernel's timing).
    assert!(drift > 100_000_000, "the two queues' min_vruntime stayed within {drift} ns: renormalising would not matter");

    let run = kernel("sched=eevdf workload=spin wl.tasks=3 wl.run_ms=2000 smp=2");
    let moves: Vec<_> = run.events.iter().filter(|e| e.kind == Kind::Migrate).collect();
    assert!(moves.len() >= 10, "EEVDF: balancing moved tasks only {} times", moves.len());
    for m in moves {
        // The lag is clamped to two slices or a tick (here 1.5 ms) and placed as such.
        let lag = m.num("lag").unwrap();
        assert!(lag.abs() <= 2_000_000, "EEVDF: task {} arrived with lag {lag}", m.tid);
    }
}

/// What a migration costs, with the machine's per-hart data cache on (`cache.kb=32`, misses of
/// 100 ns): a task that touches a 16 KiB working set each 1 ms unit keeps it in its hart's
/// cache while pinned, and misses on all of it after each move. Two tasks that move to the
/// other hart after every unit (`wl.hop=1`) finish fewer units with the cache than without it,
/// while two tasks that stay put lose almost nothing (only the misses on the kernel's data the
/// two harts share: 1 % in the last build).
#[test]
fn with_the_cache_model_a_task_moved_every_unit_does_less_work() {
    let units = |extra: &str| -> u64 {
        let run = kernel(&format!("sched=cfs workload=spin wl.tasks=2 wl.run_ms=300 smp=2 wl.working_set_kb=16 {extra}"));
        run.iterations().iter().sum()
    };
    let (pinned, pinned_cached) = (units(""), units("cache.kb=32"));
    let (moving, moving_cached) = (units("wl.hop=1"), units("wl.hop=1 cache.kb=32"));
    assert!(pinned_cached as f64 >= 0.98 * pinned as f64, "tasks that stay lost work to the cache: {pinned_cached} units vs {pinned}");
    assert!((moving_cached as f64) < 0.985 * moving as f64, "moving tasks: {moving_cached} units with the cache vs {moving} without");
    assert!(moving < pinned, "moving costs something even without a cache (the switches): {moving} vs {pinned}");
}

/// A real-time task takes its hart's capacity from the fair tasks queued there (Linux's
/// `scale_rt_capacity`): balancing moves them to a hart with room rather than leaving them
/// to starve while another hart runs one fair task.
#[test]
fn fair_tasks_queued_behind_a_real_time_task_move_to_a_hart_with_room() {
    let run = kernel("sched=cfs workload=spin smp=2 wl.tasks=3 wl.run_ms=400 rtprio=10");
    let cpu = run.cpu();
    assert!(cpu[0] > 390_000_000, "the real-time task should keep its hart: {cpu:?}");
    for (i, &c) in cpu[1..].iter().enumerate() {
        assert!(c > 150_000_000, "fair task {} got {c} ns of 400 ms: {cpu:?}", i + 1);
    }
}
