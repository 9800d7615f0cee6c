//! `realtime` (seed 001, test 4): four short tasks that yield very often, and one long task
//! with a few big units. Schedulers that favour short bursts (CFS, SJF, MLFQ) finish the
//! short tasks long before the long one; FIFO and RR make them wait for it.

use super::{Spawner, WorkloadSpec, get};
use runqueue_settings::{ArgError, Int, Kind, List, Setting, Settings, Tunable, tunables};
use crate::dispatch::{iteration_done, yield_now};
use crate::task::Args;
use crate::work::spin;

tunables! {
    const TUNABLES;
    SHORT_UNITS: List = Setting::list(Tunable { name: "wl.short_units", kind: Kind::List { min: 1, max: 10_000_000 }, default: "2500,500,1000,2500", unit: "units", help: "units (each followed by a yield) of each short task" });
    SHORT_INSNS: List = Setting::list(Tunable { name: "wl.short_insns", kind: Kind::List { min: 2, max: 1_000_000_000 }, default: "20,10,4,2", unit: "instructions", help: "instructions per unit of each short task (as many values as wl.short_units)" });
    LONG_UNITS: Int = Setting::int(Tunable { name: "wl.long_units", kind: Kind::Int { min: 1, max: 1_000_000 }, default: "8", unit: "units", help: "units of the long task" });
    LONG_INSNS: Int = Setting::int(Tunable { name: "wl.long_insns", kind: Kind::Int { min: 2, max: 1_000_000_000 }, default: "10000000", unit: "instructions", help: "instructions per unit of the long task (100 ms)" });
}

pub const SPEC: WorkloadSpec = WorkloadSpec {
    name: "realtime",
    help: "four short yield-heavy tasks and one long task: who finishes first?",
    tunables: TUNABLES,
    spawn: |s: &Settings<'static>, sp: &mut Spawner| {
        let (units, insns) = (s.get(&SHORT_UNITS), s.get(&SHORT_INSNS));
        if units.len != insns.len {
            return Err(ArgError::Invalid("wl.short_insns", "needs as many values as wl.short_units"));
        }
        for (i, (&n, &len)) in units.as_slice().iter().zip(insns.as_slice()).enumerate() {
            sp.spawn("short", Some(i), run, &[n as u64, len as u64])?;
        }
        sp.spawn("long", None, run, &[get(s, &LONG_UNITS), get(s, &LONG_INSNS)])
    },
};

fn run([units, insns, ..]: Args) {
    for _ in 0..units {
        spin(insns);
        iteration_done();
        yield_now();
    }
}
