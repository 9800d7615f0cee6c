//! `occupy` (seed 001, test 5): two short-unit tasks that run many units, and one long-unit
//! task. When does the long task finish? FIFO and RR hand it the CPU every round, so it
//! finishes first; CFS shares the CPU three ways; SJF and MLFQ keep preferring the others.

use super::{Spawner, WorkloadSpec, get};
use runqueue_settings::{Int, Kind, Setting, Settings, Tunable, tunables};
use crate::dispatch::{iteration_done, yield_now};
use crate::task::Args;
use crate::work::spin;

tunables! {
    const TUNABLES;
    SHORT_UNITS: Int = Setting::int(Tunable { name: "wl.short_units", kind: Kind::Int { min: 1, max: 10_000_000 }, default: "12000", unit: "units", help: "units (each followed by a yield) of each short task" });
    SHORT_INSNS: Int = Setting::int(Tunable { name: "wl.short_insns", kind: Kind::Int { min: 2, max: 1_000_000_000 }, default: "5000", unit: "instructions", help: "instructions per unit of the short tasks" });
    LONG_UNITS: Int = Setting::int(Tunable { name: "wl.long_units", kind: Kind::Int { min: 1, max: 1_000_000 }, default: "20", unit: "units", help: "units of the long task" });
    LONG_INSNS: Int = Setting::int(Tunable { name: "wl.long_insns", kind: Kind::Int { min: 2, max: 1_000_000_000 }, default: "2500000", unit: "instructions", help: "instructions per unit of the long task (25 ms)" });
}

pub const SPEC: WorkloadSpec = WorkloadSpec {
    name: "occupy",
    help: "two tasks with many short units and one with a few long units: when does the long one finish?",
    tunables: TUNABLES,
    spawn: |s: &Settings<'static>, sp: &mut Spawner| {
        for i in 0..2 {
            sp.spawn("short", Some(i), run, &[get(s, &SHORT_UNITS), get(s, &SHORT_INSNS)])?;
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
