//! The ISA conformance programs (`emulator/guests/isa`) pass with the compiled tier installed,
//! and the one built to fail still fails at its check. The tests' compiler compiles a region at
//! the first jump to it, so checks that run once run compiled too (an `srai` masked to 5 bits
//! fails `rv64i` at its check 23; with regions compiled only when hot, it passed).

#[path = "../../core/tests/isa_guests/mod.rs"]
mod isa_guests;
mod common;

use isa_guests::{programs, run_program_with, SELFTEST, SELFTEST_CHECK};
use runqueue_emu::CacheConfig;

/// The exit code and the regions compiled.
fn run_compiled(program: &str) -> (Result<i32, String>, usize) {
    let mut compiled = None;
    let code = run_program_with(program, CacheConfig::default(), |m| compiled = Some(common::install(m)));
    (code, compiled.map_or(0, |c| c.get()))
}

#[test]
fn every_program_passes_with_the_compiler() {
    for program in programs().expect("the guest project's src/bin is readable") {
        let (code, compiled) = run_compiled(&program);
        let expected = if program == SELFTEST { SELFTEST_CHECK } else { 0 };
        assert_eq!(code, Ok(expected), "{program} with the compiled tier ({compiled} regions compiled)");
        assert!(compiled > 0, "{program}: no region was compiled");
    }
}
