//! `yield-speed` (seed 001, test 3): many tiny units, a yield after each, so the run time is
//! mostly the scheduler's own cost: how fast is each policy's enqueue and pick?

use super::{Spawner, WorkloadSpec, get, tasks, unit_insns, units};
use runqueue_settings::{Int, Settings, tunables};
use crate::dispatch::{iteration_done, yield_now};
use crate::task::Args;
use crate::work::spin;

tunables! {
    const TUNABLES;
    TASKS: Int = tasks("4");
    UNITS: Int = units("5000", "units per task");
    UNIT_INSNS: Int = unit_insns("200", "instructions per unit");
}

pub const SPEC: WorkloadSpec = WorkloadSpec {
    name: "yield-speed",
    help: "tasks doing many tiny units with a yield after each: measures the cost of scheduling",
    tunables: TUNABLES,
    spawn: |s: &Settings<'static>, sp: &mut Spawner| {
        for i in 0..get(s, &TASKS) as usize {
            sp.spawn("task", Some(i), run, &[get(s, &UNITS), get(s, &UNIT_INSNS)])?;
        }
        Ok(())
    },
};

fn run([units, insns, ..]: Args) {
    for _ in 0..units {
        spin(insns);
        iteration_done();
        yield_now();
    }
}
