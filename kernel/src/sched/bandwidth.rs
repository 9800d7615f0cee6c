//! `cpu.max`: CFS bandwidth control as Linux has it (`kernel/sched/fair.c`, 6.12:
//! `sched_cfs_bandwidth`, `assign_cfs_rq_runtime`, `throttle_cfs_rq`, the period timer's
//! `distribute_cfs_runtime`). Each limited group has a global pool of `quota` per `period`;
//! each run queue draws its runtime from the pool in slices of `sched_cfs_bandwidth_slice`
//! (5 ms), and a queue that has used its slice and finds the pool empty is throttled: its
//! group's entity leaves the parent's queue until the period timer refills the pool and
//! hands the throttled queues what they overran plus a little. Ours differs in one way: a
//! queue that goes idle keeps its unused slice (Linux returns all but 1 ms of it to the pool,
//! `return_cfs_rq_runtime`), so on several harts a group may run up to a slice per hart less
//! than its quota in a period.

use super::cgroup::Tree;
use crate::dispatch::{period_end, period_of};
use crate::hart::MAX_HARTS;
use runqueue_sched_api::MAX_GROUPS;

/// `sysctl_sched_cfs_bandwidth_slice`, 5 ms.
const SLICE_NS: u64 = 5_000_000;

pub struct Bandwidth {
    quota: [Option<u64>; MAX_GROUPS],
    period: [u64; MAX_GROUPS],
    /// The period (`dispatch::period_of`) the pool belongs to.
    window: [u64; MAX_GROUPS],
    /// `cfs_b->runtime`: what is left of this period's quota to hand out.
    pool: [u64; MAX_GROUPS],
    /// `cfs_rq->runtime_remaining` of each run queue (negative: overran).
    local: [[i64; MAX_HARTS]; MAX_GROUPS],
    throttled: [[bool; MAX_HARTS]; MAX_GROUPS],
}

impl Bandwidth {
    pub const NONE: Bandwidth = Bandwidth {
        quota: [None; MAX_GROUPS],
        period: [1; MAX_GROUPS],
        window: [0; MAX_GROUPS],
        pool: [0; MAX_GROUPS],
        local: [[0; MAX_HARTS]; MAX_GROUPS],
        throttled: [[false; MAX_HARTS]; MAX_GROUPS],
    };

    pub fn configure(&mut self, tree: &Tree) {
        for (g, group) in tree.groups[..tree.len].iter().enumerate() {
            (self.quota[g], self.period[g]) = (group.quota_ns, group.period_ns);
            self.pool[g] = group.quota_ns.unwrap_or(0);
        }
    }

    /// Whether any group has a quota (then the period timer matters).
    pub fn any(&self) -> bool {
        self.quota.iter().any(Option::is_some)
    }

    pub fn throttled(&self, g: usize, slot: usize) -> bool {
        self.throttled[g][slot]
    }

    /// `account_cfs_rq_runtime`: `ran` ns of group `g` on queue `slot`; true when the queue
    /// has just been throttled (its slice used up and the pool empty).
    pub fn account(&mut self, g: usize, slot: usize, ran: u64) -> bool {
        if self.quota[g].is_none() || self.throttled[g][slot] {
            return false;
        }
        let local = &mut self.local[g][slot];
        *local -= ran as i64;
        if *local > 0 {
            return false;
        }
        // `assign_cfs_rq_runtime`: top the queue up to a slice, as far as the pool goes.
        let amount = (SLICE_NS as i64 - *local).max(0) as u64;
        let amount = amount.min(self.pool[g]);
        self.pool[g] -= amount;
        *local += amount as i64;
        self.throttled[g][slot] = *local <= 0;
        self.throttled[g][slot]
    }

    /// The period timer (`sched_cfs_period_timer`, `do_sched_cfs_period_timer`): if `now` is
    /// in a later period than the pool's, refill it and hand each throttled queue of `queues`
    /// what it overran plus 1 ns (`distribute_cfs_runtime`). Calls `unthrottled(g, slot)` for
    /// each queue that may run again.
    pub fn roll(&mut self, now: u64, queues: usize, mut unthrottled: impl FnMut(usize, usize)) {
        for g in 0..MAX_GROUPS {
            let Some(quota) = self.quota[g] else { continue };
            let window = period_of(now, self.period[g]);
            if window == self.window[g] {
                continue;
            }
            self.window[g] = window;
            self.pool[g] = quota;
            for slot in 0..queues {
                if !self.throttled[g][slot] {
                    continue;
                }
                let amount = ((1 - self.local[g][slot]).max(0) as u64).min(self.pool[g]);
                self.pool[g] -= amount;
                self.local[g][slot] += amount as i64;
                if self.local[g][slot] > 0 {
                    self.throttled[g][slot] = false;
                    unthrottled(g, slot);
                }
            }
        }
    }

    /// When the period timer next fires for a group throttled on `slot`, if any.
    pub fn next_refill(&self, slot: usize) -> Option<u64> {
        (0..MAX_GROUPS).filter(|&g| self.throttled[g][slot]).map(|g| period_end(self.window[g], self.period[g])).min()
    }
}
