//! `runqueue run`: boot, stream the console, collect the trace, write the results.

use crate::{Failure, read_file, write_file};
use clap::Args;
use crate::tier::{self, ExecMode};
use runqueue_emu::{MachineOptions, Snapshots, Started, Stop};
use std::sync::Mutex;
use crate::linux::{self, Boot};
use runqueue_report::{chrome, console, ftrace, ftrace_raw, linux as report_linux};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// The teaching kernel, built by build.rs.
pub static KERNEL: &[u8] = include_bytes!(env!("RUNQUEUE_KERNEL_ELF"));

/// The Linux boots this process has parked at their init's request for its words, so that a
/// process running many Linux experiments (the comparison suite, `bench --linux`, the tests)
/// boots each kernel once per boot key and starts the rest from there; a one-off `runqueue
/// run` finds nothing here and boots cold.
static SNAPSHOTS: Mutex<Snapshots> = Mutex::new(Snapshots::new(4));

/// Forgets the snapshots, in this process and on disk, so that the next Linux runs boot cold
/// (`bench --linux` times both).
pub fn forget_snapshots() {
    *SNAPSHOTS.lock().unwrap_or_else(|e| e.into_inner()) = Snapshots::new(4);
    stored::forget();
}

/// Snapshots on disk (`~/.cache/runqueue/snapshots`), so that a one-off `runqueue run --kernel`
/// boots Linux only the first time for each boot key. A file is named by the CLI's inputs
/// digest (`runqueue inputs`) and the boot key, so a change to the machine never resumes a
/// snapshot an older machine made; one that cannot be read is ignored and made anew.
mod stored {
    use runqueue_emu::{Snapshot, Snapshots};
    use std::path::PathBuf;

    /// Files kept, the newest; each holds a booted Linux's non-zero pages, about 8 MiB.
    const KEPT: usize = 8;

    fn dir() -> Option<PathBuf> {
        std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache/runqueue/snapshots"))
    }

    fn file(key: u64) -> Option<PathBuf> {
        dir().map(|d| d.join(format!("{}-{key:016x}.snap", env!("RUNQUEUE_INPUTS"))))
    }

    pub fn load(key: u64, snapshots: &mut Snapshots) {
        let snapshot = file(key).and_then(|f| std::fs::read(f).ok()).and_then(|b| Snapshot::from_bytes(&b).ok());
        if let Some(s) = snapshot.filter(|s| s.key() == key) {
            snapshots.keep(s);
        }
    }

    /// Writes `snapshot` (under a temporary name, then renamed: a write cut short leaves no
    /// half file) and removes the oldest files past `KEPT`; a disk that refuses is no error.
    pub fn save(snapshot: &Snapshot) {
        let (Some(dir), Some(path), Some(bytes)) = (dir(), file(snapshot.key()), snapshot.to_bytes()) else { return };
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        if std::fs::create_dir_all(&dir).is_err() || std::fs::write(&tmp, bytes).is_err() || std::fs::rename(&tmp, &path).is_err() {
            let _ = std::fs::remove_file(&tmp);
            return;
        }
        let mut files: Vec<_> = std::fs::read_dir(&dir).into_iter().flatten().flatten().filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path()))).collect();
        files.sort();
        for (_, old) in files.iter().rev().skip(KEPT) {
            let _ = std::fs::remove_file(old);
        }
    }

    pub fn forget() {
        if let Some(dir) = dir() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// Instructions per slice between console flushes: small enough that output streams, large
/// enough that the per-slice overhead vanishes.
const SLICE: u64 = 20_000_000;

#[derive(Args)]
pub struct RunArgs {
    /// The ELF to boot; the bundled teaching kernel when omitted.
    pub elf: Option<PathBuf>,
    /// Boot Linux instead: `linux-6.12`, `linux-6.1` or `linux-6.12-rt` (built by `make linux`, with Runqueue's
    /// init and the same workload words), or a kernel file (an ELF or a Linux `Image`).
    #[arg(long, value_name = "KERNEL", conflicts_with = "elf")]
    pub kernel: Option<String>,
    /// An initramfs for the kernel, named in the device tree as QEMU's -initrd does (the named
    /// Linux kernels bring Runqueue's init).
    #[arg(long, value_name = "FILE")]
    pub initrd: Option<PathBuf>,
    /// Harts (1..8). Defaults to the kernel's `smp=` argument, or 1. The command line's
    /// `cache.*=` words give the harts a data cache (docs/platform.md).
    #[arg(long)]
    pub smp: Option<usize>,
    /// Kernel command line, e.g. "sched=cfs workload=spin".
    #[arg(long, default_value = "")]
    pub append: String,
    /// Write the RESULT line's JSON here.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the trace here in Chrome trace-event JSON (opens in Perfetto).
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Write the trace here as Linux's ftrace text (`trace-cmd report`; Perfetto's scheduling views).
    #[arg(long, value_name = "FILE")]
    pub ftrace: Option<PathBuf>,
    /// Write the raw trace lines here (`docs/trace.md`).
    #[arg(long, value_name = "FILE")]
    pub events: Option<PathBuf>,
    /// Stop with an error if the guest has not shut down after this many instructions.
    #[arg(long, default_value_t = 5_000_000_000)]
    pub max_insns: u64,
    /// RAM in MiB.
    #[arg(long, default_value_t = 128)]
    pub mem: u64,
    /// Instructions each hart runs before the next hart's turn.
    #[arg(long, default_value_t = 1000)]
    pub quantum: u64,
    /// How guest code runs: `fast` (hot code compiled to host code, the rest interpreted),
    /// `interp` (the interpreter alone) or `reference` (one instruction per block, none of the
    /// fast paths). All three give the same output to the byte (`make test-determinism`).
    #[arg(long, default_value = "fast")]
    pub exec: ExecMode,
}

