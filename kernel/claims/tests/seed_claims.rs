//! The qualitative outcomes the seed reports claim, checked on the real kernel on the emulator.
//! Each test names the claim and where it comes from; the figures are ours, the shapes theirs.

use runqueue_kernel_claims::{Run, kernel, spread};

/// The index of the task called `long` in `realtime` and `occupy`.
fn long_task(run: &Run) -> usize {
    run.result.tasks.iter().position(|t| t.name == "long").expect("the workload has a task named long")
}

/// 001, sched-fairness-unequal: "cfs gives each process a count roughly inverse to its
/// work (49, 24, 15, 12)".
#[test]
fn fairness_unequal_cfs_counts_are_inverse_to_work() {
    let it = kernel("sched=cfs workload=fairness-unequal").iterations();
    for (i, &n) in it.iter().enumerate() {
        let expected = it[0] as f64 / (i + 1) as f64;
        let error = (n as f64 - expected).abs() / expected;
        assert!(error < 0.25, "task {i}: {n} iterations, expected about {expected:.0} (all: {it:?})");
    }
}

/// 001, sched-fairness-unequal: "sjf is very unfair: process 0 took almost everything
/// (135, 10, 6, 4)".
#[test]
fn fairness_unequal_sjf_lets_the_shortest_task_take_the_cpu() {
    let run = kernel("sched=sjf workload=fairness-unequal");
    let cpu = run.cpu();
    let share = cpu[0] as f64 / cpu.iter().sum::<u64>() as f64;
    assert!(share > 0.6, "the shortest task had {:.0}% of the CPU: {cpu:?}", share * 100.0);
}

/// 001, sched-realtime: "cfs, sjf and mlfq finish the short tasks long before the long one;
/// rr and fifo do not".
#[test]
fn realtime_short_tasks_finish_first_only_under_responsive_policies() {
    for sched in ["cfs", "sjf", "mlfq", "fifo", "rr"] {
        let run = kernel(&format!("sched={sched} workload=realtime"));
        let long = long_task(&run);
        let finish = run.finish();
        let last_short = finish.iter().enumerate().filter(|(i, _)| *i != long).map(|(_, f)| *f).max().unwrap();
        let ratio = last_short as f64 / finish[long] as f64;
        match sched {
            "fifo" | "rr" => assert!(ratio > 0.9, "{sched}: short tasks done at {ratio:.2} of the long task's finish: {finish:?}"),
            _ => assert!(ratio < 0.6, "{sched}: short tasks done only at {ratio:.2} of the long task's finish: {finish:?}"),
        }
    }
}

/// 001, sched-occupy: "rr and fifo finish the long task first (about 2020 ms); cfs and sjf
/// much later (4828, 6740 ms)". (The seed's MLFQ was late too, 5416 ms, but ours charges
/// yields against the allotment, OSTEP's rule 4, so its yield-heavy short tasks sink to the
/// long task's level and share with it.)
#[test]
fn occupy_fifo_and_rr_finish_the_long_task_first() {
    let long_finish = |sched: &str| {
        let run = kernel(&format!("sched={sched} workload=occupy"));
        let long = long_task(&run);
        let finish = run.finish();
        (finish[long], finish.iter().enumerate().all(|(i, f)| i == long || *f > finish[long]))
    };
    let (cfs, _) = long_finish("cfs");
    for sched in ["fifo", "rr"] {
        let (t, first) = long_finish(sched);
        assert!(first, "{sched}: the long task was not the first to finish");
        assert!((t as f64) < 0.7 * cfs as f64, "{sched}: long task at {t} ns, cfs {cfs} ns");
    }
    let (sjf, _) = long_finish("sjf");
    assert!(sjf > cfs, "sjf: long task at {sjf} ns, sooner than under cfs ({cfs} ns)");
}

/// 004: "ten endless loops under CFS: after 20 s the most and least favoured differ by 0.3 s"
/// (1.5%).
#[test]
fn spin_cfs_shares_the_cpu_within_a_few_percent() {
    let cpu = kernel("sched=cfs workload=spin").cpu();
    assert!(spread(&cpu) < 0.05, "CPU times spread {:.1}%: {cpu:?}", spread(&cpu) * 100.0);
}

/// 004: "8 ms work, 1 ms sleep: the max-min loop difference was 9 with FAIR_SLEEPERS and 33
/// without". With one deterministic run queue a 1 ms sleeper never falls behind
/// `min_vruntime`, so sleeper credit only matters when sleeps are long against busy hogs:
/// five 8 ms sleepers beside five hogs show the effect. Over three seconds: in one the spreads
/// differ by a single loop, which any change to the kernel's timing (even its trace) can flip.
#[test]
fn intr_spreads_wider_without_fair_sleepers() {
    let args = "sched=cfs workload=intr wl.tasks=5 wl.hogs=5 wl.sleep_us=8000 wl.run_ms=3000";
    let on = kernel(args).iterations();
    let off = kernel(&format!("{args} cfs.features=NO_FAIR_SLEEPERS")).iterations();
    assert!(spread(&off) > spread(&on), "spread with FAIR_SLEEPERS {on:?}, without {off:?}");
}

/// 001, sched-occupy under MLFQ: the seed's `long` finished after the short tasks because its
/// rule 4 gave a task that yielded before its allotment ran out the whole allotment back
/// (OSTEP's early rules 4a/4b). Ours keeps the final rule by default; `mlfq.rule4=reset` brings
/// the early one and the seed's order back. And the early rule's hole (OSTEP ch. 8): a task
/// that works 0.9 ms and sleeps 0.1 ms never uses a whole 1 ms allotment, so it stays at level
/// 0 and takes most of the CPU from two loops; under the final rule it sinks like them.
#[test]
fn mlfq_early_rule4_is_gamed_and_gives_the_seeds_occupy_order() {
    let occupy = |rule| {
        let run = kernel(&format!("sched=mlfq workload=occupy mlfq.rule4={rule}"));
        let long = long_task(&run);
        let finish = run.finish();
        let short_last = finish.iter().enumerate().filter(|&(i, _)| i != long).map(|(_, &f)| f).max().unwrap();
        (finish[long], short_last)
    };
    let (long, short) = occupy("total");
    assert!(long < short, "rule4=total: long finished at {long} ns, the short tasks at {short} ns");
    let (long, short) = occupy("reset");
    assert!(long > short, "rule4=reset: long finished at {long} ns, before the short tasks ({short} ns)");
    let gamer = |rule| {
        let run = kernel(&format!("sched=mlfq workload=intr wl.tasks=1 wl.hogs=2 wl.work_us=900 wl.sleep_us=100 mlfq.rule4={rule}"));
        let intr = run.result.task("intr0").expect("the workload has a task named intr0").cpu_ns;
        intr as f64 / run.cpu().iter().sum::<u64>() as f64
    };
    let (total, reset) = (gamer("total"), gamer("reset"));
    assert!(reset > 0.8, "rule4=reset: the gamer got {reset:.3} of the CPU");
    assert!(total < 0.34, "rule4=total: the gamer got {total:.3} of the CPU, more than a loop's third");
}
