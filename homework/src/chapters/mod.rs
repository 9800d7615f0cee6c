//! The chapters' generators. Each draws a workload for a level (`draft`), and asks its
//! questions of the kernel's run of it (`ask`), which is where every answer comes from. The
//! helpers here are the questions several chapters ask and the checks that a run answers them
//! clearly.

mod busy;
mod cfs;
mod cores;
mod deadline;
mod eevdf;
mod fifo_rr;
mod mlfq;
mod rt;
mod sjf;
mod stride;

use crate::message::Message;
use crate::problem::{Answer, Cell, Question, Table, Tolerance, Unit};
use runqueue_report::trace::Kind;
use crate::rng::Rng;
use crate::hand::{self, End, Policy};
use crate::run::{Run, Stint, ms};
use crate::{Ambiguous, Level, msg};
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use alloc::{format, vec};

pub struct Chapter {
    /// Its place in [`CHAPTERS`], mixed into every draw's seed.
    pub index: usize,
    /// What `--chapter` takes and the page's `data-chapter` says.
    pub name: &'static str,
    /// Other names `--chapter` accepts (the policies the chapter covers).
    pub aliases: &'static [&'static str],
    /// The book's chapter, for headings.
    pub title: &'static str,
    pub draft: fn(Level, &mut Rng) -> Draft,
    pub ask: Ask,
}

/// A chapter's questions about the kernel's run of a draft.
pub type Ask = fn(Level, &Draft, &Run, &mut Rng) -> Result<Vec<Question>, Ambiguous>;

pub const CHAPTERS: &[Chapter] = &[fifo_rr::CHAPTER, sjf::CHAPTER, mlfq::CHAPTER, stride::CHAPTER, cfs::CHAPTER, eevdf::CHAPTER, rt::CHAPTER, deadline::CHAPTER, cores::CHAPTER];

impl Chapter {
    /// The chapter a name or alias means.
    pub fn find(name: &str) -> Result<&'static Chapter, String> {
        CHAPTERS.iter().find(|c| c.name == name || c.aliases.contains(&name)).ok_or_else(|| {
            let names: Vec<&str> = CHAPTERS.iter().map(|c| c.name).collect();
            format!("unknown chapter '{name}': choose one of {}", names.join(", "))
        })
    }
}

