//! The ISA conformance programs of `emulator/guests/isa`: where they are, building them when
//! they are stale, running one to its HTIF exit. Shared by `tests/isa.rs` and the compiled
//! tier's tests (`emulator/jit-native/tests/isa.rs`).

#![allow(dead_code)]

use runqueue_emu::{BootMode, CacheConfig, Config, Machine, Stop};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::SystemTime;
use std::{fs, io};

/// Instructions a program may run; the largest needs about a million.
pub const BUDGET: u64 = 50_000_000;
/// The exit code the harness reports for a trap before the program's first check.
pub const NO_CHECK: i32 = 0xfff;
/// The deliberately wrong program and the check it must fail (it expects `add` to subtract).
pub const SELFTEST: &str = "selftest_fails";
pub const SELFTEST_CHECK: i32 = 3;

fn guest_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../guests/isa")
}

/// Where the programs are built: in this build's target folder (wherever CARGO_TARGET_DIR puts
/// it), not in the checkout; `run-qemu.sh` builds them there too.
fn guest_target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("isa-guests")
}

pub fn elf_path(program: &str) -> PathBuf {
    guest_target_dir()
        .join("riscv64imac-unknown-none-elf/release")
        .join(program)
}

/// The programs of the suite: one per `src/bin/<name>.rs`, sorted.
pub fn programs() -> io::Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in fs::read_dir(guest_dir().join("src/bin"))? {
        let path = entry?.path();
        if path.extension() == Some(OsStr::new("rs"))
            && let Some(stem) = path.file_stem().and_then(OsStr::to_str)
        {
            names.push(stem.to_owned());
        }
    }
    names.sort();
    Ok(names)
}

/// The newest modification time of the files under `path` (a file or a folder).
fn newest_mtime(path: &Path) -> io::Result<SystemTime> {
    let meta = fs::metadata(path)?;
    if !meta.is_dir() {
        return meta.modified();
    }
    let mut newest = SystemTime::UNIX_EPOCH;
    for entry in fs::read_dir(path)? {
        newest = newest.max(newest_mtime(&entry?.path())?);
    }
    Ok(newest)
}

/// True when some program's ELF is missing or older than any source of the guest project.
fn needs_build() -> io::Result<bool> {
    let dir = guest_dir();
    let mut sources = SystemTime::UNIX_EPOCH;
    for input in [
        "asm",
        "src",
        "link.ld",
        "suite_layout.ld",
        "suite_layout_noflags.ld",
        "build.rs",
        "Cargo.toml",
        ".cargo",
    ] {
        sources = sources.max(newest_mtime(&dir.join(input))?);
    }
    for program in programs()? {
        match fs::metadata(elf_path(&program)).and_then(|m| m.modified()) {
            Ok(built) if built >= sources => {}
            _ => return Ok(true),
        }
    }
    Ok(false)
}

/// Builds the guest project for riscv64 in a clean environment: the outer `cargo test` sets
/// `CARGO_*` variables (target dir, features, manifest) and maybe `RUSTFLAGS` meant for the host.
fn build_guests() -> Result<(), String> {
    let mut cargo = Command::new("cargo");
    cargo
        .current_dir(guest_dir())
        .args(["build", "--release", "--quiet", "--target-dir"])
        .arg(guest_target_dir());
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        let inherited = (name.starts_with("CARGO_") && name != "CARGO_HOME")
            || [
                "RUSTFLAGS",
                "RUSTDOCFLAGS",
                "RUSTC_WRAPPER",
                "RUSTC_WORKSPACE_WRAPPER",
            ]
            .contains(&&*name);
        if inherited {
            cargo.env_remove(&*name);
        }
    }
    let output = cargo
        .output()
        .map_err(|e| format!("cannot run cargo for the ISA programs: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "building the ISA programs in {} failed:\n{}",
            guest_dir().display(),
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// Builds the programs once per test process, however many tests ask.
pub fn ensure_built() {
    static BUILT: OnceLock<Result<(), String>> = OnceLock::new();
    let result = BUILT.get_or_init(|| match needs_build() {
        Ok(false) => Ok(()),
        Ok(true) => build_guests(),
        Err(e) => Err(format!(
            "cannot inspect the ISA programs in {}: {e}",
            guest_dir().display()
        )),
    });
    if let Err(message) = result {
        panic!("{message}");
    }
}

/// A small data cache with short lines, so the programs' accesses miss, evict and straddle
/// lines often: every program must pass with it too, since the cache changes only time.
pub const SMALL_CACHE: CacheConfig = CacheConfig {
    kb: 1,
    line: 16,
    ways: 2,
    miss_ns: 30,
};

/// Runs one program to its HTIF exit and returns the exit code, or a description of what
/// went wrong instead (load error, budget exhausted, machine fault).
pub fn run_program(program: &str, cache: CacheConfig) -> Result<i32, String> {
    run_program_with(program, cache, |_| {})
}

/// [`run_program`] on a machine `prepare` has set up (the compiled tier's tests install a
/// compiler).
pub fn run_program_with(program: &str, cache: CacheConfig, prepare: impl FnOnce(&mut Machine)) -> Result<i32, String> {
    ensure_built();
    let path = elf_path(program);
    let elf = fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut machine = Machine::new(
        Config {
            cache,
            ..Config::default()
        },
        &elf,
    )
    .map_err(|e| format!("{program}: cannot load: {e}"))?;
    prepare(&mut machine);
    if !matches!(machine.boot_mode(), BootMode::Machine) {
        return Err(format!(
            "{program}: not booted in M-mode despite its tohost symbol"
        ));
    }
    let stop = machine.run(BUDGET);
    let console = String::from_utf8_lossy(&machine.take_console()).into_owned();
    match stop {
        Stop::Exit(code) => Ok(code),
        Stop::Budget => Err(format!(
            "{program}: no exit after {BUDGET} instructions (pc {:#x}, check {}); console: {console:?}",
            machine.pc(0),
            machine.reg(0, 3)
        )),
        Stop::Fault(fault) => Err(format!(
            "{program}: the machine stopped: {fault}; console: {console:?}"
        )),
    }
}

