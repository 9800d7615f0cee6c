//! The class layer (Linux's `sched_class` chain): real-time tasks run before fair ones,
//! whatever the fair policy `sched=` chose. Each task belongs to the class its `Class` names;
//! the layer routes every call to that class, picks from the highest class with a runnable
//! task, and preempts a task when a higher class has work for its hart.

use super::rt::Rt;
use super::{Enqueue, Policy, Scheduler, fifo::Fifo};
use crate::args::Settings;
use crate::line::Line;
use crate::task::{MAX_TASKS, State, Task, Tid};

pub struct Classes {
    fair: Policy,
    rt: Rt,
    /// Each task's class rank (`Class::rank`), recorded when it is created.
    rank: [u8; MAX_TASKS],
}

impl Classes {
    /// Before the command line is read: no tasks exist yet.
    pub const EMPTY: Classes = Classes { fair: Policy::Fifo(Fifo::new()), rt: Rt::EMPTY, rank: [0; MAX_TASKS] };

    pub fn new(fair: Policy, s: &Settings) -> Classes {
        Classes { fair, rt: Rt::new(s), rank: [0; MAX_TASKS] }
    }

    fn of(&mut self, tid: Tid) -> &mut dyn Scheduler {
        match self.rank[tid] {
            0 => self.fair.get(),
            _ => &mut self.rt,
        }
    }

    fn view_of(&self, tid: Tid) -> &dyn Scheduler {
        match self.rank[tid] {
            0 => self.fair.view(),
            _ => &self.rt,
        }
    }
}

impl Scheduler for Classes {
    fn enqueue(&mut self, task: &Task, why: Enqueue, now: u64) {
        if why == Enqueue::New {
            self.rank[task.tid] = task.class.rank();
        }
        self.of(task.tid).enqueue(task, why, now);
    }

    fn pick_next(&mut self, hart: usize, now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        self.rt.pick_next(hart, now, allowed).or_else(|| self.fair.get().pick_next(hart, now, allowed))
    }

    fn charge(&mut self, task: &Task, ran_ns: u64, now: u64) {
        if let State::Running(hart) = task.state {
            self.rt.roll(hart, now);
        }
        self.of(task.tid).charge(task, ran_ns, now);
    }

    /// The running task's class decides, except that a fair task always gives way to a
    /// real-time task waiting for its hart (one that woke without an IPI, or whose class was
    /// throttled until now).
    fn tick(&mut self, current: &Task, now: u64) -> bool {
        let own = self.of(current.tid).tick(current, now);
        let hart = match current.state {
            State::Running(h) => h,
            _ => 0,
        };
        own || (self.rank[current.tid] == 0 && self.rt.ready(hart, now, 0))
    }

    fn wakeup_preempts(&self, current: &Task, woken: &Task) -> bool {
        // A higher class's own rule covers a lower-class `current` (RT: any priority beats a
        // fair task, whose RT priority reads as 0).
        self.rank[woken.tid] >= self.rank[current.tid] && self.view_of(woken.tid).wakeup_preempts(current, woken)
    }

    fn block(&mut self, task: &Task, now: u64) {
        self.of(task.tid).block(task, now);
    }

    fn exit(&mut self, task: &Task) {
        self.of(task.tid).exit(task);
    }

    fn describe(&self, tid: Tid, out: &mut Line) {
        self.view_of(tid).describe(tid, out);
    }

    fn milestone(&self, tid: Tid, out: &mut Line) {
        self.view_of(tid).milestone(tid, out);
    }
}
