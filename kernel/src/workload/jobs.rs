//! Batch jobs, the textbooks' model of scheduling metrics: each task is one CPU burst that
//! never yields or sleeps, then exits. `bursts` takes the bursts from a list, so the classic
//! examples (24, 3 and 3 ms: the convoy effect) run as printed, with arrivals from
//! `arrive_ms=`; `timed-bursts` the same with each arrival in µs (`wl.arrive_us`: the homework
//! moves its arrivals by when the scheduler starts, so they fall half way between two ticks);
//! `arrivals` draws a steady stream of jobs from `seed=` (Little's law). Each job declares its
//! burst, as a batch job states its run time: SJF starts from it.

use super::{Spawner, WorkloadSpec, get};
use runqueue_settings::{ArgError, Int, Kind, List, Setting, Settings, Tunable, tunables};
use crate::dispatch::iteration_done;
use crate::task::{Args, Params};
use crate::work::{INSNS_PER_US, spin};
use runqueue_policies::lottery::SplitMix64;

/// A job counts one iteration per millisecond of its burst.
const UNIT_US: u64 = 1000;

tunables! {
    const BURSTS_TUNABLES;
    BURST_MS: List = Setting::list(Tunable {
    name: "wl.burst_ms",
    kind: Kind::List { min: 1, max: 60_000 },
    default: "24,3,3",
    unit: "ms",
    help: "the CPU burst of each task, in creation order (one task per value)",
});
}

pub const BURSTS: WorkloadSpec = WorkloadSpec {
    name: "bursts",
    help: "one CPU burst per task, then exit (batch jobs); arrivals with arrive_ms=",
    tunables: BURSTS_TUNABLES,
    spawn: |s: &Settings<'static>, sp: &mut Spawner| {
        for (i, &ms) in s.get(&BURST_MS).as_slice().iter().enumerate() {
            spawn_job(sp, i, ms as u64 * 1000, 0)?;
        }
        Ok(())
    },
};

/// A workload of its own rather than a tunable of `bursts`: reading one more list would add
/// instructions to `bursts`'s boot and move every figure that runs it.
const ARRIVE_US: Setting<List> = Setting::list(Tunable {
    name: "wl.arrive_us",
    kind: Kind::List { min: 0, max: 60_000_000 },
    default: "0",
    unit: "us",
    help: "the arrival of each task in creation order, in µs after the workload's start (0 for tasks past the list)",
});

pub const TIMED_BURSTS: WorkloadSpec = WorkloadSpec {
    name: "timed-bursts",
    help: "one CPU burst per task, then exit (batch jobs), each arriving at its own µs",
    tunables: &[BURST_MS.tunable, ARRIVE_US.tunable],
    spawn: |s: &Settings<'static>, sp: &mut Spawner| {
        let arrive_us = s.get(&ARRIVE_US);
        for (i, &ms) in s.get(&BURST_MS).as_slice().iter().enumerate() {
            let arrive_ns = arrive_us.as_slice().get(i).map_or(0, |&us| us as u64 * 1000);
            spawn_job(sp, i, ms as u64 * 1000, arrive_ns)?;
        }
        Ok(())
    },
};

tunables! {
    const ARRIVALS_TUNABLES;
    JOBS: Int = Setting::int(Tunable { name: "wl.jobs", kind: Kind::Int { min: 1, max: 60 }, default: "40", unit: "jobs", help: "number of jobs" });
    GAP_US: Int = Setting::int(Tunable {
        name: "wl.gap_us",
        kind: Kind::Int { min: 0, max: 1_000_000 },
        default: "10000",
        unit: "us",
        help: "mean time between arrivals (each gap uniform in 0..2x this); the first job arrives at 0",
    });
    BURST_US: Int = Setting::int(Tunable {
        name: "wl.burst_us",
        kind: Kind::Int { min: 100, max: 1_000_000 },
        default: "7000",
        unit: "us",
        help: "mean CPU burst of a job (each uniform in 0.5x..1.5x this)",
    });
}

pub const ARRIVALS: WorkloadSpec = WorkloadSpec {
    name: "arrivals",
    help: "a steady stream of batch jobs: gaps between arrivals and bursts drawn from seed=",
    tunables: ARRIVALS_TUNABLES,
    spawn: |s: &Settings<'static>, sp: &mut Spawner| {
        let (gap, burst) = (get(s, &GAP_US), get(s, &BURST_US));
        let mut rng = SplitMix64(get(s, &runqueue_machine_settings::SEED));
        let mut arrive_us = 0;
        for i in 0..get(s, &JOBS) as usize {
            if i > 0 {
                arrive_us += rng.next() % (2 * gap + 1);
            }
            spawn_job(sp, i, burst / 2 + rng.next() % (burst + 1), arrive_us * 1000)?;
        }
        Ok(())
    },
};

fn spawn_job(sp: &mut Spawner, i: usize, burst_us: u64, arrive_ns: u64) -> Result<(), ArgError<'static>> {
    let params = Params { burst_ns: burst_us * 1000, arrive_ns, ..Params::FAIR };
    sp.spawn_with(params, "job", Some(i), job, &[burst_us * INSNS_PER_US]).map(|_| ())
}

/// Runs `insns` instructions in 1 ms units, counting each, and exits.
fn job([insns, ..]: Args) {
    let mut left = insns;
    while left > 0 {
        let unit = left.min(UNIT_US * INSNS_PER_US);
        spin(unit);
        left -= unit;
        iteration_done();
    }
}
