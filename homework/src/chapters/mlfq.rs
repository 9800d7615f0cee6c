//! Chapter 5, the multi-level feedback queue: batch jobs under `sched=mlfq` with three or four
//! levels whose quantum and allotment are 1, 2, 4, ... ms (the kernel's defaults, OSTEP's
//! `-a 1`), without a priority boost (the hand rules do not place one as the kernel does yet).
//! Easy: jobs arriving together. Medium: arrivals over a few ms. Hard: four levels and longer
//! jobs (three: with four, most draws left some step of the hand rules to the kernel's µs).

use super::{Chapter, Draft, Jobs, any_task, as_by_hand, q_level_at, q_order, q_reaches_level, q_running, q_turnaround};
use crate::hand::Policy;
use crate::problem::Question;
use crate::rng::Rng;
use crate::run::Run;
use crate::{Ambiguous, Level, msg};
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

pub const CHAPTER: Chapter = Chapter { index: 2, name: "mlfq", aliases: &[], title: "The multi-level feedback queue", draft, ask };

fn draft(level: Level, rng: &mut Rng) -> Draft {
    let (count, spread, levels) = match level {
        Level::Easy => (rng.range(2, 3) as usize, 0, 3),
        Level::Medium => (3, 5, 3),
        Level::Hard => (3, 6, 4),
    };
    let jobs = Jobs::draw(rng, count, if level == Level::Hard { (3, 12) } else { (2, 9) }, spread);
    let mut words = vec![("sched", "mlfq".to_string()), ("mlfq.levels", levels.to_string()), ("mlfq.boost_ms", "0".to_string())];
    words.extend(jobs.words());
    let mut rules = vec![msg!("rule-machine"), msg!("rule-tie-creation"), msg!("rule-mlfq", levels = levels, bottom = levels - 1)];
    rules.push(msg!("rule-mlfq-no-boost"));
    rules.push(super::tick_turn());
    rules.push(msg!("rule-overhead"));
    Draft {
        words,
        harts: 1,
        setup: vec![msg!("setup-jobs", policy = msg!("policy-mlfq").english())],
        table: jobs.table(),
        rules,
        tasks: jobs.names(),
        params: vec![("levels", levels)],
        jobs: jobs.hand(),
    }
}

fn ask(level: Level, draft: &Draft, run: &Run, rng: &mut Rng) -> Result<Vec<Question>, Ambiguous> {
    let levels = draft.param("levels");
    let turns = as_by_hand(run, Policy::Mlfq { levels: levels as u32 }, &draft.jobs)?;
    let first = any_task(run, rng);
    let mut qs = vec![q_order(run), q_turnaround(run, first), q_level_at(run, rng)?, q_running(run, rng, &turns)?];
    if level != Level::Easy {
        qs.push(q_reaches_level(run, rng)?);
    }
    Ok(qs)
}