/// A draw, before the kernel ran it: the command line, what the student is told, and what
/// the questions need to know of it.
pub struct Draft {
    /// The kernel's words, in order (`sched`, `workload`, then the rest).
    pub words: Vec<(&'static str, String)>,
    pub harts: u32,
    pub setup: Vec<Message>,
    pub table: Table,
    pub rules: Vec<Message>,
    /// The tasks' names in the kernel's creation order (tid 1 first).
    pub tasks: Vec<String>,
    /// Numbers the chapter's questions need (a slice, a quantum): name, value.
    pub params: Vec<(&'static str, u64)>,
    /// The tasks as the hand calculation takes them (single-hart chapters).
    pub jobs: Vec<hand::Job>,
}

impl Draft {
    /// The kernel's command line, every arrival `lead_us` later (see [`crate::Plan::args`]);
    /// it names the harts (`smp=`) when there are several, as the machine reads them from it.
    pub fn args(&self, lead_us: u64) -> String {
        let shift = |list: &str| {
            let v: Vec<u64> = list.split(',').filter_map(|a| a.parse::<u64>().ok()).map(|a| a + lead_us).collect();
            self::list(&v)
        };
        let mut words: Vec<String> = self.words.iter().map(|(k, v)| if *k == ARRIVALS { format!("{k}={}", shift(v)) } else { format!("{k}={v}") }).collect();
        if self.harts > 1 {
            words.push(format!("smp={}", self.harts));
        }
        words.join(" ")
    }

    pub fn param(&self, name: &str) -> u64 {
        self.params.iter().find(|(n, _)| *n == name).map_or(0, |(_, v)| *v)
    }
}

/// The kernel's word for the tasks' arrivals, in µs after its workload's clock starts.
pub const ARRIVALS: &str = "wl.arrive_us";

/// A comma-separated list, as the kernel takes per-task values.
pub fn list(values: &[u64]) -> String {
    let v: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    v.join(",")
}

/// Times a student works out by hand against the kernel's, which its own work makes a little
/// later (`rule-overhead`).
pub const TIME: Tolerance = Tolerance { abs: 1.0, rel: 0.05 };

/// `count` batch jobs (`workload=timed-bursts`): bursts in whole ms; the first arrives at 0, each
/// other at 0 or half way between two ticks up to `spread` ms (0: all together).
pub struct Jobs {
    pub burst: Vec<u64>,
    /// In µs: 0, 500, 1500, ...
    pub arrive_us: Vec<u64>,
}

impl Jobs {
    pub fn draw(rng: &mut Rng, count: usize, burst: (u64, u64), spread: u64) -> Jobs {
        let burst = (0..count).map(|_| rng.range(burst.0, burst.1)).collect();
        let mut arrive_us: Vec<u64> = (0..count).map(|i| if i == 0 || spread == 0 { 0 } else { rng.range(0, spread) }).map(|a| if a == 0 { 0 } else { a * 1000 - 500 }).collect();
        arrive_us.sort();
        Jobs { burst, arrive_us }
    }

    pub fn names(&self) -> Vec<String> {
        (0..self.burst.len()).map(|i| format!("job{i}")).collect()
    }

    /// The kernel's words for these jobs after `sched` and its tunables.
    pub fn words(&self) -> Vec<(&'static str, String)> {
        vec![("workload", String::from("timed-bursts")), ("wl.burst_ms", list(&self.burst)), (ARRIVALS, list(&self.arrive_us))]
    }

    /// The jobs as the hand calculation takes them.
    pub fn hand(&self) -> Vec<hand::Job> {
        self.burst.iter().zip(&self.arrive_us).map(|(&b, &a)| hand::Job::new(a, b)).collect()
    }

    pub fn table(&self) -> Table {
        let rows = (0..self.burst.len())
            .map(|i| vec![Cell::Text(format!("job{i}")), Cell::Text(ms_text(self.arrive_us[i] * 1000)), Cell::Text(self.burst[i].to_string())])
            .collect();
        Table { head: vec![msg!("col-task"), msg!("col-arrive"), msg!("col-burst")], rows }
    }
}

/// A time in ms as a table prints it: `0`, `1.5`, `12`.
pub fn ms_text(ns: u64) -> String {
    crate::problem::fmt_num(ns as f64 / 1e6)
}

// ---- Questions several chapters ask ----

pub fn q_order(run: &Run) -> Question {
    let value = run.finish_order();
    let steps = value.iter().map(|n| msg!("s-finished", task = n, t = ms(run.result.task(n).map_or(0, |t| t.finish_ns)))).collect();
    Question { slot: "order", prompt: msg!("q-order"), answer: Answer::Order { value }, steps }
}

pub fn q_turnaround(run: &Run, tid: u32) -> Question {
    let t = run.task(tid);
    let steps = vec![msg!("s-turnaround", task = t.name, arrive = ms(t.arrive_ns), finish = ms(t.finish_ns), value = ms(t.turnaround_ns))];
    Question { slot: "turnaround", prompt: msg!("q-turnaround", task = t.name), answer: Answer::time(t.turnaround_ns, TIME), steps }
}

pub fn q_response(run: &Run, tid: u32) -> Question {
    let t = run.task(tid);
    let first = t.arrive_ns + t.response_ns;
    let steps = vec![msg!("s-response", task = t.name, arrive = ms(t.arrive_ns), first = ms(first), value = ms(t.response_ns))];
    Question { slot: "response", prompt: msg!("q-response", task = t.name), answer: Answer::time(t.response_ns, TIME), steps }
}

/// The mean of one figure over all tasks, with the sum written out.
fn q_average(run: &Run, slot: &'static str, prompt: Message, figure: fn(&runqueue_report::TaskResult) -> u64) -> Question {
    let values: Vec<u64> = run.result.tasks.iter().map(figure).collect();
    let mean = values.iter().sum::<u64>() / values.len().max(1) as u64;
    let terms: Vec<String> = values.iter().map(|&v| ms(v)).collect();
    let steps = vec![msg!("s-average", terms = terms.join(" + "), n = values.len(), value = ms(mean))];
    Question { slot, prompt, answer: Answer::time(mean, TIME), steps }
}

pub fn q_avg_turnaround(run: &Run) -> Question {
    q_average(run, "avg-turnaround", msg!("q-avg-turnaround"), |t| t.turnaround_ns)
}

pub fn q_avg_response(run: &Run) -> Question {
    q_average(run, "avg-response", msg!("q-avg-response"), |t| t.response_ns)
}

/// Which task runs at a quarter ms inside a turn of the hand schedule and well inside the
/// kernel's matching stint: switches of the hand calculation fall on half ms, so the answer
/// is one, whatever the kernel's few hundred µs of lag.
pub fn q_running(run: &Run, rng: &mut Rng, turns: &[hand::Turn]) -> Result<Question, Ambiguous> {
    let stints: Vec<_> = run.stints.iter().filter(|s| s.hart == 0).collect();
    let mut times = Vec::new();
    for (turn, s) in turns.iter().zip(&stints) {
        times_inside(turn.from, turn.to, s, &mut times);
    }
    if times.is_empty() {
        return Err(Ambiguous);
    }
    let (t, s) = rng.pick(&times).clone();
    let names: Vec<String> = run.result.tasks.iter().map(|t| t.name.clone()).collect();
    let task = run.name(s.tid).to_string();
    let steps = vec![msg!("s-running", t = ms(t), task = task, from = ms(s.from), to = ms(s.to))];
    Ok(Question { slot: "running", prompt: msg!("q-running", t = ms(t)), answer: Answer::Choice { value: task, choices: names }, steps })
}

/// How far from a stint's ends `q_running` asks.
const MARGIN_NS: u64 = 200_000;

/// The quarter ms inside a hand turn (`from`..`to`, in half ms) that are well inside the
/// kernel's stint `s` that matches it, each with `s`, into `out`.
pub fn times_inside(from: u64, to: u64, s: &Stint, out: &mut Vec<(u64, Stint)>) {
    let mut t = from * 500_000 + 250_000;
    while t < to * 500_000 {
        if t >= s.from + MARGIN_NS && t + MARGIN_NS <= s.to {
            out.push((t, s.clone()));
        }
        t += 500_000;
    }
}

/// A task's MLFQ level at a half ms, where none of its moves is near: drawn among the tasks
/// there at that moment.
pub fn q_level_at(run: &Run, rng: &mut Rng) -> Result<Question, Ambiguous> {
    let mut candidates = Vec::new();
    for t in &run.result.tasks {
        let moves: Vec<u64> = run.events_of(t.tid).filter(|e| e.kind == Kind::State && e.num("lvl").is_some()).map(|e| e.time_ns).collect();
        let mut at = (t.arrive_ns / 1_000_000) * 1_000_000 + 1_250_000;
        while at + MARGIN_NS < t.finish_ns {
            if moves.iter().all(|&m| m.abs_diff(at) > 2 * MARGIN_NS) && !moves.is_empty() && moves[0] < at {
                candidates.push((t.tid, at));
            }
            at += 500_000;
        }
    }
    if candidates.is_empty() {
        return Err(Ambiguous);
    }
    let (tid, at) = *rng.pick(&candidates);
    let level = run.field_at(tid, "lvl", at).ok_or(Ambiguous)?;
    let name = run.name(tid).to_string();
    let moves: Vec<String> = run.events_of(tid).filter(|e| e.kind == Kind::State && e.time_ns <= at).filter_map(|e| Some(format!("{} ({} ms)", e.num("lvl")?, ms(e.time_ns)))).collect();
    let steps = vec![msg!("s-level", task = name, moves = moves.join(", "), t = ms(at), level = level)];
    Ok(Question { slot: "level", prompt: msg!("q-level", task = name, t = ms(at)), answer: Answer::Number { value: level as f64, decimals: 0, unit: Unit::Count, tol: EXACT }, steps })
}

/// When a task reaches an MLFQ level (the deepest any task reached, from level 2 on).
pub fn q_reaches_level(run: &Run, rng: &mut Rng) -> Result<Question, Ambiguous> {
    let level = run.events.iter().filter(|e| e.kind == Kind::State).filter_map(|e| e.num("lvl")).max().unwrap_or(0) as u64;
    if level < 2 {
        return Err(Ambiguous);
    }
    let reached: Vec<(u32, u64)> = run
        .result
        .tasks
        .iter()
        .filter_map(|t| run.events_of(t.tid).find(|e| e.kind == Kind::State && e.num("lvl") == Some(level as i64)).map(|e| (t.tid, e.time_ns, t.finish_ns)))
        // A move within µs of the task's exit may be the tick's or not: by hand it is unclear.
        .filter(|&(_, at, finish)| at + 2 * MARGIN_NS < finish)
        .map(|(tid, at, _)| (tid, at))
        .collect();
    if reached.is_empty() {
        return Err(Ambiguous);
    }
    let (tid, at) = *rng.pick(&reached);
    let name = run.name(tid).to_string();
    let steps = vec![msg!("s-reaches", task = name, level = level, t = ms(at))];
    Ok(Question { slot: "reaches-level", prompt: msg!("q-reaches", task = name, level = level), answer: Answer::time(at, TIME), steps })
}

/// The batch chapters' questions: the finish order, one task's turnaround and another's
/// response time (`second_ok` says which may be asked), and by level: the average `easy`
/// asks, which task runs at a time, and both for `hard`.
pub fn batch_questions(level: Level, run: &Run, rng: &mut Rng, turns: &[hand::Turn], second_ok: impl Fn(u32) -> bool, easy: fn(&Run) -> Question, hard: fn(&Run) -> Question) -> Result<Vec<Question>, Ambiguous> {
    let first = any_task(run, rng);
    let mut second = any_task(run, rng);
    while second == first || !second_ok(second) {
        second = any_task(run, rng);
    }
    let mut qs = vec![q_order(run), q_turnaround(run, first), q_response(run, second)];
    match level {
        Level::Easy => qs.push(easy(run)),
        Level::Medium => qs.push(q_running(run, rng, turns)?),
        Level::Hard => {
            qs.push(q_running(run, rng, turns)?);
            qs.push(hard(run));
        }
    }
    Ok(qs)
}

/// Exact: levels, counts.
pub const EXACT: Tolerance = Tolerance { abs: 0.0, rel: 0.0 };

/// The tid of one task, drawn.
pub fn any_task(run: &Run, rng: &mut Rng) -> u32 {
    rng.pick(&run.result.tasks).tid
}

pub fn names_of(run: &Run) -> Vec<String> {
    run.result.tasks.iter().map(|t| t.name.to_string()).collect()
}

/// The rule that explains how long a turn lasts when a limit is checked at ticks.
pub fn tick_turn() -> Message {
    msg!("rule-tick-turn")
}

/// The draw may be asked only when the stated rules, applied by hand, give the kernel's
/// schedule turn for turn (`hand.rs`): the same tasks in the same order, ending the same way,
/// each switch within the kernel's lag of the hand calculation's; and only when every task's
/// turnaround and response time worked by hand is within the questions' tolerance of the
/// kernel's, so a student who follows the rules is marked right.
pub fn as_by_hand(run: &Run, policy: Policy, jobs: &[hand::Job]) -> Result<Vec<hand::Turn>, Ambiguous> {
    let turns = hand::schedule(policy, jobs).ok_or(Ambiguous)?;
    let stints: Vec<_> = run.stints.iter().filter(|s| s.hart == 0).collect();
    if turns.len() != stints.len() {
        return Err(Ambiguous);
    }
    for (t, s) in turns.iter().zip(stints) {
        let end = if t.end == End::Exit { "exit" } else { "preempt" };
        if s.tid != t.job as u32 + 1 || s.why != end || !near_hand(s.from, t.from) || !near_hand(s.to, t.to) {
            return Err(Ambiguous);
        }
    }
    for (i, job) in jobs.iter().enumerate() {
        let task = run.task(i as u32 + 1);
        let mut mine = turns.iter().filter(|t| t.job == i);
        let (first, last) = (mine.clone().next().ok_or(Ambiguous)?, mine.next_back().ok_or(Ambiguous)?);
        let arrive = job.arrive_us * 1000;
        let by_hand = [first.from * 500_000 - arrive, last.to * 500_000 - arrive];
        for (hand, kernel) in by_hand.into_iter().zip([task.response_ns, task.turnaround_ns]) {
            if Answer::time(kernel, TIME).check(&ms(hand)) != Ok(true) {
                return Err(Ambiguous);
            }
        }
    }
    Ok(turns)
}

/// Whether a kernel time (ns) is within its lag of a half ms `half` of a hand schedule.
pub fn near_hand(kernel: u64, half: u64) -> bool {
    kernel.abs_diff(half * 500_000) <= LAG_NS + half * 500_000 * LAG_PERCENT / 100
}

/// How far the kernel's switches may be from the hand calculation's: the kernel starts its
/// workload's clock a little before its first task runs and its ticks a little after (the boot's
/// last steps), its switches and ticks cost a few µs each, and its tasks' work about 2.5 % more
/// than the bare instructions.
const LAG_NS: u64 = 300_000;
const LAG_PERCENT: u64 = 3;
