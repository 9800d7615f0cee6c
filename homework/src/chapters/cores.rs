//! Chapter 11, many cores: batch jobs (`workload=timed-bursts`) under FIFO on two or three
//! harts, each with its own run queue (`rq=perhart`, the default). The questions are about
//! where the kernel puts them: which hart's queue a job joins when it arrives (`place_new`),
//! which job a hart runs at a time, how many times an idle hart pulls a waiting job from
//! another (newidle balancing), on which hart a moved job finishes, and a job's turnaround.
//! Easy: two harts, jobs arriving together. Medium: two harts, arrivals over a few ms. Hard:
//! three harts, one job pinned to one of them (`affinity=`).

use super::{Chapter, Draft, EXACT, Jobs, TIME, any_task, near_hand, q_order, q_turnaround, times_inside};
use crate::hand::harts::{self, Schedule};
use crate::problem::{Answer, Cell, Question, Unit};
use crate::rng::Rng;
use crate::run::{Run, ms};
use crate::{Ambiguous, Level, msg};
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use runqueue_report::trace::Kind;

pub const CHAPTER: Chapter = Chapter { index: 10, name: "many-cores", aliases: &["smp", "harts", "balance"], title: "Many cores", draft, ask };

fn draft(level: Level, rng: &mut Rng) -> Draft {
    let (harts, count, spread) = match level {
        Level::Easy => (2, rng.range(4, 5) as usize, 0),
        Level::Medium => (2, rng.range(4, 5) as usize, 5),
        Level::Hard => (3, rng.range(5, 6) as usize, 5),
    };
    let jobs = Jobs::draw(rng, count, (1, 8), spread);
    // Hard: one job (not the first) may run on one hart only.
    let mut allowed = vec![0u32; count];
    if level == Level::Hard {
        let pinned = rng.range(1, count as u64 - 1) as usize;
        allowed[pinned] = 1 << rng.range(0, u64::from(harts) - 1);
    }
    let mut words = vec![("sched", "fifo".to_string())];
    words.extend(jobs.words());
    let mut table = jobs.table();
    let mut rules = vec![msg!("rule-harts", harts = harts, last = harts - 1), msg!("rule-tie-creation"), msg!("rule-harts-fifo"), msg!("rule-place"), msg!("rule-pull")];
    if let Some(pinned) = allowed.iter().position(|&a| a != 0) {
        let hart = allowed[pinned].trailing_zeros();
        words.push(("affinity", super::list(&allowed.iter().map(|&a| u64::from(a)).collect::<Vec<_>>())));
        table.head.push(msg!("col-harts"));
        for (row, &a) in table.rows.iter_mut().zip(&allowed) {
            row.push(if a == 0 { Cell::Message(msg!("any-hart")) } else { Cell::Text(a.trailing_zeros().to_string()) });
        }
        rules.push(msg!("rule-pin", task = jobs.names()[pinned], hart = hart));
    }
    rules.push(msg!("rule-overhead"));
    let mut params = vec![("harts", u64::from(harts))];
    params.extend(allowed.iter().map(|&a| ("allowed", u64::from(a))));
    Draft { words, harts, setup: vec![msg!("setup-harts", harts = harts)], table, rules, tasks: jobs.names(), params, jobs: jobs.hand() }
}

fn ask(level: Level, draft: &Draft, run: &Run, rng: &mut Rng) -> Result<Vec<Question>, Ambiguous> {
    let allowed: Vec<u32> = draft.params.iter().filter(|(n, _)| *n == "allowed").map(|(_, v)| *v as u32).collect();
    let hand = as_by_hand(run, draft.harts, &draft.jobs, &allowed)?;
    // Placement is asked of a job the rules place by loads: not the first, nor a pinned one.
    let placed: Vec<u32> = (2..=draft.tasks.len() as u32).filter(|&tid| allowed[tid as usize - 1] == 0).collect();
    let mut qs = vec![q_placed(run, *rng.pick(&placed))?, q_turnaround(run, any_task(run, rng)), q_running_on(run, rng, &hand)?];
    match level {
        Level::Easy => qs.push(q_order(run)),
        Level::Medium => qs.push(q_migrations(run)),
        Level::Hard => {
            qs.push(q_migrations(run));
            // Where a moved job finishes; with no move, that is where it was placed: the order.
            qs.push(if hand.moves.is_empty() { q_order(run) } else { q_last_hart(run, rng, &hand) });
        }
    }
    Ok(qs)
}

