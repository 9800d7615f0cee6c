//! A small, stable-Rust, deterministic fuzzer for the emulator (no nightly `cargo fuzz`).
//!
//! Two targets, both of which must never panic:
//! - **loader**: valid ELFs mutated (bit flips, truncation, random header fields, huge sizes,
//!   overlapping or out-of-RAM segments) and plain random bytes go to `Machine::new`, which must
//!   return `Ok` or an `Err` with a message; an `Ok` machine then runs a small budget.
//! - **execution**: random instruction bytes and random valid encodings, behind a prologue that
//!   points the trap vectors into them and sets random CSR state, run in M- and S-mode ELFs
//!   built here, with random initial registers; the budget must bound the run.
//!
//! Case `i` of a run with seed `s` is generated from `case_seed(s, i)` alone, so any case can be
//! regenerated (and its input saved) from that one number. A worker thread runs the cases while
//! the caller watches for a case that never returns (a hang).

#![allow(dead_code)] // shared by tests/fuzz.rs, examples/fuzz.rs and the compiled tier's tests (emulator/jit-native), which use different parts

use runqueue_emu::{CacheConfig, Config, Machine, Stop};
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

pub const RAM_BASE: u64 = 0x8000_0000;
/// RAM for fuzz machines: enough for the S-mode entry at 0x8020_0000, small enough to be cheap.
pub const FUZZ_RAM: u64 = 16 << 20;
/// Instructions each machine may run.
pub const BUDGET: u64 = 20_000;
/// The data cache of the execution cases that have one: small, so lines are evicted and
/// shared between harts often.
const FUZZ_CACHE: CacheConfig = CacheConfig {
    kb: 1,
    line: 16,
    ways: 2,
    miss_ns: 30,
};
const S_ENTRY: u64 = 0x8020_0000;

// ---- randomness ----------------------------------------------------------------------------

/// xorshift64*: tiny, fast, and fully determined by its seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(mix(seed) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn chance(&mut self, one_in: u64) -> bool {
        self.below(one_in) == 0
    }
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

/// splitmix64 finaliser: spreads nearby seeds apart.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of case `index` in a run seeded with `seed`.
pub fn case_seed(seed: u64, index: u64) -> u64 {
    mix(seed ^ mix(index))
}

// ---- ELF building ------------------------------------------------------------------------

pub struct Segment {
    pub vaddr: u64,
    pub data: Vec<u8>,
    pub memsz: u64,
    /// PF_X = 1, PF_W = 2, PF_R = 4.
    pub flags: u32,
}

const EHDR: usize = 64;
const PHDR: usize = 56;
const SHDR: usize = 64;

fn put(buf: &mut [u8], at: usize, value: u64, width: usize) {
    buf[at..at + width].copy_from_slice(&value.to_le_bytes()[..width]);
}

/// A little-endian ELF64 RISC-V executable with `segments` and, if `tohost` is given, a
/// `.symtab` defining `tohost` and `fromhost` (so the emulator boots it in M-mode).
pub fn build_elf(entry: u64, segments: &[Segment], tohost: Option<u64>) -> Vec<u8> {
    let mut out = vec![0u8; EHDR + PHDR * segments.len()];
    out[..4].copy_from_slice(b"\x7fELF");
    out[4] = 2; // 64-bit
    out[5] = 1; // little-endian
    out[6] = 1; // version
    put(&mut out, 16, 2, 2); // ET_EXEC
    put(&mut out, 18, 243, 2); // EM_RISCV
    put(&mut out, 20, 1, 4);
    put(&mut out, 24, entry, 8);
    put(&mut out, 32, EHDR as u64, 8); // e_phoff
    put(&mut out, 52, EHDR as u64, 2);
    put(&mut out, 54, PHDR as u64, 2);
    put(&mut out, 56, segments.len() as u64, 2);
    put(&mut out, 58, SHDR as u64, 2);
    for (i, seg) in segments.iter().enumerate() {
        let offset = out.len() as u64;
        out.extend_from_slice(&seg.data);
        let ph = EHDR + i * PHDR;
        put(&mut out, ph, 1, 4); // PT_LOAD
        put(&mut out, ph + 4, u64::from(seg.flags), 4);
        put(&mut out, ph + 8, offset, 8);
        put(&mut out, ph + 16, seg.vaddr, 8);
        put(&mut out, ph + 24, seg.vaddr, 8);
        put(&mut out, ph + 32, seg.data.len() as u64, 8);
        put(&mut out, ph + 40, seg.memsz, 8);
        put(&mut out, ph + 48, 0x1000, 8);
    }
    if let Some(addr) = tohost {
        append_symtab(&mut out, &[("tohost", addr), ("fromhost", addr + 8)]);
    }
    out
}

