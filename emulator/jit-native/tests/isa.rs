//! The ISA conformance programs (`emulator/guests/isa`) pass with the compiled tier installed,
//! and the one built to fail still fails at its check.

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
    let mut total = 0;
    for program in programs().expect("the guest project's src/bin is readable") {
        let (code, compiled) = run_compiled(&program);
        let expected = if program == SELFTEST { SELFTEST_CHECK } else { 0 };
        assert_eq!(code, Ok(expected), "{program} with the compiled tier ({compiled} regions compiled)");
        total += compiled;
    }
    // Their loops run hot enough to be compiled: the programs test compiled code too.
    assert!(total > 0, "no region was compiled");
}
