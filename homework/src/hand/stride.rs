//! Stride scheduling as a problem states it (Waldspurger and Weihl 1995, as the kernel's
//! `sched=stride` has it) on one hart, tasks that never sleep, all created before the first
//! tick: each quantum of `q` ms (ending at a tick), the task with the smallest pass runs, and
//! its pass then grows by its stride. It gives the schedule a student works out by hand and
//! stops at the first pick the kernel's µs could tip: the kernel charges the CPU time a
//! quantum really had (a hair less than `q` ms after a switch), so two passes whose hand
//! values are within those hairs may be the other way round in the kernel.

use super::{End, Turn};
use alloc::vec::Vec;

/// The paper's `STRIDE1`: stride = STRIDE1 / tickets (integer division).
pub const STRIDE1: u64 = 1 << 20;

/// How much less than its quantum a task may have run in one that began with a switch, in ns
/// (the kernel's is about 0.03 ms).
const SWITCH_HAIR_NS: u64 = 50_000;

pub fn stride(tickets: u64) -> u64 {
    STRIDE1 / tickets.max(1)
}

/// The turns of the hand schedule from tick 0 to tick `until_ms` (in half ms), up to the first
/// pick the kernel's µs could tip. Every task starts at pass = its stride; among equal passes
/// the one queued first runs (the table's order, then each task's quantum's end).
pub fn schedule(tickets: &[u64], quantum_ms: u64, until_ms: u64) -> Vec<Turn> {
    let strides: Vec<u64> = tickets.iter().map(|&t| stride(t)).collect();
    let mut pass = strides.clone();
    let mut seq: Vec<usize> = (0..tickets.len()).collect();
    // How far each hand pass may be above the kernel's.
    let mut doubt: Vec<u64> = alloc::vec![0; tickets.len()];
    let mut turns: Vec<Turn> = Vec::new();
    let Some(mut current) = smallest(&pass, &seq, &doubt) else { return turns };
    let mut start = 0;
    let mut end = quantum_ms;
    while end <= until_ms {
        pass[current] += strides[current];
        if start > 0 && end == start + quantum_ms {
            doubt[current] += strides[current] * SWITCH_HAIR_NS / (quantum_ms * 1_000_000);
        }
        seq[current] = seq.iter().max().map_or(0, |m| m + 1);
        let Some(next) = smallest(&pass, &seq, &doubt) else { break };
        if next != current {
            turns.push(Turn { job: current, from: 2 * start, to: 2 * end, end: End::Preempt });
            current = next;
            start = end;
        }
        end += quantum_ms;
    }
    turns
}

/// The task with the smallest pass (the earlier queued among equals); `None` when the kernel's
/// could be another.
fn smallest(pass: &[u64], seq: &[usize], doubt: &[u64]) -> Option<usize> {
    let mut order: Vec<usize> = (0..pass.len()).collect();
    order.sort_by_key(|&i| (pass[i], seq[i]));
    match order[..] {
        [] => None,
        [one] => Some(one),
        [a, b, ..] => {
            let doubt = doubt[a] + doubt[b];
            (doubt == 0 || pass[b] - pass[a] > doubt).then_some(a)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_smallest_pass_runs_each_quantum() {
        // Tickets 300, 200, 130 (strides 3495, 5242, 8065), quanta of 2 ms: passes 3495, 5242,
        // 8065; spin0 runs (to 6990), spin1 (10484), spin0 (10485), spin2 (16130); then
        // spin1's 10484 and spin0's 10485 are a hair apart, which the kernel's charges for
        // quanta a few µs short could turn round: the schedule stops before spin2's turn.
        let t: Vec<(usize, u64, u64)> = schedule(&[300, 200, 130], 2, 12).iter().map(|t| (t.job, t.from / 2, t.to / 2)).collect();
        assert_eq!(t, [(0, 0, 2), (1, 2, 4), (0, 4, 6)]);
        // Tickets 250, 90 (strides 4194, 11650), quanta of 1 ms: spin0 runs to 12582 by 2 ms,
        // spin1 to 23300 by 3, spin0 to 25164 by 6, spin1 to 34950 by 7, spin0 ...
        let t: Vec<(usize, u64, u64)> = schedule(&[250, 90], 1, 12).iter().map(|t| (t.job, t.from / 2, t.to / 2)).collect();
        assert_eq!(t[..4], [(0, 0, 2), (1, 2, 3), (0, 3, 6), (1, 6, 7)]);
    }
}