/// Appends `.symtab`, `.strtab`, `.shstrtab` and the section headers pointing at them.
fn append_symtab(out: &mut Vec<u8>, symbols: &[(&str, u64)]) {
    let mut strtab = vec![0u8];
    let mut symtab = vec![0u8; 24]; // the null symbol
    for (name, value) in symbols {
        let mut sym = [0u8; 24];
        put(&mut sym, 0, strtab.len() as u64, 4);
        sym[4] = 0x11; // STB_GLOBAL, STT_OBJECT
        put(&mut sym, 6, 0xfff1, 2); // SHN_ABS
        put(&mut sym, 8, *value, 8);
        put(&mut sym, 16, 8, 8);
        symtab.extend_from_slice(&sym);
        strtab.extend_from_slice(name.as_bytes());
        strtab.push(0);
    }
    let shstrtab = b"\0.symtab\0.strtab\0.shstrtab\0";
    let place = |out: &mut Vec<u8>, data: &[u8]| {
        while !out.len().is_multiple_of(8) {
            out.push(0);
        }
        let at = out.len();
        out.extend_from_slice(data);
        at
    };
    let symtab_at = place(out, &symtab);
    let strtab_at = place(out, &strtab);
    let shstrtab_at = place(out, shstrtab);
    let shoff = place(out, &[]);
    // null, .symtab (link 2 = .strtab, info 1 = first global), .strtab, .shstrtab
    let sections: [(u64, u64, usize, usize, u64, u64, u64); 4] = [
        (0, 0, 0, 0, 0, 0, 0),
        (1, 2, symtab_at, symtab.len(), 2, 1, 24),
        (9, 3, strtab_at, strtab.len(), 0, 0, 0),
        (17, 3, shstrtab_at, shstrtab.len(), 0, 0, 0),
    ];
    for (name, kind, offset, size, link, info, entsize) in sections {
        let mut sh = [0u8; SHDR];
        put(&mut sh, 0, name, 4);
        put(&mut sh, 4, kind, 4);
        put(&mut sh, 24, offset as u64, 8);
        put(&mut sh, 32, size as u64, 8);
        put(&mut sh, 40, link, 4);
        put(&mut sh, 44, info, 4);
        put(&mut sh, 48, 8, 8);
        put(&mut sh, 56, entsize, 8);
        out.extend_from_slice(&sh);
    }
    put(out, 40, shoff as u64, 8);
    put(out, 60, 4, 2); // e_shnum
    put(out, 62, 3, 2); // e_shstrndx
}

// ---- a few instruction encodings --------------------------------------------------------

pub fn r_type(op: u32, rd: u32, f3: u32, rs1: u32, rs2: u32, f7: u32) -> u32 {
    op | rd << 7 | f3 << 12 | rs1 << 15 | rs2 << 20 | f7 << 25
}
pub fn i_type(op: u32, rd: u32, f3: u32, rs1: u32, imm: i32) -> u32 {
    op | rd << 7 | f3 << 12 | rs1 << 15 | ((imm as u32) & 0xfff) << 20
}
pub fn s_type(op: u32, f3: u32, rs1: u32, rs2: u32, imm: i32) -> u32 {
    let imm = imm as u32;
    op | (imm & 0x1f) << 7 | f3 << 12 | rs1 << 15 | rs2 << 20 | ((imm >> 5) & 0x7f) << 25
}
pub fn b_type(f3: u32, rs1: u32, rs2: u32, imm: i32) -> u32 {
    let imm = imm as u32;
    0x63 | ((imm >> 11) & 1) << 7
        | ((imm >> 1) & 0xf) << 8
        | f3 << 12
        | rs1 << 15
        | rs2 << 20
        | ((imm >> 5) & 0x3f) << 25
        | ((imm >> 12) & 1) << 31
}
pub fn j_type(rd: u32, imm: i32) -> u32 {
    let imm = imm as u32;
    0x6f | rd << 7
        | ((imm >> 12) & 0xff) << 12
        | ((imm >> 11) & 1) << 20
        | ((imm >> 1) & 0x3ff) << 21
        | ((imm >> 20) & 1) << 31
}
fn csrrw(rd: u32, csr: u32, rs1: u32) -> u32 {
    i_type(0x73, rd, 1, rs1, 0) | csr << 20
}

