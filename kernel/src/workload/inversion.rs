//! `inversion`: the Mars Pathfinder case (July 1997). A high-priority real-time task needs a
//! mutex that a low-priority task holds; while the low one is inside its critical section, a
//! medium-priority hog arrives and takes the CPU from it, so the high task waits for the hog
//! as well: priority inversion. With `lock.pi=1` the low task inherits the high one's priority
//! for the rest of its section and the hog waits instead.
//!
//! Every period the low task (fair, tid 2) takes the mutex and works `wl.cs_us` holding it;
//! a quarter of the way into its section one hog per hart (SCHED_FIFO 50) arrives to run
//! `wl.hog_us`; half way, the high task (SCHED_FIFO 90, tid 1) asks for the mutex and holds it
//! for `wl.high_cs_us`. `rtprio=` changes the classes (in that order: high, low, hogs). The
//! high task's waits are in RESULT (`lock`: worst and average time from asking to holding,
//! inversions).
//!
//! `wl.nest=1` makes the chain of transitive inheritance: a fourth task, `inner` (fair),
//! takes a second mutex at each period's start and holds it for `wl.cs_us`; `low` starts an
//! eighth of the section later and, holding the first mutex, waits for the second one, then
//! works `wl.cs_us` holding both. The high task then waits for `low`, which waits for `inner`.
//! `wl.nest=2` has `inner` take the two mutexes in the opposite order, half its section apart:
//! a deadlock, which stops the kernel with the cycle named (`mutex.rs`).
//!
//! `wl.rivals=N` adds N fair tasks (`rival0..`, created last) that ask for the first mutex one
//! after another while `low` holds it, a sixteenth of the section apart from a quarter in, and
//! hold it for `wl.high_cs_us`: the order in which waiters of one class get the lock
//! (`mutex.rs`: fair ones first come, first served, whatever their nice).

use super::{harts, Spawner, WorkloadSpec, get};
use runqueue_settings::{ArgError, Int, Kind, Setting, Settings, Tunable, tunables};
use crate::dispatch::{iteration_done, sleep_until};
use crate::mutex;
use crate::task::{Args, Class, Params};
use crate::work::spin_ns;

const HIGH_PRIO: u8 = 90;
const HOG_PRIO: u8 = 50;
/// The mutex argument of a task that takes none.
const NO_MUTEX: u64 = u64::MAX;

tunables! {
    const TUNABLES;
    PERIOD_US: Int = Setting::int(Tunable { name: "wl.period_us", kind: Kind::Int { min: 1000, max: 1_000_000 }, default: "20000", unit: "us", help: "the period of all three: the low task takes the lock at its start" });
    CS_US: Int = Setting::int(Tunable { name: "wl.cs_us", kind: Kind::Int { min: 10, max: 1_000_000 }, default: "2000", unit: "us", help: "the low task's critical section (CPU time holding the lock)" });
    HOG_US: Int = Setting::int(Tunable { name: "wl.hog_us", kind: Kind::Int { min: 10, max: 1_000_000 }, default: "8000", unit: "us", help: "each hog's run per period (CPU time); hogs arrive a quarter into the section, one per hart" });
    HIGH_CS_US: Int = Setting::int(Tunable { name: "wl.high_cs_us", kind: Kind::Int { min: 10, max: 1_000_000 }, default: "200", unit: "us", help: "the high task's own time holding the lock; it asks half way into the low task's section" });
    PERIODS: Int = Setting::int(Tunable { name: "wl.periods", kind: Kind::Int { min: 1, max: 10_000 }, default: "20", unit: "periods", help: "how many periods the tasks run" });
    NEST: Int = Setting::int(Tunable { name: "wl.nest", kind: Kind::Int { min: 0, max: 2 }, default: "0", unit: "", help: "1: the low task, holding the lock, also waits for a second lock a fourth task (inner) holds: a chain of owners; 2: inner takes the two locks in the opposite order: a deadlock, which stops the kernel" });
    RIVALS: Int = Setting::int(Tunable { name: "wl.rivals", kind: Kind::Int { min: 0, max: 8 }, default: "0", unit: "tasks", help: "fair tasks that ask for the lock one after another while the low task holds it (a sixteenth of its section apart from a quarter in), each holding it wl.high_cs_us" });
}

