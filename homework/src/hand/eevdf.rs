//! EEVDF as a problem states it: Linux 6.12's defaults (the kernel's `sched=eevdf`) on one
//! hart, tasks that never sleep, all created before the first tick. It gives the schedule a
//! student works out by hand, tick by tick, and stops at the first pick the kernel's µs could
//! tip (a task's eligibility or two deadlines within a hair): the questions ask only about the
//! turns before it.
//!
//! Times are in ns. The request (0.7 ms) is shorter than a tick, so at every tick the running
//! task has reached its deadline and gets a new one, `v + r × 1024 / w`, and the eligible task
//! with the earliest deadline runs. Each tick adds 1 ms × 1024 / weight to the running task's
//! vruntime; the kernel adds what it really ran, a few tens of µs less in a turn that began
//! with a switch and a few more after the tick that ends a turn, which the margins cover.

use super::cfs::NICE_0;
use super::{End, Turn};
use alloc::vec;
use alloc::vec::Vec;

/// `sysctl_sched_base_slice` on one hart in Linux 6.12 (0.70 ms): every task's request.
pub const BASE_SLICE_NS: u64 = 700_000;
const TICK_NS: u64 = 1_000_000;
/// The kernel's own count, which the hand's is held to: a turn that began with a switch has
/// run this much less than 1 ms by its first tick (the switch after the tick), and a task that
/// leaves the CPU is charged this much past the tick that ended its turn.
const SWITCH_IN_NS: u64 = 75_000;
const SWITCH_OUT_NS: u64 = 33_000;
/// How far each of the kernel's charges at a tick may be from that count.
const CHARGE_HAIR_NS: u64 = 5_000;

/// A request in virtual time: `r × 1024 / w`, as the kernel rounds it.
pub fn vslice(weight: u64) -> u64 {
    BASE_SLICE_NS * NICE_0 / weight
}

/// The virtual deadline a new task starts with at V = 0: half a request away
/// (PLACE_DEADLINE_INITIAL).
pub fn first_deadline(weight: u64) -> u64 {
    vslice(weight) / 2
}

/// The turns of the hand schedule from tick 0 to tick `until_ms` (in half ms, as
/// [`super::Turn`] counts), up to the first pick the kernel's µs could tip. Every task starts
/// at vruntime 0 (V = 0, so every task is eligible) with its first deadline; among equal
/// deadlines a waiting task goes before the running one, and the one queued first (the
/// table's order, then each preemption) before the others. The rules' whole ticks are worked
/// beside the kernel's count of them, and each pick must be the same in both.
pub fn schedule(weights: &[u64], until_ms: u64) -> Vec<Turn> {
    let (mut hand, mut kernel) = (Queue::new(weights), Queue::new(weights));
    let pick = |hand: &Queue, kernel: &Queue, running| match (hand.pick(running), kernel.pick(running)) {
        (Some(a), Some(b)) if a == b => Some(a),
        _ => None,
    };
    let mut turns = Vec::new();
    let Some(mut current) = pick(&hand, &kernel, None) else { return turns };
    let mut start = 0;
    for tick in 1..=until_ms {
        let switched_in = tick == start + 1 && start > 0;
        hand.charge(current, TICK_NS);
        kernel.charge(current, if switched_in { TICK_NS - SWITCH_IN_NS } else { TICK_NS });
        kernel.doubt[current] += kernel.virt(CHARGE_HAIR_NS, current);
        if !(hand.new_deadline(current) && kernel.new_deadline(current)) {
            // Not the rules' case (a request shorter than a tick): no schedule past here.
            return turns;
        }
        let Some(next) = pick(&hand, &kernel, Some(current)) else { return turns };
        if next != current {
            turns.push(Turn { job: current, from: 2 * start, to: 2 * tick, end: End::Preempt });
            hand.requeue(current);
            kernel.requeue(current);
            kernel.charge(current, SWITCH_OUT_NS);
            kernel.doubt[current] += kernel.virt(CHARGE_HAIR_NS, current);
            current = next;
            start = tick;
        }
    }
    turns
}

/// The tasks by hand or by the kernel's count: vruntimes and deadlines (virtual ns), their
/// order in the queue, and how far each vruntime (and so its deadline) may be from the count.
struct Queue {
    weight: Vec<u64>,
    vruntime: Vec<u64>,
    deadline: Vec<u64>,
    seq: Vec<usize>,
    doubt: Vec<u64>,
}

#[derive(PartialEq)]
enum Eligible {
    Yes,
    No,
    Unclear,
}

