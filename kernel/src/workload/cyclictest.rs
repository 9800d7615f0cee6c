//! `cyclictest` (rt-tests, seeds 000 and 003): a measuring thread sleeps to absolute
//! deadlines `interval` apart and records how late it wakes (timer wakeup latency), under a
//! chosen load (`wl.load_type`): fair tasks that work and briefly sleep, or hackbench's
//! pipe senders and receivers (seed 000), each unit of work optionally starting with a
//! non-preemptible section of `wl.hold_us`. `wl.isolate=1` keeps the load off hart 0, where
//! the measuring thread is pinned (the isolcpus idea of seed 003; needs smp=2 or more).

use super::hackbench::{self, Groups};
use super::{harts, Spawner, WorkloadSpec, get};
use runqueue_settings::{ArgError, Choice, Int, Kind, Setting, Settings, Tunable, tunables};
use crate::dispatch::{iteration_done, latency_sample, nopreempt, now_ns, sleep_ns, sleep_until};
use crate::task::{Args, Class, Params};
use crate::work::{spin, spin_ns};
use core::sync::atomic::{AtomicBool, Ordering};

/// `wl.policy`: the measuring thread's class.
#[derive(Clone, Copy)]
enum Measure {
    Fifo,
    Rr,
    Fair,
}

/// `wl.load_type`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LoadType {
    Work,
    Hackbench,
}

/// The load stops when the measuring thread is done.
static MEASURING: AtomicBool = AtomicBool::new(false);

tunables! {
    const TUNABLES;
    INTERVAL_US: Int = Setting::int(Tunable { name: "wl.interval_us", kind: Kind::Int { min: 100, max: 1_000_000 }, default: "1000", unit: "us", help: "period of the measuring thread (cyclictest -i)" });
    LOOPS: Int = Setting::int(Tunable { name: "wl.loops", kind: Kind::Int { min: 1, max: 1_000_000 }, default: "1000", unit: "samples", help: "wakeups to measure (cyclictest -l)" });
    POLICY: Choice<Measure> = Setting::choice(Tunable { name: "wl.policy", kind: Kind::Choice(&["fifo", "rr", "fair"]), default: "fifo", unit: "", help: "the measuring thread's policy (cyclictest --policy)" }, &[Measure::Fifo, Measure::Rr, Measure::Fair]);
    PRIO: Int = Setting::int(Tunable { name: "wl.prio", kind: Kind::Int { min: 1, max: 99 }, default: "80", unit: "", help: "its real-time priority (cyclictest -p)" });
    LOAD_TYPE: Choice<LoadType> = Setting::choice(Tunable { name: "wl.load_type", kind: Kind::Choice(&["work", "hackbench"]), default: "work", unit: "", help: "the load: tasks that work and sleep, or hackbench (one group of wl.load sender/receiver pairs passing messages through pipes)" }, &[LoadType::Work, LoadType::Hackbench]);
    LOAD: Int = Setting::int(Tunable { name: "wl.load", kind: Kind::Int { min: 0, max: 32 }, default: "8", unit: "tasks", help: "fair load tasks (hackbench: sender/receiver pairs, at most 16)" });
    LOAD_WORK_US: Int = Setting::int(Tunable { name: "wl.load_work_us", kind: Kind::Int { min: 1, max: 1_000_000 }, default: "2000", unit: "us", help: "each load task's work per unit" });
    LOAD_SLEEP_US: Int = Setting::int(Tunable { name: "wl.load_sleep_us", kind: Kind::Int { min: 0, max: 1_000_000 }, default: "100", unit: "us", help: "each load task's sleep after a unit (0: a pure CPU hog)" });
    HOLD_US: Int = Setting::int(Tunable { name: "wl.hold_us", kind: Kind::Int { min: 0, max: 1_000_000 }, default: "0", unit: "us", help: "if not 0, each load unit starts with a non-preemptible section this long" });
    ISOLATE: Int = Setting::int(Tunable { name: "wl.isolate", kind: Kind::Int { min: 0, max: 1 }, default: "0", unit: "", help: "1: pin the measuring thread to hart 0 and keep the load off it (isolcpus)" });
}

pub const SPEC: WorkloadSpec = WorkloadSpec {
    name: "cyclictest",
    help: "a periodic thread measuring its wakeup latency (min/avg/max, histogram) under load",
    tunables: TUNABLES,
    spawn: |s: &Settings<'static>, sp: &mut Spawner| {
        let isolate = get(s, &ISOLATE) == 1;
        if isolate && harts(s) < 2 {
            return Err(ArgError::Invalid("wl.isolate", "keeping the load off the measuring hart needs smp=2 or more"));
        }
        let prio = get(s, &PRIO) as u8;
        let class = match s.get(&POLICY) {
            Measure::Fifo => Class::Fifo(prio),
            Measure::Rr => Class::Rr(prio),
            Measure::Fair => Class::Fair,
        };
        let (hart0, others) = if isolate { (1, !1) } else { (0, 0) };
        MEASURING.store(true, Ordering::Relaxed);
        let measure = Params { class, harts: hart0, ..Params::FAIR };
        sp.spawn_with(measure, "cyclic", None, measuring, &[get(s, &INTERVAL_US) * 1000, get(s, &LOOPS)])?;
        let load = Params { harts: others, ..Params::FAIR };
        let (tasks, hold_ns) = (get(s, &LOAD) as usize, get(s, &HOLD_US) * 1000);
        if s.get(&LOAD_TYPE) == LoadType::Hackbench {
            if tasks > 16 {
                return Err(ArgError::Invalid("wl.load", "a hackbench load has at most 16 sender/receiver pairs"));
            }
            if tasks == 0 {
                return Ok(());
            }
            let g = Groups { groups: 1, fds: tasks, loops: 0, msg_bytes: 100, msg_insns: 2000, pipe_bytes: 65536, hold_ns, params: load };
            return hackbench::spawn_groups(&g, sp);
        }
        let args = [get(s, &LOAD_WORK_US) * 1000, get(s, &LOAD_SLEEP_US) * 1000, hold_ns];
        for i in 0..tasks {
            sp.spawn_with(load, "load", Some(i), loader, &args)?;
        }
        Ok(())
    },
};

/// cyclictest's loop: sleep to the next absolute deadline, note how late the wakeup was.
fn measuring([interval, loops, ..]: Args) {
    let mut next = now_ns() + interval;
    for _ in 0..loops {
        sleep_until(next);
        latency_sample(now_ns().saturating_sub(next));
        iteration_done();
        next += interval;
    }
    MEASURING.store(false, Ordering::Relaxed);
    hackbench::stop();
}

fn loader([work_ns, sleep, hold_ns, ..]: Args) {
    while MEASURING.load(Ordering::Relaxed) {
        let held = hold_ns.min(work_ns);
        if held > 0 {
            nopreempt(held, || spin(1000));
        }
        spin_ns(work_ns - held);
        if sleep > 0 {
            sleep_ns(sleep);
        }
        iteration_done();
    }
}
