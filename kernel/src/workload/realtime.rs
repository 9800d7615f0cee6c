//! `realtime` (seed 001, test 4): four short tasks that yield very often, and one long task
//! with a few big units. Schedulers that favour short bursts (CFS, SJF, MLFQ) finish the
//! short tasks long before the long one; FIFO and RR make them wait for it.

use super::{Spawner, WorkloadSpec, get};
use crate::args::{ArgError, Kind, Settings, Tunable};
use crate::dispatch::{iteration_done, yield_now};
use crate::task::Args;
use crate::work::spin;

pub const SPEC: WorkloadSpec = WorkloadSpec {
    name: "realtime",
    help: "four short yield-heavy tasks and one long task: who finishes first?",
    tunables: &[
        Tunable { name: "wl.short_units", kind: Kind::List { min: 1, max: 10_000_000 }, default: "2500,500,1000,2500", unit: "units", help: "units (each followed by a yield) of each short task" },
        Tunable { name: "wl.short_insns", kind: Kind::List { min: 2, max: 1_000_000_000 }, default: "20,10,4,2", unit: "instructions", help: "instructions per unit of each short task (as many values as wl.short_units)" },
        Tunable { name: "wl.long_units", kind: Kind::Int { min: 1, max: 1_000_000 }, default: "8", unit: "units", help: "units of the long task" },
        Tunable { name: "wl.long_insns", kind: Kind::Int { min: 2, max: 1_000_000_000 }, default: "10000000", unit: "instructions", help: "instructions per unit of the long task (100 ms)" },
    ],
    spawn: |s: &Settings, sp: &mut Spawner| {
        let (units, insns) = (s.list("wl.short_units"), s.list("wl.short_insns"));
        if units.len != insns.len {
            return Err(ArgError::Invalid("wl.short_insns", "needs as many values as wl.short_units"));
        }
        for (i, (&n, &len)) in units.as_slice().iter().zip(insns.as_slice()).enumerate() {
            sp.spawn("short", Some(i), run, &[n as u64, len as u64])?;
        }
        sp.spawn("long", None, run, &[get(s, "wl.long_units"), get(s, "wl.long_insns")])
    },
};

fn run([units, insns, ..]: Args) {
    for _ in 0..units {
        spin(insns);
        iteration_done();
        yield_now();
    }
}
