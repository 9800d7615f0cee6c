//! Chapter 9, real time: batch jobs (`workload=timed-bursts`) given SCHED_FIFO or SCHED_RR
//! priorities with `rtprio=` (and `rtpolicy=rr`, `rt.rr_slice_ms=`), some left in the fair
//! class below them (run by `sched=fifo`, so they take turns only when no real-time task
//! runs). Easy: SCHED_FIFO, distinct priorities. Medium: two share a priority, and a fair task.
//! Hard: SCHED_RR with a short quantum, a shared priority and a fair task.

use super::{Chapter, Draft, Jobs, any_task, as_by_hand, q_order, q_response, q_running, q_turnaround};
use crate::hand::Policy;
use crate::problem::{Cell, Question};
use crate::rng::Rng;
use crate::run::Run;
use crate::{Ambiguous, Level, msg};
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

pub const CHAPTER: Chapter = Chapter { index: 8, name: "rt", aliases: &["realtime", "sched_fifo", "sched_rr"], title: "Real time: SCHED_FIFO and SCHED_RR", draft, ask };

fn draft(level: Level, rng: &mut Rng) -> Draft {
    let (count, rr, fair) = match level {
        Level::Easy => (3, false, false),
        Level::Medium => (4, false, true),
        Level::Hard => (4, true, true),
    };
    let q = if rr { rng.range(2, 3) } else { 0 };
    let mut jobs = Jobs::draw(rng, count, (2, 7), 5);
    // Priorities 10..90 in steps of 10: distinct when easy; otherwise two tasks share one.
    let mut prio: Vec<u64> = rng.distinct(count, 1, 9).iter().map(|p| p * 10).collect();
    if level != Level::Easy {
        prio[2] = prio[1];
    }
    if fair {
        prio[count - 1] = 0;
    }
    let mut hand = jobs.hand();
    for (j, &p) in hand.iter_mut().zip(&prio) {
        j.prio = p as u32;
        j.rr = rr && p > 0;
    }
    if rr {
        for (b, j) in jobs.burst.iter_mut().zip(&mut hand) {
            while *b % (q + 1) == 0 {
                *b = rng.range(2, 7);
            }
            j.burst = *b;
        }
    }
    let mut words = vec![("sched", "fifo".to_string())];
    if rr {
        words.push(("rt.rr_slice_ms", q.to_string()));
        words.push(("rtpolicy", "rr".to_string()));
    }
    words.extend(jobs.words());
    words.push(("rtprio", super::list(&prio)));
    let mut table = jobs.table();
    table.head.push(msg!("col-prio"));
    for (row, &p) in table.rows.iter_mut().zip(&prio) {
        row.push(if p == 0 { Cell::Message(msg!("fair-class")) } else { Cell::Text(alloc::format!("{} ({})", p, if rr { "SCHED_RR" } else { "SCHED_FIFO" })) });
    }
    let mut rules = vec![msg!("rule-machine"), msg!("rule-tie-creation"), msg!("rule-rt")];
    if rr {
        rules.push(msg!("rule-rt-rr", q = q));
        rules.push(super::tick_turn());
    } else {
        rules.push(msg!("rule-rt-fifo"));
    }
    if fair {
        rules.push(msg!("rule-rt-fair"));
    }
    rules.push(msg!("rule-overhead"));
    Draft { words, harts: 1, setup: vec![msg!("setup-rt")], table, rules, tasks: jobs.names(), params: vec![("q", q)], jobs: hand }
}

fn ask(level: Level, draft: &Draft, run: &Run, rng: &mut Rng) -> Result<Vec<Question>, Ambiguous> {
    let turns = as_by_hand(run, Policy::Rt { q: draft.param("q") }, &draft.jobs)?;
    let first = any_task(run, rng);
    let mut qs = vec![q_order(run), q_turnaround(run, first), q_running(run, rng, &turns)?];
    if level != Level::Easy {
        // The fair task, last in the table: how long it waits for the real-time ones.
        qs.push(q_response(run, draft.tasks.len() as u32));
    }
    Ok(qs)
}
