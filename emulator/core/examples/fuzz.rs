//! The long fuzz run of the emulator's ELF loader and execution (see `tests/fuzz_engine`).
//!
//! ```text
//! cargo run --release -p runqueue-emu --example fuzz -- --iterations N --seed S [--out DIR]
//! cargo run --release -p runqueue-emu --example fuzz -- --replay CASE_SEED [--out DIR]
//! ```
//! Prints how many cases ran and how they ended. Each crash (a panic, a run past its budget, or
//! a case that never returns) is printed with its case seed, and its ELF is saved to
//! `DIR/fuzz-crash-<case seed>.elf`; `--replay` reruns exactly that case (registers included).

#[path = "../tests/fuzz_engine/mod.rs"]
mod fuzz_engine;

use fuzz_engine::{Crash, generate, run_case};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// A case running longer than this is reported as a hang (a case normally takes microseconds).
const HANG_AFTER: Duration = Duration::from_secs(60);

struct Args {
    iterations: u64,
    seed: u64,
    replay: Option<u64>,
    out: PathBuf,
}

fn number(flag: &str, value: Option<String>) -> Result<u64, String> {
    let value = value.ok_or_else(|| format!("{flag} needs a number"))?;
    let parsed = match value.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => value.parse(),
    };
    parsed.map_err(|_| format!("{flag}: `{value}` is not a number (decimal or 0x hex)"))
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        iterations: 100_000,
        seed: 1,
        replay: None,
        out: PathBuf::from("."),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--iterations" => args.iterations = number(&flag, it.next())?,
            "--seed" => args.seed = number(&flag, it.next())?,
            "--replay" => args.replay = Some(number(&flag, it.next())?),
            "--out" => args.out = it.next().ok_or("--out needs a folder")?.into(),
            other => {
                return Err(format!(
                    "unknown argument `{other}`; accepted: --iterations N, --seed S, --replay CASE_SEED, --out DIR"
                ));
            }
        }
    }
    Ok(args)
}

/// Saves the case's ELF and says how to reproduce it.
fn report(what: &str, crash: &Crash, out: &Path) {
    let path = out.join(format!("fuzz-crash-{:#018x}.elf", crash.seed));
    let saved = match std::fs::write(&path, &generate(crash.seed).elf) {
        Ok(()) => format!("input saved to {}", path.display()),
        Err(e) => format!("could not save the input to {}: {e}", path.display()),
    };
    println!(
        "{what}: case seed {:#018x} ({:?}): {}; {saved}; reproduce with --replay {:#x}",
        crash.seed, crash.kind, crash.message, crash.seed
    );
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("fuzz: {message}");
            return ExitCode::from(2);
        }
    };
    if let Some(seed) = args.replay {
        let case = generate(seed);
        let result = run_case(&case);
        println!(
            "case {seed:#x} ({:?}, {} bytes of ELF): {result:?}",
            case.kind,
            case.elf.len()
        );
        if let Err(message) = result {
            report(
                "crash",
                &Crash {
                    seed,
                    kind: case.kind,
                    message,
                },
                &args.out,
            );
            return ExitCode::FAILURE;
        }
        return ExitCode::SUCCESS;
    }
    let start = Instant::now();
    let summary = fuzz_engine::fuzz(args.seed, args.iterations, HANG_AFTER, |s| {
        if s.cases % 500_000 == 0 {
            eprintln!(
                "{} cases, {} crashes, {:.0} s",
                s.cases,
                s.crashes.len(),
                start.elapsed().as_secs_f64()
            );
        }
    });
    println!(
        "seed {:#x}: {} cases in {:.1} s: {} rejected by the loader, {} ran out of budget, {} exited, {} faulted; {} crashes{}",
        args.seed,
        summary.cases,
        start.elapsed().as_secs_f64(),
        summary.rejected,
        summary.budget,
        summary.exit,
        summary.fault,
        summary.crashes.len(),
        if summary.hang.is_some() {
            ", and a hang"
        } else {
            ""
        }
    );
    for crash in &summary.crashes {
        report("crash", crash, &args.out);
    }
    if let Some(hang) = &summary.hang {
        report("hang", hang, &args.out);
    }
    if summary.crashes.is_empty() && summary.hang.is_none() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
