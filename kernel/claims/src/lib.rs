//! Running the bundled kernel on the emulator for the kernel's claims and schedule properties
//! (`tests/`): each run must end cleanly with a RESULT line and a well-formed trace.

mod compare;
mod linux;

pub use compare::{Comparison, Spread, Within};
pub use linux::linux;
use runqueue::run::{KERNEL, execute};
use runqueue_emu::MachineOptions;
use runqueue_report::{Event, RunResult, console, trace};

/// Enough for every workload at its defaults, far from a hang.
const BUDGET: u64 = 3_000_000_000;

pub struct Run {
    pub result: RunResult,
    pub events: Vec<Event>,
    pub console: String,
}

/// The kernel the claims run: the bundled one, or the ELF `RUNQUEUE_CLAIMS_KERNEL` names (to
/// see a claim fail on another build, such as the one before a fix).
fn kernel_elf() -> std::borrow::Cow<'static, [u8]> {
    match std::env::var_os("RUNQUEUE_CLAIMS_KERNEL") {
        Some(path) => std::fs::read(&path).unwrap_or_else(|e| panic!("RUNQUEUE_CLAIMS_KERNEL={}: {e}", path.to_string_lossy())).into(),
        None => KERNEL.into(),
    }
}

/// Boots the kernel with `append` (which names `smp=` when it wants more than one hart, and
/// `cache.*=` for a data cache, `host=` for a host below), as `runqueue run --append` does.
pub fn kernel(append: &str) -> Run {
    let out = execute(&kernel_elf(), &machine(append), BUDGET, |_| {}).unwrap_or_else(|e| panic!("`{append}`: {e}"));
    let code = out.exit_code(BUDGET).unwrap_or_else(|e| panic!("`{append}`: {e}"));
    assert_eq!(code, 0, "`{append}` exited {code}:\n{}", out.console);
    let json = console::result_json(&out.console).unwrap_or_else(|| panic!("`{append}` printed no RESULT:\n{}", out.console));
    let result = RunResult::parse(json).unwrap();
    let events = trace::parse(&out.trace).unwrap_or_else(|e| panic!("`{append}`: {e}"));
    Run { result, events, console: out.console }
}

/// Boots the kernel with `append`, which it must refuse (exit code 2, bad arguments), and
/// returns what it printed.
pub fn boot_error(append: &str) -> String {
    let out = execute(&kernel_elf(), &machine(append), BUDGET, |_| {}).unwrap_or_else(|e| panic!("`{append}`: {e}"));
    let code = out.exit_code(BUDGET).unwrap_or_else(|e| panic!("`{append}`: {e}"));
    assert_eq!(code, 2, "`{append}` exited {code}:\n{}", out.console);
    out.console
}

/// The machine `append` asks for, as `runqueue run --append` builds it.
pub fn machine(append: &str) -> MachineOptions {
    MachineOptions::parse(append).unwrap_or_else(|e| panic!("`{append}`: {e}"))
}

impl Run {
    /// When the workload started, in the trace's time (since the machine started): RESULT's
    /// times count from there. Linux's init marks it (`mark start=`).
    pub fn start_ns(&self) -> u64 {
        if let Some(e) = self.events.iter().find(|e| e.kind == runqueue_report::Kind::Mark && e.get("start").is_some()) {
            return e.time_ns;
        }
        let first = self.events.iter().find(|e| e.kind == runqueue_report::Kind::New).expect("the run created a task");
        let arrived = self.result.tasks.iter().find(|t| t.tid == first.tid).expect("RESULT lists every task").arrive_ns;
        first.time_ns - arrived
    }

    pub fn iterations(&self) -> Vec<u64> {
        self.result.tasks.iter().map(|t| t.iterations).collect()
    }

    pub fn cpu(&self) -> Vec<u64> {
        self.result.tasks.iter().map(|t| t.cpu_ns).collect()
    }

    pub fn finish(&self) -> Vec<u64> {
        self.result.tasks.iter().map(|t| t.finish_ns).collect()
    }
}

/// (max - min) / mean of some positive figures.
pub fn spread(values: &[u64]) -> f64 {
    let max = *values.iter().max().unwrap() as f64;
    let min = *values.iter().min().unwrap() as f64;
    let mean = values.iter().sum::<u64>() as f64 / values.len() as f64;
    (max - min) / mean
}
