//! `deadline`: a periodic task set (period T_i, execution C_i, deadline = period) run either
//! as SCHED_DEADLINE tasks (EDF with a CBS reservation of C_i every T_i) or as SCHED_FIFO
//! tasks with rate-monotonic priorities (shorter period, higher priority). Above the
//! rate-monotonic bound (n(2^(1/n) - 1), 0.83 for two tasks) fixed priorities can miss
//! deadlines that EDF meets up to a utilisation of 1. Each job done by its deadline counts
//! as an iteration; a late one is a `mark ... miss=<ns late>`.

use super::{Spawner, WorkloadSpec, get};
use crate::args::{ArgError, Kind, Settings, Tunable};
use crate::dispatch::{iteration_done, mark, now_ns, sleep_until};
use crate::task::{Args, Class, Params};
use crate::work::{INSNS_PER_US, spin};

pub const SPEC: WorkloadSpec = WorkloadSpec {
    name: "deadline",
    help: "periodic tasks under EDF (SCHED_DEADLINE) or rate-monotonic fixed priorities: deadline misses",
    tunables: &[
        Tunable { name: "wl.period_us", kind: Kind::List { min: 1000, max: 1_000_000 }, default: "5000,7000", unit: "us", help: "each task's period T (its deadline too)" },
        Tunable { name: "wl.runtime_us", kind: Kind::List { min: 100, max: 1_000_000 }, default: "2000,3850", unit: "us", help: "each task's reservation C per period (default: utilisation 0.95)" },
        Tunable { name: "wl.work_pct", kind: Kind::Int { min: 1, max: 100 }, default: "90", unit: "%", help: "work per job as a share of C (the rest is left for the kernel's switches, charged to the task)" },
        Tunable { name: "wl.class", kind: Kind::Choice(&["edf", "rm"]), default: "edf", unit: "", help: "edf = SCHED_DEADLINE (runtime C, deadline = period = T); rm = SCHED_FIFO, shorter period = higher priority" },
        Tunable { name: "wl.run_ms", kind: Kind::Int { min: 1, max: 60_000 }, default: "1000", unit: "ms", help: "how long jobs keep being released" },
    ],
    spawn: |s: &Settings, sp: &mut Spawner| {
        let (periods, runtimes) = (s.list("wl.period_us"), s.list("wl.runtime_us"));
        let (periods, runtimes) = (periods.as_slice(), runtimes.as_slice());
        if periods.len() != runtimes.len() {
            return Err(ArgError::Invalid("wl.runtime_us", "needs one value per period in wl.period_us"));
        }
        let run_ns = get(s, "wl.run_ms") * 1_000_000;
        for (i, (&t, &c)) in periods.iter().zip(runtimes).enumerate() {
            let (period, runtime) = (t as u64 * 1000, c as u64 * 1000);
            let class = match s.int("wl.class") {
                0 => Class::Deadline { runtime, deadline: period, period },
                // Rate-monotonic: rank by period, shortest first (ties by order).
                _ => Class::Fifo(99 - periods.iter().enumerate().filter(|&(j, &p)| p < t || (p == t && j < i)).count() as u8),
            };
            let work = c as u64 * INSNS_PER_US * get(s, "wl.work_pct") / 100;
            sp.spawn_with(Params { class, ..Params::FAIR }, "job", Some(i), periodic, &[period, work, run_ns])?;
        }
        Ok(())
    },
};

/// Releases jobs every `period` from the task's first run: the deadline server was set up
/// when the task was created, just before, so each job's wakeup finds the server's previous
/// deadline passed and gets a fresh one (the CBS wakeup rule), in phase with its jobs.
fn periodic([period, work, run_ns, ..]: Args) {
    let mut release = now_ns();
    while release < run_ns {
        sleep_until(release);
        spin(work);
        let late = now_ns().saturating_sub(release + period);
        if late == 0 {
            iteration_done();
        } else {
            mark("miss", late);
        }
        release += period;
    }
}
