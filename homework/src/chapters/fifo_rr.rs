//! Chapter 3, FIFO and Round Robin: batch jobs (`workload=timed-bursts`) under `sched=fifo` or
//! `sched=rr` with a slice of a few ms. Easy: FIFO, three jobs arriving together. Medium:
//! Round Robin, three jobs together. Hard: four or five jobs arriving over a few ms, under
//! Round Robin (or FIFO).

use super::{Chapter, Draft, Jobs, as_by_hand, batch_questions, q_avg_response, q_avg_turnaround};
use crate::hand::Policy;
use crate::problem::Question;
use crate::rng::Rng;
use crate::run::Run;
use crate::{Ambiguous, Level, msg};
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

pub const CHAPTER: Chapter = Chapter { index: 0, name: "fifo-rr", aliases: &["fifo", "rr"], title: "FIFO and Round Robin", draft, ask };

fn draft(level: Level, rng: &mut Rng) -> Draft {
    let (count, spread, rr) = match level {
        Level::Easy => (3, 0, false),
        Level::Medium => (3, 0, true),
        Level::Hard => (rng.range(4, 5) as usize, 6, rng.chance(3, 4)),
    };
    let q = if rr { rng.range(1, if level == Level::Hard { 3 } else { 2 }) } else { 0 };
    let mut jobs = Jobs::draw(rng, count, if rr { (2, 8) } else { (1, 9) }, spread);
    // A burst that fills its last turn exactly would end at that turn's tick, where the
    // kernel's overhead leaves a sliver of it for one more turn: draw another.
    for b in jobs.burst.iter_mut().filter(|_| rr) {
        while *b % (q + 1) == 0 {
            *b = rng.range(2, 8);
        }
    }
    let mut words = vec![("sched", if rr { "rr" } else { "fifo" }.to_string())];
    if rr {
        words.push(("rr.slice_ms", q.to_string()));
    }
    words.extend(jobs.words());
    let policy = if rr { msg!("policy-rr") } else { msg!("policy-fifo") };
    let mut rules = vec![msg!("rule-machine"), msg!("rule-tie-creation")];
    if rr {
        rules.push(msg!("rule-rr", q = q));
        rules.push(super::tick_turn());
    } else {
        rules.push(msg!("rule-fifo"));
    }
    rules.push(msg!("rule-overhead"));
    Draft {
        words,
        harts: 1,
        setup: vec![msg!("setup-jobs", policy = policy.english())],
        table: jobs.table(),
        rules,
        tasks: jobs.names(),
        params: vec![("q", q)],
        jobs: jobs.hand(),
    }
}

fn ask(level: Level, draft: &Draft, run: &Run, rng: &mut Rng) -> Result<Vec<Question>, Ambiguous> {
    let q = draft.param("q");
    let turns = as_by_hand(run, if q > 0 { Policy::Rr { q } } else { Policy::Fifo }, &draft.jobs)?;
    // The first task's response is 0 when all arrive together: asked only with arrivals.
    batch_questions(level, run, rng, &turns, |tid| tid != 1 || level == Level::Hard, q_avg_turnaround, q_avg_response)
}
