//! SCHED_DEADLINE (`Documentation/scheduler/sched-deadline.rst`): earliest deadline first,
//! each task behind a constant bandwidth server (CBS) with (runtime, deadline, period). The
//! running task's remaining runtime shrinks with the CPU time it uses; at zero it is
//! throttled until its next period (its deadline when D = period), when it gets `deadline +=
//! period` and `remaining += runtime`. A task that wakes with more runtime left than its density allows before its
//! deadline (`remaining / (deadline - now) > runtime / D`, Linux's `dl_entity_overflow` since
//! 4.13), or past its deadline, starts afresh: `deadline = now + D`, `remaining = runtime`;
//! except that a constrained task (D < period) whose deadline has not passed keeps it and gets
//! only the runtime its density allows until then (`dl_revised_wakeup`, Linux 4.13), so a
//! task that sleeps just before its deadline cannot take more than its bandwidth, and one that
//! wakes after its deadline but before its next period is throttled until that period
//! (`dl_check_constrained_dl`, 4.13), so it cannot take a second budget in one period. A task
//! that yields gives up the rest of its runtime until its next period (`yield_task_dl`).
//! Admission control refuses a task set whose total bandwidth exceeds the harts times the RT
//! share (`rt.runtime_us / rt.period_us`). Like Linux's hrtimers, `next_event` tells the core
//! when the running task's budget runs out and when the earliest throttled server on a hart is
//! replenished; the core arms the hart's timer for it, so a budget is overrun and a restart
//! delayed only by the interrupt path (a few microseconds), not by up to a tick.

use crate::task::{Class, MAX_TASKS, Task, Tid};
use runqueue_sched_api::{self as api, Enqueue, Fields, Scheduler};

#[derive(Clone, Copy)]
struct Server {
    runtime: u64,
    rel_deadline: u64,
    period: u64,
    /// Absolute scheduling deadline and runtime left (negative: overran before the charge).
    deadline: u64,
    remaining: i64,
    queued: bool,
    allowed: u32,
}

impl Server {
    const NONE: Server = Server { runtime: 0, rel_deadline: 0, period: 1, deadline: 0, remaining: 0, queued: false, allowed: 0 };

    /// Throttled until its next period, when the replenishment comes.
    fn throttled(&self) -> bool {
        self.remaining <= 0
    }

    /// The start of its next period: its deadline for an implicit one (D = period), later for
    /// a constrained one (Linux's `dl_next_period`, where the replenishment timer fires since
    /// 4.13).
    fn next_period(&self) -> u64 {
        self.deadline - self.rel_deadline + self.period
    }

    /// The CBS wakeup rule, revised for constrained deadlines.
    fn wake(&mut self, now: u64) {
        if self.rel_deadline < self.period && self.deadline < now && now < self.next_period() {
            // Throttled; the replenishment at its next period gives it `deadline + period`.
            self.remaining = self.remaining.min(0);
            return;
        }
        let laxity = self.deadline.saturating_sub(now) as i128;
        let overflow = self.remaining as i128 * self.rel_deadline as i128 > self.runtime as i128 * laxity;
        if self.deadline > now && !overflow {
            return;
        }
        if self.deadline > now && self.rel_deadline < self.period {
            self.remaining = (laxity * self.runtime as i128 / self.rel_deadline as i128) as i64;
        } else {
            self.deadline = now + self.rel_deadline;
            self.remaining = self.runtime as i64;
        }
    }

    fn replenish(&mut self, now: u64) {
        while self.remaining <= 0 && self.next_period() <= now {
            self.deadline += self.period;
            self.remaining += self.runtime as i64;
        }
    }
}

pub struct Deadline {
    servers: [Server; MAX_TASKS],
    /// Total admitted bandwidth, in millionths, and the limit.
    admitted_ppm: u64,
    limit_ppm: u64,
}

impl Deadline {
    pub const EMPTY: Deadline = Deadline { servers: [Server::NONE; MAX_TASKS], admitted_ppm: 0, limit_ppm: 0 };

    /// `limit_ppm`: the bandwidth all deadline tasks together may reserve, in millionths.
    pub fn new(limit_ppm: u64) -> Deadline {
        Deadline { limit_ppm, ..Deadline::EMPTY }
    }

