//! How the book draws a policy's run queue at a moment (`book/widget/rq-state.js`): the page
//! replays the trace, keeps each task's latest `describe` figures, and orders the queue by
//! the policy's own keys. The policy states them here, in its `SchedSpec`, and the catalog
//! carries them to the page, so the page holds no copy of any policy's rules.

#[derive(Clone, Copy, Debug)]
pub struct QueueView {
    /// The `describe` figures that order the queue, compared in turn, smallest first (ties:
    /// the earlier enqueued first).
    pub order: &'static [&'static str],
    /// The figures shown beside each task.
    pub show: &'static [&'static str],
    pub pick: Pick,
}

#[derive(Clone, Copy, Debug)]
pub enum Pick {
    /// The queue's first runs next.
    First,
    /// The first runs next, except a task that has just yielded, which is passed over once
    /// (CFS's skip buddy).
    SkipYielder,
    /// EEVDF: eligible tasks (lag >= 0: `vr` at most the queue's average vruntime, weighted by
    /// each task's weight) first, in `order`; the others after them by `vr`. A task's weight is
    /// `weights[nice + 20]`, or `idle_weight` for a SCHED_IDLE task; the running task's `vr`
    /// grows by its CPU time x `weights[20]` / its weight.
    Eligible { weights: &'static [u64; 40], idle_weight: u64 },
    /// A draw among the runnable tasks: the queue has no order, it shows arrival order.
    Draw,
}

impl QueueView {
    /// A queue in arrival order with no figures (FIFO, round robin).
    pub const ARRIVAL: QueueView = QueueView { order: &[], show: &[], pick: Pick::First };
}
