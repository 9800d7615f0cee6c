//! Decoder tests: 32-bit forms against hand-built ops, and every compressed form against the
//! decoding of the 32-bit instruction it expands to.

use super::enc::*;
use crate::decode::{decode16, decode32, Kind, Op, ZERO_SINK};

fn op(kind: Kind, rd: u32, rs1: u32, rs2: u32, imm: i32) -> Op {
    Op::new(kind, rd, rs1, rs2, imm, 4)
}

/// The op a compressed instruction must produce: its expansion, 2 bytes long.
fn expands_to(c: u16, full: u32) {
    let mut want = decode32(full);
    want.len = 2;
    assert_eq!(decode16(c), want, "c = {c:#06x}, expansion {full:#010x}");
}

#[test]
fn base_forms() {
    assert_eq!(decode32(addi(A0, A1, -5)), op(Kind::Addi, A0, A1, 0, -5));
    assert_eq!(decode32(lui(T0, 0xfffff000)), op(Kind::Lui, T0, 0, 0, 0xfffff000u32 as i32));
    assert_eq!(decode32(jal(RA, -2048)).imm, -2048);
    assert_eq!(decode32(jal(RA, 0xffffe)).imm, 0xffffe);
    assert_eq!(decode32(beq(A0, A1, -4096)).imm, -4096);
    assert_eq!(decode32(bne(A0, A1, 4094)).imm, 4094);
    assert_eq!(decode32(sd(A1, SP, -8)), op(Kind::Sd, 0, SP, A1, -8));
    assert_eq!(decode32(slli(A0, A0, 63)), op(Kind::Slli, A0, A0, 0, 63));
    assert_eq!(decode32(r(0x13, A0, 5, A0, 3, 0x20)).kind, Kind::Srai, "srai with shamt bit 5 clear");
    assert_eq!(decode32(i(0x13, A0, 5, A0, 0x400 | 33)).kind, Kind::Srai);
    assert_eq!(decode32(r(0x33, A0, 0, A1, A2, 1)).kind, Kind::Mul);
    assert_eq!(decode32(r(0x3b, A0, 7, A1, A2, 1)).kind, Kind::Remuw);
    assert_eq!(decode32(csrrw(A0, 0x305, A1)), op(Kind::Csrrw, A0, A1, 0, 0x305));
    assert_eq!(decode32(csrrsi(0, 0x300, 8)).rd, ZERO_SINK, "writes to x0 go to the sink");
    assert_eq!(decode32(ECALL).kind, Kind::Ecall);
    assert_eq!(decode32(EBREAK).kind, Kind::Ebreak);
    assert_eq!(decode32(MRET).kind, Kind::Mret);
    assert_eq!(decode32(SRET).kind, Kind::Sret);
    assert_eq!(decode32(WFI).kind, Kind::Wfi);
    assert_eq!(decode32(FENCE_I).kind, Kind::FenceI);
    assert_eq!(decode32(sfence_vma(A0, A1)).kind, Kind::SfenceVma);
    assert_eq!(decode32(amo(0b00010, 3, A0, A1, 0)).kind, Kind::LrD);
    assert_eq!(decode32(amo(0b00011, 2, A0, A1, A2)).kind, Kind::ScW);
    assert_eq!(decode32(amo(0b11100, 3, A0, A1, A2)).kind, Kind::AmoMaxuD);
    assert_eq!(decode32(amo(0b00000, 2, A0, A1, A2)).kind, Kind::AmoAddW);
}

#[test]
fn illegal_forms_keep_their_bits() {
    for bits in [
        0x0000_0007u32,          // FLW: no F extension
        0x0000_0053,             // OP-FP
        amo(0b00010, 3, A0, A1, 1), // LR with rs2 != 0
        amo(0b00001, 4, A0, A1, 2), // AMO of 16 bytes
        r(0x33, A0, 0, A1, A2, 2),  // unknown funct7
        0x3020_0073 | (1 << 7),     // MRET with rd != 0
        0xffff_ffff,
    ] {
        let o = decode32(bits);
        assert_eq!((o.kind, o.imm as u32, o.len), (Kind::Illegal, bits, 4), "{bits:#x}");
    }
    for bits in [0x0000u16, 0x2000 /* c.fld */, 0x8000 /* reserved */, 0x6002 /* c.ldsp x0 */, 0x9c41 | 0x20 /* reserved ALU */] {
        let o = decode16(bits);
        assert_eq!((o.kind, o.imm as u32, o.len), (Kind::Illegal, bits as u32, 2), "{bits:#x}");
    }
}

