//! Chapter 10, SCHED_DEADLINE: two to four periodic tasks (`workload=deadline`, deadline =
//! period) on one hart, each job ending with `sched_yield` (`wl.yield=1`), so every task's
//! periods start at 0 and each job is released at the start of one. Easy: two or three tasks
//! whose jobs fit their runtime (90 % of it): plain EDF, and which task runs at a time, when a
//! job finishes, a job's response time. Medium (three tasks) and hard (four): every job needs
//! 1.5 times its task's runtime (the workload has one `wl.work_pct` for all tasks, so it cannot
//! make only one overrun), and the CBS throttles each: when a task is first throttled and when
//! it runs again, which task runs at a time, and (hard) when a task's first job finishes.

use super::{Chapter, Draft, TIME, names_of};
use crate::hand::deadline::{self, End, Turn};
use crate::problem::{Answer, Question, Table, text_row};
use crate::rng::Rng;
use crate::run::{Run, Stint, ms};
use crate::{Ambiguous, Level, msg};
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use runqueue_report::trace::{Event, Kind};

pub const CHAPTER: Chapter = Chapter { index: 9, name: "deadline", aliases: &["edf", "sched_deadline", "cbs"], title: "SCHED_DEADLINE", draft, ask };

/// How long the workload releases jobs (counted in jobs: an overrunning task's run lasts
/// longer), and the part of the run the hand schedule covers and the questions ask about.
const RUN_MS: u64 = 40;
const WINDOW_MS: u64 = 30;
/// The params holding each task's runtime and period (ms), in creation order.
const RUNTIMES: [&str; 4] = ["runtime0", "runtime1", "runtime2", "runtime3"];
const PERIODS: [&str; 4] = ["period0", "period1", "period2", "period3"];
/// The bandwidth admission control lets deadline tasks reserve on one hart, in millionths.
const ADMITTED_PPM: u64 = 950_000;

fn draft(level: Level, rng: &mut Rng) -> Draft {
    let (count, pct) = match level {
        Level::Easy => (rng.range(2, 3) as usize, 90),
        Level::Medium => (3, 150),
        Level::Hard => (4, 150),
    };
    let (runtimes, periods) = draw_set(rng, count, pct);
    let tasks: Vec<String> = (0..count).map(|i| alloc::format!("job{i}")).collect();
    let words = vec![
        ("sched", "cfs".to_string()),
        ("workload", "deadline".to_string()),
        ("wl.period_us", super::list(&periods.iter().map(|p| p * 1000).collect::<Vec<_>>())),
        ("wl.runtime_us", super::list(&runtimes.iter().map(|r| r * 1000).collect::<Vec<_>>())),
        ("wl.work_pct", pct.to_string()),
        ("wl.yield", "1".to_string()),
        ("wl.run_ms", RUN_MS.to_string()),
    ];
    let rows = (0..count).map(|i| text_row(&[&tasks[i], &runtimes[i], &periods[i], &crate::problem::fmt_num((runtimes[i] * pct) as f64 / 100.0)])).collect();
    let table = Table { head: vec![msg!("col-task"), msg!("col-dl-runtime"), msg!("col-dl-period"), msg!("col-dl-work")], rows };
    let rules = vec![msg!("rule-dl-machine"), msg!("rule-dl-edf"), msg!("rule-dl-cbs"), msg!("rule-dl-yield"), msg!("rule-dl-overhead")];
    let setup = if pct > 100 { msg!("setup-dl-overrun", n = count, window = WINDOW_MS, pct = pct) } else { msg!("setup-dl", n = count, window = WINDOW_MS, pct = pct) };
    let mut params: Vec<(&'static str, u64)> = RUNTIMES.iter().zip(&runtimes).map(|(n, &r)| (*n, r)).collect();
    params.extend(PERIODS.iter().zip(&periods).map(|(n, &p)| (*n, p)));
    params.push(("pct", pct));
    Draft { words, harts: 1, setup: vec![setup], table, rules, tasks, params, jobs: Vec::new() }
}

/// Runtimes and periods in whole ms that admission control admits, reserving at least half
/// the hart: runtimes of 2-4 ms (a job's 90 % then leaves 0.2 ms or more for the kernel's
/// work), or of 2, 4 or 6 ms where a job needs 1.5 of them (whole ms of work).
fn draw_set(rng: &mut Rng, count: usize, pct: u64) -> (Vec<u64>, Vec<u64>) {
    let overrun = pct > 100;
    let period_hi = if overrun { 8 + 3 * count as u64 } else { 12 };
    loop {
        let periods: Vec<u64> = (0..count).map(|_| rng.range(4, period_hi)).collect();
        let runtimes: Vec<u64> = periods.iter().map(|&p| if overrun { 2 * rng.range(1, (p / 4).clamp(1, 3)) } else { rng.range(2, (p / 2).clamp(2, 4)) }).collect();
        let ppm: u64 = runtimes.iter().zip(&periods).map(|(r, p)| r * 1_000_000 / p).sum();
        if (500_000..=ADMITTED_PPM).contains(&ppm) {
            return (runtimes, periods);
        }
    }
}

fn ask(level: Level, draft: &Draft, run: &Run, rng: &mut Rng) -> Result<Vec<Question>, Ambiguous> {
    let count = draft.tasks.len();
    let pct = draft.param("pct");
    let tasks: Vec<deadline::Task> = (0..count)
        .map(|i| {
            let (runtime, period) = (draft.param(RUNTIMES[i]) * 1000, draft.param(PERIODS[i]) * 1000);
            deadline::Task { runtime, period, work: runtime * pct / 100 }
        })
        .collect();
    let pairs = as_by_hand(run, &tasks)?;
    let mut qs = Vec::new();
    if level == Level::Easy {
        qs.push(q_job_finish(run, rng, &pairs, 1)?);
        qs.push(q_job_response(run, rng, &pairs, &tasks)?);
    } else {
        qs.extend(q_throttled(run, rng, &pairs)?);
        if level == Level::Hard {
            qs.push(q_job_finish(run, rng, &pairs, 0)?);
        }
    }
    qs.push(q_running(run, rng, &pairs)?);
    Ok(qs)
}

/// A hand turn and the kernel's stint it is.
type Pair<'a> = (Turn, &'a Stint);

