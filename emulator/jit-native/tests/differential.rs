//! Generated programs run with the compiled tier and without it agree at every stop: a hot loop
//! whose body mixes every kind the tier compiles, loads and stores that hit and miss the data
//! TLB (page crossings, two pages fighting for one TLB slot, stores next to code), an MMIO read,
//! writes to x0, division corner cases, branches on and off the page, `jalr` within it and out.

#[path = "../../core/tests/fuzz_engine/mod.rs"]
mod fuzz_engine;
mod common;

use fuzz_engine::{b_type, build_elf, i_type, j_type, r_type, s_type, Rng, Segment, RAM_BASE};

const CASES: u64 = 160;
const ITERATIONS: u64 = 120;
/// Page 0 holds the loop, page 1 the code it calls or branches to off its page.
const OFF_PAGE: u64 = RAM_BASE + 0x1000;
const DATA: u64 = RAM_BASE + 0x2000;
/// A data page whose TLB slot is the same as `DATA`'s (256 entries, indexed by page number).
const ALIAS: u64 = DATA + (256 << 12);
const MTIME: u64 = 0x200_bff8;
const TOHOST: u64 = RAM_BASE + 0x1ff8;

// Registers with fixed roles; the others are the random ops' operands.
const LINK: u32 = 1;
const SCRATCH: u32 = 5;
const DATA_MID: u32 = 10;
const DATA_END: u32 = 11;
const MMIO: u32 = 12;
const ALIASED: u32 = 13;
const CODE_DATA: u32 = 14;
const EXIT: u32 = 15;
const COUNTER: u32 = 31;
const FREE: &[u32] = &[0, 2, 3, 4, 6, 7, 8, 9, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30];

/// Values that find the corners: zero, all ones, the most negative 64- and 32-bit numbers.
const SPECIAL: &[u64] = &[0, 1, u64::MAX, 1 << 63, (1 << 63) - 1, 0x8000_0000, 0xffff_ffff_8000_0000, 0x7fff_ffff, 0xffff_ffff, 63, 64];

struct Program {
    /// Page 0 and page 1, as 32-bit words.
    code: Vec<u32>,
    far: Vec<u32>,
}

impl Program {
    fn pc(&self) -> u64 {
        RAM_BASE + 4 * self.code.len() as u64
    }

    fn far_pc(&self) -> u64 {
        OFF_PAGE + 4 * self.far.len() as u64
    }
}

fn operand(rng: &mut Rng) -> u32 {
    rng.below(32) as u32
}

fn dest(rng: &mut Rng) -> u32 {
    rng.pick(FREE)
}

