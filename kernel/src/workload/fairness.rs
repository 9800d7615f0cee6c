//! `fairness-equal` and `fairness-unequal` (seed 001, tests 1 and 2): tasks doing units of
//! work and yielding after each one. Equal units: do all tasks finish together? Unequal
//! units (task i's unit is i+1 times the base) for a fixed time: how many units does each
//! get done? CFS gives counts roughly inverse to unit size; SJF lets the shortest task hog.

use super::{Spawner, WorkloadSpec, get, run_ms, tasks, unit_insns, units};
use runqueue_settings::{Int, Settings, tunables};
use crate::dispatch::{iteration_done, now_ns, yield_now};
use crate::task::Args;
use crate::work::spin;

tunables! {
    const EQUAL_TUNABLES;
    EQUAL_TASKS: Int = tasks("4");
    EQUAL_UNITS: Int = units("100", "units per task");
    EQUAL_UNIT_INSNS: Int = unit_insns("300000", "instructions per unit (3 ms)");
}

pub const EQUAL: WorkloadSpec = WorkloadSpec {
    name: "fairness-equal",
    help: "tasks each doing the same number of equal units of work, yielding after each",
    tunables: EQUAL_TUNABLES,
    spawn: |s: &Settings<'static>, sp: &mut Spawner| {
        for i in 0..get(s, &EQUAL_TASKS) as usize {
            sp.spawn("task", Some(i), equal, &[get(s, &EQUAL_UNITS), get(s, &EQUAL_UNIT_INSNS)])?;
        }
        Ok(())
    },
};

fn equal([units, insns, ..]: Args) {
    for _ in 0..units {
        spin(insns);
        iteration_done();
        yield_now();
    }
}

tunables! {
    const UNEQUAL_TUNABLES;
    UNEQUAL_TASKS: Int = tasks("4");
    UNEQUAL_UNIT_INSNS: Int = unit_insns("100000", "instructions in task 0's unit (1 ms); task i's is i+1 times this");
    UNEQUAL_RUN_MS: Int = run_ms("1000");
}

pub const UNEQUAL: WorkloadSpec = WorkloadSpec {
    name: "fairness-unequal",
    help: "tasks whose unit of work grows with their index (i+1 times the base), for a fixed time; counts units done",
    tunables: UNEQUAL_TUNABLES,
    spawn: |s: &Settings<'static>, sp: &mut Spawner| {
        let run_ns = get(s, &UNEQUAL_RUN_MS) * 1_000_000;
        for i in 0..get(s, &UNEQUAL_TASKS) {
            sp.spawn("task", Some(i as usize), unequal, &[(i + 1) * get(s, &UNEQUAL_UNIT_INSNS), run_ns])?;
        }
        Ok(())
    },
};

fn unequal([insns, run_ns, ..]: Args) {
    while now_ns() < run_ns {
        spin(insns);
        iteration_done();
        yield_now();
    }
}
