//! The class layer (Linux's `sched_class` chain): deadline tasks run before real-time ones,
//! which run before fair ones, whatever the fair policy `sched=` chose. Each task belongs to
//! the class its `Class` names; the layer routes every call to that class, picks from the
//! highest class with a runnable task, and preempts a task when a higher class has work for
//! its hart.
//!
//! The fair policy has one instance per hart's run queue (`rq=perhart`, as Linux has a
//! `cfs_rq` per CPU) or one shared by all harts (`rq=global`, as xv6 and ArceOS have); a task
//! belongs to the instance of its `Task::queue`. The real-time and deadline classes keep one
//! queue for all harts: what Linux's push and pull of RT and deadline tasks between CPUs
//! approximate, and the core kicks the right hart (`dispatch`) so that no priority inversion
//! between harts lasts longer than an IPI.
//!
//! This is also where the core meets the policy's code: each call hands the policy a view of
//! the task (`Task::view`), and what the policy writes into a trace event is checked.

use super::deadline::Deadline;
use super::fair_server::FairServer;
use super::group::Hierarchy;
use super::rt::Rt;
use crate::args::{ArgError, Settings};
use crate::hart::MAX_HARTS;
use crate::task::{Class, FairPolicy, MAX_TASKS, State, Task, Tid};
use runqueue_sched_api::{self as api, Carry, Enqueue, Fields, Line, Scheduler};

pub struct Classes {
    /// The fair policy's instances: one per hart, or only the first (`rq=global`), each with
    /// its cgroups' queues below it.
    fair: Hierarchy,
    perhart: bool,
    harts: usize,
    rt: Rt,
    /// Linux 6.12's fair server, one per hart (`rt.starvation=server`).
    server: FairServer,
    /// Runnable fair tasks (running ones included) of each fair instance, to start and stop
    /// the server as `enqueue_task_fair` and `dequeue_entities` do.
    fair_nr: [u32; MAX_HARTS],
    dl: Deadline,
    /// Each task's class rank (`Class::rank`), recorded when it is created.
    rank: [u8; MAX_TASKS],
    /// Whether any task of each rank exists: most runs are all fair, and then the checks on
    /// every tick for higher classes cost nothing.
    present: [bool; 3],
    /// What a fair task boosted into the real-time class left its fair queue with
    /// (`change_class`), taken back when it returns.
    carry: [Option<Carry>; MAX_TASKS],
}

impl Classes {
    /// Before the command line is read: no tasks exist yet.
    pub const EMPTY: Classes =
        Classes { fair: Hierarchy::EMPTY, perhart: false, harts: 1, rt: Rt::EMPTY, server: FairServer::OFF, fair_nr: [0; MAX_HARTS], dl: Deadline::EMPTY, rank: [0; MAX_TASKS], present: [false; 3], carry: [None; MAX_TASKS] };

    /// Sets the classes up in place (they are too big for a stack to hold copies), with the
    /// fair policy `sched=` chose, one instance per run queue.
    pub fn configure(&mut self, s: &Settings, perhart: bool) -> Result<(), ArgError> {
        // Deadline tasks may reserve the RT share of every hart (all of it without throttling),
        // less the fair server's.
        self.perhart = perhart;
        self.harts = s.smp();
        self.rt.configure(s);
        self.server.configure(s);
        let share_ppm = self.rt.share_ppm().saturating_sub(self.server.share_ppm());
        self.dl = Deadline::new(share_ppm * s.smp() as u64);
        self.fair.configure(s, perhart)
    }

    /// The index of the fair instance that holds the tasks of `queue`.
    fn slot(&self, queue: usize) -> usize {
        if self.perhart { queue } else { 0 }
    }

    fn fair(&mut self, queue: usize) -> &mut dyn Scheduler {
        let slot = self.slot(queue);
        self.fair.at(slot)
    }

    fn fair_view(&self, queue: usize) -> &dyn Scheduler {
        self.fair.at_view(self.slot(queue))
    }