/// What a run produced, whether the guest shut down or used up its budget first.
pub struct Outcome {
    /// `None`: the instruction budget ran out first.
    pub exit: Option<i32>,
    pub console: String,
    pub trace: String,
    /// Emulated time at the end.
    pub time_ns: u64,
    /// Instructions the harts retired in this run (a run resumed from a snapshot does not count
    /// the boot the snapshot holds).
    pub instret: u64,
}

impl Outcome {
    /// The guest's exit code; a budget error (naming `max_insns`) if it never shut down.
    pub fn exit_code(&self, max_insns: u64) -> Result<i32, Failure> {
        self.exit.ok_or_else(|| {
            Failure::Budget(format!(
                "the guest did not shut down within {max_insns} instructions ({} ms of emulated time); \
                 raise --max-insns if it needs longer",
                self.time_ns / 1_000_000
            ))
        })
    }
}

/// Console output a run keeps (all of it still reaches `echo`): a kernel that floods the
/// console must not flood the grader's results or memory.
pub const CONSOLE_KEPT: usize = 1 << 20;

/// Boots `elf` on the machine `options` describe and runs it to shutdown or to `max_insns`,
/// passing console bytes to `echo` as they come.
pub fn execute(elf: &[u8], options: &MachineOptions, max_insns: u64, echo: impl FnMut(&[u8])) -> Result<Outcome, Failure> {
    execute_in(ExecMode::Fast, elf, None, options, max_insns, echo)
}

/// [`execute`] in the given execution mode, with an initrd if there is one.
pub fn execute_in(
    exec: ExecMode,
    kernel: &[u8],
    initrd: Option<&[u8]>,
    options: &MachineOptions,
    max_insns: u64,
    mut echo: impl FnMut(&[u8]),
) -> Result<Outcome, Failure> {
    let cannot = |e| Failure::Input(format!("cannot boot: {e}"));
    let mut started = Started::new(kernel, initrd, options, &mut SNAPSHOTS.lock().unwrap_or_else(|e| e.into_inner()), stored::load).map_err(cannot)?;
    let (mut saving, resumed_at) = (None, started.machine.instret());
    tier::set_mode(exec, &mut started);
    let (mut console_bytes, mut trace_bytes) = (Vec::new(), Vec::new());
    let mut console_cut = false;
    let exit = loop {
        let left = max_insns.saturating_sub(started.machine.instret());
        if left == 0 {
            break Ok(None);
        }
        let stop = started.machine.run(left.min(SLICE));
        let out = started.machine.take_console();
        echo(&out);
        let room = CONSOLE_KEPT.saturating_sub(console_bytes.len());
        console_cut |= out.len() > room;
        console_bytes.extend_from_slice(&out[..out.len().min(room)]);
        trace_bytes.extend_from_slice(&started.machine.take_trace());
        if let Some(kept) = started.keep_if_parked(&mut SNAPSHOTS.lock().unwrap_or_else(|e| e.into_inner()), &console_bytes, &trace_bytes) {
            saving = Some(std::thread::spawn(move || stored::save(&kept)));
            continue;
        }
        match stop {
            Stop::Budget => {}
            Stop::Exit(code) => break Ok(Some(code)),
            Stop::Fault(fault) => break Err(Failure::Input(format!("the guest stopped the machine: {fault}"))),
        }
    };
    // The snapshot's file was written beside the run; a run ends once it is.
    if let Some(saving) = saving {
        let _ = saving.join();
    }
    let exit = exit?;
    // Trace lines reach the console only on machines without the trace device (QEMU); with
    // the device, `@` lines on the console are not trace (a panic message could hold one).
    let mut split = console::split(&String::from_utf8_lossy(&console_bytes));
    if console_cut {
        split.console.push_str("\n[runqueue: console output past 1 MiB was not kept]\n");
    }
    // Linux's init hands its trace over in the ring buffer's binary form: printed here as
    // Linux's own `trace` text, which is what everything downstream reads.
    let mut trace = ftrace_raw::text_of_trace(&trace_bytes).map_err(|e| Failure::Input(format!("the guest's trace is malformed: {e}")))?;
    if trace.is_empty() {
        trace = split.trace;
    }
    Ok(Outcome { exit, console: split.console, trace, time_ns: started.machine.time_ns(), instret: started.machine.instret() - resumed_at })
}

