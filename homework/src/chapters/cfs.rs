//! Chapter 6, CFS: two to four busy tasks of different nice values (`workload=spin`, never
//! sleeping) under `sched=cfs` on one hart, with Linux's defaults (sched_latency 6 ms,
//! START_DEBIT). Easy: two tasks. Medium: three, and when one first runs. Hard: four, and how
//! long one's first turn lasts. Every level asks a task's share of the CPU over the run, which
//! task runs at a time, and how much a turn added to a vruntime.

use super::busy::{self, RUN_MS, WINDOW_MS};
use super::{Chapter, Draft, q_running};
use crate::hand::cfs::{self, NICE_0};
use crate::problem::{Answer, Cell, Question, Tolerance, Unit, fmt_places};
use crate::rng::Rng;
use crate::run::{Run, ms};
use crate::{Ambiguous, Level, msg};
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

pub const CHAPTER: Chapter = Chapter { index: 5, name: "cfs", aliases: &["nice", "vruntime"], title: "CFS: the completely fair scheduler", draft, ask };

/// A vruntime's growth, worked from the kernel's own count of a turn.
const GROWTH: Tolerance = Tolerance { abs: 0.01, rel: 0.01 };

fn draft(level: Level, rng: &mut Rng) -> Draft {
    let count = busy::count(level);
    let mut draft = busy::weighted("cfs", rng, count);
    let weights = busy::weights_of(&draft);
    let starts = cfs::start_vruntimes(&weights);
    draft.table.head.push(msg!("col-start-vruntime"));
    for (row, start) in draft.table.rows.iter_mut().zip(&starts) {
        row.push(Cell::Text(fmt_places(*start as f64 / 1e6, 3)));
    }
    let total: u64 = weights.iter().sum();
    draft.rules = vec![
        msg!("rule-busy-machine"),
        msg!("rule-cfs-vruntime"),
        msg!("rule-cfs-slice", n = count, total = total),
        msg!("rule-cfs-tick"),
        msg!("rule-cfs-hair"),
    ];
    draft.setup = vec![msg!("setup-cfs", n = count, run = RUN_MS)];
    draft
}

fn ask(level: Level, draft: &Draft, run: &Run, rng: &mut Rng) -> Result<Vec<Question>, Ambiguous> {
    let weights = busy::weights_of(draft);
    // Every task starts where START_DEBIT puts it by hand (the table's), then the turns.
    busy::starts_as_by_hand(run, "vr", &cfs::start_vruntimes(&weights))?;
    let turns = busy::as_by_hand(run, cfs::schedule(&weights, WINDOW_MS))?;
    let share = busy::q_share(run, rng, &weights, |task, weight, sum, share| msg!("s-share-weight", task = task, weight = weight, sum = sum, ideal = share))?;
    let mut qs = vec![share, q_running(run, rng, &turns)?, q_growth(run, rng, &weights, turns.len())?];
    if level != Level::Easy {
        qs.insert(1, busy::q_first_run(run, rng, &turns)?);
    }
    if level == Level::Hard {
        qs.push(busy::q_first_turn(run, rng, &turns)?);
    }
    Ok(qs)
}

/// How much one of the hand schedule's turns added to the task's vruntime: the CPU time it
/// ran × 1024 / its weight, from its `in` and `out` events.
fn q_growth(run: &Run, rng: &mut Rng, weights: &[u64], turns: usize) -> Result<Question, Ambiguous> {
    let g = busy::pick_turn(run, rng, turns, "vr")?;
    let answer = Answer::Number { value: (g.after - g.before) as f64 / 1e6, decimals: 3, unit: Unit::Ms, tol: GROWTH };
    let name = run.name(g.stint.tid).to_string();
    let weight = weights[g.stint.tid as usize - 1];
    let [ran, before, after] = [g.ran, g.before, g.after].map(|ns| fmt_places(ns as f64 / 1e6, 3));
    let steps = vec![msg!("s-growth", task = name, before = before, after = after, ran = ran, nice0 = NICE_0, weight = weight, value = answer.text())];
    let prompt = msg!("q-growth", task = name, from = ms(g.stint.from), to = ms(g.stint.to), ran = ran);
    Ok(Question { slot: "vruntime-growth", prompt, answer, steps })
}