    /// Admission control: `Err` says why a task of `class` with fair-class `policy` cannot join.
    pub fn admit(&mut self, class: &Class, policy: FairPolicy) -> Result<(), &'static str> {
        if policy != FairPolicy::Normal {
            if *class != Class::Fair {
                return Err("policy=batch or policy=idle is a fair-class policy: that task cannot also be real-time or deadline");
            }
            if !self.fair.at_view(0).fair_policies() {
                return Err("policy=batch and policy=idle are Linux's: only sched=cfs and sched=eevdf implement them");
            }
        }
        self.dl.admit(class)
    }

    fn of(&mut self, task: &Task) -> &mut dyn Scheduler {
        match self.rank[task.tid] {
            0 => self.fair(task.queue),
            1 => &mut self.rt,
            _ => &mut self.dl,
        }
    }

    /// Ticket transfers: `waiter` waits for a mutex `owner` holds, or no longer (`None`). The
    /// fair instance of the waiter's queue hears it; an owner that is not a fair task on the
    /// same queue borrows nothing.
    pub fn lend(&mut self, waiter: &Task, owner: Option<&Task>) {
        if self.rank[waiter.tid] != 0 {
            return;
        }
        let slot = self.slot(waiter.queue);
        let owner = owner.filter(|o| self.rank[o.tid] == 0 && self.slot(o.queue) == slot).map(|o| o.tid);
        self.fair.at(slot).lend(waiter.tid, owner);
    }

    /// The harts fair instance `slot` serves.
    fn harts_of(&self, slot: usize) -> core::ops::Range<usize> {
        if self.perhart { slot..slot + 1 } else { 0..self.harts }
    }

    /// One more runnable fair task in the queue of `queue`: the first starts the servers of
    /// its harts.
    fn fair_joined(&mut self, queue: usize, now: u64) {
        let slot = self.slot(queue);
        self.fair_nr[slot] += 1;
        if self.fair_nr[slot] == 1 {
            self.harts_of(slot).for_each(|h| self.server.start(h, now));
        }
    }

    /// One fewer: the last stops them.
    fn fair_left(&mut self, queue: usize) {
        let slot = self.slot(queue);
        self.fair_nr[slot] -= 1;
        if self.fair_nr[slot] == 0 {
            self.harts_of(slot).for_each(|h| self.server.stop(h));
        }
    }

    /// Whether any task above the fair class exists: only then are there timer events
    /// besides ticks and sleepers (`next_event`), and all-fair runs stay as they were.
    pub fn timed(&self) -> bool {
        self.present[1] || self.present[2] || self.fair.timed()
    }

    /// The earliest time a class above the fair one needs `hart` looked at (`running` is the
    /// task on it): a deadline budget running out, a replenishment, RT throttling starting or
    /// ending. The core arms the hart's timer for it, as Linux arms an hrtimer.
    #[inline(never)]
    pub fn next_event(&mut self, hart: usize, running: Option<&Task>, now: u64) -> Option<u64> {
        let dl = if self.present[2] { self.dl.next_event(hart, running, now) } else { None };
        let rt = if self.present[1] { self.rt.next_event(hart, running, now) } else { None };
        let fair_since = running.filter(|t| self.rank[t.tid] == 0).map(|t| t.charged_at);
        let server = if self.present[1] { self.server.next_event(hart, fair_since, now) } else { None };
        let slot = self.slot(hart);
        let refill = if self.fair.timed() { self.fair.next_event(slot, now) } else { None };
        dl.into_iter().chain(rt).chain(server).chain(refill).min()
    }

    /// At a timer event that is not a tick: only the class checks (out of budget or
    /// throttled? a higher class ready?). The fair policy's `tick` is not called: RR, MLFQ and
    /// CFS count ticks, and an extra one would change their schedules.
    #[inline(never)]
    pub fn recheck(&mut self, current: &Task, now: u64) -> bool {
        let current = &current.view();
        let own = match self.rank[current.tid] {
            0 => self.fair.at(self.slot(current.hart.unwrap_or(0))).recheck(current, now),
            1 => self.rt.outranked(current, now),
            _ => self.dl.tick(current, now),
        };
        own || self.higher_ready(current, now)
    }

    /// A class above `current`'s has a task waiting for its hart; while the fair server runs
    /// fair tasks there, the real-time class waits, and a real-time task gives way to it (the
    /// server is a deadline entity). Both `tick` and `recheck` ask this: a timer interrupt
    /// runs one of them, and one armed for the server's zero-laxity point runs `tick` when the
    /// hart's tick is due by the time it takes the clock (another hart may have moved it on),
    /// after which `next_event` arms nothing more for the active server.
    #[inline(always)]
    fn higher_ready(&mut self, current: &api::Task, now: u64) -> bool {
        let hart = current.hart.unwrap_or(0);
        let rank = self.rank[current.tid];
        (rank < 2 && self.present[2] && self.dl.ready(hart, now, u64::MAX))
            || (rank == 1 && self.serving(hart, now))
            || (rank == 0 && self.present[1] && !self.server.active(hart, now) && self.rt.ready(hart, now, 0))
    }

    /// The fair server takes `hart` for fair tasks now.
    fn serving(&self, hart: usize, now: u64) -> bool {
        self.fair_nr[self.slot(hart)] > 0 && self.server.active(hart, now)
    }

    fn view_of(&self, task: &Task) -> &dyn Scheduler {
        match self.rank[task.tid] {
            0 => self.fair_view(task.queue),
            1 => &self.rt,
            _ => &self.dl,
        }
    }
}

