//! Questions about tasks that are busy all the time (`workload=spin`, never sleeping) under a
//! proportional-share policy (CFS, stride scheduling): the hand schedule's first turns checked
//! against the kernel's, a task's share of the CPU over the run, what a turn added to its
//! virtual time (vruntime, pass), when a task first ran and how long its first turn lasted.

use super::{Draft, any_task};
use crate::hand::cfs;
use crate::hand::{End, Turn};
use crate::message::Message;
use crate::problem::{Answer, Question, Table, Tolerance, Unit, fmt_places, text_row};
use crate::rng::Rng;
use crate::run::{Run, Stint, ms};
use crate::{Ambiguous, Level, msg};
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use runqueue_report::trace::Kind;

/// How long the tasks keep working: long enough for the shares to settle near the weights'.
pub const RUN_MS: u64 = 150;
/// The part of the run the hand schedule covers, and the fewest turns of it a problem needs.
pub const WINDOW_MS: u64 = 30;
const MIN_TURNS: usize = 4;

/// A share of the CPU, in percent points.
const SHARE: Tolerance = Tolerance { abs: 2.0, rel: 0.0 };
/// A time at whole ticks by hand, a few tens of µs off in the kernel.
const AT_TICK: Tolerance = Tolerance { abs: 0.2, rel: 0.01 };
/// How far from its tick the kernel switches: the tick's own work, then the switch.
const LAG_NS: u64 = 150_000;

/// The `spin` workload's words: `count` tasks busy for [`RUN_MS`].
pub fn words(count: usize) -> Vec<(&'static str, String)> {
    vec![("workload", "spin".to_string()), ("wl.tasks", count.to_string()), ("wl.run_ms", RUN_MS.to_string())]
}

pub fn names(count: usize) -> Vec<String> {
    (0..count).map(|i| alloc::format!("spin{i}")).collect()
}

/// How many busy tasks a level draws: two, three, four.
pub fn count(level: Level) -> usize {
    level.index() + 2
}

/// The params holding each task's weight, in creation order.
const WEIGHTS: [&str; 4] = ["weight0", "weight1", "weight2", "weight3"];

/// `count` busy tasks of distinct nice values (-5..5) under a weighted policy (`sched`): the
/// kernel's words, a table of each task's nice and weight, the weights as params. The chapter
/// adds its setup and rules.
pub fn weighted(sched: &str, rng: &mut Rng, count: usize) -> Draft {
    let (lo, hi) = cfs::NICE_RANGE;
    let nice: Vec<i64> = rng.distinct(count, 0, (hi - lo) as u64).iter().map(|&n| n as i64 + lo).collect();
    let weights: Vec<u64> = nice.iter().map(|&n| cfs::weight(n)).collect();
    let tasks = names(count);
    let nice_list: Vec<String> = nice.iter().map(|n| n.to_string()).collect();
    let mut words = vec![("sched", sched.to_string())];
    words.extend(self::words(count));
    words.push(("nice", nice_list.join(",")));
    let rows = (0..count).map(|i| text_row(&[&tasks[i], &nice[i], &weights[i]])).collect();
    let table = Table { head: vec![msg!("col-task"), msg!("col-nice"), msg!("col-weight")], rows };
    let params = WEIGHTS.iter().zip(&weights).map(|(name, &w)| (*name, w)).collect();
    Draft { words, harts: 1, setup: Vec::new(), table, rules: Vec::new(), tasks, params, jobs: Vec::new() }
}

/// The weights [`weighted`] drew, in creation order.
pub fn weights_of(draft: &Draft) -> Vec<u64> {
    WEIGHTS[..draft.tasks.len()].iter().map(|w| draft.param(w)).collect()
}

/// The hand schedule's turns, when the kernel's first stints are them (at least a few): the
/// same task, each switch within µs of its tick.
pub fn as_by_hand(run: &Run, turns: Vec<Turn>) -> Result<Vec<Turn>, Ambiguous> {
    if turns.len() < MIN_TURNS {
        return Err(Ambiguous);
    }
    let near = |kernel: u64, half: u64| kernel.abs_diff(half * 500_000) <= LAG_NS;
    for (t, s) in turns.iter().zip(stints(run)) {
        if s.tid != t.job as u32 + 1 || s.why != "preempt" || t.end != End::Preempt || !near(s.from, t.from) || !near(s.to, t.to) {
            return Err(Ambiguous);
        }
    }
    Ok(turns)
}