/// The hand schedule's turns over the window as far as the kernel's first stints are them
/// (at least four): the same task, ending the same way, each switch within the kernel's lag.
/// The questions ask only about these: a schedule up to a time does not depend on what comes
/// after it, so a later turn the kernel's µs decide otherwise (a budget that runs out just as
/// another task's period starts) leaves them as the hand has them.
fn as_by_hand<'a>(run: &'a Run, tasks: &[deadline::Task]) -> Result<Vec<Pair<'a>>, Ambiguous> {
    let turns = deadline::schedule(tasks, WINDOW_MS * 1000).ok_or(Ambiguous)?;
    let near = |kernel: u64, us: u64| kernel.abs_diff(us * 1000) <= LAG_NS + us * 1000 * LAG_PERCENT / 100;
    let same = |t: &Turn, s: &Stint| s.tid == t.task as u32 + 1 && kernel_end(run, s) == Some(t.end) && near(s.from, t.from) && near(s.to, t.to);
    let pairs: Vec<Pair> = turns.into_iter().zip(run.stints.iter().filter(|s| s.hart == 0)).take_while(|(t, s)| same(t, s)).collect();
    if pairs.len() < MIN_TURNS {
        return Err(Ambiguous);
    }
    Ok(pairs)
}

const MIN_TURNS: usize = 4;

/// How far the kernel's switches may be from the hand schedule's: its own work is charged to
/// the jobs, so within a busy stretch it falls behind by a few % of the time.
const LAG_NS: u64 = 300_000;
const LAG_PERCENT: u64 = 6;

/// How a kernel stint ended, as the hand schedule says it: a yield, or a preemption with the
/// budget used up (throttled) or left.
fn kernel_end(run: &Run, s: &Stint) -> Option<End> {
    match s.why.as_str() {
        "yield" => Some(End::Yield),
        "preempt" => Some(if out_event(run, s)?.num("left")? <= 0 { End::Throttle } else { End::Preempt }),
        _ => None,
    }
}

fn out_event<'a>(run: &'a Run, s: &Stint) -> Option<&'a Event> {
    run.events_of(s.tid).find(|e| e.kind == Kind::Out && e.time_ns == s.to)
}

/// The deadline an event reports, on the problem's clock.
fn deadline_of(run: &Run, e: &Event) -> Option<u64> {
    (e.num("dl")? as u64).checked_sub(run.start_ns)
}

/// A time the kernel's run gives, asked only when the hand schedule's is right by it.
fn time_answer(kernel_ns: u64, hand_us: u64) -> Result<Answer, Ambiguous> {
    let answer = Answer::time(kernel_ns, TIME);
    if answer.check(&ms(hand_us * 1000)) != Ok(true) {
        return Err(Ambiguous);
    }
    Ok(answer)
}

/// The jobs that finished (yielded) in the window: (pair, the task's job number from 1).
fn finished_jobs<'a>(pairs: &[Pair<'a>]) -> Vec<(Pair<'a>, u64)> {
    let mut count = [0u64; 4];
    pairs
        .iter()
        .filter(|(t, _)| t.end == End::Yield)
        .map(|&(t, s)| {
            count[t.task] += 1;
            ((t, s), count[t.task])
        })
        .collect()
}

