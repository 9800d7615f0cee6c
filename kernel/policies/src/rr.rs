//! Round robin: FIFO order plus a time slice; a task that used its whole slice goes to the
//! back of the queue with a fresh one. Follows ArceOS's `RRScheduler` (slice counted in
//! ticks, 5 by default) and POSIX SCHED_RR. The slice is measured in CPU time but only
//! checked at ticks, so with the default 1 ms tick a 5 ms slice is 5 ticks.

use runqueue_sched_api::{Carry, Enqueue, Kind, SchedSpec, Scheduler, Settings, Task, Tid, TidQueue, Tunable};

pub const SPEC: SchedSpec<RoundRobin> = SchedSpec {
    name: "rr",
    help: "round robin: FIFO order, preempted after a fixed CPU time slice",
    tunables: &[Tunable {
        name: "rr.slice_ms",
        kind: Kind::Int { min: 1, max: 1000 },
        default: "5",
        unit: "ms",
        help: "time slice (checked at each tick; 5 ticks at the default tick_us=1000)",
    }],
    build: |s: &dyn Settings| Ok(RoundRobin { queue: TidQueue::new(), slice_ns: s.ms("rr.slice_ms") }),
};

pub struct RoundRobin {
    queue: TidQueue,
    slice_ns: u64,
}

impl Scheduler for RoundRobin {
    fn enqueue(&mut self, task: &Task, _why: Enqueue, _now: u64) {
        self.queue.push_back(task.tid);
    }

    fn pick_next(&mut self, _hart: usize, _now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        self.queue.take_first(allowed)
    }

    /// The slice restarts at every switch-in: only slice expiry preempts an RR task, so a
    /// new stint always follows a full slice, a yield or a sleep.
    fn tick(&mut self, current: &Task, _now: u64) -> bool {
        current.stint_ns >= self.slice_ns && !self.queue.is_empty()
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
