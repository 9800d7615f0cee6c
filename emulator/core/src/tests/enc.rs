//! A test-only RISC-V encoder and a tiny assembler, so tests build programs by hand.

use alloc::vec::Vec;

pub fn r(opcode: u32, rd: u32, f3: u32, rs1: u32, rs2: u32, f7: u32) -> u32 {
    (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | opcode
}
pub fn i(opcode: u32, rd: u32, f3: u32, rs1: u32, imm: i32) -> u32 {
    ((imm as u32 & 0xfff) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | opcode
}
pub fn s(opcode: u32, f3: u32, rs1: u32, rs2: u32, imm: i32) -> u32 {
    let imm = imm as u32;
    (((imm >> 5) & 0x7f) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((imm & 0x1f) << 7) | opcode
}
pub fn b(f3: u32, rs1: u32, rs2: u32, off: i32) -> u32 {
    let o = off as u32;
    (((o >> 12) & 1) << 31) | (((o >> 5) & 0x3f) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12)
        | (((o >> 1) & 0xf) << 8) | (((o >> 11) & 1) << 7) | 0x63
}
pub fn u(opcode: u32, rd: u32, imm: u32) -> u32 {
    (imm & 0xffff_f000) | (rd << 7) | opcode
}
pub fn j(rd: u32, off: i32) -> u32 {
    let o = off as u32;
    (((o >> 20) & 1) << 31) | (((o >> 1) & 0x3ff) << 21) | (((o >> 11) & 1) << 20) | (((o >> 12) & 0xff) << 12) | (rd << 7) | 0x6f
}

pub fn addi(rd: u32, rs1: u32, imm: i32) -> u32 { i(0x13, rd, 0, rs1, imm) }
pub fn addiw(rd: u32, rs1: u32, imm: i32) -> u32 { i(0x1b, rd, 0, rs1, imm) }
pub fn slli(rd: u32, rs1: u32, sh: i32) -> u32 { i(0x13, rd, 1, rs1, sh) }
pub fn add(rd: u32, rs1: u32, rs2: u32) -> u32 { r(0x33, rd, 0, rs1, rs2, 0) }
pub fn sub(rd: u32, rs1: u32, rs2: u32) -> u32 { r(0x33, rd, 0, rs1, rs2, 0x20) }
pub fn lui(rd: u32, imm: u32) -> u32 { u(0x37, rd, imm) }
pub fn auipc(rd: u32, imm: u32) -> u32 { u(0x17, rd, imm) }
pub fn ld(rd: u32, rs1: u32, off: i32) -> u32 { i(0x03, rd, 3, rs1, off) }
pub fn lw(rd: u32, rs1: u32, off: i32) -> u32 { i(0x03, rd, 2, rs1, off) }
pub fn lbu(rd: u32, rs1: u32, off: i32) -> u32 { i(0x03, rd, 4, rs1, off) }
pub fn sd(rs2: u32, rs1: u32, off: i32) -> u32 { s(0x23, 3, rs1, rs2, off) }
pub fn sw(rs2: u32, rs1: u32, off: i32) -> u32 { s(0x23, 2, rs1, rs2, off) }
pub fn sb(rs2: u32, rs1: u32, off: i32) -> u32 { s(0x23, 0, rs1, rs2, off) }
pub fn beq(rs1: u32, rs2: u32, off: i32) -> u32 { b(0, rs1, rs2, off) }
pub fn bne(rs1: u32, rs2: u32, off: i32) -> u32 { b(1, rs1, rs2, off) }
pub fn jal(rd: u32, off: i32) -> u32 { j(rd, off) }
pub fn jalr(rd: u32, rs1: u32, off: i32) -> u32 { i(0x67, rd, 0, rs1, off) }
pub fn csrrw(rd: u32, csr: u32, rs1: u32) -> u32 { i(0x73, rd, 1, rs1, csr as i32) }
pub fn csrrs(rd: u32, csr: u32, rs1: u32) -> u32 { i(0x73, rd, 2, rs1, csr as i32) }
pub fn csrrsi(rd: u32, csr: u32, uimm: u32) -> u32 { i(0x73, rd, 6, uimm, csr as i32) }
pub const ECALL: u32 = 0x0000_0073;
pub const EBREAK: u32 = 0x0010_0073;
pub const MRET: u32 = 0x3020_0073;
pub const SRET: u32 = 0x1020_0073;
pub const WFI: u32 = 0x1050_0073;
pub const FENCE_I: u32 = 0x0000_100f;
pub fn sfence_vma(rs1: u32, rs2: u32) -> u32 { r(0x73, 0, 0, rs1, rs2, 0x09) }
pub fn amo(funct5: u32, f3: u32, rd: u32, rs1: u32, rs2: u32) -> u32 { r(0x2f, rd, f3, rs1, rs2, funct5 << 2) }

/// Register names used in tests.
pub const ZERO: u32 = 0;
pub const RA: u32 = 1;
pub const SP: u32 = 2;
pub const T0: u32 = 5;
pub const T1: u32 = 6;
pub const T2: u32 = 7;
pub const A0: u32 = 10;
pub const A1: u32 = 11;
pub const A2: u32 = 12;
pub const A6: u32 = 16;
pub const A7: u32 = 17;
pub const S0: u32 = 8;
pub const S1: u32 = 9;
pub const S2: u32 = 18;
pub const S3: u32 = 19;
pub const S4: u32 = 20;
pub const S5: u32 = 21;

/// Emits instructions; positions are byte offsets from the program's start.
#[derive(Default)]
pub struct Asm {
    pub bytes: Vec<u8>,
}

impl Asm {
    pub fn here(&self) -> i32 {
        self.bytes.len() as i32
    }
    pub fn emit(&mut self, insn: u32) -> &mut Self {
        self.bytes.extend_from_slice(&insn.to_le_bytes());
        self
    }
    pub fn emit16(&mut self, insn: u16) -> &mut Self {
        self.bytes.extend_from_slice(&insn.to_le_bytes());
        self
    }
    pub fn all(&mut self, insns: &[u32]) -> &mut Self {
        insns.iter().for_each(|&x| {
            self.emit(x);
        });
        self
    }
    /// Loads any 64-bit constant.
    pub fn li(&mut self, rd: u32, value: i64) -> &mut Self {
        if value == value as i32 as i64 {
            let lo = (value << 52) >> 52;
            let hi = (value - lo) as u32;
            if hi != 0 {
                self.emit(lui(rd, hi));
                self.emit(addiw(rd, rd, lo as i32))
            } else {
                self.emit(addi(rd, ZERO, lo as i32))
            }
        } else {
            let lo = (value << 52) >> 52;
            self.li(rd, (value - lo) >> 12);
            self.emit(slli(rd, rd, 12));
            self.emit(addi(rd, rd, lo as i32))
        }
    }
    /// Placeholder for a branch or jump patched by [`Asm::patch`].
    pub fn hole(&mut self) -> i32 {
        let at = self.here();
        self.emit(0);
        at
    }
    pub fn patch(&mut self, at: i32, insn: u32) {
        self.bytes[at as usize..at as usize + 4].copy_from_slice(&insn.to_le_bytes());
    }
    /// Prints `text` on the UART (clobbers t0, t1).
    pub fn print(&mut self, text: &str) -> &mut Self {
        self.li(T0, 0x1000_0000);
        for &c in text.as_bytes() {
            self.emit(addi(T1, ZERO, c as i32));
            self.emit(sb(T1, T0, 0));
        }
        self
    }
    /// Exits through the SiFive test finisher with `code` (clobbers t0, t1).
    pub fn exit(&mut self, code: u32) -> &mut Self {
        self.li(T0, 0x10_0000);
        self.li(T1, ((code << 16) | 0x3333) as i64);
        self.emit(sw(T1, T0, 0))
    }
}

/// Builds an ELF64 RISC-V executable: one RWX segment holding `code` at `base`, an entry at
/// `base + entry_offset`, and optionally `tohost`/`fromhost` symbols.
pub fn elf(base: u64, code: &[u8], entry_offset: u64, symbols: &[(&str, u64)]) -> Vec<u8> {
    let mut f = Vec::new();
    let ph_off = 64u64;
    let code_off = 0x1000u64;
    // Header.
    f.extend_from_slice(b"\x7fELF\x02\x01\x01\x00");
    f.extend_from_slice(&[0; 8]);
    f.extend_from_slice(&2u16.to_le_bytes());
    f.extend_from_slice(&243u16.to_le_bytes());
    f.extend_from_slice(&1u32.to_le_bytes());
    f.extend_from_slice(&(base + entry_offset).to_le_bytes());
    f.extend_from_slice(&ph_off.to_le_bytes());
    f.extend_from_slice(&0u64.to_le_bytes()); // shoff, patched below
    f.extend_from_slice(&0u32.to_le_bytes());
    f.extend_from_slice(&64u16.to_le_bytes());
    f.extend_from_slice(&56u16.to_le_bytes());
    f.extend_from_slice(&1u16.to_le_bytes());
    f.extend_from_slice(&64u16.to_le_bytes());
    f.extend_from_slice(&0u16.to_le_bytes()); // shnum, patched below
    f.extend_from_slice(&0u16.to_le_bytes());
    // Program header.
    f.extend_from_slice(&1u32.to_le_bytes());
    f.extend_from_slice(&7u32.to_le_bytes());
    f.extend_from_slice(&code_off.to_le_bytes());
    f.extend_from_slice(&base.to_le_bytes());
    f.extend_from_slice(&base.to_le_bytes());
    f.extend_from_slice(&(code.len() as u64).to_le_bytes());
    f.extend_from_slice(&((code.len() as u64).max(0x2000)).to_le_bytes());
    f.extend_from_slice(&0x1000u64.to_le_bytes());
    f.resize(code_off as usize, 0);
    f.extend_from_slice(code);
    if symbols.is_empty() {
        return f;
    }
    // .strtab and .symtab, then three section headers (null, symtab, strtab).
    let mut strtab = alloc::vec![0u8];
    let mut symtab = alloc::vec![0u8; 24];
    for (name, value) in symbols {
        let name_off = strtab.len() as u32;
        strtab.extend_from_slice(name.as_bytes());
        strtab.push(0);
        symtab.extend_from_slice(&name_off.to_le_bytes());
        symtab.extend_from_slice(&[0x11, 0, 1, 0]);
        symtab.extend_from_slice(&value.to_le_bytes());
        symtab.extend_from_slice(&8u64.to_le_bytes());
    }
    let strtab_off = f.len() as u64;
    f.extend_from_slice(&strtab);
    while f.len() % 8 != 0 {
        f.push(0);
    }
    let symtab_off = f.len() as u64;
    f.extend_from_slice(&symtab);
    let sh_off = f.len() as u64;
    let section = |f: &mut Vec<u8>, kind: u32, off: u64, size: u64, link: u32, entsize: u64| {
        f.extend_from_slice(&0u32.to_le_bytes());
        f.extend_from_slice(&kind.to_le_bytes());
        f.extend_from_slice(&[0; 16]); // flags, addr
        f.extend_from_slice(&off.to_le_bytes());
        f.extend_from_slice(&size.to_le_bytes());
        f.extend_from_slice(&link.to_le_bytes());
        f.extend_from_slice(&0u32.to_le_bytes());
        f.extend_from_slice(&8u64.to_le_bytes());
        f.extend_from_slice(&entsize.to_le_bytes());
    };
    section(&mut f, 0, 0, 0, 0, 0);
    section(&mut f, 2, symtab_off, symtab.len() as u64, 2, 24);
    section(&mut f, 3, strtab_off, strtab.len() as u64, 0, 0);
    f[40..48].copy_from_slice(&sh_off.to_le_bytes());
    f[60..62].copy_from_slice(&3u16.to_le_bytes());
    f
}

impl Asm {
    /// Loads the address of byte `target` of this program (within ±2 KiB), given the program's
    /// base address is where it runs from.
    pub fn la(&mut self, rd: u32, target: i32) -> &mut Self {
        let delta = target - self.here();
        self.emit(auipc(rd, 0));
        self.emit(addi(rd, rd, delta))
    }
    /// Pads with zeros up to byte `offset`.
    pub fn at(&mut self, offset: usize) -> &mut Self {
        assert!(self.bytes.len() <= offset, "code overran {offset:#x}");
        self.bytes.resize(offset, 0);
        self
    }
}
