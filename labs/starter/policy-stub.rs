//! The kernel's own `@POLICY@` policy is not in this starter repository: it resembles the
//! @LAB@ lab's answer. Write yours in `kernel/lab/src/@LAB@.rs` and run it as `sched=lab-@LAB@`.

use runqueue_sched_api::{Enqueue, Invalid, Pick, QueueView, SchedSpec, Scheduler, Task, Tid};

pub const SPEC: SchedSpec<@TYPE@> = SchedSpec {
    name: "@POLICY@",
    help: "not in this starter repository (it resembles the lab's answer): use sched=lab-@LAB@",
    tunables: &[],
    queue: QueueView { order: &[], show: &[], pick: Pick::First },
    build: |_, _| {
        Err(Invalid(
            "sched",
            "sched=@POLICY@ is not in this starter repository: the kernel's own @POLICY@ resembles the @LAB@ lab's answer; write yours in kernel/lab/src/@LAB@.rs and run it as sched=lab-@LAB@",
        ))
    },
};

/// Never built (`SPEC.build` refuses).
pub struct @TYPE@;

impl Scheduler for @TYPE@ {
    fn enqueue(&mut self, _task: &Task, _why: Enqueue, _now: u64) {}

    fn pick_next(&mut self, _hart: usize, _now: u64, _allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
        None
    }

    fn tick(&mut self, _current: &Task, _now: u64) -> bool {
        false
    }
}