impl Queue {
    fn new(weights: &[u64]) -> Queue {
        let n = weights.len();
        Queue { weight: weights.to_vec(), vruntime: vec![0; n], deadline: weights.iter().map(|&w| first_deadline(w)).collect(), seq: (0..n).collect(), doubt: vec![0; n] }
    }

    fn charge(&mut self, i: usize, ns: u64) {
        self.vruntime[i] += self.virt(ns, i);
    }

    /// `update_deadline`: whether the vruntime reached the deadline, which it then moves to a
    /// request past the vruntime.
    fn new_deadline(&mut self, i: usize) -> bool {
        let due = self.vruntime[i] >= self.deadline[i];
        if due {
            self.deadline[i] = self.vruntime[i] + vslice(self.weight[i]);
        }
        due
    }

    /// Back in the queue after a preemption, behind the others.
    fn requeue(&mut self, i: usize) {
        self.seq[i] = self.seq.iter().max().map_or(0, |m| m + 1);
    }

    fn virt(&self, ns: u64, i: usize) -> u64 {
        ns * NICE_0 / self.weight[i]
    }

    /// `entity_eligible`: `sum(w_j (v_j - v_i)) >= 0`, i.e. v_i <= V; unclear when the
    /// kernel's vruntimes, each within its doubt of the hand's, could make it the other way.
    fn eligible(&self, i: usize) -> Eligible {
        let (mut sum, mut margin) = (0i128, 0i128);
        for j in 0..self.weight.len() {
            let w = self.weight[j] as i128;
            sum += w * (self.vruntime[j] as i128 - self.vruntime[i] as i128);
            margin += w * (self.doubt[j] + self.doubt[i]) as i128;
        }
        match sum {
            s if margin > 0 && s.abs() <= margin => Eligible::Unclear,
            s if s >= 0 => Eligible::Yes,
            _ => Eligible::No,
        }
    }

    /// `pick_eevdf` at a tick (`running` the task that ran up to it) or at the start: the
    /// eligible task with the earliest deadline; `None` when the kernel's could be another.
    fn pick(&self, running: Option<usize>) -> Option<usize> {
        let mut order: Vec<usize> = (0..self.weight.len()).collect();
        order.sort_by_key(|&i| (self.deadline[i], Some(i) == running, self.seq[i]));
        let chosen = order.iter().position(|&i| self.eligible(i) != Eligible::No)?;
        let best = order[chosen];
        if self.eligible(best) == Eligible::Unclear {
            return None;
        }
        // A later deadline within the hairs of the chosen one's, of a task that may be
        // eligible, could come first in the kernel.
        let rival = order[chosen + 1..].iter().any(|&j| {
            let hair = self.doubt[best] + self.doubt[j];
            hair > 0 && self.deadline[j] - self.deadline[best] <= hair && self.eligible(j) != Eligible::No
        });
        (!rival).then_some(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_start_half_a_request_away() {
        // As the kernel's trace has them for nice 0, 3, -2 (weights 1024, 526, 1586).
        let d: Vec<u64> = [1024, 526, 1586].iter().map(|&w| first_deadline(w)).collect();
        assert_eq!(d, [350_000, 681_368, 225_977]);
    }

    #[test]
    fn the_eligible_task_with_the_earliest_deadline_runs_at_each_tick() {
        // Nice 0, 3, -2, as the kernel ran them: spin2 (earliest first deadline) to 1, spin0
        // (deadline 0.35) to 2, spin1 to 3, spin2 to 4, spin0 to 5. At 6 spin2 stays, but by
        // the kernel's count its lag is then under 0.01 ms: too close to call, so the
        // schedule stops there.
        let t: Vec<(usize, u64, u64)> = schedule(&[1024, 526, 1586], 12).iter().map(|t| (t.job, t.from / 2, t.to / 2)).collect();
        assert_eq!(t, [(2, 0, 1), (0, 1, 2), (1, 2, 3), (2, 3, 4), (0, 4, 5)]);
        // Nice -5 and 3: at 1 spin0 still has the earlier deadline (0.557 against 0.681) but
        // is past V, so spin1 runs to 2; then spin0, eligible and earliest, until its lag
        // comes within the kernel's µs of 0 (at 7 the kernel finds it just past V): no
        // schedule past 2.
        let t: Vec<(usize, u64, u64)> = schedule(&[3121, 526], 12).iter().map(|t| (t.job, t.from / 2, t.to / 2)).collect();
        assert_eq!(t, [(0, 0, 1), (1, 1, 2)]);
    }
}
