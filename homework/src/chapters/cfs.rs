//! Chapter 6, CFS: two to four CPU-bound tasks of different nice values (`workload=spin`, busy
//! for a fixed time, never sleeping) under `sched=cfs` on one hart, with Linux's defaults
//! (sched_latency 6 ms, START_DEBIT). Easy: two tasks. Medium: three, and when one first runs.
//! Hard: four, and how long one's first turn lasts. Every level asks a task's share of the
//! CPU over the run, which task runs at a time, and how much a turn added to a vruntime.

use super::{Chapter, Draft, any_task, q_running};
use crate::hand::cfs::{self, NICE_0};
use crate::hand::{End, Turn};
use crate::problem::{Answer, Question, Table, Tolerance, Unit, fmt_places, text_row};
use crate::rng::Rng;
use crate::run::{Run, Stint, ms};
use crate::{Ambiguous, Level, msg};
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use runqueue_report::trace::Kind;

pub const CHAPTER: Chapter = Chapter { index: 5, name: "cfs", aliases: &["nice", "vruntime"], title: "CFS: the completely fair scheduler", draft, ask };

/// How long the tasks keep working: long enough for the shares to settle near the weights'.
const RUN_MS: u64 = 150;
/// The part of the run the hand schedule covers, and the fewest turns of it a problem needs.
const WINDOW_MS: u64 = 30;
const MIN_TURNS: usize = 4;
/// The params holding each task's weight, in creation order.
const WEIGHTS: [&str; 4] = ["weight0", "weight1", "weight2", "weight3"];

/// A share of the CPU, in percent points.
const SHARE: Tolerance = Tolerance { abs: 2.0, rel: 0.0 };
/// A vruntime's growth, worked from the kernel's own count of a turn.
const GROWTH: Tolerance = Tolerance { abs: 0.01, rel: 0.01 };
/// A time at whole ticks by hand, a few tens of µs off in the kernel.
const AT_TICK: Tolerance = Tolerance { abs: 0.2, rel: 0.0 };

fn draft(level: Level, rng: &mut Rng) -> Draft {
    let count = match level {
        Level::Easy => 2,
        Level::Medium => 3,
        Level::Hard => 4,
    };
    let (lo, hi) = cfs::NICE_RANGE;
    let nice: Vec<i64> = rng.distinct(count, 0, (hi - lo) as u64).iter().map(|&n| n as i64 + lo).collect();
    let weights: Vec<u64> = nice.iter().map(|&n| cfs::weight(n)).collect();
    let starts = cfs::start_vruntimes(&weights);
    let tasks: Vec<String> = (0..count).map(|i| alloc::format!("spin{i}")).collect();
    let nice_list: Vec<String> = nice.iter().map(|n| n.to_string()).collect();
    let words = vec![
        ("sched", "cfs".to_string()),
        ("workload", "spin".to_string()),
        ("wl.tasks", count.to_string()),
        ("wl.run_ms", RUN_MS.to_string()),
        ("nice", nice_list.join(",")),
    ];
    let rows = (0..count).map(|i| text_row(&[&tasks[i], &nice[i], &weights[i], &fmt_places(starts[i] as f64 / 1e6, 3)])).collect();
    let table = Table { head: vec![msg!("col-task"), msg!("col-nice"), msg!("col-weight"), msg!("col-start-vruntime")], rows };
    let total: u64 = weights.iter().sum();
    let rules = vec![
        msg!("rule-cfs-machine"),
        msg!("rule-cfs-vruntime"),
        msg!("rule-cfs-slice", n = count, total = total),
        msg!("rule-cfs-tick"),
        msg!("rule-cfs-hair"),
    ];
    let params = WEIGHTS.iter().zip(&weights).map(|(name, &w)| (*name, w)).collect();
    Draft { words, harts: 1, setup: vec![msg!("setup-cfs", n = count, run = RUN_MS)], table, rules, tasks, params, jobs: Vec::new() }
}

fn ask(level: Level, draft: &Draft, run: &Run, rng: &mut Rng) -> Result<Vec<Question>, Ambiguous> {
    let weights: Vec<u64> = WEIGHTS[..draft.tasks.len()].iter().map(|w| draft.param(w)).collect();
    let turns = as_by_hand(run, &weights)?;
    let mut qs = vec![q_share(run, rng, &weights)?, q_running(run, rng, &turns)?, q_growth(run, rng, &weights, turns.len())?];
    if level != Level::Easy {
        qs.insert(1, q_first_run(run, rng, &turns)?);
    }
    if level == Level::Hard {
        qs.push(q_first_turn(run, rng, &turns)?);
    }
    Ok(qs)
}

/// The hand schedule's turns, when the kernel's first stints are them: the same task, each
/// switch within µs of its tick, every task started where START_DEBIT puts it by hand.
fn as_by_hand(run: &Run, weights: &[u64]) -> Result<Vec<Turn>, Ambiguous> {
    let starts = cfs::start_vruntimes(weights);
    for (i, &start) in starts.iter().enumerate() {
        let new = run.events_of(i as u32 + 1).find(|e| e.kind == Kind::New).ok_or(Ambiguous)?;
        if new.num("vr") != Some(start as i64) {
            return Err(Ambiguous);
        }
    }
    let turns = cfs::schedule(weights, WINDOW_MS);
    if turns.len() < MIN_TURNS {
        return Err(Ambiguous);
    }
    let near = |kernel: u64, half: u64| kernel.abs_diff(half * 500_000) <= LAG_NS;
    for (t, s) in turns.iter().zip(kernel_turns(run)) {
        if s.tid != t.job as u32 + 1 || s.why != "preempt" || t.end != End::Preempt || !near(s.from, t.from) || !near(s.to, t.to) {
            return Err(Ambiguous);
        }
    }
    Ok(turns)
}