/// `li x5, value` for a zero-extended 32-bit value: lui, addiw, then clear the upper half.
fn li32(value: u32) -> [u32; 4] {
    let lo = ((value & 0xfff) as i32) << 20 >> 20;
    let hi = value.wrapping_sub(lo as u32) & 0xffff_f000;
    [
        0x37 | 5 << 7 | hi,
        i_type(0x1b, 5, 0, 5, lo),
        i_type(0x13, 5, 1, 5, 32),
        i_type(0x13, 5, 5, 5, 32),
    ]
}

/// CSRs the generator writes or names: the ones a kernel and the tests touch.
const CSRS: &[u32] = &[
    0x300, 0x301, 0x302, 0x303, 0x304, 0x305, 0x306, 0x340, 0x341, 0x342, 0x343, 0x344, 0x100,
    0x104, 0x105, 0x106, 0x140, 0x141, 0x142, 0x143, 0x144, 0x180, 0xc00, 0xc01, 0xc02, 0xb00,
    0xb02, 0xf11, 0xf12, 0xf13, 0xf14, 0x3a0, 0x3a1, 0x3a2, 0x3a4, 0x3b0, 0x3b1, 0x3bf, 0x3c0,
    0x30a, 0x10a, 0x7c0, 0x001,
];

/// One random but well-formed instruction (32-bit or compressed).
fn valid_instruction(rng: &mut Rng, out: &mut Vec<u8>) {
    let (rd, rs1, rs2) = (
        rng.below(32) as u32,
        rng.below(32) as u32,
        rng.below(32) as u32,
    );
    let imm = (rng.next() as i32) >> 20;
    let word = match rng.below(14) {
        0 => i_type(
            0x13,
            rd,
            rng.below(8) as u32,
            rs1,
            imm & if rng.chance(2) { 0x3f } else { -1 },
        ),
        1 => r_type(
            0x33,
            rd,
            rng.below(8) as u32,
            rs1,
            rs2,
            rng.pick(&[0, 0x20, 1]),
        ),
        2 => r_type(
            0x3b,
            rd,
            rng.pick(&[0, 1, 4, 5, 6, 7]),
            rs1,
            rs2,
            rng.pick(&[0, 0x20, 1]),
        ),
        3 => i_type(0x1b, rd, rng.pick(&[0, 1, 5]), rs1, imm & 0x41f),
        4 => i_type(0x03, rd, rng.below(7) as u32, rs1, imm),
        5 => s_type(0x23, rng.below(4) as u32, rs1, rs2, imm),
        6 => b_type(rng.pick(&[0, 1, 4, 5, 6, 7]), rs1, rs2, imm << 1),
        7 => j_type(rd, ((rng.next() as i32) >> 11) & !1),
        8 => i_type(0x67, rd, 0, rs1, imm),
        9 => rng.pick(&[0x37, 0x17]) | rd << 7 | (rng.next() as u32 & 0xffff_f000), // lui, auipc
        10 => {
            let funct5 = rng.pick(&[0, 1, 2, 3, 4, 8, 12, 16, 20, 24, 28]);
            r_type(
                0x2f,
                rd,
                rng.pick(&[2, 3]),
                rs1,
                if funct5 == 2 { 0 } else { rs2 },
                funct5 << 2 | rng.below(4) as u32,
            )
        }
        11 if rng.chance(4) => r_type(0x73, 0, 0, rs1, rs2, 0x09), // sfence.vma rs1, rs2
        // ecall, ebreak, mret, sret, wfi, fence.i, fence
        11 => rng.pick(&[
            0x0000_0073,
            0x0010_0073,
            0x3020_0073,
            0x1020_0073,
            0x1050_0073,
            0x0000_100f,
            0x0ff0_000f,
        ]),
        12 => i_type(0x73, rd, rng.pick(&[1, 2, 3, 5, 6, 7]), rs1, 0) | rng.pick(CSRS) << 20,
        _ => {
            // A compressed instruction: any quadrant but 3.
            let half = (rng.next() as u16 & !3) | rng.below(3) as u16;
            out.extend_from_slice(&half.to_le_bytes());
            return;
        }
    };
    out.extend_from_slice(&word.to_le_bytes());
}

