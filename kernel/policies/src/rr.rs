//! Round robin: FIFO order plus a time slice; a task that used its whole slice goes to the
//! back of the queue with a fresh one. Follows ArceOS's `RRScheduler` (slice counted in
//! ticks, 5 by default) and POSIX SCHED_RR. The slice is measured in CPU time but only
//! checked at ticks, so with the default 1 ms tick a 5 ms slice is 5 ticks. A task whose slice
//! ends while no other task waits gets a fresh one at that tick (as Linux's `task_tick_rt`
//! refills the quantum whether or not it requeues), so a newcomer waits a slice, not a tick.

use runqueue_sched_api::{Carry, Enqueue, Int, Kind, MAX_TASKS, QueueView, Run, SchedSpec, Scheduler, Setting, Settings, Task, Tid, TidQueue, Tunable, ms, tunables};

tunables! {
    const TUNABLES;
    SLICE: Int = Setting::int(Tunable {
        name: "rr.slice_ms",
        kind: Kind::Int { min: 1, max: 1000 },
        default: "5",
        unit: "ms",
        help: "time slice (checked at each tick; 5 ticks at the default tick_us=1000)",
    });
}

pub const SPEC: SchedSpec<RoundRobin> = SchedSpec {
    name: "rr",
    help: "round robin: FIFO order, preempted after a fixed CPU time slice",
    tunables: TUNABLES,
    queue: QueueView::ARRIVAL,
    build: |s: &Settings, _: &Run| Ok(RoundRobin { queue: TidQueue::new(), slice_ns: ms(s.get(&SLICE)), slice_from: [0; MAX_TASKS] }),
};

pub struct RoundRobin {
    queue: TidQueue,
    slice_ns: u64,
    /// Where in its current stint (`Task::stint_ns`) each task's slice began.
    slice_from: [u64; MAX_TASKS],
}

impl Scheduler for RoundRobin {
    fn enqueue(&mut self, task: &Task, _why: Enqueue, _now: u64) {
        self.queue.push_back(task.tid);
    }

    fn pick_next(&mut self, _hart: usize, _now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        let tid = self.queue.take_first(allowed)?;
        self.slice_from[tid] = 0;
        Some(tid)
    }

    /// The slice restarts at every switch-in: only slice expiry preempts an RR task, so a
    /// new stint always follows a full slice, a yield or a sleep. A slice that ends with
    /// nobody waiting starts the next one.
    fn tick(&mut self, current: &Task, _now: u64) -> bool {
        let from = &mut self.slice_from[current.tid];
        if current.stint_ns - *from < self.slice_ns {
            return false;
        }
        if self.queue.is_empty() {
            *from = current.stint_ns;
            return false;
        }
        true
    }

    fn detach(&mut self, task: &Task, queued: bool, _now: u64) -> Option<Carry> {
        if queued {
            self.queue.take_first(&|t| t == task.tid);
        }
        Some(Carry::default())
    }

    fn attach(&mut self, task: &Task, _carry: Carry, queued: bool, _now: u64) {
        if queued {
            self.queue.push_back(task.tid);
        }
    }
}
