//! `spin` (seed 004, first test): N busy loops that never yield, for a fixed time. Under CFS
//! their CPU times end up within a few percent of each other. `wl.hold_us` runs each unit
//! with preemption off for that long, to show how held-off preemption stretches slices.

use super::{harts, Spawner, WorkloadSpec, get, run_ms, tasks, unit_insns};
use runqueue_settings::{ArgError, Int, Kind, Setting, Settings, Tunable, tunables};
use crate::dispatch::{iteration_done, nopreempt, now_ns, set_affinity};
use crate::task::Args;
use crate::work::{MAX_WORKING_SET, WORKING_SETS, spin, touch};

tunables! {
    const TUNABLES;
    TASKS: Int = tasks("10");
    RUN_MS: Int = run_ms("1000");
    UNIT_INSNS: Int = unit_insns("100000", "instructions between checks of the clock (1 ms)");
    HOLD_US: Int = Setting::int(Tunable {
        name: "wl.hold_us",
        kind: Kind::Int { min: 0, max: 1_000_000 },
        default: "0",
        unit: "us",
        help: "if not 0, each unit instead runs this long with preemption held off",
    });
    WORKING_SET_KB: Int = Setting::int(Tunable {
        name: "wl.working_set_kb",
        kind: Kind::Int { min: 0, max: (MAX_WORKING_SET / 1024) as i64 },
        default: "0",
        unit: "KiB",
        help: "data each task reads and writes in every unit (one word per 64-byte line): with the machine's cache model (cache.kb=) a task that moves to another hart misses on all of it",
    });
    HOP: Int = Setting::int(Tunable {
        name: "wl.hop",
        kind: Kind::Int { min: 0, max: 1 },
        default: "0",
        unit: "",
        help: "1: after each unit a task moves itself to the next hart (sched_setaffinity), to show what a migration costs",
    });
}

pub const SPEC: WorkloadSpec = WorkloadSpec {
    name: "spin",
    help: "busy loops that never yield, for a fixed time: compare their CPU times",
    tunables: TUNABLES,
    spawn: |s: &Settings<'static>, sp: &mut Spawner| {
        let tasks = get(s, &TASKS) as usize;
        let working_set = get(s, &WORKING_SET_KB) * 1024;
        if working_set > 0 && tasks > WORKING_SETS {
            return Err(ArgError::Invalid("wl.working_set_kb", "at most 32 tasks may have a working set"));
        }
        let hop_harts = if get(s, &HOP) == 1 { harts(s) as u64 } else { 0 };
        for i in 0..tasks {
            let args = &[get(s, &UNIT_INSNS), get(s, &RUN_MS) * 1_000_000, get(s, &HOLD_US) * 1000, working_set, hop_harts, i as u64];
            sp.spawn("spin", Some(i), run, args)?;
        }
        Ok(())
    },
};

fn run([insns, run_ns, hold_ns, working_set, hop_harts, slot]: Args) {
    while now_ns() < run_ns {
        if hold_ns == 0 {
            spin(insns);
        } else {
            nopreempt(hold_ns, || spin(1000));
        }
        if working_set > 0 {
            touch(slot as usize, working_set as usize);
        }
        iteration_done();
        if hop_harts > 1 {
            set_affinity(1 << ((crate::arch::hart_index() as u64 + 1) % hop_harts));
        }
    }
}
