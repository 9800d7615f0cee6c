//! CFS as a problem states it: Linux's `check_preempt_tick` (2.6.23-6.5) on one hart, tasks
//! that never sleep, all created before the first tick. It gives the schedule a student works
//! out by hand, tick by tick, and stops at the first decision the kernel's few µs could tip
//! (a slice or a vruntime gap within a hair of the limit, two vruntimes a hair apart): the
//! questions ask only about the turns before it.
//!
//! Times are in ns. A turn runs from tick to tick; each tick adds 1 ms × 1024 / weight to the
//! running task's vruntime (the kernel adds what it really ran: a turn that began with a
//! switch ran a hair less, which the margins here cover).

use super::{End, Turn};
use alloc::vec::Vec;

/// `NICE_0_LOAD`: the weight of nice 0.
pub const NICE_0: u64 = 1024;
/// `sysctl_sched_latency` and `sysctl_sched_min_granularity` on one hart.
pub const LATENCY_NS: u64 = 6_000_000;
pub const MIN_GRANULARITY_NS: u64 = 750_000;
/// Up to this many tasks the period is the latency (`sched_nr_latency`).
const NR_LATENCY: usize = (LATENCY_NS / MIN_GRANULARITY_NS) as usize;

/// `sched_prio_to_weight` for nice -5..=5, the nice values the problems draw.
const WEIGHTS: [u64; 11] = [3121, 2501, 1991, 1586, 1277, 1024, 820, 655, 526, 423, 335];
pub const NICE_RANGE: (i64, i64) = (-5, 5);

pub fn weight(nice: i64) -> u64 {
    WEIGHTS[(nice.clamp(NICE_RANGE.0, NICE_RANGE.1) - NICE_RANGE.0) as usize]
}

/// A turn that began with a switch has run about 0.06 ms less than its ticks at each of them:
/// it is past a slice this far below a tick, or less, only by the kernel's µs (or to a student
/// counting a hair); past one this far above a tick, neither. The first turn starts at its tick.
const SWITCH_BELOW_NS: u64 = 100_000;
const SWITCH_ABOVE_NS: u64 = 10_000;
const FIRST_HAIR_NS: u64 = 20_000;
/// What each turn that began with a switch leaves out of the hand's vruntime, in real time:
/// vruntimes this much (in each task's virtual time, for each such turn) apart may be
/// the other way round in the kernel.
const SWITCH_HAIR_NS: u64 = 70_000;

/// `sched_slice` with `nr` tasks of `total` weight runnable: the period (the latency, or
/// `nr` × the minimum granularity past `sched_nr_latency` tasks) in proportion to the task's
/// weight, never below the minimum granularity (BASE_SLICE).
pub fn slice(weight: u64, total: u64, nr: usize) -> u64 {
    let period = if nr > NR_LATENCY { nr as u64 * MIN_GRANULARITY_NS } else { LATENCY_NS };
    (period * weight / total).max(MIN_GRANULARITY_NS)
}

/// Where START_DEBIT places each new task, created in order with `min_vruntime` at 0: at
/// `min_vruntime` plus its slice in virtual time (slice × 1024 / weight), its slice counted
/// with the tasks created so far and itself. `min_vruntime` follows the smallest vruntime, so
/// from the second task on it is the first task's.
pub fn start_vruntimes(weights: &[u64]) -> Vec<u64> {
    let (mut min, mut total) = (0, 0);
    let mut out = Vec::new();
    for (i, &w) in weights.iter().enumerate() {
        total += w;
        let v = min + slice(w, total, i + 1) * NICE_0 / w;
        out.push(v);
        min = *out.iter().min().unwrap_or(&0);
    }
    out
}

