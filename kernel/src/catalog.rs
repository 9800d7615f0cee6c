//! The kernel's catalog: every table of settings, composed here at the top, and `catalog` on
//! the command line, which prints them as one line `CATALOG {json}` (the book builds its
//! controls from it, the page's parser reads it). Each part declares its own table (the
//! machine's words in `runqueue-machine-settings`, the core's beside the code that reads them,
//! each policy and workload in its file), so no module imports this one back.

use crate::console::{self, Uart};
use crate::dispatch::{self, balance};
use crate::hart::MAX_HARTS;
use crate::sched::{self, cgroup, fair_server, rt, schedulers};
use crate::workload::{self, WORKLOADS};
use crate::mutex;
use core::fmt::{self, Write};
use runqueue_machine_settings::{cache, host, run_words};
use runqueue_sched_api::{Pick, QueueView};
use runqueue_settings::{Catalog, Entry, Tunable, write_array, write_string, write_strings, write_tunables};

pub const DEFAULT_SCHED: &str = "cfs";
pub const DEFAULT_WORKLOAD: &str = "fairness-unequal";

/// The machine's run words, with `smp=` up to the harts this kernel runs tasks on.
const RUN: [Tunable; 3] = run_words(MAX_HARTS as i64);

/// Settings every run has, whatever its scheduler and workload, in the catalog's order.
const GLOBALS: &[&[Tunable]] = &[
    &RUN,
    dispatch::TICK,
    cache::TABLE,
    dispatch::IDLE,
    host::TABLE,
    rt::TUNABLES,
    fair_server::TUNABLES,
    mutex::TUNABLES,
    workload::PER_TASK,
    cgroup::TUNABLES,
    balance::TUNABLES,
];

/// The catalog the command line is parsed against.
pub struct Kernel;

impl Catalog for Kernel {
    fn globals(&self) -> impl Iterator<Item = &'static Tunable> + Clone {
        GLOBALS.iter().flat_map(|t| t.iter())
    }

    fn schedulers(&self) -> impl Iterator<Item = Entry> + Clone {
        schedulers().map(|s| s.entry())
    }

    fn workloads(&self) -> impl Iterator<Item = Entry> + Clone {
        WORKLOADS.iter().map(|w| w.entry())
    }

    fn default_sched(&self) -> &'static str {
        DEFAULT_SCHED
    }

    fn default_workload(&self) -> &'static str {
        DEFAULT_WORKLOAD
    }
}

/// `{order,show,pick[,weights,idle_weight]}`: how the book draws a queue (`QueueView`).
fn queue(u: &mut Uart, q: &QueueView) -> fmt::Result {
    u.write_str("{\"order\":")?;
    write_strings(u, q.order)?;
    u.write_str(",\"show\":")?;
    write_strings(u, q.show)?;
    let pick = match q.pick {
        Pick::First => "first",
        Pick::SkipYielder => "skip-yielder",
        Pick::Eligible { .. } => "eligible",
        Pick::Draw => "draw",
    };
    write!(u, ",\"pick\":\"{pick}\"")?;
    if let Pick::Eligible { weights, idle_weight } = q.pick {
        u.write_str(",\"weights\":")?;
        write_array(u, weights, |u, w| write!(u, "{w}"))?;
        write!(u, ",\"idle_weight\":{idle_weight}")?;
    }
    u.write_char('}')
}

/// A named thing with its own tunables (a scheduler, with its queue, or a workload).
fn entry(u: &mut Uart, first: bool, e: &Entry, view: Option<&QueueView>) -> fmt::Result {
    u.write_str(if first { "{\"name\":" } else { ",{\"name\":" })?;
    write_string(u, e.name)?;
    u.write_str(",\"help\":")?;
    write_string(u, e.help)?;
    u.write_str(",\"tunables\":")?;
    write_tunables(u, e.tunables)?;
    if let Some(view) = view {
        u.write_str(",\"queue\":")?;
        queue(u, view)?;
    }
    u.write_char('}')
}

fn write(u: &mut Uart) -> fmt::Result {
    write!(u, "CATALOG {{\"version\":2,\"defaults\":{{\"sched\":\"{DEFAULT_SCHED}\",\"workload\":\"{DEFAULT_WORKLOAD}\"}},\"globals\":")?;
    write_tunables(u, Kernel.globals())?;
    u.write_str(",\"schedulers\":[")?;
    for (i, s) in schedulers().enumerate() {
        entry(u, i == 0, &s.entry(), Some(&s.queue()))?;
    }
    u.write_str("],\"workloads\":[")?;
    for (i, w) in WORKLOADS.iter().enumerate() {
        entry(u, i == 0, &w.entry(), None)?;
    }
    u.write_str("],\"classes\":[")?;
    for (i, (class, view)) in sched::class::VIEWS.iter().enumerate() {
        write!(u, "{}{{\"name\":\"{}\",\"rank\":{},\"queue\":", if i == 0 { "" } else { "," }, class.name(), class.rank())?;
        queue(u, view)?;
        u.write_char('}')?;
    }
    u.write_str("]}\n")
}

/// Prints the catalog; `Err` says which table is broken (a bug, which the tests catch).
pub fn print() -> Result<(), &'static str> {
    if let Some(name) = Kernel.broken_default() {
        return Err(name);
    }
    if let Some(name) = Kernel.clash() {
        return Err(name);
    }
    console::with(|u| {
        let _ = write(u);
    });
    Ok(())
}