/// Whether each task's `new` event reports `key` as the hand has it.
pub fn starts_as_by_hand(run: &Run, key: &str, values: &[u64]) -> Result<(), Ambiguous> {
    for (i, &value) in values.iter().enumerate() {
        let new = run.events_of(i as u32 + 1).find(|e| e.kind == Kind::New).ok_or(Ambiguous)?;
        if new.num(key) != Some(value as i64) {
            return Err(Ambiguous);
        }
    }
    Ok(())
}

fn stints(run: &Run) -> impl Iterator<Item = &Stint> {
    run.stints.iter().filter(|s| s.hart == 0)
}

/// A task's share of all the tasks' CPU time over the run, which a student takes to be its
/// weight's (or tickets') share of the total: asked when that is within the tolerance of the
/// kernel's. `why` words the share by weight: (task, weight, sum, percent).
pub fn q_share(run: &Run, rng: &mut Rng, weights: &[u64], why: fn(&str, u64, u64, &str) -> Message) -> Result<Question, Ambiguous> {
    let tid = any_task(run, rng);
    let t = run.task(tid);
    let total_ns: u64 = run.result.tasks.iter().map(|t| t.cpu_ns).sum();
    let answer = Answer::Number { value: percent(t.cpu_ns, total_ns), decimals: 1, unit: Unit::Percent, tol: SHARE };
    let (weight, sum) = (weights[tid as usize - 1], weights.iter().sum::<u64>());
    let by_weight = fmt_places(percent(weight, sum), 1);
    if answer.check(&by_weight) != Ok(true) {
        return Err(Ambiguous);
    }
    let steps = vec![msg!("s-share", task = t.name, cpu = ms(t.cpu_ns), total = ms(total_ns), value = answer.text()), why(&t.name, weight, sum, &by_weight)];
    Ok(Question { slot: "share", prompt: msg!("q-share", task = t.name, run = RUN_MS), answer, steps })
}

/// `part` of `whole` in percent.
fn percent(part: u64, whole: u64) -> f64 {
    part as f64 * 100.0 / whole.max(1) as f64
}

/// One of the hand schedule's turns as the kernel ran it, with the value of `key` (`vr`,
/// `pass`) its `in` and `out` events report and the CPU time it ran (`ran`).
pub struct Grown<'a> {
    pub stint: &'a Stint,
    pub before: i64,
    pub after: i64,
    pub ran: i64,
}

pub fn pick_turn<'a>(run: &'a Run, rng: &mut Rng, turns: usize, key: &str) -> Result<Grown<'a>, Ambiguous> {
    let matched: Vec<&Stint> = stints(run).take(turns).collect();
    let s = *rng.pick(&matched);
    let event = |kind: Kind, at: u64| run.events_of(s.tid).find(|e| e.kind == kind && e.time_ns == at).ok_or(Ambiguous);
    let (inn, out) = (event(Kind::In, s.from)?, event(Kind::Out, s.to)?);
    let field = |e: &runqueue_report::trace::Event, key: &str| e.num(key).ok_or(Ambiguous);
    Ok(Grown { stint: s, before: field(inn, key)?, after: field(out, key)?, ran: field(out, "ran")? })
}

/// When a task other than the one that starts the run first runs (its first turn is one of the
/// hand's).
pub fn q_first_run(run: &Run, rng: &mut Rng, turns: &[Turn]) -> Result<Question, Ambiguous> {
    let later: Vec<&Stint> = first_turns(run, turns).into_iter().skip(1).collect();
    if later.is_empty() {
        return Err(Ambiguous);
    }
    let s = *rng.pick(&later);
    let name = run.name(s.tid).to_string();
    let steps = vec![msg!("s-first-run", task = name, t = ms(s.from))];
    Ok(Question { slot: "first-run", prompt: msg!("q-first-run", task = name), answer: Answer::time(s.from, AT_TICK), steps })
}

/// How long a task's first turn lasts (one of the hand's).
pub fn q_first_turn(run: &Run, rng: &mut Rng, turns: &[Turn]) -> Result<Question, Ambiguous> {
    let first = first_turns(run, turns);
    let s = *rng.pick(&first);
    let name = run.name(s.tid).to_string();
    let steps = vec![msg!("s-first-turn", task = name, from = ms(s.from), to = ms(s.to), value = ms(s.to - s.from))];
    Ok(Question { slot: "first-turn", prompt: msg!("q-first-turn", task = name), answer: Answer::time(s.to - s.from, AT_TICK), steps })
}

/// Each task's first stint, where it is one of the hand schedule's turns.
fn first_turns<'a>(run: &'a Run, turns: &[Turn]) -> Vec<&'a Stint> {
    let matched: Vec<&Stint> = stints(run).take(turns.len()).collect();
    matched.iter().enumerate().filter(|(i, s)| matched[..*i].iter().all(|o| o.tid != s.tid)).map(|(_, s)| *s).collect()
}