/// The turns of the hand schedule from tick 0 to tick `until_ms` (in half ms, as
/// [`super::Turn`] counts), up to the first decision the kernel's µs could tip. Every task is
/// runnable throughout; the task with the smallest vruntime (the first created among equals)
/// runs first.
pub fn schedule(weights: &[u64], until_ms: u64) -> Vec<Turn> {
    let total: u64 = weights.iter().sum();
    let mut q = Queue { vruntime: start_vruntimes(weights), seq: (0..weights.len()).collect(), doubt: alloc::vec![0; weights.len()] };
    let mut turns = Vec::new();
    let Some(mut current) = q.leftmost(None) else { return turns };
    let mut start = 0;
    for tick in 1..=until_ms {
        q.vruntime[current] += 1_000_000 * NICE_0 / weights[current];
        let ideal = slice(weights[current], total, weights.len());
        let ran = (tick - start) * 1_000_000;
        let (below, above) = if turns.is_empty() { (FIRST_HAIR_NS, FIRST_HAIR_NS) } else { (SWITCH_BELOW_NS, SWITCH_ABOVE_NS) };
        if ideal + below > ran && ideal < ran + above {
            return turns;
        }
        let over = ran > ideal || {
            let Some(left) = q.leftmost(Some(current)) else { return turns };
            let gap = q.vruntime[current] as i64 - q.vruntime[left] as i64;
            if gap.abs_diff(ideal as i64) <= q.doubt[current] + q.doubt[left] {
                return turns;
            }
            gap > ideal as i64
        };
        if over {
            turns.push(Turn { job: current, from: 2 * start, to: 2 * tick, end: End::Preempt });
            q.seq[current] = q.seq.iter().max().map_or(0, |m| m + 1);
            // The preempted task is in the race again; a rerun of itself is not a turn the
            // rules have.
            match q.leftmost(None) {
                Some(next) if next != current => current = next,
                _ => return turns,
            }
            q.doubt[current] += SWITCH_HAIR_NS * NICE_0 / weights[current];
            start = tick;
        }
    }
    turns
}

/// The tasks' vruntimes by hand, their order among equals (creation, then each requeue), and
/// how far each may be from the kernel's.
struct Queue {
    vruntime: Vec<u64>,
    seq: Vec<usize>,
    doubt: Vec<u64>,
}

impl Queue {
    /// The task with the smallest vruntime (the earlier in the queue among equals), leaving
    /// out `skip`; `None` when the kernel's could be another.
    fn leftmost(&self, skip: Option<usize>) -> Option<usize> {
        let mut order: Vec<usize> = (0..self.vruntime.len()).filter(|&i| Some(i) != skip).collect();
        order.sort_by_key(|&i| (self.vruntime[i], self.seq[i]));
        match order[..] {
            [] => None,
            [one] => Some(one),
            [a, b, ..] => {
                let doubt = self.doubt[a] + self.doubt[b];
                (doubt == 0 || self.vruntime[b] - self.vruntime[a] > doubt).then_some(a)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_debit_places_each_task_a_virtual_slice_after_the_first() {
        // As the kernel's trace has them for nice 0, 3, -2.
        assert_eq!(start_vruntimes(&[1024, 526, 1586]), alloc::vec![6_000_000, 9_963_870, 7_959_183]);
    }

    #[test]
    fn a_turn_ends_at_the_first_tick_past_its_slice_or_the_gap() {
        // Nice -4 and 2 (weights 2501 and 655): slices of 4.75 and 1.25 ms. spin0 runs from 0
        // past its slice to the tick at 5; spin1, 1.25 ms later still behind in vruntime, runs
        // until its vruntime is past spin0's by more than its slice (at 6: 2.56 ms), then
        // spin0 runs to 11 by its slice, and so on.
        let t: Vec<(usize, u64, u64)> = schedule(&[2501, 655], 20).iter().map(|t| (t.job, t.from / 2, t.to / 2)).collect();
        assert_eq!(t, [(0, 0, 5), (1, 5, 6), (0, 6, 11), (1, 11, 13), (0, 13, 18)]);
        // Nice 0, 3, -2: spin0's second turn reaches its slice of 1.959 ms a hair after the
        // tick at 8 (it began with a switch): too close to call, so the schedule stops there.
        let t: Vec<(usize, u64, u64)> = schedule(&[1024, 526, 1586], 20).iter().map(|t| (t.job, t.from / 2, t.to / 2)).collect();
        assert_eq!(t, [(0, 0, 2), (2, 2, 6)]);
    }
}