/// The calls the core makes, each routed to the task's class.
impl Classes {
    pub fn enqueue(&mut self, task: &Task, why: Enqueue, now: u64) {
        if why == Enqueue::New {
            self.rank[task.tid] = task.class.rank();
            self.present[self.rank[task.tid] as usize] = true;
        }
        if self.rank[task.tid] == 0 && matches!(why, Enqueue::New | Enqueue::Wakeup) {
            self.fair_joined(task.queue, now);
        }
        self.of(task).enqueue(&task.view(), why, now);
    }

    pub fn pick_next(&mut self, hart: usize, now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        let dl = if self.present[2] { self.dl.pick_next(hart, now, allowed) } else { None };
        if dl.is_some() {
            return dl;
        }
        // The fair server's turn comes before real-time tasks (after deadline tasks: see
        // `fair_server.rs`).
        if self.present[1] && self.serving(hart, now)
            && let Some(tid) = self.fair(hart).pick_next(hart, now, allowed)
        {
            return Some(tid);
        }
        let rt = if self.present[1] { self.rt.pick_next(hart, now, allowed) } else { None };
        rt.or_else(|| self.fair(hart).pick_next(hart, now, allowed))
    }

    pub fn charge(&mut self, task: &Task, ran_ns: u64, now: u64) {
        let view = &task.view();
        if let Some(hart) = view.hart {
            self.rt.roll(hart, now);
            if self.rank[task.tid] == 0 {
                self.server.consume(hart, ran_ns, now);
            }
        }
        self.of(task).charge(view, ran_ns, now);
    }

    /// The running task's class decides, except that a task always gives way to a higher
    /// class's task waiting for its hart (one that woke without an IPI, was throttled until
    /// now, or was replenished).
    pub fn tick(&mut self, current: &Task, now: u64) -> bool {
        let view = &current.view();
        let own = self.of(current).tick(view, now);
        own || self.higher_ready(view, now)
    }

    pub fn wakeup_preempts(&self, current: &Task, woken: &Task) -> bool {
        let (c, w) = (&current.view(), &woken.view());
        // A higher class's own rule covers a lower-class `current` (RT: any priority beats a
        // fair task, whose RT priority reads as 0), except a fair task the server runs.
        let served = self.rank[c.tid] == 0 && self.rank[w.tid] == 1 && self.serving(c.hart.unwrap_or(0), current.charged_at);
        !served && self.rank[w.tid] >= self.rank[c.tid] && self.view_of(woken).wakeup_preempts(c, w)
    }

    /// How firmly `task` holds the hart it runs on: a task woken elsewhere preempts the hart
    /// whose task stands lowest (fair, then RT by priority, then deadline by latest deadline).
    pub fn standing(&self, task: &Task) -> (u8, u64) {
        match task.class {
            Class::Fair => (0, 0),
            Class::Fifo(p) | Class::Rr(p) => (1, p as u64),
            Class::Deadline { .. } => (2, u64::MAX - self.dl.deadline(task.tid)),
        }
    }