/// Code that sets trap vectors into the body (so traps re-enter random code) and random CSR
/// state, written with x5 only; then the body follows.
fn prologue(rng: &mut Rng, machine_mode: bool, body_at: u64) -> Vec<u32> {
    let mut code = Vec::new();
    let write_csr = |code: &mut Vec<u32>, csr: u32, value: u32| {
        code.extend(li32(value));
        code.push(csrrw(0, csr, 5));
    };
    // A word-aligned entry in the body, direct or vectored mode.
    let vector = (body_at as u32 + (rng.below(64) as u32 & !3)) | rng.below(2) as u32;
    let root_ppn = ((RAM_BASE + rng.below(FUZZ_RAM)) >> 12) as u32;
    if machine_mode {
        write_csr(&mut code, 0x305, vector); // mtvec
        write_csr(&mut code, 0x300, rng.next() as u32); // mstatus
        write_csr(&mut code, 0x302, rng.next() as u32); // medeleg
        write_csr(&mut code, 0x303, rng.next() as u32); // mideleg
        write_csr(&mut code, 0x304, rng.next() as u32); // mie
        if rng.chance(4) {
            // Random PMP entries, perhaps locked, perhaps over the code itself.
            for _ in 0..rng.below(4) {
                let entry = rng.below(16) as u32;
                write_csr(&mut code, 0x3b0 + entry, rng.next() as u32);
            }
            write_csr(&mut code, 0x3a0 + 2 * rng.below(2) as u32, rng.next() as u32);
        } else {
            // As firmware leaves it: S and U may use the first 32 GiB (NAPOT), RWX.
            write_csr(&mut code, 0x3b0, u32::MAX);
            write_csr(&mut code, 0x3a0, 0x1f);
        }
    }
    write_csr(&mut code, 0x105, vector); // stvec
    write_csr(&mut code, 0x100, rng.next() as u32); // sstatus
    write_csr(&mut code, 0x104, rng.next() as u32); // sie
    if rng.chance(2) {
        // satp = Sv39 (mode 8 in bits 63:60) with a random root in RAM.
        code.extend(li32(root_ppn));
        code.push(i_type(0x13, 6, 0, 0, 8)); // addi x6, x0, 8
        code.push(i_type(0x13, 6, 1, 6, 60)); // slli x6, x6, 60
        code.push(r_type(0x33, 5, 6, 5, 6, 0)); // or x5, x5, x6
        code.push(csrrw(0, 0x180, 5));
    }
    code
}

// ---- cases -----------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Loader,
    Execution,
}

/// One generated input: the ELF bytes, the registers set before running, and the config.
pub struct Case {
    pub kind: Kind,
    pub seed: u64,
    pub elf: Vec<u8>,
    pub regs: Vec<(usize, u64)>,
    pub harts: usize,
    /// Whether the machine has a data cache (`FUZZ_CACHE`).
    pub cache: bool,
}

/// A valid ELF that exits 0 at once: M-mode (stores 1 to `tohost`) or S-mode (SBI legacy
/// shutdown), with an optional second, writable segment holding `data`.
pub fn valid_elf(machine_mode: bool, data: Option<Vec<u8>>) -> Vec<u8> {
    let base = if machine_mode { RAM_BASE } else { S_ENTRY };
    let mut code: Vec<u32> = if machine_mode {
        vec![0x0000_1517, 0x0105_0513, 0x0010_0593, 0x00b5_3023] // a0 = pc+0x1010; a1 = 1; sd a1, 0(a0)
    } else {
        vec![0x0080_0893, 0x0000_0073] // li a7, 8; ecall
    };
    code.push(0x0000_006f); // j .
    let mut text: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
    text.resize(0x1000, 0);
    let mut segments = vec![Segment {
        vaddr: base,
        data: text,
        memsz: 0x1000,
        flags: 5,
    }];
    if let Some(data) = data {
        segments.push(Segment {
            vaddr: base + 0x1000,
            data,
            memsz: 0x2000,
            flags: 6,
        });
    }
    build_elf(base, &segments, machine_mode.then_some(RAM_BASE + 0x1010))
}

fn seed_elf(rng: &mut Rng) -> Vec<u8> {
    let machine_mode = rng.chance(2);
    let data = rng.chance(2).then(|| rng.bytes(64));
    valid_elf(machine_mode, data)
}

const INTERESTING: &[u64] = &[
    0,
    1,
    2,
    7,
    8,
    0x38,
    0x40,
    0xff,
    0xffff,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0x1_0000_0000,
    0x8000_0000_0000_0000,
    u64::MAX,
    u64::MAX - 1,
    u64::MAX / 2,
    RAM_BASE,
    RAM_BASE + FUZZ_RAM,
    RAM_BASE + FUZZ_RAM - 1,
    0x0200_0000,
    0x1000_0000,
    0x1020_0000,
];

