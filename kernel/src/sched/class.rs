//! The class layer (Linux's `sched_class` chain): deadline tasks run before real-time ones,
//! which run before fair ones, whatever the fair policy `sched=` chose. Each task belongs to
//! the class its `Class` names; the layer routes every call to that class, picks from the
//! highest class with a runnable task, and preempts a task when a higher class has work for
//! its hart.
//!
//! This is also where the core meets the policy's code: each call hands the policy a view of
//! the task (`Task::view`), and what the policy writes into a trace event is checked.

use super::Policy;
use super::deadline::Deadline;
use super::rt::Rt;
use crate::args::Settings;
use crate::task::{Class, MAX_TASKS, Task, Tid};
use runqueue_sched_api::{self as api, Enqueue, Fields, Line, Scheduler};

pub struct Classes {
    fair: Policy,
    rt: Rt,
    dl: Deadline,
    /// Each task's class rank (`Class::rank`), recorded when it is created.
    rank: [u8; MAX_TASKS],
    /// Whether any task of each rank exists: most runs are all fair, and then the checks on
    /// every tick for higher classes cost nothing.
    present: [bool; 3],
}

impl Classes {
    /// Before the command line is read: no tasks exist yet.
    pub const EMPTY: Classes = Classes { fair: Policy::IDLE, rt: Rt::EMPTY, dl: Deadline::EMPTY, rank: [0; MAX_TASKS], present: [false; 3] };

    pub fn new(fair: Policy, s: &Settings) -> Classes {
        // Deadline tasks may reserve the RT share of every hart (all of it without throttling).
        let (runtime, period) = (s.int("rt.runtime_us"), s.int("rt.period_us"));
        let share_ppm = if runtime < 0 { 1_000_000 } else { (runtime * 1_000_000 / period).min(1_000_000) as u64 };
        Classes { fair, rt: Rt::new(s), dl: Deadline::new(share_ppm * s.smp() as u64), rank: [0; MAX_TASKS], present: [false; 3] }
    }

    /// Admission control: `Err` says why a task of `class` cannot join.
    pub fn admit(&mut self, class: &Class) -> Result<(), &'static str> {
        self.dl.admit(class)
    }

    fn of(&mut self, tid: Tid) -> &mut dyn Scheduler {
        match self.rank[tid] {
            0 => self.fair.get(),
            1 => &mut self.rt,
            _ => &mut self.dl,
        }
    }

    /// Whether any task above the fair class exists: only then are there timer events
    /// besides ticks and sleepers (`next_event`), and all-fair runs stay as they were.
    pub fn timed(&self) -> bool {
        self.present[1] || self.present[2]
    }

    /// The earliest time a class above the fair one needs `hart` looked at (`running` is the
    /// task on it): a deadline budget running out, a replenishment, RT throttling starting or
    /// ending. The core arms the hart's timer for it, as Linux arms an hrtimer.
    #[inline(never)]
    pub fn next_event(&mut self, hart: usize, running: Option<&Task>, now: u64) -> Option<u64> {
        let dl = if self.present[2] { self.dl.next_event(hart, running, now) } else { None };
        let rt = if self.present[1] { self.rt.next_event(hart, running, now) } else { None };
        dl.into_iter().chain(rt).min()
    }

    /// At a timer event that is not a tick: only the class checks (out of budget or
    /// throttled? a higher class ready?). The fair policy's `tick` is not called: RR, MLFQ and
    /// CFS count ticks, and an extra one would change their schedules.
    #[inline(never)]
    pub fn recheck(&mut self, current: &Task, now: u64) -> bool {
        let current = &current.view();
        let own = match self.rank[current.tid] {
            0 => false,
            1 => self.rt.outranked(current, now),
            _ => self.dl.tick(current, now),
        };
        own || self.higher_ready(current, now)
    }

    /// A class above `current`'s has a task waiting for its hart.
    #[inline(always)]
    fn higher_ready(&mut self, current: &api::Task, now: u64) -> bool {
        let hart = current.hart.unwrap_or(0);
        let rank = self.rank[current.tid];
        (rank < 2 && self.present[2] && self.dl.ready(hart, now, u64::MAX)) || (rank == 0 && self.present[1] && self.rt.ready(hart, now, 0))
    }

    fn view_of(&self, tid: Tid) -> &dyn Scheduler {
        match self.rank[tid] {
            0 => self.fair.view(),
            1 => &self.rt,
            _ => &self.dl,
        }
    }
}

/// The calls the core makes, each routed to the task's class.
impl Classes {
    pub fn enqueue(&mut self, task: &Task, why: Enqueue, now: u64) {
        let task = &task.view();
        if why == Enqueue::New {
            self.rank[task.tid] = task.class.rank();
            self.present[self.rank[task.tid] as usize] = true;
        }
        self.of(task.tid).enqueue(task, why, now);
    }

    pub fn pick_next(&mut self, hart: usize, now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        let dl = if self.present[2] { self.dl.pick_next(hart, now, allowed) } else { None };
        let rt = || if self.present[1] { self.rt.pick_next(hart, now, allowed) } else { None };
        dl.or_else(rt).or_else(|| self.fair.get().pick_next(hart, now, allowed))
    }

    pub fn charge(&mut self, task: &Task, ran_ns: u64, now: u64) {
        let task = &task.view();
        if let Some(hart) = task.hart {
            self.rt.roll(hart, now);
        }
        self.of(task.tid).charge(task, ran_ns, now);
    }

    /// The running task's class decides, except that a task always gives way to a higher
    /// class's task waiting for its hart (one that woke without an IPI, was throttled until
    /// now, or was replenished).
    pub fn tick(&mut self, current: &Task, now: u64) -> bool {
        let current = &current.view();
        let own = self.of(current.tid).tick(current, now);
        own || self.higher_ready(current, now)
    }

    pub fn wakeup_preempts(&self, current: &Task, woken: &Task) -> bool {
        let (current, woken) = (&current.view(), &woken.view());
        // A higher class's own rule covers a lower-class `current` (RT: any priority beats a
        // fair task, whose RT priority reads as 0).
        self.rank[woken.tid] >= self.rank[current.tid] && self.view_of(woken.tid).wakeup_preempts(current, woken)
    }

    pub fn block(&mut self, task: &Task, now: u64) {
        self.of(task.tid).block(&task.view(), now);
    }

    pub fn exit(&mut self, task: &Task) {
        self.of(task.tid).exit(&task.view());
    }

    /// Appends the policy's fields for `tid` to a trace line.
    pub fn describe(&self, tid: Tid, out: &mut Line) {
        let mut fields = Fields::new(out);
        self.view_of(tid).describe(tid, &mut fields);
        refuse(&fields, "describe");
    }

    pub fn milestone(&self, tid: Tid, out: &mut Line) {
        let mut fields = Fields::new(out);
        self.view_of(tid).milestone(tid, &mut fields);
        refuse(&fields, "milestone");
    }
}

/// A policy that wrote a field the trace cannot carry stops the kernel: the grader must
/// never read an event the core did not write.
fn refuse(fields: &Fields, method: &str) {
    if let Some(name) = fields.refused() {
        let name = core::str::from_utf8(&name).unwrap_or("?").trim_end();
        panic!("the policy's {method}() wrote a trace field named {name:?}: names are 1-16 of a-z, 0-9 and _, and not one of the core's (name, class, nice, why, ran, cpu, wait, key, value)");
    }
}