pub const SPEC: WorkloadSpec = WorkloadSpec {
    name: "inversion",
    help: "priority inversion (Mars Pathfinder): a real-time task waits for a lock a fair task holds while a medium-priority hog runs; compare lock.pi=0 and 1",
    tunables: TUNABLES,
    spawn: |s: &Settings<'static>, sp: &mut Spawner| {
        let us = |setting| get(s, setting) * 1000;
        let (period, cs, hog, high_cs) = (us(&PERIOD_US), us(&CS_US), us(&HOG_US), us(&HIGH_CS_US));
        let nest = get(s, &NEST) > 0;
        if cs * (1 + nest as u64) + hog + high_cs >= period {
            return Err(ArgError::Invalid("wl.period_us", "must exceed wl.cs_us (twice with wl.nest=1) + wl.hog_us + wl.high_cs_us (one period's work on one hart)"));
        }
        let periods = get(s, &PERIODS);
        let m = sp.mutex()? as u64;
        let (inner, low_start) = if nest { (sp.mutex()? as u64, cs / 8) } else { (NO_MUTEX, 0) };
        let rt = |p| Params { class: Class::Fifo(p), ..Params::FAIR };
        sp.spawn_with(rt(HIGH_PRIO), "high", None, periodic, &[period, cs / 2, high_cs, periods, m, NO_MUTEX])?;
        sp.spawn_with(Params::FAIR, "low", None, periodic, &[period, low_start, cs, periods, m, inner])?;
        for h in 0..harts(s) {
            sp.spawn_with(rt(HOG_PRIO), "hog", Some(h), periodic, &[period, cs / 4, hog, periods, NO_MUTEX, NO_MUTEX])?;
        }
        match get(s, &NEST) {
            1 => sp.spawn_with(Params::FAIR, "inner", None, periodic, &[period, 0, cs, periods, inner, NO_MUTEX]).map(drop)?,
            2 => sp.spawn_with(Params::FAIR, "inner", None, crossing, &[period, 0, cs, periods, inner, m]).map(drop)?,
            _ => {}
        }
        for k in 0..get(s, &RIVALS) {
            sp.spawn_with(Params::FAIR, "rival", Some(k as usize), periodic, &[period, cs / 4 + k * cs / 16, high_cs, periods, m, NO_MUTEX])?;
        }
        Ok(())
    },
};

/// `wl.nest=2`'s inner task: every `period`, takes `first`, works half of `work`, then takes
/// `second` too (the order `low` does not use) and works the other half.
fn crossing([period, offset, work, periods, first, second]: Args) {
    for i in 1..=periods {
        sleep_until(i * period + offset);
        mutex::lock(first as usize);
        spin_ns(work / 2);
        mutex::lock(second as usize);
        spin_ns(work / 2);
        mutex::unlock(second as usize);
        mutex::unlock(first as usize);
        iteration_done();
    }
}

/// Every `period`, `offset` into it: `work` ns of CPU time, holding mutexes `outer` and then
/// `inner` where they are not `NO_MUTEX`. The first period starts one period in, when every
/// task has run and gone to sleep.
fn periodic([period, offset, work, periods, outer, inner]: Args) {
    let held = [outer, inner].into_iter().filter(|&m| m != NO_MUTEX).map(|m| m as usize);
    for i in 1..=periods {
        sleep_until(i * period + offset);
        held.clone().for_each(mutex::lock);
        spin_ns(work);
        held.clone().rev().for_each(mutex::unlock);
        iteration_done();
    }
}