// Compressed encoders, one per format (register fields are x8..x15 where primed).
fn ciw(f3: u16, rd_p: u32, nzuimm: u32) -> u16 {
    let u = nzuimm;
    (f3 << 13) | ((((u >> 4) & 3) << 11) | (((u >> 6) & 0xf) << 7) | (((u >> 2) & 1) << 6) | (((u >> 3) & 1) << 5)) as u16 | (((rd_p - 8) << 2) as u16)
}
fn cl_w(f3: u16, rd_p: u32, rs1_p: u32, off: u32) -> u16 {
    (f3 << 13) | ((((off >> 3) & 7) << 10) | (((off >> 2) & 1) << 6) | (((off >> 6) & 1) << 5)) as u16 | (((rs1_p - 8) << 7) | ((rd_p - 8) << 2)) as u16
}
fn cl_d(f3: u16, rd_p: u32, rs1_p: u32, off: u32) -> u16 {
    (f3 << 13) | ((((off >> 3) & 7) << 10) | (((off >> 6) & 3) << 5)) as u16 | (((rs1_p - 8) << 7) | ((rd_p - 8) << 2)) as u16
}
fn ci(f3: u16, quadrant: u16, rd: u32, imm6: i32) -> u16 {
    let u = imm6 as u32;
    (f3 << 13) | ((((u >> 5) & 1) << 12) | (rd << 7) | ((u & 0x1f) << 2)) as u16 | quadrant
}
fn ca(f6: u16, rd_p: u32, f2: u16, rs2_p: u32) -> u16 {
    (f6 << 10) | (((rd_p - 8) << 7) as u16) | (f2 << 5) | (((rs2_p - 8) << 2) as u16) | 1
}
fn cb_alu(f2: u16, rd_p: u32, imm6: i32) -> u16 {
    let u = imm6 as u32;
    (0b100 << 13) | ((((u >> 5) & 1) << 12) as u16) | (f2 << 10) | (((rd_p - 8) << 7) as u16) | (((u & 0x1f) << 2) as u16) | 1
}
fn cj(off: i32) -> u16 {
    let o = off as u32;
    let bits = (((o >> 11) & 1) << 12) | (((o >> 4) & 1) << 11) | (((o >> 8) & 3) << 9) | (((o >> 10) & 1) << 8)
        | (((o >> 6) & 1) << 7) | (((o >> 7) & 1) << 6) | (((o >> 1) & 7) << 3) | (((o >> 5) & 1) << 2);
    (0b101 << 13) | bits as u16 | 1
}
fn cbranch(f3: u16, rs1_p: u32, off: i32) -> u16 {
    let o = off as u32;
    let bits = (((o >> 8) & 1) << 12) | (((o >> 3) & 3) << 10) | (((o >> 6) & 3) << 5) | (((o >> 1) & 3) << 3) | (((o >> 5) & 1) << 2);
    (f3 << 13) | bits as u16 | (((rs1_p - 8) << 7) as u16) | 1
}
fn cr(f4: u16, rd: u32, rs2: u32) -> u16 {
    (f4 << 12) | ((rd << 7) as u16) | ((rs2 << 2) as u16) | 2
}

