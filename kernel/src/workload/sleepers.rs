//! `intr` (seed 004, second test): N tasks that each work 8 ms and sleep 1 ms, over and over
//! for a fixed time, counting loops. With CFS's FAIR_SLEEPERS a woken task is placed at
//! most half a latency behind min_vruntime, which evens the counts out; with
//! NO_FAIR_SLEEPERS the spread between the most and least loops grows.

use super::{Spawner, WorkloadSpec, get, run_ms, tasks};
use crate::args::{Kind, Settings, Tunable};
use crate::dispatch::{iteration_done, now_ns, sleep_ns};
use crate::work::spin;

/// The emulator's rate: 100 instructions per microsecond.
const INSNS_PER_US: u64 = 100;

pub const SPEC: WorkloadSpec = WorkloadSpec {
    name: "intr",
    help: "tasks that work 8 ms then sleep 1 ms, for a fixed time: compare loops done",
    tunables: &[
        tasks("10"),
        run_ms("2000"),
        Tunable { name: "wl.work_us", kind: Kind::Int { min: 1, max: 1_000_000 }, default: "8000", unit: "us", help: "work per loop, in microseconds of emulated CPU (100 instructions each)" },
        Tunable { name: "wl.sleep_us", kind: Kind::Int { min: 0, max: 1_000_000 }, default: "1000", unit: "us", help: "sleep per loop" },
    ],
    spawn: |s: &Settings, sp: &mut Spawner| {
        let args = [get(s, "wl.work_us") * INSNS_PER_US, get(s, "wl.sleep_us") * 1000, get(s, "wl.run_ms") * 1_000_000, 0];
        for i in 0..get(s, "wl.tasks") as usize {
            sp.spawn("intr", Some(i), run, args)?;
        }
        Ok(())
    },
};

fn run([insns, sleep, run_ns, _]: [u64; 4]) {
    while now_ns() < run_ns {
        spin(insns);
        sleep_ns(sleep);
        iteration_done();
    }
}
