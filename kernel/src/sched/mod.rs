//! The scheduler framework as the core sees it: the table of policies the command line
//! chooses from, and the class layer every call goes through.
//!
//! A policy is a `Scheduler` (`runqueue-sched-api`): the kernel's own live in
//! `runqueue-policies`, the students' in `runqueue-lab`, and both crates see only that API.
//! The students' code does not even run in the core: a lab policy is a handle (`lab::Gate`)
//! on its instance in the lab's protection domain (`crate::domain`).
//! The core (`dispatch`) owns the task table, the accounting and the trace; a policy owns only
//! its queue and its per-task state, and shows that state through `describe`. The classes above
//! the fair one (`rt`, `deadline`) are the core's own, as Linux's `sched_class` chain is.

mod bandwidth;
pub mod cgroup;
pub mod class;
pub mod deadline;
pub mod fair_server;
mod group;
mod lab;
pub mod rt;

use runqueue_policies::Policy as Builtin;
use runqueue_sched_api::{Described, QueueView, Run, SchedSpec, Scheduler};
use runqueue_settings::{ArgError, Entry, Settings};

/// A policy the command line can choose, from either crate.
#[derive(Clone, Copy)]
pub enum Spec {
    Builtin(&'static SchedSpec<Builtin>),
    /// A lab's policy: its index in `runqueue_lab::SPECS`, and its description there.
    Lab(usize, &'static Described),
}

/// The policy the command line chose.
// One instance lives inside the kernel lock and there is no heap to box the big variants in.
#[allow(clippy::large_enum_variant)]
pub enum Policy {
    Builtin(Builtin),
    Lab(lab::Gate),
}

impl Spec {
    /// The scheduler `sched=` chose (`Settings::parse` found it among `schedulers()`).
    pub fn chosen(s: &Settings) -> Spec {
        let name = s.sched().map_or("", |e| e.name);
        schedulers().find(|spec| spec.name() == name).expect("the parser chose a scheduler of the catalog")
    }

    pub fn name(&self) -> &'static str {
        self.entry().name
    }

    /// Its name, help and tunables, as the catalog lists them.
    pub fn entry(&self) -> Entry {
        match self {
            Spec::Builtin(s) => Entry { name: s.name, help: s.help, tunables: s.tunables },
            Spec::Lab(_, s) => Entry { name: s.name, help: s.help, tunables: s.tunables },
        }
    }

    /// How the book draws its queue.
    pub fn queue(&self) -> QueueView {
        match self {
            Spec::Builtin(s) => s.queue,
            Spec::Lab(_, s) => s.queue,
        }
    }

    pub fn build(&self, settings: &Settings, run: &Run) -> Result<Policy, ArgError<'static>> {
        match self {
            Spec::Builtin(s) => (s.build)(settings, run).map(Policy::Builtin).map_err(ArgError::from),
            Spec::Lab(i, s) => lab::build(*i, s, settings, run).map(Policy::Lab),
        }
    }
}

/// Every policy, the kernel's first, then the labs'.
pub fn schedulers() -> impl Iterator<Item = Spec> + Clone {
    let builtin = runqueue_policies::SCHEDULERS.iter().map(Spec::Builtin);
    builtin.chain(runqueue_lab::SPECS.iter().enumerate().map(|(i, s)| Spec::Lab(i, s)))
}

impl Policy {
    /// A placeholder until the command line has chosen the policy (an empty FIFO queue, which
    /// no task ever reaches: tasks exist only after the policy is built).
    pub const UNSET: Policy = Policy::Builtin(Builtin::UNSET);

    pub fn get(&mut self) -> &mut dyn Scheduler {
        match self {
            Policy::Builtin(p) => p.get(),
            Policy::Lab(p) => p,
        }
    }

    pub fn view(&self) -> &dyn Scheduler {
        match self {
            Policy::Builtin(p) => p.view(),
            Policy::Lab(p) => p,
        }
    }
}