/// When job k of a task finishes, k from `from_job + 1` (from its first job or its second).
fn q_job_finish(run: &Run, rng: &mut Rng, pairs: &[Pair], from_job: u64) -> Result<Question, Ambiguous> {
    let jobs: Vec<_> = finished_jobs(pairs).into_iter().filter(|&(_, k)| k > from_job).collect();
    if jobs.is_empty() {
        return Err(Ambiguous);
    }
    let ((t, s), k) = *rng.pick(&jobs);
    let answer = time_answer(s.to, t.to)?;
    let task = run.name(s.tid).to_string();
    let steps = vec![msg!("s-job-finish", task = task, k = k, t = ms(s.to))];
    Ok(Question { slot: "job-finish", prompt: msg!("q-job-finish", task = task, k = k), answer, steps })
}

/// The response time of job k ≥ 2 of a task: from its release, the start of its period (the
/// deadline of its previous job, as the kernel's server had it), to its finish.
fn q_job_response(run: &Run, rng: &mut Rng, pairs: &[Pair], tasks: &[deadline::Task]) -> Result<Question, Ambiguous> {
    let jobs = finished_jobs(pairs);
    let later: Vec<_> = jobs.iter().filter(|(_, k)| *k > 1).collect();
    if later.is_empty() {
        return Err(Ambiguous);
    }
    let &&((t, s), k) = rng.pick(&later);
    let ((_, before), _) = jobs.iter().find(|((p, _), j)| p.task == t.task && *j == k - 1).ok_or(Ambiguous)?;
    let release = deadline_of(run, out_event(run, before).ok_or(Ambiguous)?).ok_or(Ambiguous)?;
    let value = s.to.checked_sub(release).ok_or(Ambiguous)?;
    let answer = time_answer(value, t.to - (k - 1) * tasks[t.task].period)?;
    let task = run.name(s.tid).to_string();
    let steps = vec![msg!("s-job-response", task = task, k = k, release = ms(release), finish = ms(s.to), value = ms(value))];
    Ok(Question { slot: "job-response", prompt: msg!("q-job-response", task = task, k = k), answer, steps })
}

/// When a task is first throttled, and when it runs again: a task drawn among those the window
/// shows both for.
fn q_throttled(run: &Run, rng: &mut Rng, pairs: &[Pair]) -> Result<[Question; 2], Ambiguous> {
    let mut candidates = Vec::new();
    for task in 0..4 {
        let Some(at) = pairs.iter().position(|(t, _)| t.task == task && t.end == End::Throttle) else { continue };
        if let Some(next) = pairs[at + 1..].iter().find(|(t, _)| t.task == task) {
            candidates.push((pairs[at], *next));
        }
    }
    if candidates.is_empty() {
        return Err(Ambiguous);
    }
    let ((t, s), (again, again_s)) = *rng.pick(&candidates);
    let task = run.name(s.tid).to_string();
    let throttled = time_answer(s.to, t.to)?;
    let runs_again = time_answer(again_s.from, again.from)?;
    let in_event = run.events_of(s.tid).find(|e| e.kind == Kind::In && e.time_ns == again_s.from).ok_or(Ambiguous)?;
    let deadline = deadline_of(run, in_event).ok_or(Ambiguous)?;
    let left = out_event(run, s).and_then(|e| e.num("left")).ok_or(Ambiguous)?;
    let first = Question {
        slot: "throttled",
        prompt: msg!("q-throttled", task = task),
        answer: throttled,
        steps: vec![msg!("s-throttled", task = task, t = ms(s.to), left = left / 1000)],
    };
    let second = Question {
        slot: "runs-again",
        prompt: msg!("q-runs-again", task = task),
        answer: runs_again,
        steps: vec![msg!("s-runs-again", task = task, t = ms(again_s.from), deadline = ms(deadline))],
    };
    Ok([first, second])
}

/// Which task runs at a quarter ms well inside both a hand turn and the kernel's stint.
fn q_running(run: &Run, rng: &mut Rng, pairs: &[Pair]) -> Result<Question, Ambiguous> {
    let mut times = Vec::new();
    for (t, s) in pairs {
        let from = (t.from * 1000).max(s.from) + MARGIN_NS;
        let to = (t.to * 1000).min(s.to).saturating_sub(MARGIN_NS);
        let mut at = from.div_ceil(QUARTER_NS) * QUARTER_NS;
        while at <= to {
            times.push((at, *s));
            at += QUARTER_NS;
        }
    }
    if times.is_empty() {
        return Err(Ambiguous);
    }
    let &(at, s) = rng.pick(&times);
    let task = run.name(s.tid).to_string();
    let steps = vec![msg!("s-running", t = ms(at), task = task, from = ms(s.from), to = ms(s.to))];
    Ok(Question { slot: "running", prompt: msg!("q-running", t = ms(at)), answer: Answer::Choice { value: task, choices: names_of(run) }, steps })
}

const MARGIN_NS: u64 = 200_000;
const QUARTER_NS: u64 = 250_000;