/// Mutates a valid ELF: each case applies one to four mutations.
fn mutate(rng: &mut Rng, elf: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(4) {
        let header_end = (EHDR + 2 * PHDR).min(elf.len());
        match rng.below(7) {
            0 if !elf.is_empty() => {
                let at = rng.below(elf.len() as u64) as usize;
                elf[at] ^= 1 << rng.below(8);
            }
            1 => elf.truncate(rng.below(elf.len() as u64 + 1) as usize),
            2 if header_end >= 8 => {
                // A header field (ELF or program header) set to an interesting value.
                let width = rng.pick(&[1usize, 2, 4, 8]);
                let at = rng.below((header_end - width) as u64 + 1) as usize;
                put(elf, at, rng.pick(INTERESTING), width);
            }
            3 if elf.len() >= EHDR + PHDR => {
                // Segment placement and sizes: out of RAM, overlapping, huge.
                let field = rng.pick(&[8usize, 16, 24, 32, 40]);
                let value = match rng.below(3) {
                    0 => rng.pick(INTERESTING),
                    1 => RAM_BASE + rng.below(0x4000),
                    _ => rng.next(),
                };
                put(elf, EHDR + field, value, 8);
            }
            4 if elf.len() >= 64 => put(elf, 56, rng.below(70), 2), // e_phnum
            5 => {
                let junk = rng.below(256) as usize;
                elf.extend(rng.bytes(junk));
            }
            _ if elf.len() >= 32 => put(elf, 24, rng.pick(INTERESTING), 8), // e_entry
            _ => {}
        }
    }
}

fn loader_case(seed: u64) -> Case {
    let mut rng = Rng::new(seed);
    let elf = match rng.below(8) {
        0 => {
            let len = rng.below(512) as usize;
            let mut bytes = rng.bytes(len);
            if rng.chance(2) && bytes.len() >= 4 {
                bytes[..4].copy_from_slice(b"\x7fELF");
            }
            bytes
        }
        _ => {
            let mut elf = seed_elf(&mut rng);
            mutate(&mut rng, &mut elf);
            elf
        }
    };
    Case {
        kind: Kind::Loader,
        seed,
        elf,
        regs: Vec::new(),
        harts: 1,
        cache: false,
    }
}

fn execution_case(seed: u64) -> Case {
    let mut rng = Rng::new(seed);
    let machine_mode = rng.chance(2);
    let base = if machine_mode { RAM_BASE } else { S_ENTRY };
    // Most cases start with a prologue (trap vectors, CSR state) padded with nops to a fixed
    // size; the others have random code right at the entry.
    let prologue_len = if rng.chance(4) { 0 } else { 64 * 4 };
    let mut words = Vec::new();
    if prologue_len > 0 {
        words = prologue(&mut rng, machine_mode, base + prologue_len as u64);
    }
    words.resize(prologue_len / 4, 0x0000_0013); // nop
    let mut code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let body_len = 64 + rng.below(2048) as usize;
    match rng.below(3) {
        0 => code.extend(rng.bytes(body_len)),
        _ => {
            while code.len() < prologue_len + body_len {
                if rng.chance(8) {
                    code.extend(rng.bytes(4));
                } else {
                    valid_instruction(&mut rng, &mut code);
                }
            }
        }
    }
    let memsz = (code.len() as u64 + 0x1fff) & !0xfff;
    let tohost = (machine_mode && rng.chance(2)).then_some(base + memsz - 16);
    let elf = build_elf(
        base,
        &[Segment {
            vaddr: base,
            data: code,
            memsz,
            flags: 7,
        }],
        tohost,
    );
    let regs = (1..32)
        .map(|r| {
            let value = match rng.below(4) {
                0 => rng.pick(INTERESTING),
                1 => RAM_BASE + rng.below(FUZZ_RAM + 0x100),
                2 => {
                    rng.pick(&[
                        0x0200_0000u64,
                        0x0200_4000,
                        0x0200_bff8,
                        0x1000_0000,
                        0x1020_0000,
                        0x0010_0000,
                    ]) + rng.below(0x20)
                }
                _ => rng.next(),
            };
            (r, value)
        })
        .collect();
    Case {
        kind: Kind::Execution,
        seed,
        elf,
        regs,
        harts: 1 + rng.below(2) as usize,
        cache: rng.chance(2),
    }
}

