//! One conformance suite every policy runs, the kernel's and the labs' alike (`conformance!`,
//! after ArceOS's `axsched`, whose one test macro runs every scheduler): what the core counts on
//! whatever a policy decides. Each check builds the policy from its declared defaults and drives
//! it through the `Scheduler` trait only; a failure names the policy and what it did.

use crate::{Carry, Class, Enqueue, FairPolicy, Run, SchedSpec, Scheduler, Settings, Task, Tid};

/// The run the suite builds policies for: one hart, the default tick, seed 0.
pub const RUN: Run = Run { harts: 1, tick_ns: 1_000_000, seed: 0 };

const MS: u64 = 1_000_000;

/// `spec`'s policy, built from the defaults its table declares.
pub fn build<P>(spec: &SchedSpec<P>) -> P {
    let settings = Settings::parse_part("", &[spec.tunables], &[]).unwrap_or_else(|_| panic!("{}: its table does not read", spec.name));
    (spec.build)(&settings, &RUN).unwrap_or_else(|e| panic!("{}: its defaults do not build it: {}: {}", spec.name, e.0, e.1))
}

/// A fair task at nice 0 that may run on hart 0.
pub fn task(tid: Tid) -> Task {
    Task { tid, nice: 0, class: Class::Fair, policy: FairPolicy::Normal, warp_ns: 0, tickets: 100, slice_ns: 0, allowed: 1, burst_ns: 0, stint_ns: 0, hart: None }
}

/// Picks on hart 0 among `allowed` until the policy has nothing, at most `limit` times.
fn drain(p: &mut dyn Scheduler, now: u64, allowed: &dyn Fn(Tid) -> bool, limit: usize) -> ([Tid; 64], usize) {
    let (mut picked, mut n) = ([0; 64], 0);
    while let Some(t) = p.pick_next(0, now, allowed) {
        assert!(n < limit, "picked more tasks than were queued: {:?} then {t}", &picked[..n]);
        picked[n] = t;
        n += 1;
    }
    (picked, n)
}

fn sorted(mut tids: [Tid; 64], n: usize) -> [Tid; 64] {
    tids[..n].sort_unstable();
    tids
}

/// `spec`'s policy with tasks 1 to 3 queued, the one it picked first charged for having run
/// `ran` ns on hart 0 (still off its queue, as the running task is), and that task.
fn three_queued_one_ran<P: Scheduler>(spec: &SchedSpec<P>, ran: u64) -> (P, Task) {
    let mut p = build(spec);
    for tid in 1..=3 {
        p.enqueue(&task(tid), Enqueue::New, 0);
    }
    let first = p.pick_next(0, 0, &|_| true).unwrap_or_else(|| panic!("{}: picked nothing of three tasks", spec.name));
    let running = Task { hart: Some(0), stint_ns: ran, ..task(first) };
    p.charge(&running, ran, ran);
    (p, running)
}

/// Every queued task is picked exactly once, and then none.
pub fn every_queued_task_is_picked_once<P: Scheduler>(spec: &SchedSpec<P>) {
    let mut p = build(spec);
    let p: &mut dyn Scheduler = &mut p;
    for tid in 1..=8 {
        p.enqueue(&task(tid), Enqueue::New, 0);
    }
    let (picked, n) = drain(p, 0, &|_| true, 8);
    assert_eq!(&sorted(picked, n)[..n], &[1, 2, 3, 4, 5, 6, 7, 8], "{}: picked {:?} of tasks 1..=8", spec.name, &picked[..n]);
}

/// A task not allowed on the hart is never picked there, and is still queued for when it is.
pub fn only_allowed_tasks_are_picked<P: Scheduler>(spec: &SchedSpec<P>) {
    let mut p = build(spec);
    let p: &mut dyn Scheduler = &mut p;
    for tid in 1..=6 {
        p.enqueue(&task(tid), Enqueue::New, 0);
    }
    let (even, n) = drain(p, 0, &|t| t % 2 == 0, 6);
    assert_eq!(&sorted(even, n)[..n], &[2, 4, 6], "{}: with only even tasks allowed it picked {:?}", spec.name, &even[..n]);
    let (odd, n) = drain(p, 0, &|_| true, 6);
    assert_eq!(&sorted(odd, n)[..n], &[1, 3, 5], "{}: the tasks left queued were {:?}", spec.name, &odd[..n]);
}

/// A task that blocked is not picked until it wakes, and is picked after it woke.
pub fn a_blocked_task_waits_for_its_wakeup<P: Scheduler>(spec: &SchedSpec<P>) {
    let (mut p, running) = three_queued_one_ran(spec, MS);
    let p: &mut dyn Scheduler = &mut p;
    let first = running.tid;
    p.block(&running, MS);
    let (others, n) = drain(p, MS, &|_| true, 2);
    assert!(!others[..n].contains(&first), "{}: task {first} was picked while it slept", spec.name);
    p.enqueue(&task(first), Enqueue::Wakeup, 5 * MS);
    assert_eq!(p.pick_next(0, 5 * MS, &|_| true), Some(first), "{}: task {first} was not picked after it woke", spec.name);
}

/// A task that exited is never picked again; the others still are.
pub fn an_exited_task_is_never_picked<P: Scheduler>(spec: &SchedSpec<P>) {
    let (mut p, running) = three_queued_one_ran(spec, MS);
    let p: &mut dyn Scheduler = &mut p;
    let first = running.tid;
    p.exit(&running);
    let (others, n) = drain(p, MS, &|_| true, 2);
    assert_eq!(n, 2, "{}: after task {first} exited, picked {:?} of the other two", spec.name, &others[..n]);
    assert!(!others[..n].contains(&first), "{}: task {first} was picked after it exited", spec.name);
}