/// The draw may be asked only when the stated rules give the kernel's run: every job placed
/// on the hart the rules place it on, the same moves, and on each hart the same jobs in the
/// same order, each start and finish within the kernel's lag of the hand's; and every job's
/// turnaround worked by hand within the question's tolerance of the kernel's.
fn as_by_hand(run: &Run, harts: u32, jobs: &[crate::hand::Job], allowed: &[u32]) -> Result<Schedule, Ambiguous> {
    let hand = harts::schedule(harts, jobs, allowed).ok_or(Ambiguous)?;
    for (i, &hart) in hand.placed.iter().enumerate() {
        if placed_on(run, i as u32 + 1) != Some(i64::from(hart)) {
            return Err(Ambiguous);
        }
    }
    let moves: Vec<(u32, i64, i64)> = run.events.iter().filter(|e| e.kind == Kind::Migrate).map(|e| (e.tid, e.num("from").unwrap_or(-1), e.num("to").unwrap_or(-1))).collect();
    let by_hand: Vec<(u32, i64, i64)> = hand.moves.iter().map(|m| (m.job as u32 + 1, i64::from(m.from), i64::from(m.to))).collect();
    if moves != by_hand {
        return Err(Ambiguous);
    }
    for h in 0..harts {
        let stints: Vec<_> = run.stints.iter().filter(|s| s.hart == h).collect();
        let turns: Vec<_> = hand.turns.iter().filter(|t| t.hart == h).collect();
        if stints.len() != turns.len() {
            return Err(Ambiguous);
        }
        for (s, t) in stints.iter().zip(turns) {
            if s.tid != t.job as u32 + 1 || s.why != "exit" || !near_hand(s.from, t.from) || !near_hand(s.to, t.to) {
                return Err(Ambiguous);
            }
        }
    }
    for t in &hand.turns {
        let task = run.task(t.job as u32 + 1);
        let turnaround = t.to * 500_000 - jobs[t.job].arrive_us * 1000;
        if Answer::time(task.turnaround_ns, TIME).check(&ms(turnaround)) != Ok(true) {
            return Err(Ambiguous);
        }
    }
    Ok(hand)
}

/// The hart whose queue a task joined when it arrived: its `new` event's `rq=`.
fn placed_on(run: &Run, tid: u32) -> Option<i64> {
    run.events_of(tid).find(|e| e.kind == Kind::New)?.num("rq")
}

fn hart_choices(run: &Run) -> Vec<String> {
    (0..run.result.smp).map(|h| h.to_string()).collect()
}

fn q_placed(run: &Run, tid: u32) -> Result<Question, Ambiguous> {
    let hart = placed_on(run, tid).ok_or(Ambiguous)?;
    let t = run.task(tid);
    let steps = vec![msg!("s-placed", task = t.name, t = ms(t.arrive_ns), hart = hart)];
    Ok(Question { slot: "placed", prompt: msg!("q-placed", task = t.name), answer: Answer::Choice { value: hart.to_string(), choices: hart_choices(run) }, steps })
}

/// Which task a hart runs at a quarter ms well inside one of its hand turns and the kernel's
/// matching stint (as `super::q_running`, on one hart).
fn q_running_on(run: &Run, rng: &mut Rng, hand: &Schedule) -> Result<Question, Ambiguous> {
    let mut times = Vec::new();
    for turn in &hand.turns {
        let s = run.stints.iter().find(|s| s.hart == turn.hart && s.tid == turn.job as u32 + 1).ok_or(Ambiguous)?;
        times_inside(turn.from, turn.to, s, &mut times);
    }
    if times.is_empty() {
        return Err(Ambiguous);
    }
    let (t, s) = rng.pick(&times).clone();
    let task = run.name(s.tid).to_string();
    let steps = vec![msg!("s-running-on", t = ms(t), hart = s.hart, task = task, from = ms(s.from), to = ms(s.to))];
    let names = super::names_of(run);
    Ok(Question { slot: "running-on", prompt: msg!("q-running-on", hart = s.hart, t = ms(t)), answer: Answer::Choice { value: task, choices: names }, steps })
}

/// How many `migrate` events the run has, each listed.
fn q_migrations(run: &Run) -> Question {
    let moves: Vec<_> = run.events.iter().filter(|e| e.kind == Kind::Migrate).collect();
    let mut steps = vec![msg!("s-migrations", n = moves.len())];
    for e in &moves {
        steps.push(msg!("s-moved", task = run.name(e.tid), from = e.num("from").unwrap_or(0), to = e.num("to").unwrap_or(0), t = ms(e.time_ns)));
    }
    Question { slot: "migrations", prompt: msg!("q-migrations"), answer: Answer::Number { value: moves.len() as f64, decimals: 0, unit: Unit::Count, tol: EXACT }, steps }
}

/// On which hart a moved task finishes.
fn q_last_hart(run: &Run, rng: &mut Rng, hand: &Schedule) -> Question {
    let moved: Vec<u32> = hand.moves.iter().map(|m| m.job as u32 + 1).collect();
    let tid = *rng.pick(&moved);
    let s = run.stints_of(tid).last().expect("every task ran").clone();
    let name = run.name(tid).to_string();
    let steps = vec![msg!("s-last-hart", task = name, hart = s.hart, from = ms(s.from), to = ms(s.to))];
    Question { slot: "last-hart", prompt: msg!("q-last-hart", task = name), answer: Answer::Choice { value: s.hart.to_string(), choices: hart_choices(run) }, steps }
}