    /// Admission control for a new task of `class`.
    pub fn admit(&mut self, class: &Class) -> Result<(), &'static str> {
        let Class::Deadline { runtime, deadline, period } = *class else {
            return Ok(());
        };
        if runtime == 0 || runtime > deadline || deadline > period {
            return Err("a deadline task needs 0 < runtime <= deadline <= period");
        }
        let ppm = runtime * 1_000_000 / period;
        if self.admitted_ppm + ppm > self.limit_ppm {
            return Err("deadline tasks' total bandwidth (runtime/period) exceeds harts x rt.runtime_us/rt.period_us");
        }
        self.admitted_ppm += ppm;
        Ok(())
    }

    /// Replenishes throttled servers whose time has come; true if one may run on `hart`
    /// with a deadline before `before`.
    pub fn ready(&mut self, hart: usize, now: u64, before: u64) -> bool {
        self.replenish_due(now);
        self.servers.iter().any(|s| s.queued && !s.throttled() && s.allowed & (1 << hart) != 0 && s.deadline < before)
    }

    /// `tid`'s absolute deadline now.
    pub fn deadline(&self, tid: Tid) -> u64 {
        self.servers[tid].deadline
    }

    fn replenish_due(&mut self, now: u64) {
        self.servers.iter_mut().filter(|s| s.queued).for_each(|s| s.replenish(now));
    }

    /// When `hart` next needs attention: `running`'s budget running out (if it is a deadline
    /// task with budget left) or the earliest replenishment of a throttled server it may run.
    pub fn next_event(&mut self, hart: usize, running: Option<&Task>, now: u64) -> Option<u64> {
        self.replenish_due(now);
        let exhausted = running.and_then(|t| {
            let left = self.servers[t.tid].remaining;
            (t.class.rank() == 2 && left > 0).then(|| t.charged_at + left as u64)
        });
        let replenished = self.servers.iter().filter(|s| s.queued && s.throttled() && s.allowed & (1 << hart) != 0).map(|s| s.next_period()).min();
        exhausted.into_iter().chain(replenished).min()
    }
}

impl Scheduler for Deadline {
    fn enqueue(&mut self, task: &api::Task, why: Enqueue, now: u64) {
        let s = &mut self.servers[task.tid];
        match (why, task.class) {
            (Enqueue::New, Class::Deadline { runtime, deadline, period }) => {
                *s = Server {
                    runtime,
                    rel_deadline: deadline,
                    period,
                    deadline: now + deadline,
                    remaining: runtime as i64,
                    queued: false,
                    allowed: task.allowed,
                };
            }
            (Enqueue::Wakeup, _) => s.wake(now),
            // Throttled now; the replenishment at its deadline opens the next period.
            (Enqueue::Yielded, _) => s.remaining = s.remaining.min(0),
            _ => {}
        }
        s.queued = true;
    }

    fn pick_next(&mut self, hart: usize, now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        self.ready(hart, now, u64::MAX);
        let s = &self.servers;
        let tid = (1..MAX_TASKS).filter(|&t| s[t].queued && !s[t].throttled() && allowed(t)).min_by_key(|&t| (s[t].deadline, t))?;
        self.servers[tid].queued = false;
        Some(tid)
    }

    fn charge(&mut self, task: &api::Task, ran_ns: u64, _now: u64) {
        self.servers[task.tid].remaining -= ran_ns as i64;
    }

    /// A task out of runtime is throttled; an earlier deadline takes the hart.
    fn tick(&mut self, current: &api::Task, now: u64) -> bool {
        let hart = current.hart.unwrap_or(0);
        let mine = self.servers[current.tid];
        mine.throttled() || self.ready(hart, now, mine.deadline)
    }

    fn wakeup_preempts(&self, current: &api::Task, woken: &api::Task) -> bool {
        let w = &self.servers[woken.tid];
        !w.throttled() && (current.class.rank() < 2 || w.deadline < self.servers[current.tid].deadline)
    }

    fn describe(&self, tid: Tid, out: &mut Fields) {
        let s = &self.servers[tid];
        out.field("dl", s.deadline).field_int("left", s.remaining);
    }

    fn milestone(&self, tid: Tid, out: &mut Fields) {
        self.describe(tid, out);
    }
}
