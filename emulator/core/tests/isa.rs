//! Runs the ISA conformance programs of `emulator/guests/isa` (RISC-V assembly, one M-mode ELF
//! per program) on the emulator. Each program reports through HTIF `tohost`: exit code 0 is a
//! pass, any other code is the number of the check (`CASE n` in its `.S` file) that failed.
//!
//! The programs are built here with `cargo build --release` in the guest project when an ELF is
//! missing or older than the sources, so `cargo test` alone is enough.

use runqueue_emu::{BootMode, CacheConfig, Config, Machine, Stop};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::SystemTime;
use std::{fs, io};

/// Instructions a program may run; the largest needs about a million.
const BUDGET: u64 = 50_000_000;
/// The exit code the harness reports for a trap before the program's first check.
const NO_CHECK: i32 = 0xfff;
/// The deliberately wrong program and the check it must fail (it expects `add` to subtract).
const SELFTEST: &str = "selftest_fails";
const SELFTEST_CHECK: i32 = 3;

fn guest_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../guests/isa")
}

/// Where the programs are built: in this build's target folder (wherever CARGO_TARGET_DIR puts
/// it), not in the checkout; `run-qemu.sh` builds them there too.
fn guest_target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("isa-guests")
}

fn elf_path(program: &str) -> PathBuf {
    guest_target_dir()
        .join("riscv64imac-unknown-none-elf/release")
        .join(program)
}

/// The programs of the suite: one per `src/bin/<name>.rs`, sorted.
fn programs() -> io::Result<Vec<String>> {
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
fn ensure_built() {
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
const SMALL_CACHE: CacheConfig = CacheConfig {
    kb: 1,
    line: 16,
    ways: 2,
    miss_ns: 30,
};

/// Runs one program to its HTIF exit and returns the exit code, or a description of what
/// went wrong instead (load error, budget exhausted, machine fault).
fn run_program(program: &str, cache: CacheConfig) -> Result<i32, String> {
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

/// Panics with the failing check unless `program` passes, without and with a data cache.
fn expect_pass(program: &str) {
    for cache in [CacheConfig::default(), SMALL_CACHE] {
        let with = if cache.is_on() {
            " with a data cache"
        } else {
            ""
        };
        match run_program(program, cache) {
            Ok(0) => {}
            Ok(NO_CHECK) => panic!("{program}{with}: an unexpected trap before the first check"),
            Ok(check) => panic!(
                "{program}{with}: check {check} failed (CASE {check} in emulator/guests/isa/asm/{program}.S)"
            ),
            Err(message) => panic!("{message}{with}"),
        }
    }
}

macro_rules! isa_programs {
    ($($program:ident),* $(,)?) => {
        const LISTED: &[&str] = &[$(stringify!($program)),*];
        $(
            #[test]
            fn $program() {
                expect_pass(stringify!($program));
            }
        )*
    };
}

isa_programs!(
    rv64i,
    rv64m,
    rv64a,
    atomics_misaligned,
    rvc,
    zicsr,
    zifencei,
    traps,
    privilege,
    interrupts,
    sv39,
    misaligned,
    counters,
    counter_writes,
    pmp,
    suite_layout,
    suite_layout_noflags,
);

#[test]
fn every_program_has_a_test() {
    let mut listed: Vec<&str> = LISTED.iter().copied().chain([SELFTEST]).collect();
    listed.sort_unstable();
    let found = programs().expect("the guest project's src/bin is readable");
    assert_eq!(
        found, listed,
        "src/bin of emulator/guests/isa and the isa_programs! list differ"
    );
}

/// The suite can fail: a program that expects `add` to subtract must fail at that check.
#[test]
fn a_wrong_program_fails_at_its_check() {
    assert_eq!(
        run_program(SELFTEST, CacheConfig::default()),
        Ok(SELFTEST_CHECK)
    );
}

/// `suite_layout_noflags` really is what it stands for: the linker put `.text.init` (with the
/// entry) and `.tohost` in one PT_LOAD whose flags are empty, and the program still runs.
#[test]
fn a_linked_program_whose_entry_segment_has_no_flags_runs() {
    ensure_built();
    let path = elf_path("suite_layout_noflags");
    let elf = fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let u16_at = |at: usize| u16::from_le_bytes(elf[at..at + 2].try_into().unwrap()) as usize;
    let u32_at = |at: usize| u32::from_le_bytes(elf[at..at + 4].try_into().unwrap());
    let u64_at = |at: usize| u64::from_le_bytes(elf[at..at + 8].try_into().unwrap());
    let entry = u64_at(24);
    let (phoff, phentsize, phnum) = (u64_at(32) as usize, u16_at(54), u16_at(56));
    let loads: Vec<(u32, u64, u64)> = (0..phnum)
        .map(|i| phoff + i * phentsize)
        .filter(|&ph| u32_at(ph) == 1)
        .map(|ph| (u32_at(ph + 4), u64_at(ph + 24), u64_at(ph + 40)))
        .collect();
    let holding = |addr: u64| loads.iter().find(|&&(_, paddr, memsz)| (paddr..paddr + memsz).contains(&addr));
    let (flags, paddr, _) = *holding(entry).expect("a PT_LOAD holds the entry");
    assert_eq!((flags, paddr), (0, 0x8000_0000), "the entry's PT_LOAD: {loads:x?}");
    let machine = Machine::new(Config::default(), &elf).expect("loads");
    let tohost = 0x8000_1000; // suite_layout_noflags.ld: the page after `.text.init`
    assert_eq!(holding(tohost).map(|l| l.0), Some(0), "tohost shares the PT_LOAD: {loads:x?}");
    assert_eq!(machine.pc(0), entry);
    assert_eq!(run_program("suite_layout_noflags", CacheConfig::default()), Ok(0));
}
