//! What a command line is read against: the global tables, composed at the top by whoever
//! owns the command line (the kernel: the machine's, its core's, its workloads' common words),
//! and the named entries a line picks one of (`sched=`, `workload=`), each with its own table.

use crate::tunable::Tunable;

/// A scheduler or a workload: its name, one-line help, and the tunables it adds.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub name: &'static str,
    pub help: &'static str,
    pub tunables: &'static [Tunable],
}

/// The tables a command line is parsed against.
pub trait Catalog {
    /// The tunables every line may give, in the catalog's order.
    fn globals(&self) -> impl Iterator<Item = &'static Tunable> + Clone;
    /// The schedulers `sched=` chooses from (none: a line without `sched=`, the machine's).
    fn schedulers(&self) -> impl Iterator<Item = Entry> + Clone;
    /// The workloads `workload=` chooses from.
    fn workloads(&self) -> impl Iterator<Item = Entry> + Clone;
    /// What a line without `sched=` / `workload=` gets.
    fn default_sched(&self) -> &'static str;
    fn default_workload(&self) -> &'static str;

    fn sched(&self, name: &str) -> Option<Entry> {
        self.schedulers().find(|e| e.name == name)
    }

    fn workload(&self, name: &str) -> Option<Entry> {
        self.workloads().find(|e| e.name == name)
    }

    /// The tunable called `name` among the globals, every scheduler's (a line may set another
    /// scheduler's, as compare mode does) and `workload`'s.
    fn tunable(&self, name: &str, workload: Option<Entry>) -> Option<&'static Tunable> {
        let scheds = self.schedulers().flat_map(|s| s.tunables.iter());
        let work = workload.into_iter().flat_map(|w| w.tunables.iter());
        self.globals().chain(scheds).chain(work).find(|t| t.name == name)
    }

    /// Every tunable of every table, for checks over all of them.
    fn every_tunable(&self) -> impl Iterator<Item = &'static Tunable> {
        let scheds = self.schedulers().flat_map(|s| s.tunables.iter());
        let works = self.workloads().flat_map(|w| w.tunables.iter());
        self.globals().chain(scheds).chain(works)
    }

    /// A name two tables declare (a table bug: a handle reads by name, so reading one would
    /// give the other's value), if any. Workloads may share names (`wl.tasks`), since a line
    /// has one workload; nothing else may.
    fn clash(&self) -> Option<&'static str> {
        let shared = || self.globals().chain(self.schedulers().flat_map(|s| s.tunables.iter()));
        let twice = |names: &mut dyn Iterator<Item = &'static Tunable>, against: &dyn Fn(&str) -> usize| names.map(|t| t.name).find(|n| against(n) > 1);
        let in_shared = |name: &str| shared().filter(|t| t.name == name).count();
        if let Some(name) = twice(&mut shared(), &in_shared) {
            return Some(name);
        }
        self.workloads().find_map(|w| {
            let in_workload = |name: &str| in_shared(name) + w.tunables.iter().filter(|t| t.name == name).count();
            twice(&mut w.tunables.iter(), &in_workload)
        })
    }

    /// The first tunable whose default does not parse (a table bug), if any; `catalog`
    /// refuses to describe a broken table.
    fn broken_default(&self) -> Option<&'static str> {
        self.every_tunable().find(|t| crate::parse_value(t, t.default).is_none()).map(|t| t.name)
    }
}

/// A catalog of global tables alone: the machine's words of a kernel command line.
pub struct Tables<'t>(pub &'t [&'static [Tunable]]);

impl Catalog for Tables<'_> {
    fn globals(&self) -> impl Iterator<Item = &'static Tunable> + Clone {
        self.0.iter().flat_map(|t| t.iter())
    }

    fn schedulers(&self) -> impl Iterator<Item = Entry> + Clone {
        core::iter::empty()
    }

    fn workloads(&self) -> impl Iterator<Item = Entry> + Clone {
        core::iter::empty()
    }

    fn default_sched(&self) -> &'static str {
        ""
    }

    fn default_workload(&self) -> &'static str {
        ""
    }
}
