//! Runs the ISA conformance programs of `emulator/guests/isa` (RISC-V assembly, one M-mode ELF
//! per program) on the emulator. Each program reports through HTIF `tohost`: exit code 0 is a
//! pass, any other code is the number of the check (`CASE n` in its `.S` file) that failed.
//!
//! The programs are built here with `cargo build --release` in the guest project when an ELF is
//! missing or older than the sources, so `cargo test` alone is enough.

mod isa_guests;

use isa_guests::*;
use runqueue_emu::{CacheConfig, Config, Machine};
use std::fs;

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
