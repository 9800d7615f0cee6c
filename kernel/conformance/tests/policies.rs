//! The scheduler API's conformance suite (`runqueue_sched_api::conformance`), generated for every
//! policy: the kernel's own, and each lab's reference solution (the lab's skeleton stops at its
//! first TODO; a student's file passes when it is done).

#[path = "../../../labs/bvt/solution.rs"]
mod lab_bvt_solution;
#[path = "../../../labs/mlfq/solution.rs"]
mod lab_mlfq_solution;
#[path = "../../../labs/sjf/solution.rs"]
mod lab_sjf_solution;

use runqueue_policies::{bvt, cfs, eevdf, fifo, lottery, mlfq, o1, rr, sjf, stride};

runqueue_sched_api::conformance! {
    fifo_policy: fifo::SPEC,
    rr_policy: rr::SPEC,
    cfs_policy: cfs::SPEC,
    sjf_policy: sjf::SPEC,
    mlfq_policy: mlfq::SPEC,
    lottery_policy: lottery::SPEC,
    stride_policy: stride::SPEC,
    o1_policy: o1::SPEC,
    bvt_policy: bvt::SPEC,
    eevdf_policy: eevdf::SPEC,
    lab_sjf: crate::lab_sjf_solution::SPEC,
    lab_mlfq: crate::lab_mlfq_solution::SPEC,
    lab_bvt: crate::lab_bvt_solution::SPEC,
}

/// Every policy the kernel offers is in the suite above: a new one must be added there.
#[test]
fn the_suite_covers_every_policy() {
    let names: Vec<&str> = runqueue_policies::SCHEDULERS.iter().map(|s| s.name).collect();
    assert_eq!(names, ["fifo", "rr", "cfs", "sjf", "mlfq", "lottery", "stride", "o1", "bvt", "eevdf"]);
}

/// The suite catches what it is for: FIFO with one of three mistakes planted fails the check
/// that names it.
mod planted_mistakes {
    use runqueue_policies::fifo;
    use runqueue_sched_api::conformance as c;
    use runqueue_sched_api::{Enqueue, QueueView, Run, SchedSpec, Scheduler, Settings, Task, Tid};

    /// FIFO, but `forgets` one thing it is told.
    struct Planted {
        inner: fifo::Fifo,
        mistake: Mistake,
    }

    #[derive(Clone, Copy, PartialEq)]
    enum Mistake {
        /// Picks the first queued task even when it may not run on the hart.
        IgnoresAllowed,
        /// Keeps a task that exited (queues it again).
        RequeuesOnExit,
        /// Queues a task that went back to the queue twice.
        DoublesRequeue,
    }

    impl Scheduler for Planted {
        fn enqueue(&mut self, task: &Task, why: Enqueue, now: u64) {
            self.inner.enqueue(task, why, now);
            if self.mistake == Mistake::DoublesRequeue && matches!(why, Enqueue::Yielded | Enqueue::Preempted) {
                self.inner.enqueue(task, why, now);
            }
        }
        fn pick_next(&mut self, hart: usize, now: u64, allowed: &dyn Fn(Tid) -> bool) -> Option<Tid> {
            if self.mistake == Mistake::IgnoresAllowed {
                return self.inner.pick_next(hart, now, &|_| true);
            }
            self.inner.pick_next(hart, now, allowed)
        }
        fn tick(&mut self, current: &Task, now: u64) -> bool {
            self.inner.tick(current, now)
        }
        fn exit(&mut self, task: &Task) {
            if self.mistake == Mistake::RequeuesOnExit {
                self.inner.enqueue(task, Enqueue::Yielded, 0);
            }
        }
    }

    fn spec(mistake: Mistake) -> SchedSpec<Planted> {
        fn build(mistake: Mistake, s: &Settings, run: &Run) -> Result<Planted, runqueue_sched_api::Invalid> {
            Ok(Planted { inner: (fifo::SPEC.build)(s, run)?, mistake })
        }
        let build: fn(&Settings, &Run) -> Result<Planted, runqueue_sched_api::Invalid> = match mistake {
            Mistake::IgnoresAllowed => |s, r| build(Mistake::IgnoresAllowed, s, r),
            Mistake::RequeuesOnExit => |s, r| build(Mistake::RequeuesOnExit, s, r),
            Mistake::DoublesRequeue => |s, r| build(Mistake::DoublesRequeue, s, r),
        };
        SchedSpec { name: "planted", help: "", tunables: fifo::SPEC.tunables, queue: QueueView::ARRIVAL, build }
    }

    fn fails(check: fn(&SchedSpec<Planted>), mistake: Mistake) -> bool {
        std::panic::catch_unwind(|| check(&spec(mistake))).is_err()
    }

    #[test]
    fn each_mistake_fails_its_check() {
        assert!(fails(c::only_allowed_tasks_are_picked, Mistake::IgnoresAllowed));
        assert!(fails(c::an_exited_task_is_never_picked, Mistake::RequeuesOnExit));
        assert!(fails(c::a_requeued_task_comes_back_once, Mistake::DoublesRequeue));
    }
}
