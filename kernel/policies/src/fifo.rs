//! FIFO (first come, first served), cooperative: a task runs until it yields, sleeps or
//! exits; ticks never preempt it. Follows ArceOS's `FifoScheduler` and OSTEP ch. 7.

use runqueue_sched_api::{Carry, Enqueue, QueueView, SchedSpec, Scheduler, Task, Tid, TidQueue};

pub const SPEC: SchedSpec<Fifo> = SchedSpec {
    name: "fifo",
    help: "first come, first served; runs each task until it yields, sleeps or exits",
    tunables: &[],
    queue: QueueView::ARRIVAL,
    build: |_, _| Ok(Fifo::new()),
};

pub struct Fifo {
    queue: TidQueue,
}

impl Fifo {
    pub const fn new() -> Fifo {
        Fifo { queue: TidQueue::new() }
    }
}

impl Scheduler for Fifo {
    fn enqueue(&mut self, task: &Task, _why: Enqueue, _now: u64) {
        self.queue.push_back(task.tid);
    }

    fn pick_next(&mut self, _hart: usize, _now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        self.queue.take_first(allowed)
    }

    fn tick(&mut self, _current: &Task, _now: u64) -> bool {
        false
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