    pub fn block(&mut self, task: &Task, now: u64) {
        if self.rank[task.tid] == 0 {
            self.fair_left(task.queue);
        }
        self.of(task).block(&task.view(), now);
    }

    pub fn exit(&mut self, task: &Task) {
        if self.rank[task.tid] == 0 {
            self.fair_left(task.queue);
        }
        self.of(task).exit(&task.view());
    }

    /// Moves fair task `task` (in its queue if `queued`, else asleep or blocked) to hart
    /// `to`'s queue; false when the policy cannot move tasks. The caller updates
    /// `Task::queue` after a move.
    pub fn migrate(&mut self, task: &Task, to: usize, queued: bool, now: u64) -> bool {
        let view = &task.view();
        let Some(carry) = self.fair(task.queue).detach(view, queued, now) else {
            return false;
        };
        self.fair(to).attach(view, carry, queued, now);
        if queued {
            self.fair_left(task.queue);
            self.fair_joined(to, now);
        }
        true
    }

    /// Moves `task` from class `old` to its `class` (a mutex owner's priority inherited or
    /// given back, `mutex.rs`), as Linux's `rt_mutex_setprio`: a fair task leaves its fair
    /// queue for the real-time class with what the policy keeps for it (its vruntime, as
    /// `detach_task_cfs_rq` does), and returns to the same queue with it; a real-time task
    /// only changes priority. `queued`: runnable and waiting in a run queue. Deadline owners
    /// are never boosted (`mutex.rs`). `Err` when the fair policy cannot let a task go.
    pub fn change_class(&mut self, task: &Task, old: Class, queued: bool, now: u64) -> Result<(), &'static str> {
        let (tid, new) = (task.tid, task.class);
        let view = &task.view();
        let runnable = matches!(task.state, State::Runnable | State::Running(_));
        match (old.rank(), new.rank()) {
            (0, 1) if runnable => self.fair_left(task.queue),
            (1, 0) if runnable => self.fair_joined(task.queue, now),
            _ => {}
        }
        match (old.rank(), new.rank()) {
            (0, 1) => {
                let before = &api::Task { class: old, ..*view };
                let carry = self.fair(task.queue).detach(before, queued, now).ok_or("priority inheritance needs a fair policy that can move tasks between queues (detach), as the kernel's own do")?;
                self.carry[tid] = Some(carry);
                self.rt.set_prio(view, queued, true);
            }
            (1, 1) => self.rt.set_prio(view, queued, false),
            (1, 0) => {
                self.rt.leave(tid, queued);
                let carry = self.carry[tid].take().unwrap_or_default();
                self.fair(task.queue).attach(view, carry, queued, now);
            }
            _ => return Err("only fair and real-time tasks change class by priority inheritance"),
        }
        self.rank[tid] = new.rank();
        self.present[self.rank[tid] as usize] = true;
        Ok(())
    }

    /// Appends the policy's fields for `task` to a trace line.
    pub fn describe(&self, task: &Task, out: &mut Line) {
        let mut fields = Fields::new(out);
        self.view_of(task).describe(task.tid, &mut fields);
        refuse(&fields, "describe");
    }

    pub fn milestone(&self, task: &Task, out: &mut Line) {
        let mut fields = Fields::new(out);
        self.view_of(task).milestone(task.tid, &mut fields);
        refuse(&fields, "milestone");
    }
}

/// A policy that wrote a field the trace cannot carry stops the kernel: the grader must
/// never read an event the core did not write.
fn refuse(fields: &Fields, method: &str) {
    if let Some(name) = fields.refused() {
        let name = core::str::from_utf8(&name).unwrap_or("?").trim_end();
        panic!(
            "the policy's {method}() wrote a trace field named {name:?}: names are 1-16 of a-z, 0-9 and _, and not one of the core's (name, class, policy, nice, why, ran, cpu, wait, key, value)"
        );
    }
}
