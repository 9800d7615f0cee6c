//! `occupy` (seed 001, test 5): two short-unit tasks that run many units, and one long-unit
//! task. When does the long task finish? FIFO and RR hand it the CPU every round, so it
//! finishes first; CFS shares the CPU three ways; SJF and MLFQ keep preferring the others.

use super::{Spawner, WorkloadSpec, get};
use crate::args::{Kind, Settings, Tunable};
use crate::dispatch::{iteration_done, yield_now};
use crate::task::Args;
use crate::work::spin;

pub const SPEC: WorkloadSpec = WorkloadSpec {
    name: "occupy",
    help: "two tasks with many short units and one with a few long units: when does the long one finish?",
    tunables: &[
        Tunable { name: "wl.short_units", kind: Kind::Int { min: 1, max: 10_000_000 }, default: "12000", unit: "units", help: "units (each followed by a yield) of each short task" },
        Tunable { name: "wl.short_insns", kind: Kind::Int { min: 2, max: 1_000_000_000 }, default: "5000", unit: "instructions", help: "instructions per unit of the short tasks" },
        Tunable { name: "wl.long_units", kind: Kind::Int { min: 1, max: 1_000_000 }, default: "20", unit: "units", help: "units of the long task" },
        Tunable { name: "wl.long_insns", kind: Kind::Int { min: 2, max: 1_000_000_000 }, default: "2500000", unit: "instructions", help: "instructions per unit of the long task (25 ms)" },
    ],
    spawn: |s: &Settings, sp: &mut Spawner| {
        for i in 0..2 {
            sp.spawn("short", Some(i), run, &[get(s, "wl.short_units"), get(s, "wl.short_insns")])?;
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