/// How far from its tick the kernel switches: the tick's own work, then the switch.
const LAG_NS: u64 = 150_000;

fn kernel_turns(run: &Run) -> impl Iterator<Item = &Stint> {
    run.stints.iter().filter(|s| s.hart == 0)
}

/// A task's share of all the tasks' CPU time over the run, which a student takes to be its
/// weight's share of the total: asked when that is within the tolerance of the kernel's.
fn q_share(run: &Run, rng: &mut Rng, weights: &[u64]) -> Result<Question, Ambiguous> {
    let tid = any_task(run, rng);
    let t = run.task(tid);
    let total_ns: u64 = run.result.tasks.iter().map(|t| t.cpu_ns).sum();
    let answer = Answer::Number { value: percent(t.cpu_ns, total_ns), decimals: 1, unit: Unit::Percent, tol: SHARE };
    let (weight, sum) = (weights[tid as usize - 1], weights.iter().sum::<u64>());
    let by_weight = percent(weight, sum);
    if answer.check(&fmt_places(by_weight, 1)) != Ok(true) {
        return Err(Ambiguous);
    }
    let steps = vec![msg!("s-share", task = t.name, cpu = ms(t.cpu_ns), total = ms(total_ns), value = answer.text(), weight = weight, sum = sum, ideal = fmt_places(by_weight, 1))];
    Ok(Question { slot: "share", prompt: msg!("q-share", task = t.name, run = RUN_MS), answer, steps })
}

/// `part` of `whole` in percent.
fn percent(part: u64, whole: u64) -> f64 {
    part as f64 * 100.0 / whole.max(1) as f64
}

/// How much one of the hand schedule's turns (the kernel's stint, with its own count of what
/// the task ran) added to the task's vruntime: its `in` and `out` events' `vr`.
fn q_growth(run: &Run, rng: &mut Rng, weights: &[u64], turns: usize) -> Result<Question, Ambiguous> {
    let stints: Vec<&Stint> = kernel_turns(run).take(turns).collect();
    let s = *rng.pick(&stints);
    let vr_at = |kind: Kind, at: u64| run.events_of(s.tid).find(|e| e.kind == kind && e.time_ns == at).and_then(|e| e.num("vr"));
    let (before, after) = (vr_at(Kind::In, s.from).ok_or(Ambiguous)?, vr_at(Kind::Out, s.to).ok_or(Ambiguous)?);
    let ran = run.events_of(s.tid).find(|e| e.kind == Kind::Out && e.time_ns == s.to).and_then(|e| e.num("ran")).ok_or(Ambiguous)?;
    let grew = (after - before) as f64 / 1e6;
    let answer = Answer::Number { value: grew, decimals: 3, unit: Unit::Ms, tol: GROWTH };
    let name = run.name(s.tid).to_string();
    let weight = weights[s.tid as usize - 1];
    let (ran, before, after) = (fmt_places(ran as f64 / 1e6, 3), fmt_places(before as f64 / 1e6, 3), fmt_places(after as f64 / 1e6, 3));
    let steps = vec![msg!("s-growth", task = name, before = before, after = after, ran = ran, nice0 = NICE_0, weight = weight, value = answer.text())];
    let prompt = msg!("q-growth", task = name, from = ms(s.from), to = ms(s.to), ran = ran);
    Ok(Question { slot: "vruntime-growth", prompt, answer, steps })
}

/// When a task other than the one that starts the run first runs (its first turn is one of the hand's).
fn q_first_run(run: &Run, rng: &mut Rng, turns: &[Turn]) -> Result<Question, Ambiguous> {
    let first = first_turns(run, turns);
    let later: Vec<&Stint> = first.into_iter().skip(1).collect();
    if later.is_empty() {
        return Err(Ambiguous);
    }
    let s = *rng.pick(&later);
    let name = run.name(s.tid).to_string();
    let steps = vec![msg!("s-first-run", task = name, t = ms(s.from))];
    Ok(Question { slot: "first-run", prompt: msg!("q-first-run", task = name), answer: Answer::time(s.from, AT_TICK), steps })
}

/// How long a task's first turn lasts (one of the hand's).
fn q_first_turn(run: &Run, rng: &mut Rng, turns: &[Turn]) -> Result<Question, Ambiguous> {
    let first = first_turns(run, turns);
    let s = *rng.pick(&first);
    let name = run.name(s.tid).to_string();
    let steps = vec![msg!("s-first-turn", task = name, from = ms(s.from), to = ms(s.to), value = ms(s.to - s.from))];
    Ok(Question { slot: "first-turn", prompt: msg!("q-first-turn", task = name), answer: Answer::time(s.to - s.from, AT_TICK), steps })
}

/// Each task's first stint, where it is one of the hand schedule's turns.
fn first_turns<'a>(run: &'a Run, turns: &[Turn]) -> Vec<&'a Stint> {
    let stints: Vec<&Stint> = kernel_turns(run).take(turns.len()).collect();
    stints.iter().enumerate().filter(|(i, s)| stints[..*i].iter().all(|o| o.tid != s.tid)).map(|(_, s)| *s).collect()
}