/// One random op, or a short sequence that does one thing (a call off the page, say).
fn op(rng: &mut Rng, p: &mut Program) {
    // (opcode, funct3, funct7) of the R-type ops: RV64I, M, and their W forms.
    const R: &[(u32, u32, u32)] = &[
        (0x33, 0, 0), (0x33, 0, 0x20), (0x33, 1, 0), (0x33, 2, 0), (0x33, 3, 0), (0x33, 4, 0), (0x33, 5, 0),
        (0x33, 5, 0x20), (0x33, 6, 0), (0x33, 7, 0), (0x3b, 0, 0), (0x3b, 0, 0x20), (0x3b, 1, 0), (0x3b, 5, 0),
        (0x3b, 5, 0x20), (0x33, 0, 1), (0x33, 1, 1), (0x33, 2, 1), (0x33, 3, 1), (0x33, 4, 1), (0x33, 5, 1),
        (0x33, 6, 1), (0x33, 7, 1), (0x3b, 0, 1), (0x3b, 4, 1), (0x3b, 5, 1), (0x3b, 6, 1), (0x3b, 7, 1),
    ];
    let rd = dest(rng);
    match rng.below(12) {
        0..=3 => {
            let (opcode, f3, f7) = rng.pick(R);
            p.code.push(r_type(opcode, rd, f3, operand(rng), operand(rng), f7));
        }
        4 => {
            // addi, slti, sltiu, xori, ori, andi; the shifts; addiw and the W shifts.
            let imm = rng.below(4096) as i32 - 2048;
            let shamt = rng.below(64) as i32;
            let word = match rng.below(10) {
                f3 @ (0 | 2 | 3 | 4 | 6 | 7) => i_type(0x13, rd, f3 as u32, operand(rng), imm),
                1 => i_type(0x13, rd, 1, operand(rng), shamt),
                5 => i_type(0x13, rd, 5, operand(rng), shamt | rng.pick(&[0, 0x400])),
                8 => i_type(0x1b, rd, 0, operand(rng), imm),
                _ => i_type(0x1b, rd, rng.pick(&[1, 5]), operand(rng), (shamt & 31) | rng.pick(&[0, 0x400])),
            };
            p.code.push(word);
        }
        5 => p.code.push(0x37 | rd << 7 | (rng.next() as u32 & 0xffff_f000)), // lui
        6 => p.code.push(0x17 | rd << 7 | (rng.next() as u32 & 0xffff_f000)), // auipc
        7 => {
            // A load or store: within the data page, across its end, on the page that shares
            // its TLB slot, next to the code (stores there take the slow path).
            let (base, imm) = match rng.below(4) {
                0 => (DATA_MID, rng.below(4096) as i32 - 2048),
                1 => (DATA_END, rng.below(16) as i32 - 8),
                2 => (ALIASED, rng.below(64) as i32 * 8),
                _ => (CODE_DATA, rng.below(128) as i32 * 8),
            };
            let f3 = rng.below(7) as u32;
            if rng.chance(2) {
                p.code.push(i_type(0x03, rd, f3, base, imm));
            } else {
                p.code.push(s_type(0x23, f3 & 3, base, operand(rng), imm));
            }
        }
        8 => {
            // Skip the next one or two ops on a random condition.
            let skip = 1 + rng.below(2) as i32;
            let f3 = rng.pick(&[0, 1, 4, 5, 6, 7]);
            p.code.push(b_type(f3, operand(rng), operand(rng), 4 * (skip + 1)));
            for _ in 0..skip {
                p.code.push(i_type(0x13, dest(rng), 0, operand(rng), 1));
            }
        }
        9 => {
            // A call off the page and back through jalr; or a branch there that jumps back.
            if rng.chance(2) {
                let offset = (p.far_pc() - p.pc()) as i32;
                p.code.push(j_type(LINK, offset));
                p.far.push(i_type(0x67, 0, 0, LINK, 0));
            } else {
                let (from, to) = (p.pc(), p.far_pc());
                p.code.push(b_type(0, 0, 0, (to - from) as i32));
                p.far.push(j_type(0, (p.pc() as i64 - p.far_pc() as i64) as i32));
            }
        }
        10 => {
            // jalr within the page, over one op; its link register may be its base.
            let link = rng.pick(&[0, SCRATCH, 7]);
            p.code.push(0x17 | SCRATCH << 7); // auipc x5, 0
            p.code.push(i_type(0x67, link, 0, SCRATCH, 12));
            p.code.push(i_type(0x13, dest(rng), 0, 0, 7));
        }
        _ => p.code.push(i_type(0x03, rd, 3, MMIO, 0)), // ld from the timer
    }
}

fn program(seed: u64) -> (Vec<u8>, Vec<(usize, u64)>) {
    let mut rng = Rng::new(seed);
    let mut p = Program { code: Vec::new(), far: Vec::new() };
    for _ in 0..8 + rng.below(40) {
        op(&mut rng, &mut p);
    }
    p.code.push(i_type(0x13, COUNTER, 0, COUNTER, -1));
    p.code.push(b_type(1, COUNTER, 0, -4 * (p.code.len() as i32)));
    p.code.push(i_type(0x13, 6, 0, 0, 1));
    p.code.push(s_type(0x23, 3, EXIT, 6, 0));
    p.code.push(j_type(0, 0));
    let bytes = |words: &[u32]| {
        let mut b: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        b.resize(0x1000, 0);
        b
    };
    let mut image = bytes(&p.code);
    image.extend(bytes(&p.far));
    let elf = build_elf(RAM_BASE, &[Segment { vaddr: RAM_BASE, data: image, memsz: 0x4000, flags: 7 }], Some(TOHOST));
    let mut regs: Vec<(usize, u64)> = (2..31).map(|r| (r, if rng.chance(2) { rng.pick(SPECIAL) } else { rng.next() })).collect();
    regs.extend([
        (DATA_MID, DATA + 0x800),
        (DATA_END, DATA + 0xffc),
        (MMIO, MTIME),
        (ALIASED, ALIAS),
        (CODE_DATA, RAM_BASE + 0xc00),
        (EXIT, TOHOST),
        (COUNTER, ITERATIONS),
    ]
    .map(|(r, v)| (r as usize, v)));
    (elf, regs)
}

const COMPARED: &[(u64, usize)] = &[(RAM_BASE, 0x4000), (ALIAS, 0x1000)];

#[test]
fn compiled_code_agrees_with_the_interpreter_at_every_stop() {
    let mut compiled = 0;
    for case in 0..CASES {
        let seed = fuzz_engine::case_seed(0x5eed_417, case);
        let (elf, regs) = program(seed);
        let mut slices = Rng::new(seed ^ 1);
        let result = common::lockstep(&elf, &regs, COMPARED, || 1 + slices.below(40), 100_000);
        match result {
            Ok(n) => compiled += n,
            Err(e) => panic!("case {case} (seed {seed:#x}): {e}"),
        }
    }
    // The loops ran hot: the comparison is of compiled code, not of the interpreter twice.
    assert!(compiled >= CASES as usize, "only {compiled} regions compiled in {CASES} cases");
}
