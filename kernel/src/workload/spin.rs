//! `spin` (seed 004, first test): N busy loops that never yield, for a fixed time. Under CFS
//! their CPU times end up within a few percent of each other. `wl.hold_us` runs each unit
//! with preemption off for that long, to show how held-off preemption stretches slices.

use super::{Spawner, WorkloadSpec, get, run_ms, tasks, unit_insns};
use crate::args::{Kind, Settings, Tunable};
use crate::dispatch::{iteration_done, nopreempt, now_ns};
use crate::task::Args;
use crate::work::spin;

pub const SPEC: WorkloadSpec = WorkloadSpec {
    name: "spin",
    help: "busy loops that never yield, for a fixed time: compare their CPU times",
    tunables: &[
        tasks("10"),
        run_ms("1000"),
        unit_insns("100000", "instructions between checks of the clock (1 ms)"),
        Tunable { name: "wl.hold_us", kind: Kind::Int { min: 0, max: 1_000_000 }, default: "0", unit: "us", help: "if not 0, each unit instead runs this long with preemption held off" },
    ],
    spawn: |s: &Settings, sp: &mut Spawner| {
        let args = &[get(s, "wl.unit_insns"), get(s, "wl.run_ms") * 1_000_000, get(s, "wl.hold_us") * 1000];
        for i in 0..get(s, "wl.tasks") as usize {
            sp.spawn("spin", Some(i), run, args)?;
        }
        Ok(())
    },
};

fn run([insns, run_ns, hold_ns, ..]: Args) {
    while now_ns() < run_ns {
        if hold_ns == 0 {
            spin(insns);
        } else {
            nopreempt(hold_ns, || spin(1000));
        }
        iteration_done();
    }
}