pub fn run(args: &RunArgs) -> Result<ExitCode, Failure> {
    let boot = match (&args.kernel, &args.elf) {
        (Some(kernel), _) => linux::boot(kernel, args.initrd.as_ref())?,
        (None, elf) => Boot {
            kernel: elf.as_ref().map_or(Ok(KERNEL.to_vec()), |path| read_file(path, "ELF"))?,
            initrd: args.initrd.as_ref().map(|path| read_file(path, "initrd")).transpose()?,
        },
    };
    let mut options = MachineOptions::parse(&runqueue_emu::command_line(&boot.kernel, &args.append)).map_err(|e| Failure::Input(e.to_string()))?;
    if let Some(harts) = args.smp {
        options = options.with_harts(harts);
    }
    (options.ram_bytes, options.quantum) = (args.mem << 20, args.quantum);
    let mut stdout = std::io::stdout().lock();
    let outcome = execute_in(args.exec, &boot.kernel, boot.initrd.as_deref(), &options, args.max_insns, |bytes| {
        let _ = stdout.write_all(bytes).and_then(|_| stdout.flush());
    })?;
    let exit_code = outcome.exit_code(args.max_insns)?;
    if let Some(path) = &args.json {
        let json = console::result_json(&outcome.console)
            .ok_or_else(|| Failure::Input("the guest printed no RESULT line, so there is no JSON to write".into()))?;
        write_file(path, format!("{json}\n").as_bytes())?;
    }
    if args.trace.is_some() || args.ftrace.is_some() || args.events.is_some() {
        let events = report_linux::parse_any(&outcome.trace).map_err(|e| Failure::Input(format!("the guest's trace is malformed: {e}")))?;
        if let Some(path) = &args.trace {
            write_file(path, chrome::to_json(&events).as_bytes())?;
        }
        if let Some(path) = &args.ftrace {
            let text = ftrace::of_trace(&outcome.trace, options.harts as u32).map_err(|e| Failure::Input(format!("the guest's trace is malformed: {e}")))?;
            write_file(path, text.as_bytes())?;
        }
        if let Some(path) = &args.events {
            write_file(path, outcome.trace.as_bytes())?;
        }
    }
    Ok(ExitCode::from(exit_code.clamp(0, 255) as u8))
}

#[cfg(test)]
mod tests {
    use runqueue_machine_settings::{TABLES, run_words};
    use serde_json::Value;

    /// The kernel composes the machine's own tables into its catalog (narrowing only `smp=` to
    /// the harts it runs tasks on), so the book's controls offer what the machine takes.
    #[test]
    fn the_kernel_lists_the_machines_words_as_the_machine_declares_them() {
        let catalog: Value = serde_json::from_str(&crate::settings::kernel_catalog().unwrap()).unwrap();
        let globals = catalog["globals"].as_array().unwrap();
        let max_harts = globals.iter().find(|t| t["name"] == "smp").unwrap()["max"].as_i64().unwrap();
        let mut machine = String::new();
        runqueue_settings::write_tunables(&mut machine, run_words(max_harts).iter().chain(TABLES[1..].iter().flat_map(|t| t.iter()))).unwrap();
        let machine: Vec<Value> = serde_json::from_str(&machine).unwrap();
        for word in &machine {
            assert!(globals.contains(word), "the kernel's catalog lacks {word}");
        }
        assert!((1..=runqueue_machine_settings::MAX_HARTS).contains(&max_harts));
    }
}
