//! Code rewritten in a hot loop: the compiled region of the old code must not run after the
//! store (with `fence.i`) that changed it.

#[path = "../../core/tests/fuzz_engine/mod.rs"]
mod fuzz_engine;
mod common;

use fuzz_engine::{b_type, build_elf, i_type, j_type, r_type, s_type, Segment, RAM_BASE};
use runqueue_emu::{Config, Machine, Stop};

const TOHOST: u64 = RAM_BASE + 0x1ff8;
const ITERATIONS: i32 = 1000;
/// Every this many iterations the loop rewrites its first instruction's immediate.
const PERIOD: i32 = 64;

/// `addi x6, x6, 1` at the loop's head; every `PERIOD` iterations the loop rewrites it to add
/// the number of periods so far. The sum in x6 tells which versions ran how often.
fn program() -> Vec<u8> {
    let code = [
        i_type(0x13, 31, 0, 0, ITERATIONS),                  // x31 = iterations
        0x37 | 10 << 7 | 0x30000,                             // lui x10, 0x30
        i_type(0x13, 10, 0, 10, 0x313),                       // x10 = the word `addi x6, x6, 0`
        0x17 | 11 << 7,                                       // auipc x11, 0
        i_type(0x13, 11, 0, 11, 8),                           // x11 = the loop's head
        i_type(0x13, 6, 0, 6, 1),                             // head: addi x6, x6, 1 (rewritten)
        i_type(0x13, 7, 0, 7, 1),                             // x7 += 1
        i_type(0x13, 8, 7, 7, PERIOD - 1),                    // x8 = x7 % PERIOD
        b_type(1, 8, 0, 24),                                  // bne x8, x0, tail
        i_type(0x13, 9, 5, 7, 6),                             // x9 = x7 / PERIOD
        i_type(0x13, 9, 1, 9, 20),                            // the immediate's place
        r_type(0x33, 9, 6, 9, 10, 0),                         // or the opcode in
        s_type(0x23, 2, 11, 9, 0),                            // sw x9, 0(x11)
        0x0000_100f,                                          // fence.i
        i_type(0x13, 31, 0, 31, -1),                          // tail: x31 -= 1
        b_type(1, 31, 0, -40),                                // bne x31, x0, head
        i_type(0x13, 5, 0, 0, 1),
        s_type(0x23, 3, 12, 5, 0),                            // sd 1 to tohost (x12)
        j_type(0, 0),
    ];
    let mut image: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
    image.resize(0x2000, 0);
    build_elf(RAM_BASE, &[Segment { vaddr: RAM_BASE, data: image, memsz: 0x2000, flags: 7 }], Some(TOHOST))
}

#[test]
fn rewritten_code_runs_as_rewritten() {
    let elf = program();
    let regs = [(12, TOHOST)];
    let mut step = 0;
    let compiled = common::lockstep(&elf, &regs, &[(RAM_BASE, 0x2000)], || {
        step = step % 97 + 13;
        step
    }, 200_000)
    .unwrap_or_else(|e| panic!("{e}"));
    // The program does what it says: it ran each version of its head for a period.
    let mut interp = Machine::new(Config { ram_bytes: 16 << 20, ..Config::default() }, &elf).unwrap();
    interp.set_reg(0, 12, TOHOST);
    assert_eq!(interp.run(200_000), Stop::Exit(0));
    // Iteration i (from 1) adds the immediate written at the last multiple of PERIOD before it.
    let expected: i64 = (1..=ITERATIONS as i64).map(|i| if i <= PERIOD as i64 { 1 } else { (i - 1) / PERIOD as i64 }).sum();
    assert_eq!(interp.reg(0, 6) as i64, expected);
    // Each version of the loop was compiled anew once hot.
    assert!(compiled > (ITERATIONS / PERIOD) as usize / 2, "{compiled} regions compiled");
}
