//! How a run executes guest code, and the one place that builds a machine for it, so every
//! native run (`run`, `grade`, `bench`, the kernel's claim tests) goes through the same tiers.

use runqueue_emu::jit::Compiler;
use runqueue_emu::{Exec, LoadError, Machine, MachineOptions, Started};
use runqueue_jit::Native;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExecMode {
    /// Hot code compiled to host code (`runqueue_jit`), the rest interpreted.
    #[default]
    Fast,
    /// The interpreter alone.
    Interp,
    /// One instruction per block, none of the shortcuts: the check on the other two.
    Reference,
}

impl ExecMode {
    pub const NAMES: &str = "fast, interp and reference";

    pub fn name(self) -> &'static str {
        match self {
            ExecMode::Fast => "fast",
            ExecMode::Interp => "interp",
            ExecMode::Reference => "reference",
        }
    }
}

impl FromStr for ExecMode {
    type Err = String;

    fn from_str(word: &str) -> Result<ExecMode, String> {
        match word {
            "fast" => Ok(ExecMode::Fast),
            "interp" => Ok(ExecMode::Interp),
            "reference" => Ok(ExecMode::Reference),
            _ => Err(format!("unknown execution mode `{word}`: the modes are {}", ExecMode::NAMES)),
        }
    }
}

/// The machine `options` describe, booted from `kernel` (and `initrd`, if any), that runs in `mode`.
pub fn boot(mode: ExecMode, kernel: &[u8], initrd: Option<&[u8]>, options: &MachineOptions) -> Result<Machine, LoadError> {
    let mut machine = Machine::boot(kernel, initrd, options)?;
    set_exec(mode, &mut machine);
    machine.set_compiler(compiler(mode));
    Ok(machine)
}

/// Makes a run's machine run in `mode` (a cold Linux boot compiles only once it has parked).
pub fn set_mode(mode: ExecMode, started: &mut Started) {
    set_exec(mode, &mut started.machine);
    started.set_compiler(compiler(mode));
}

fn set_exec(mode: ExecMode, machine: &mut Machine) {
    machine.set_exec(if mode == ExecMode::Reference { Exec::Reference } else { Exec::Fast });
}

/// The compiled tier of `mode`: Cranelift's, in the fast mode.
fn compiler(mode: ExecMode) -> Option<Box<dyn Compiler>> {
    if mode != ExecMode::Fast {
        return None;
    }
    // A host Cranelift cannot generate code for runs interpreted: the results are the same.
    Some(Box::new(Native::new().ok()?))
}
