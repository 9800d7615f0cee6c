//! The lab slot: the policies students write (`labs/<lab>/`). Each file here is the lab's
//! skeleton; the grader builds a copy of the kernel with the student's file in its place, so
//! everything else (the core's accounting and trace) is the project's own code.
//!
//! A lab file defines its `SPEC` (name `lab-<lab>`, tunables `lab.<lab>.*`) and one policy
//! type, registered below. Nothing else in the kernel may depend on what is inside them.

pub mod bvt;
pub mod mlfq;
pub mod sjf;

use super::Scheduler;

// Lives inside `Policy`, in the kernel lock, with no heap to box the big variants in.
#[allow(clippy::large_enum_variant)]
pub enum Lab {
    Sjf(sjf::Sjf),
    Mlfq(mlfq::Mlfq),
    Bvt(bvt::Bvt),
}

impl Lab {
    pub fn get(&mut self) -> &mut dyn Scheduler {
        match self {
            Lab::Sjf(p) => p,
            Lab::Mlfq(p) => p,
            Lab::Bvt(p) => p,
        }
    }

    pub fn view(&self) -> &dyn Scheduler {
        match self {
            Lab::Sjf(p) => p,
            Lab::Mlfq(p) => p,
            Lab::Bvt(p) => p,
        }
    }
}
