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

use crate::args::{ArgError, Settings, Tunable};
use runqueue_policies::Policy as Builtin;
use runqueue_sched_api::{Described, SchedSpec, Scheduler};

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
    pub fn name(&self) -> &'static str {
        match self {
            Spec::Builtin(s) => s.name,
            Spec::Lab(_, s) => s.name,
        }
    }

    pub fn help(&self) -> &'static str {
        match self {
            Spec::Builtin(s) => s.help,
            Spec::Lab(_, s) => s.help,
        }
    }

    pub fn tunables(&self) -> &'static [Tunable] {
        match self {
            Spec::Builtin(s) => s.tunables,
            Spec::Lab(_, s) => s.tunables,
        }
    }

    pub fn build(&self, settings: &Settings) -> Result<Policy, ArgError> {
        match self {
            Spec::Builtin(s) => (s.build)(settings).map(Policy::Builtin).map_err(ArgError::from),
            Spec::Lab(i, s) => lab::build(*i, s, settings).map(Policy::Lab),
        }
    }
}

/// Every policy, the kernel's first, then the labs'.
pub fn schedulers() -> impl Iterator<Item = Spec> + Clone {
    let builtin = runqueue_policies::SCHEDULERS.iter().map(Spec::Builtin);
    builtin.chain(runqueue_lab::SPECS.iter().enumerate().map(|(i, s)| Spec::Lab(i, s)))
}

impl Policy {
    /// Before the command line is read: no tasks exist yet.
    pub const IDLE: Policy = Policy::Builtin(Builtin::IDLE);

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