/// A task that ran and went back to the queue (yielded, or preempted) is picked again, once.
pub fn a_requeued_task_comes_back_once<P: Scheduler>(spec: &SchedSpec<P>) {
    for why in [Enqueue::Yielded, Enqueue::Preempted] {
        let (mut p, running) = three_queued_one_ran(spec, 2 * MS);
        let p: &mut dyn Scheduler = &mut p;
        let first = running.tid;
        p.enqueue(&task(first), why, 2 * MS);
        let (all, n) = drain(p, 2 * MS, &|_| true, 3);
        assert_eq!(&sorted(all, n)[..n], &[1, 2, 3], "{}: after task {first} went back ({why:?}), picked {:?}", spec.name, &all[..n]);
    }
}

/// Ticks and charges while tasks run lose no task: after a stretch of running, every task is
/// either the one running or still queued.
pub fn running_loses_no_task<P: Scheduler>(spec: &SchedSpec<P>) {
    let mut p = build(spec);
    let p: &mut dyn Scheduler = &mut p;
    for tid in 1..=4 {
        p.enqueue(&task(tid), Enqueue::New, 0);
    }
    let mut now = 0;
    let mut running = p.pick_next(0, now, &|_| true).unwrap_or_else(|| panic!("{}: picked nothing of four tasks", spec.name));
    let mut stint = 0;
    for _ in 0..200 {
        now += MS;
        stint += MS;
        let current = Task { hart: Some(0), stint_ns: stint, ..task(running) };
        p.charge(&current, MS, now);
        if p.tick(&current, now) {
            p.enqueue(&task(running), Enqueue::Preempted, now);
            running = p.pick_next(0, now, &|_| true).unwrap_or_else(|| panic!("{}: preempted task {running}, then picked nothing", spec.name));
            stint = 0;
        }
    }
    let (queued, n) = drain(p, now, &|_| true, 3);
    let mut all = queued;
    all[n] = running;
    assert_eq!(&sorted(all, n + 1)[..n + 1], &[1, 2, 3, 4], "{}: after 200 ticks, running {running} and queued {:?}", spec.name, &queued[..n]);
}

/// The same calls give the same picks: a policy decides from what it was told, nothing else.
pub fn the_same_calls_give_the_same_picks<P: Scheduler>(spec: &SchedSpec<P>) {
    let picks = || {
        let mut p = build(spec);
        let p: &mut dyn Scheduler = &mut p;
        let mut seen = [0; 64];
        for tid in 1..=5 {
            p.enqueue(&Task { nice: tid as i32 - 3, ..task(tid) }, Enqueue::New, tid as u64 * 100);
        }
        let mut now = MS;
        for slot in seen.iter_mut() {
            let Some(t) = p.pick_next(0, now, &|_| true) else { break };
            *slot = t;
            let current = Task { hart: Some(0), stint_ns: MS, nice: t as i32 - 3, ..task(t) };
            now += MS;
            p.charge(&current, MS, now);
            if t % 2 == 0 {
                p.exit(&current);
            } else {
                p.enqueue(&Task { nice: t as i32 - 3, ..task(t) }, Enqueue::Yielded, now);
            }
            if now > 40 * MS {
                break;
            }
        }
        seen
    };
    assert_eq!(picks(), picks(), "{}: the same calls gave different picks", spec.name);
}

/// A task moved to another hart's instance (`detach`, then `attach` there) is picked there, not
/// where it was; a policy that cannot move tasks says so (`None`) and keeps it.
pub fn a_moved_task_is_picked_where_it_went<P: Scheduler>(spec: &SchedSpec<P>) {
    let (mut a, mut b) = (build(spec), build(spec));
    let (a, b): (&mut dyn Scheduler, &mut dyn Scheduler) = (&mut a, &mut b);
    for tid in 1..=2 {
        a.enqueue(&task(tid), Enqueue::New, 0);
    }
    let Some(carry): Option<Carry> = a.detach(&task(2), true, MS) else { return };
    b.attach(&Task { allowed: 0b10, ..task(2) }, carry, true, MS);
    assert_eq!(drain(a, MS, &|_| true, 1).1, 1, "{}: the old hart still picks the moved task", spec.name);
    assert_eq!(b.pick_next(1, MS, &|_| true), Some(2), "{}: the new hart does not pick the moved task", spec.name);
}

/// Generates the suite's tests for each `name: SPEC`: a module `name` of `#[test]`s.
#[macro_export]
macro_rules! conformance {
    ($($name:ident: $spec:expr),+ $(,)?) => {$(
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            use $crate::conformance as c;
            #[test] fn every_queued_task_is_picked_once() { c::every_queued_task_is_picked_once(&$spec) }
            #[test] fn only_allowed_tasks_are_picked() { c::only_allowed_tasks_are_picked(&$spec) }
            #[test] fn a_blocked_task_waits_for_its_wakeup() { c::a_blocked_task_waits_for_its_wakeup(&$spec) }
            #[test] fn an_exited_task_is_never_picked() { c::an_exited_task_is_never_picked(&$spec) }
            #[test] fn a_requeued_task_comes_back_once() { c::a_requeued_task_comes_back_once(&$spec) }
            #[test] fn running_loses_no_task() { c::running_loses_no_task(&$spec) }
            #[test] fn the_same_calls_give_the_same_picks() { c::the_same_calls_give_the_same_picks(&$spec) }
            #[test] fn a_moved_task_is_picked_where_it_went() { c::a_moved_task_is_picked_where_it_went(&$spec) }
        }
    )+};
}
