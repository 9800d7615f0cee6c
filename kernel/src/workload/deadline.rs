//! `deadline`: a periodic task set (period T_i, execution C_i, deadline = period) run either
//! as SCHED_DEADLINE tasks (EDF with a CBS reservation of C_i every T_i) or as SCHED_FIFO
//! tasks with rate-monotonic priorities (shorter period, higher priority). Above the
//! rate-monotonic bound (n(2^(1/n) - 1), 0.83 for two tasks) fixed priorities can miss
//! deadlines that EDF meets up to a utilisation of 1. Each job done by its deadline counts
//! as an iteration; a late one is a `mark ... miss=<ns late>`. Options for the class's own rules:
//! a relative deadline shorter than the period (`wl.deadline_us`), jobs that sleep halfway
//! (`wl.sleep_us`: self-suspending jobs, which meet the revised wakeup rule), and jobs that end
//! with `sched_yield` instead of sleeping until the next release (`wl.yield`: the server's
//! replenishment releases them, as Linux's documentation suggests for periodic tasks).
//! Every job also marks its
//! response time, `resp=<ns from release to done>`, the figure response-time analysis bounds.
//! Under `rm` all tasks release their first job together at `RM_EPOCH_NS`: the critical
//! instant, where each task meets its worst response time.

use super::{Spawner, WorkloadSpec, get};
use runqueue_settings::{ArgError, Choice, Int, Kind, List, Setting, Settings, Tunable, tunables};
use crate::dispatch::{iteration_done, mark, now_ns, sleep_ns, sleep_until, yield_now};
use crate::task::{Args, Class, Params};
use crate::work::{INSNS_PER_US, spin};

/// `wl.class`: SCHED_DEADLINE, or rate-monotonic priorities under SCHED_FIFO.
#[derive(Clone, Copy)]
enum Scheduling {
    Edf,
    Rm,
}

/// The common first release under `rm`, after every task has been created and run once.
const RM_EPOCH_NS: u64 = 2_000_000;

tunables! {
    const TUNABLES;
    PERIOD_US: List = Setting::list(Tunable { name: "wl.period_us", kind: Kind::List { min: 1000, max: 1_000_000 }, default: "5000,7000", unit: "us", help: "each task's period T (its deadline too)" });
    RUNTIME_US: List = Setting::list(Tunable { name: "wl.runtime_us", kind: Kind::List { min: 100, max: 1_000_000 }, default: "2000,3850", unit: "us", help: "each task's reservation C per period (default: utilisation 0.95)" });
    DEADLINE_US: List = Setting::list(Tunable { name: "wl.deadline_us", kind: Kind::List { min: 0, max: 1_000_000 }, default: "0", unit: "us", help: "each task's relative deadline D (edf); 0 or past the list = its period" });
    WORK_PCT: Int = Setting::int(Tunable { name: "wl.work_pct", kind: Kind::Int { min: 1, max: 200 }, default: "90", unit: "%", help: "work per job as a share of C (the rest is left for the kernel's switches, charged to the task; above 100 a job overruns its reservation)" });
    SLEEP_US: Int = Setting::int(Tunable { name: "wl.sleep_us", kind: Kind::Int { min: 0, max: 1_000_000 }, default: "0", unit: "us", help: "a sleep halfway through each job (0 = none)" });
    YIELD: Int = Setting::int(Tunable { name: "wl.yield", kind: Kind::Int { min: 0, max: 1 }, default: "0", unit: "", help: "1 = end each job with sched_yield (a deadline task then waits for its next period) instead of sleeping until the next release" });
    CLASS: Choice<Scheduling> = Setting::choice(Tunable { name: "wl.class", kind: Kind::Choice(&["edf", "rm"]), default: "edf", unit: "", help: "edf = SCHED_DEADLINE (runtime C, deadline = period = T); rm = SCHED_FIFO, shorter period = higher priority" }, &[Scheduling::Edf, Scheduling::Rm]);
    RUN_MS: Int = Setting::int(Tunable { name: "wl.run_ms", kind: Kind::Int { min: 1, max: 60_000 }, default: "1000", unit: "ms", help: "how long jobs keep being released" });
}

pub const SPEC: WorkloadSpec = WorkloadSpec {
    name: "deadline",
    help: "periodic tasks under EDF (SCHED_DEADLINE) or rate-monotonic fixed priorities: deadline misses",
    tunables: TUNABLES,
    spawn: |s: &Settings<'static>, sp: &mut Spawner| {
        let (periods, runtimes, deadlines) = (s.get(&PERIOD_US), s.get(&RUNTIME_US), s.get(&DEADLINE_US));
        let (periods, runtimes) = (periods.as_slice(), runtimes.as_slice());
        if periods.len() != runtimes.len() {
            return Err(ArgError::Invalid("wl.runtime_us", "needs one value per period in wl.period_us"));
        }
        let run_ns = get(s, &RUN_MS) * 1_000_000;
        for (i, (&t, &c)) in periods.iter().zip(runtimes).enumerate() {
            let (period, runtime) = (t as u64 * 1000, c as u64 * 1000);
            let deadline = deadlines.as_slice().get(i).map_or(period, |&d| if d == 0 { period } else { d as u64 * 1000 });
            let (class, epoch) = match s.get(&CLASS) {
                Scheduling::Edf => (Class::Deadline { runtime, deadline, period }, 0),
                // Rate-monotonic: rank by period, shortest first (ties by order).
                Scheduling::Rm => (Class::Fifo(99 - periods.iter().enumerate().filter(|&(j, &p)| p < t || (p == t && j < i)).count() as u8), RM_EPOCH_NS),
            };
            let work = c as u64 * INSNS_PER_US * get(s, &WORK_PCT) / 100;
            let (sleep, yields) = (get(s, &SLEEP_US) * 1000, get(s, &YIELD));
            sp.spawn_with(Params { class, ..Params::FAIR }, "job", Some(i), periodic, &[period, work, run_ns, sleep, yields, epoch])?;
        }
        Ok(())
    },
};

/// Releases jobs every `period` from `epoch`, or if that is 0 from the task's first run: the
/// deadline server was set up when the task was created, just before, so each job's wakeup
/// finds the server's previous deadline passed and gets a fresh one (the CBS wakeup rule), in
/// phase with its jobs.
fn periodic([period, work, run_ns, sleep, yields, epoch]: Args) {
    let mut release = if epoch > 0 { epoch } else { now_ns() };
    while release < run_ns {
        if yields == 0 {
            sleep_until(release);
        }
        spin(work / 2);
        if sleep > 0 {
            sleep_ns(sleep);
        }
        spin(work - work / 2);
        let done = now_ns();
        mark("resp", done - release);
        let late = done.saturating_sub(release + period);
        if late == 0 {
            iteration_done();
        } else {
            mark("miss", late);
        }
        release += period;
        if yields == 1 {
            yield_now();
        }
    }
}
