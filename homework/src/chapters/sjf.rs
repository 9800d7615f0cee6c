//! Chapter 4, shortest job first: batch jobs (`workload=timed-bursts`, each declaring its burst)
//! under `sched=sjf`, non-preemptive or, with `sjf.preempt=1`, preemptive (STCF). Easy: SJF, jobs
//! arriving together. Medium: SJF with arrivals over a few ms. Hard: STCF with arrivals.

use super::{Chapter, Draft, Jobs, as_by_hand, batch_questions, q_avg_turnaround};
use crate::hand::Policy;
use crate::problem::Question;
use crate::rng::Rng;
use crate::run::Run;
use crate::{Ambiguous, Level, msg};
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

pub const CHAPTER: Chapter = Chapter { index: 1, name: "sjf", aliases: &["stcf", "srtf"], title: "Shortest job first", draft, ask };

fn draft(level: Level, rng: &mut Rng) -> Draft {
    let (count, spread, stcf) = match level {
        Level::Easy => (rng.range(3, 4) as usize, 0, false),
        Level::Medium => (4, 6, false),
        Level::Hard => (rng.range(4, 5) as usize, 8, true),
    };
    // Distinct bursts: the rules need no tie-break between them.
    let mut jobs = Jobs::draw(rng, count, (1, 9), spread);
    jobs.burst = rng.distinct(count, 1, 10);
    let mut words = vec![("sched", "sjf".to_string())];
    if stcf {
        words.push(("sjf.preempt", "1".to_string()));
    }
    words.extend(jobs.words());
    let policy = if stcf { msg!("policy-stcf") } else { msg!("policy-sjf") };
    let mut rules = vec![msg!("rule-machine"), msg!("rule-declared"), msg!("rule-tie-creation")];
    if stcf {
        rules.push(msg!("rule-stcf"));
        rules.push(msg!("rule-stcf-pick"));
    } else {
        rules.push(msg!("rule-sjf"));
    }
    rules.push(msg!("rule-overhead"));
    Draft { words, harts: 1, setup: vec![msg!("setup-jobs", policy = policy.english())], table: jobs.table(), rules, tasks: jobs.names(), params: vec![("stcf", stcf as u64)], jobs: jobs.hand() }
}

fn ask(level: Level, draft: &Draft, run: &Run, rng: &mut Rng) -> Result<Vec<Question>, Ambiguous> {
    let turns = as_by_hand(run, if draft.param("stcf") == 1 { Policy::Stcf } else { Policy::Sjf }, &draft.jobs)?;
    batch_questions(level, run, rng, &turns, |_| true, q_avg_turnaround, q_avg_turnaround)
}

