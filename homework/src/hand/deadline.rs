//! SCHED_DEADLINE on one hart as the problem states it (and `kernel/src/sched/deadline.rs`
//! implements it): EDF over constant bandwidth servers whose deadline is their period, every
//! task's periods starting at 0, each job ending with `sched_yield`. It never answers a
//! question; it decides whether the kernel's run is the schedule a student works out.
//!
//! Times are in µs. A task's server starts with its runtime as budget and its first period's
//! end as deadline. The runnable task with the earliest deadline runs (the lower index among
//! equals: the kernel creates the tasks in that order, a few µs apart, so their periods and
//! deadlines are that much apart too). It runs until its job's work is done (it yields: the
//! rest of its budget is given up and it waits for its next period, where its next job is
//! released), its budget is used up (throttled until its next period, the job unfinished), or
//! another task's period starts with an earlier deadline. At the start of its next period a
//! waiting task's budget is refilled and its deadline moves one period on.

use alloc::vec::Vec;

#[derive(Clone, Copy, Debug)]
pub struct Task {
    pub runtime: u64,
    pub period: u64,
    /// The work of each job.
    pub work: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The job's work was done.
    Yield,
    /// The budget was used up.
    Throttle,
    /// A task whose period started with an earlier deadline took the hart.
    Preempt,
}

/// One turn on the hart, in µs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    pub task: usize,
    pub from: u64,
    pub to: u64,
    pub end: End,
}

struct Server {
    deadline: u64,
    budget: u64,
    /// Work left of the current job; 0 once it yielded, until its next period.
    left: u64,
    /// Waiting for its next period (yielded or throttled).
    waiting: bool,
}

/// The turns that end by `until`; `None` when a job's work and its budget would run out at
/// once (the kernel's overhead decides which comes first).
pub fn schedule(tasks: &[Task], until: u64) -> Option<Vec<Turn>> {
    let mut s: Vec<Server> = tasks.iter().map(|t| Server { deadline: t.period, budget: t.runtime, left: t.work, waiting: false }).collect();
    let mut turns = Vec::new();
    let mut now = 0;
    while now < until {
        for (sv, t) in s.iter_mut().zip(tasks) {
            if sv.waiting && sv.deadline <= now {
                sv.deadline += t.period;
                sv.budget = t.runtime;
                if sv.left == 0 {
                    sv.left = t.work;
                }
                sv.waiting = false;
            }
        }
        let Some(i) = (0..s.len()).filter(|&i| !s[i].waiting).min_by_key(|&i| (s[i].deadline, i)) else {
            // Idle until the next period starts.
            now = s.iter().map(|sv| sv.deadline).min()?;
            continue;
        };
        // The first waiting server whose next period starts with an earlier deadline than i's.
        let preempt = (0..s.len()).filter(|&j| s[j].waiting && (s[j].deadline + tasks[j].period, j) < (s[i].deadline, i)).map(|j| s[j].deadline).min();
        let (done, spent) = (now + s[i].left, now + s[i].budget);
        if done == spent {
            return None;
        }
        let (to, end) = [(done, End::Yield), (spent, End::Throttle)].into_iter().min_by_key(|&(t, _)| t)?;
        // A job that ends as another period starts ends first.
        let (to, end) = match preempt {
            Some(p) if p < to => (p, End::Preempt),
            _ => (to, end),
        };
        if to > until {
            break;
        }
        let ran = to - now;
        let sv = &mut s[i];
        sv.left -= ran;
        sv.budget -= ran;
        sv.waiting = end != End::Preempt;
        turns.push(Turn { task: i, from: now, to, end });
        now = to;
    }
    Some(turns)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(runtime: u64, period: u64, work: u64) -> Task {
        Task { runtime: runtime * 1000, period: period * 1000, work: work * 100 }
    }

    /// Turns as (task, from, to) in tenths of a ms.
    fn tenths(tasks: &[Task], until_ms: u64) -> Vec<(usize, u64, u64, End)> {
        schedule(tasks, until_ms * 1000).unwrap().iter().map(|t| (t.task, t.from / 100, t.to / 100, t.end)).collect()
    }

    #[test]
    fn edf_runs_the_earliest_deadline_and_a_new_period_preempts() {
        // (2 ms every 5, work 1.8) and (3 every 7, work 2.7): job1's deadline 7 beats job0's 10 at 5.
        let t = tenths(&[ms(2, 5, 18), ms(3, 7, 27)], 12);
        assert_eq!(t[..4], [(0, 0, 18, End::Yield), (1, 18, 45, End::Yield), (0, 50, 68, End::Yield), (1, 70, 97, End::Yield)]);
        // At 15 ms job0's period (deadline 20) preempts job1's third job, whose deadline is 21.
        let t = tenths(&[ms(2, 5, 18), ms(3, 7, 27)], 20);
        assert_eq!(t[5..], [(1, 140, 150, End::Preempt), (0, 150, 168, End::Yield), (1, 168, 185, End::Yield)]);
    }

    #[test]
    fn a_job_over_its_budget_is_throttled_until_its_next_period() {
        // Work 3 ms against a runtime of 2: throttled at 2, job1 runs, job0 again at 5.
        let t = tenths(&[ms(2, 5, 30), ms(2, 7, 30)], 10);
        assert_eq!(t, [(0, 0, 20, End::Throttle), (1, 20, 40, End::Throttle), (0, 50, 60, End::Yield), (1, 70, 80, End::Yield)]);
        // Work equal to the budget: which ends first is the kernel's overhead's to decide.
        assert_eq!(schedule(&[ms(2, 5, 20)], 10_000), None);
    }
}