/// The case `seed` stands for: even seeds fuzz the loader, odd ones execution.
pub fn generate(seed: u64) -> Case {
    if seed.is_multiple_of(2) {
        loader_case(seed)
    } else {
        execution_case(seed)
    }
}

// ---- running -------------------------------------------------------------------------

/// How one case ended (a panic is not an outcome: it is reported as a crash).
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Rejected,
    Budget,
    Exit,
    Fault(String),
}

/// Runs one case; `Err` carries the panic message, or says the budget did not bound the run.
pub fn run_case(case: &Case) -> Result<Outcome, String> {
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        let config = Config {
            harts: case.harts,
            ram_bytes: FUZZ_RAM,
            cache: if case.cache {
                FUZZ_CACHE
            } else {
                CacheConfig::default()
            },
            ..Config::default()
        };
        let Ok(mut machine) = Machine::new(config, &case.elf) else {
            return Ok(Outcome::Rejected);
        };
        for &(reg, value) in &case.regs {
            machine.set_reg(0, reg, value);
        }
        let before = machine.instret();
        let stop = machine.run(BUDGET);
        let ran = machine.instret() - before;
        // "At most ~budget": allow one block's overshoot.
        if ran > BUDGET + 4096 {
            return Err(format!("ran {ran} instructions on a budget of {BUDGET}"));
        }
        machine.take_console();
        machine.take_trace();
        Ok(match stop {
            Stop::Budget => Outcome::Budget,
            Stop::Exit(_) => Outcome::Exit,
            // Formatting a fault must not panic either.
            Stop::Fault(fault) => Outcome::Fault(format!("{fault}")),
        })
    }));
    result.unwrap_or_else(|payload| Err(panic_message(payload.as_ref())))
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        format!("panic: {s}")
    } else if let Some(s) = payload.downcast_ref::<String>() {
        format!("panic: {s}")
    } else {
        "panic with a non-string payload".to_owned()
    }
}

/// A case that panicked, broke its budget, or never returned.
#[derive(Debug)]
pub struct Crash {
    pub seed: u64,
    pub kind: Kind,
    pub message: String,
}

/// What a fuzz run did.
#[derive(Debug, Default)]
pub struct Summary {
    pub cases: u64,
    pub rejected: u64,
    pub budget: u64,
    pub exit: u64,
    pub fault: u64,
    pub crashes: Vec<Crash>,
    /// Set when a case did not return within the hang timeout; the run stops there.
    pub hang: Option<Crash>,
}

enum Event {
    Started(u64),
    Finished(u64, Kind, Result<Outcome, String>),
}

/// Runs `iterations` cases of the run seeded with `seed` on a worker thread, calling
/// `progress` now and then; a case that runs longer than `hang_after` ends the run as a hang.
pub fn fuzz(
    seed: u64,
    iterations: u64,
    hang_after: Duration,
    mut progress: impl FnMut(&Summary),
) -> Summary {
    let (tx, rx) = mpsc::channel();
    // Panics are caught and reported per case; the default hook would only add noise.
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let worker = thread::spawn(move || {
        for index in 0..iterations {
            let seed = case_seed(seed, index);
            if tx.send(Event::Started(seed)).is_err() {
                return;
            }
            let case = generate(seed);
            let result = run_case(&case);
            if tx.send(Event::Finished(seed, case.kind, result)).is_err() {
                return;
            }
        }
    });
    let mut summary = Summary::default();
    let mut current = None;
    loop {
        match rx.recv_timeout(hang_after) {
            Ok(Event::Started(seed)) => current = Some(seed),
            Ok(Event::Finished(seed, kind, result)) => {
                summary.cases += 1;
                match result {
                    Ok(Outcome::Rejected) => summary.rejected += 1,
                    Ok(Outcome::Budget) => summary.budget += 1,
                    Ok(Outcome::Exit) => summary.exit += 1,
                    Ok(Outcome::Fault(_)) => summary.fault += 1,
                    Err(message) => summary.crashes.push(Crash {
                        seed,
                        kind,
                        message,
                    }),
                }
                if summary.cases % 10_000 == 0 {
                    progress(&summary);
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let _ = worker.join();
                break;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                // The worker is stuck in one case: leave it running, report it and stop.
                if let Some(seed) = current {
                    let message = format!("no return after {} s", hang_after.as_secs());
                    summary.hang = Some(Crash {
                        seed,
                        kind: generate(seed).kind,
                        message,
                    });
                }
                break;
            }
        }
    }
    panic::set_hook(hook);
    summary
}
