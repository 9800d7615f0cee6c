//! Linux on the same machine, for the comparison suite (`tests/fidelity.rs`): `linux(kernel,
//! append)` boots Linux 6.12 or 6.1 with the init's initramfs (what `make linux` built and
//! linked beside the CLI, or `RUNQUEUE_LINUX_DIR`) and the same command line as the teaching
//! kernel's run, and reads its RESULT line and its own ftrace as the same `Run`.
//!
//! A Linux run costs about a second of CPU (most of it the boot), so runs are cached outside
//! the checkout (`~/.cache/runqueue/fidelity`, or `RUNQUEUE_FIDELITY_CACHE`) by the hash of
//! what decides them: the kernel image, the initramfs, the command line, the hart count and the
//! machine (`build.rs` hashes the emulator's sources). The machine is deterministic, so a
//! cached run is the run.

use crate::Run;
use runqueue::linux::boot;
use runqueue::run::execute_in;
use runqueue::tier::ExecMode;
use runqueue_emu::MachineOptions;
use runqueue_report::{RunResult, console, linux as ftrace};
use std::path::PathBuf;

/// Enough for the longest comparison (2 s of four harts) with the boot, far from a hang.
const BUDGET: u64 = 30_000_000_000;
/// Bumped when what is cached changes meaning.
const CACHE_FORMAT: &str = "1";

fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("RUNQUEUE_FIDELITY_CACHE") {
        return dir.into();
    }
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(std::env::temp_dir);
    home.join(".cache/runqueue/fidelity")
}

/// FNV-1a over `parts`, twice with different offsets: 128 bits, enough to name a run.
fn key(parts: &[&[u8]]) -> String {
    let fnv = |mut h: u64| {
        for part in parts {
            for &b in part.iter().chain(&[0xff]) {
                h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
            }
        }
        h
    };
    format!("{:016x}{:016x}", fnv(0xcbf2_9ce4_8422_2325), fnv(0x6c62_272e_07bb_0142))
}

/// Console and trace of a Linux run, from the cache or from the machine.
fn console_and_trace(kernel: &str, append: &str) -> (String, String) {
    let b = boot(kernel, None).unwrap_or_else(|e| panic!("{kernel}: {e} (the comparison suite needs `make linux`)"));
    let bootargs = runqueue_emu::command_line(&b.kernel, append);
    let options = MachineOptions::parse(&bootargs).unwrap_or_else(|e| panic!("`{append}`: {e}"));
    let harts = options.harts;
    let initrd = b.initrd.clone().unwrap_or_default();
    let id = key(&[CACHE_FORMAT.as_bytes(), env!("RUNQUEUE_MACHINE_ID").as_bytes(), &b.kernel, &initrd, bootargs.as_bytes(), &harts.to_le_bytes()]);
    let dir = cache_dir();
    let (console_file, trace_file) = (dir.join(format!("{id}.console")), dir.join(format!("{id}.trace")));
    if let (Ok(console), Ok(trace)) = (std::fs::read_to_string(&console_file), std::fs::read_to_string(&trace_file)) {
        return (console, trace);
    }
    let out = execute_in(ExecMode::Fast, &b.kernel, b.initrd.as_deref(), &options, BUDGET, |_| {}).unwrap_or_else(|e| panic!("{kernel} `{append}`: {e}"));
    let code = out.exit_code(BUDGET).unwrap_or_else(|e| panic!("{kernel} `{append}`: {e}"));
    assert_eq!(code, 0, "{kernel} `{append}` exited {code}:\n{}", out.console);
    // Written under a temporary name, then renamed: a run cut short leaves no half file.
    let _ = std::fs::create_dir_all(&dir);
    for (file, text) in [(&trace_file, &out.trace), (&console_file, &out.console)] {
        let tmp = file.with_extension(format!("tmp{}", std::process::id()));
        if std::fs::write(&tmp, text).is_ok() {
            let _ = std::fs::rename(&tmp, file);
        }
    }
    (out.console, out.trace)
}

/// Boots Linux `kernel` (`linux-6.12` or `linux-6.1`) with `append` (which names `smp=` for
/// more than one hart, as the teaching kernel's runs do); it must end cleanly with a RESULT line.
pub fn linux(kernel: &str, append: &str) -> Run {
    let (console, trace) = console_and_trace(kernel, append);
    let json = console::result_json(&console).unwrap_or_else(|| panic!("{kernel} `{append}` printed no RESULT:\n{console}"));
    let result = RunResult::parse(json).unwrap();
    let events = ftrace::parse(&trace).unwrap_or_else(|e| panic!("{kernel} `{append}`: {e}"));
    Run { result, events, console }
}
