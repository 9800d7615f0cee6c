//! `intr` (seed 004, second test): N tasks that each work 8 ms and sleep 1 ms, over and over
//! for a fixed time, counting loops. The seed compares CFS with and without FAIR_SLEEPERS,
//! which places a woken task up to half a latency behind min_vruntime instead of at it.
//! That placement only binds when a sleeper has fallen behind min_vruntime, i.e. when it
//! slept for about a scheduling period or longer (`wl.sleep_us`): see `docs/kernel.md`.

use super::{Spawner, WorkloadSpec, get, run_ms, tasks};
use runqueue_settings::{Int, Kind, Setting, Settings, Tunable, tunables};
use crate::dispatch::{iteration_done, now_ns, sleep_ns};
use crate::task::Args;
use crate::work::{INSNS_PER_US, spin};

tunables! {
    const TUNABLES;
    TASKS: Int = tasks("10");
    RUN_MS: Int = run_ms("2000");
    WORK_US: Int = Setting::int(Tunable { name: "wl.work_us", kind: Kind::Int { min: 1, max: 1_000_000 }, default: "8000", unit: "us", help: "work per loop, in microseconds of emulated CPU (100 instructions each)" });
    SLEEP_US: Int = Setting::int(Tunable { name: "wl.sleep_us", kind: Kind::Int { min: 0, max: 1_000_000 }, default: "1000", unit: "us", help: "sleep per loop" });
    HOGS: Int = Setting::int(Tunable { name: "wl.hogs", kind: Kind::Int { min: 0, max: 16 }, default: "0", unit: "tasks", help: "extra tasks that do the same loops without sleeping" });
}

pub const SPEC: WorkloadSpec = WorkloadSpec {
    name: "intr",
    help: "tasks that work 8 ms then sleep 1 ms, for a fixed time: compare loops done",
    tunables: TUNABLES,
    spawn: |s: &Settings<'static>, sp: &mut Spawner| {
        let (work, run_ns) = (get(s, &WORK_US) * INSNS_PER_US, get(s, &RUN_MS) * 1_000_000);
        for i in 0..get(s, &TASKS) as usize {
            sp.spawn("intr", Some(i), run, &[work, get(s, &SLEEP_US) * 1000, run_ns])?;
        }
        for i in 0..get(s, &HOGS) as usize {
            sp.spawn("hog", Some(i), run, &[work, 0, run_ns])?;
        }
        Ok(())
    },
};

fn run([insns, sleep, run_ns, ..]: Args) {
    while now_ns() < run_ns {
        spin(insns);
        if sleep > 0 {
            sleep_ns(sleep);
        }
        iteration_done();
    }
}