#[test]
fn every_compressed_form_expands_like_its_32_bit_instruction() {
    // Quadrant 0.
    expands_to(ciw(0, 9, 1020), addi(9, SP, 1020)); // c.addi4spn
    expands_to(ciw(0, 15, 4), addi(15, SP, 4));
    expands_to(cl_w(2, 10, 11, 124), lw(10, 11, 124)); // c.lw
    expands_to(cl_d(3, 12, 13, 248), ld(12, 13, 248)); // c.ld
    expands_to(cl_w(6, 10, 11, 64), sw(10, 11, 64)); // c.sw (rs2' in the rd' field)
    expands_to(cl_d(7, 14, 8, 8), sd(14, 8, 8)); // c.sd
    // Quadrant 1.
    expands_to(ci(0, 1, A0, -32), addi(A0, A0, -32)); // c.addi
    expands_to(ci(0, 1, 0, 0), addi(0, 0, 0)); // c.nop
    expands_to(ci(1, 1, A0, 31), addiw(A0, A0, 31)); // c.addiw
    expands_to(ci(2, 1, A1, -1), addi(A1, 0, -1)); // c.li
    let addi16sp = (0b011 << 13) | (1 << 12) | (2 << 7) | (0b11 << 3) | (1 << 5) | 1; // -512+... offset
    let imm = -512 + 0x180 + 0x40; // instruction bits 12, 4:3, 5 are imm bits 9 (sign), 8:7, 6
    expands_to(addi16sp, addi(SP, SP, imm));
    expands_to(ci(3, 1, T0, -1), lui(T0, 0xffff_f000)); // c.lui
    expands_to(ci(3, 1, T0, 1), lui(T0, 0x1000));
    expands_to(cb_alu(0, 8, 63), i(0x13, 8, 5, 8, 63)); // c.srli
    expands_to(cb_alu(1, 9, 1), i(0x13, 9, 5, 9, 0x400 | 1)); // c.srai
    expands_to(cb_alu(2, 10, -3), i(0x13, 10, 7, 10, -3)); // c.andi
    expands_to(ca(0b100011, 8, 0, 9), sub(8, 8, 9)); // c.sub
    expands_to(ca(0b100011, 8, 1, 9), r(0x33, 8, 4, 8, 9, 0)); // c.xor
    expands_to(ca(0b100011, 8, 2, 9), r(0x33, 8, 6, 8, 9, 0)); // c.or
    expands_to(ca(0b100011, 8, 3, 9), r(0x33, 8, 7, 8, 9, 0)); // c.and
    expands_to(ca(0b100111, 10, 0, 11), r(0x3b, 10, 0, 10, 11, 0x20)); // c.subw
    expands_to(ca(0b100111, 10, 1, 11), r(0x3b, 10, 0, 10, 11, 0)); // c.addw
    expands_to(cj(-2048), jal(0, -2048)); // c.j
    expands_to(cj(2046), jal(0, 2046));
    expands_to(cj(0x2aa), jal(0, 0x2aa));
    expands_to(cbranch(6, 8, -256), beq(8, 0, -256)); // c.beqz
    expands_to(cbranch(7, 15, 254), bne(15, 0, 254)); // c.bnez
    expands_to(cbranch(7, 9, 0x56), bne(9, 0, 0x56));
    // Quadrant 2.
    expands_to(ci(0, 2, A0, 63), slli(A0, A0, 63)); // c.slli
    let lwsp = (0b010 << 13) | (1 << 12) | (A0 << 7) as u16 | (0b111 << 4) | (0b11 << 2) | 2; // offset 0xfc
    expands_to(lwsp, lw(A0, SP, 0xfc));
    let ldsp = (0b011 << 13) | (1 << 12) | (A0 << 7) as u16 | (0b11 << 5) | (0b111 << 2) | 2; // offset 0x1f8
    expands_to(ldsp, ld(A0, SP, 0x1f8));
    expands_to(cr(0b1000, A0, 0), jalr(0, A0, 0)); // c.jr
    expands_to(cr(0b1000, A0, A1), add(A0, 0, A1)); // c.mv
    expands_to(cr(0b1001, 0, 0), EBREAK); // c.ebreak
    expands_to(cr(0b1001, A0, 0), jalr(RA, A0, 0)); // c.jalr
    expands_to(cr(0b1001, A0, A1), add(A0, A0, A1)); // c.add
    let swsp = (0b110 << 13) | (0b1111 << 9) | (0b11 << 7) | (A1 << 2) as u16 | 2; // offset 0xfc
    expands_to(swsp, sw(A1, SP, 0xfc));
    let sdsp = (0b111 << 13) | (0b111 << 10) | (0b111 << 7) | (A1 << 2) as u16 | 2; // offset 0x1f8
    expands_to(sdsp, sd(A1, SP, 0x1f8));
}
