//! Chapter 5a, lottery and stride scheduling: two to four busy tasks (`workload=spin`) holding
//! different numbers of tickets under `sched=stride`, the deterministic one of the two (a
//! lottery's draws would make "who runs" a matter of the seed's luck). Easy: two tasks, quanta
//! of 2 ms. Medium: three, quanta of 1-3 ms, and when one first runs. Hard: four, quanta of 1-2
//! ms, and how long one's first turn lasts. Every level asks a task's share of the CPU over the
//! run, which task runs at a time, and how much a turn added to a pass.

use super::busy::{self, RUN_MS, WINDOW_MS};
use super::{Chapter, Draft, q_running};
use crate::hand::stride::{self, STRIDE1};
use crate::problem::{Answer, Question, Table, Tolerance, Unit, fmt_places, text_row};
use crate::rng::Rng;
use crate::run::{Run, ms};
use crate::{Ambiguous, Level, msg};
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

pub const CHAPTER: Chapter = Chapter { index: 3, name: "lottery-stride", aliases: &["stride", "lottery"], title: "Lottery and stride scheduling", draft, ask };

/// The params holding each task's tickets, in creation order.
const TICKETS: [&str; 4] = ["tickets0", "tickets1", "tickets2", "tickets3"];
/// A pass's growth, worked from the kernel's own count of a turn (to 0.1 µs, so within one of
/// the kernel's for the largest stride), which carries the remainders of its divisions.
const GROWTH: Tolerance = Tolerance { abs: 3.0, rel: 0.0 };

fn draft(level: Level, rng: &mut Rng) -> Draft {
    let (count, quantum) = match level {
        Level::Easy => (2, 2),
        Level::Medium => (3, rng.range(1, 3)),
        Level::Hard => (4, rng.range(1, 2)),
    };
    // 50 to 400 tickets, in tens.
    let tickets: Vec<u64> = rng.distinct(count, 5, 40).iter().map(|t| t * 10).collect();
    let tasks = busy::names(count);
    let mut words = vec![("sched", "stride".to_string()), ("stride.quantum_ms", quantum.to_string())];
    words.extend(busy::words(count));
    words.push(("tickets", super::list(&tickets)));
    let rows = (0..count).map(|i| text_row(&[&tasks[i], &tickets[i], &stride::stride(tickets[i])])).collect();
    let table = Table { head: vec![msg!("col-task"), msg!("col-tickets"), msg!("col-stride")], rows };
    let rules = vec![msg!("rule-busy-machine"), msg!("rule-stride", q = quantum, stride1 = STRIDE1), msg!("rule-stride-hair")];
    let mut params: Vec<(&'static str, u64)> = TICKETS.iter().zip(&tickets).map(|(name, &t)| (*name, t)).collect();
    params.push(("q", quantum));
    Draft { words, harts: 1, setup: vec![msg!("setup-stride", n = count, run = RUN_MS)], table, rules, tasks, params, jobs: Vec::new() }
}

fn ask(level: Level, draft: &Draft, run: &Run, rng: &mut Rng) -> Result<Vec<Question>, Ambiguous> {
    let tickets: Vec<u64> = TICKETS[..draft.tasks.len()].iter().map(|t| draft.param(t)).collect();
    let quantum = draft.param("q");
    let strides: Vec<u64> = tickets.iter().map(|&t| stride::stride(t)).collect();
    busy::starts_as_by_hand(run, "stride", &strides)?;
    busy::starts_as_by_hand(run, "pass", &strides)?;
    let turns = busy::as_by_hand(run, stride::schedule(&tickets, quantum, WINDOW_MS))?;
    let share = busy::q_share(run, rng, &tickets, |task, tickets, sum, share| msg!("s-share-tickets", task = task, tickets = tickets, sum = sum, ideal = share))?;
    let mut qs = vec![share, q_running(run, rng, &turns)?, q_growth(run, rng, &strides, quantum, turns.len())?];
    if level != Level::Easy {
        qs.insert(1, busy::q_first_run(run, rng, &turns)?);
    }
    if level == Level::Hard {
        qs.push(busy::q_first_turn(run, rng, &turns)?);
    }
    Ok(qs)
}

/// How much one of the hand schedule's turns added to the task's pass: stride × its CPU time
/// / the quantum (the paper's nonuniform quanta), from its `in` and `out` events.
fn q_growth(run: &Run, rng: &mut Rng, strides: &[u64], quantum: u64, turns: usize) -> Result<Question, Ambiguous> {
    let g = busy::pick_turn(run, rng, turns, "pass")?;
    let answer = Answer::Number { value: (g.after - g.before) as f64, decimals: 0, unit: Unit::Count, tol: GROWTH };
    let name = run.name(g.stint.tid).to_string();
    let ran = fmt_places(g.ran as f64 / 1e6, 4);
    let stride = strides[g.stint.tid as usize - 1];
    let steps = vec![msg!("s-pass-growth", task = name, before = g.before, after = g.after, stride = stride, ran = ran, q = quantum, value = answer.text())];
    let prompt = msg!("q-pass-growth", task = name, from = ms(g.stint.from), to = ms(g.stint.to), ran = ran);
    Ok(Question { slot: "pass-growth", prompt, answer, steps })
}
