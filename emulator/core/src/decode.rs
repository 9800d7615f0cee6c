//! Decoding: each 16- or 32-bit instruction becomes one compact [`Op`] record, once.
//!
//! Compressed instructions are expanded to the operation they stand for, immediates are
//! sign-extended here, and a write to `x0` is redirected to the scratch register
//! [`ZERO_SINK`] so the interpreter never tests for `rd == 0`.

/// Register index that absorbs writes to `x0` (the register file has 256 slots, so a `u8`
/// index never needs a bounds check).
pub const ZERO_SINK: u8 = 32;

/// What an op does. `Undecoded` marks a cache slot not decoded yet; `Straddle` a 32-bit
/// instruction whose upper half lies on the next page, so it cannot be cached; `PageEnd` the
/// sentinel past a page's last slot (not an instruction: the block continues on the next page);
/// `Compiled` the entry of a compiled region (`jit`), its `imm` the region's index in the page.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Kind {
    Undecoded,
    Straddle,
    PageEnd,
    Compiled,
    Illegal,
    Lui, Auipc, Jal, Jalr,
    Beq, Bne, Blt, Bge, Bltu, Bgeu,
    Lb, Lh, Lw, Ld, Lbu, Lhu, Lwu,
    Sb, Sh, Sw, Sd,
    Addi, Slti, Sltiu, Xori, Ori, Andi, Slli, Srli, Srai,
    Add, Sub, Sll, Slt, Sltu, Xor, Srl, Sra, Or, And,
    Addiw, Slliw, Srliw, Sraiw, Addw, Subw, Sllw, Srlw, Sraw,
    Mul, Mulh, Mulhsu, Mulhu, Div, Divu, Rem, Remu,
    Mulw, Divw, Divuw, Remw, Remuw,
    LrW, ScW, AmoSwapW, AmoAddW, AmoXorW, AmoAndW, AmoOrW, AmoMinW, AmoMaxW, AmoMinuW, AmoMaxuW,
    LrD, ScD, AmoSwapD, AmoAddD, AmoXorD, AmoAndD, AmoOrD, AmoMinD, AmoMaxD, AmoMinuD, AmoMaxuD,
    Fence, FenceI, Ecall, Ebreak, Mret, Sret, Wfi, SfenceVma,
    Csrrw, Csrrs, Csrrc, Csrrwi, Csrrsi, Csrrci,
}

/// One decoded instruction (12 bytes). `imm` holds the immediate, shift amount, CSR number,
/// or for `Illegal` the raw instruction bits (reported in `mtval`). In the code cache, direct
/// jumps and branches hold their target's page offset instead (`code::place`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Op {
    pub kind: Kind,
    pub rd: u8,
    pub rs1: u8,
    pub rs2: u8,
    pub imm: i32,
    /// Instruction length in bytes: 2 or 4.
    pub len: u8,
    /// In the code cache, the slot of the instruction that follows (`code::place`); 0 here.
    pub next: u16,
    /// In the code cache, how often a jump has landed here (saturating): at the compiler's `hot` the
    /// slot becomes the entry of a compiled region. It fills what would be padding.
    pub heat: u8,
}

impl Op {
    pub const UNDECODED: Op = Op { kind: Kind::Undecoded, rd: 0, rs1: 0, rs2: 0, imm: 0, len: 2, next: 0, heat: 0 };
    pub const STRADDLE: Op = Op { kind: Kind::Straddle, rd: 0, rs1: 0, rs2: 0, imm: 0, len: 4, next: 0, heat: 0 };
    pub const PAGE_END: Op = Op { kind: Kind::PageEnd, rd: 0, rs1: 0, rs2: 0, imm: 0, len: 0, next: 0, heat: 0 };

    pub fn new(kind: Kind, rd: u32, rs1: u32, rs2: u32, imm: i32, len: u8) -> Op {
        let rd = if rd == 0 { ZERO_SINK } else { rd as u8 };
        Op { kind, rd, rs1: rs1 as u8, rs2: rs2 as u8, imm, len, next: 0, heat: 0 }
    }

    fn illegal(bits: u32, len: u8) -> Op {
        Op::new(Kind::Illegal, 0, 0, 0, bits as i32, len)
    }
}

/// Whether the low halfword starts a 32-bit instruction (otherwise it is compressed).
pub fn is_full_width(low_half: u16) -> bool {
    low_half & 3 == 3
}

/// Sign-extends the low `bits` bits of `value`.
fn sext(value: u32, bits: u32) -> i32 {
    let shift = 32 - bits;
    ((value << shift) as i32) >> shift
}

/// Bits `hi..=lo` of `x`, shifted down.
fn field(x: u32, hi: u32, lo: u32) -> u32 {
    (x >> lo) & ((1 << (hi - lo + 1)) - 1)
}

/// Decodes a 32-bit instruction.
pub fn decode32(x: u32) -> Op {
    use Kind::*;
    let rd = field(x, 11, 7);
    let rs1 = field(x, 19, 15);
    let rs2 = field(x, 24, 20);
    let f3 = field(x, 14, 12);
    let f7 = field(x, 31, 25);
    let i_imm = (x as i32) >> 20;
    let s_imm = ((x as i32) >> 25 << 5) | rd as i32;
    let b_imm = sext((field(x, 31, 31) << 12) | (field(x, 7, 7) << 11) | (field(x, 30, 25) << 5) | (field(x, 11, 8) << 1), 13);
    let j_imm = sext((field(x, 31, 31) << 20) | (field(x, 19, 12) << 12) | (field(x, 20, 20) << 11) | (field(x, 30, 21) << 1), 21);
    // One constructor per format, so fields a format lacks are always zero.
    let op = |kind, imm| Op::new(kind, rd, rs1, 0, imm, 4);
    let op_u = |kind, imm| Op::new(kind, rd, 0, 0, imm, 4);
    let op_s = |kind, imm| Op::new(kind, 0, rs1, rs2, imm, 4);
    let op_r = |kind| Op::new(kind, rd, rs1, rs2, 0, 4);
    let bad = Op::illegal(x, 4);
    match x & 0x7f {
        0x37 => op_u(Lui, (x & 0xffff_f000) as i32),
        0x17 => op_u(Auipc, (x & 0xffff_f000) as i32),
        0x6f => op_u(Jal, j_imm),
        0x67 if f3 == 0 => op(Jalr, i_imm),
        0x63 => match f3 {
            0 => op_s(Beq, b_imm),
            1 => op_s(Bne, b_imm),
            4 => op_s(Blt, b_imm),
            5 => op_s(Bge, b_imm),
            6 => op_s(Bltu, b_imm),
            7 => op_s(Bgeu, b_imm),
            _ => bad,
        },
        0x03 => match f3 {
            0 => op(Lb, i_imm),
            1 => op(Lh, i_imm),
            2 => op(Lw, i_imm),
            3 => op(Ld, i_imm),
            4 => op(Lbu, i_imm),
            5 => op(Lhu, i_imm),
            6 => op(Lwu, i_imm),
            _ => bad,
        },
        0x23 => match f3 {
            0 => op_s(Sb, s_imm),
            1 => op_s(Sh, s_imm),
            2 => op_s(Sw, s_imm),
            3 => op_s(Sd, s_imm),
            _ => bad,
        },
        0x13 => {
            let shamt = field(x, 25, 20) as i32;
            match (f3, x >> 26) {
                (0, _) => op(Addi, i_imm),
                (2, _) => op(Slti, i_imm),
                (3, _) => op(Sltiu, i_imm),
                (4, _) => op(Xori, i_imm),
                (6, _) => op(Ori, i_imm),
                (7, _) => op(Andi, i_imm),
                (1, 0) => op(Slli, shamt),
                (5, 0) => op(Srli, shamt),
                (5, 0x10) => op(Srai, shamt),
                _ => bad,
            }
        }
        0x1b => {
            let shamt = rs2 as i32;
            match (f3, f7) {
                (0, _) => op(Addiw, i_imm),
                (1, 0) => op(Slliw, shamt),
                (5, 0) => op(Srliw, shamt),
                (5, 0x20) => op(Sraiw, shamt),
                _ => bad,
            }
        }
        0x33 => match (f7, f3) {
            (0, 0) => op_r(Add),
            (0x20, 0) => op_r(Sub),
            (0, 1) => op_r(Sll),
            (0, 2) => op_r(Slt),
            (0, 3) => op_r(Sltu),
            (0, 4) => op_r(Xor),
            (0, 5) => op_r(Srl),
            (0x20, 5) => op_r(Sra),
            (0, 6) => op_r(Or),
            (0, 7) => op_r(And),
            (1, 0) => op_r(Mul),
            (1, 1) => op_r(Mulh),
            (1, 2) => op_r(Mulhsu),
            (1, 3) => op_r(Mulhu),
            (1, 4) => op_r(Div),
            (1, 5) => op_r(Divu),
            (1, 6) => op_r(Rem),
            (1, 7) => op_r(Remu),
            _ => bad,
        },
        0x3b => match (f7, f3) {
            (0, 0) => op_r(Addw),
            (0x20, 0) => op_r(Subw),
            (0, 1) => op_r(Sllw),
            (0, 5) => op_r(Srlw),
            (0x20, 5) => op_r(Sraw),
            (1, 0) => op_r(Mulw),
            (1, 4) => op_r(Divw),
            (1, 5) => op_r(Divuw),
            (1, 6) => op_r(Remw),
            (1, 7) => op_r(Remuw),
            _ => bad,
        },
        0x2f => decode_amo(x, rd, rs1, rs2, f3),
        0x0f => match f3 {
            0 => op_u(Fence, 0),
            1 => op_u(FenceI, 0),
            _ => bad,
        },
        0x73 => decode_system(x, rd, rs1, rs2, f3, f7),
        _ => bad,
    }
}

fn decode_amo(x: u32, rd: u32, rs1: u32, rs2: u32, f3: u32) -> Op {
    use Kind::*;
    const WORD: [Kind; 11] = [LrW, ScW, AmoSwapW, AmoAddW, AmoXorW, AmoAndW, AmoOrW, AmoMinW, AmoMaxW, AmoMinuW, AmoMaxuW];
    const DOUBLE: [Kind; 11] = [LrD, ScD, AmoSwapD, AmoAddD, AmoXorD, AmoAndD, AmoOrD, AmoMinD, AmoMaxD, AmoMinuD, AmoMaxuD];
    let table = match f3 {
        2 => &WORD,
        3 => &DOUBLE,
        _ => return Op::illegal(x, 4),
    };
    let slot = match x >> 27 {
        0b00010 if rs2 == 0 => 0,
        0b00011 => 1,
        0b00001 => 2,
        0b00000 => 3,
        0b00100 => 4,
        0b01100 => 5,
        0b01000 => 6,
        0b10000 => 7,
        0b10100 => 8,
        0b11000 => 9,
        0b11100 => 10,
        _ => return Op::illegal(x, 4),
    };
    Op::new(table[slot], rd, rs1, rs2, 0, 4)
}

fn decode_system(x: u32, rd: u32, rs1: u32, rs2: u32, f3: u32, f7: u32) -> Op {
    use Kind::*;
    let csr = (x >> 20) as i32;
    let op = |kind| Op::new(kind, rd, rs1, 0, csr, 4);
    match f3 {
        0 if rd == 0 => match (f7, rs2, rs1) {
            (0, 0, 0) => Op::new(Ecall, 0, 0, 0, 0, 4),
            (0, 1, 0) => Op::new(Ebreak, 0, 0, 0, 0, 4),
            (0x18, 2, 0) => Op::new(Mret, 0, 0, 0, 0, 4),
            (0x08, 2, 0) => Op::new(Sret, 0, 0, 0, 0, 4),
            (0x08, 5, 0) => Op::new(Wfi, 0, 0, 0, 0, 4),
            (0x09, _, _) => Op::new(SfenceVma, 0, rs1, rs2, 0, 4),
            _ => Op::illegal(x, 4),
        },
        1 => op(Csrrw),
        2 => op(Csrrs),
        3 => op(Csrrc),
        5 => op(Csrrwi),
        6 => op(Csrrsi),
        7 => op(Csrrci),
        _ => Op::illegal(x, 4),
    }
}

/// Decodes a compressed instruction (RV64C without the floating-point forms).
pub fn decode16(x: u16) -> Op {
    use Kind::*;
    let x = x as u32;
    let bad = Op::illegal(x, 2);
    let op = |kind, rd: u32, rs1: u32, rs2: u32, imm: i32| Op::new(kind, rd, rs1, rs2, imm, 2);
    let f3 = field(x, 15, 13);
    let rd = field(x, 11, 7);
    let rs2 = field(x, 6, 2);
    let rd_p = field(x, 4, 2) + 8; // rd' / rs2'
    let rs1_p = field(x, 9, 7) + 8;
    let ci_imm = sext((field(x, 12, 12) << 5) | field(x, 6, 2), 6);
    let shamt = ((field(x, 12, 12) << 5) | field(x, 6, 2)) as i32;
    let lw_off = ((field(x, 12, 10) << 3) | (field(x, 6, 6) << 2) | (field(x, 5, 5) << 6)) as i32;
    let ld_off = ((field(x, 12, 10) << 3) | (field(x, 6, 5) << 6)) as i32;
    match (x & 3, f3) {
        (0, 0) => {
            let imm = (field(x, 12, 11) << 4) | (field(x, 10, 7) << 6) | (field(x, 6, 6) << 2) | (field(x, 5, 5) << 3);
            if imm == 0 { bad } else { op(Addi, rd_p, 2, 0, imm as i32) }
        }
        (0, 2) => op(Lw, rd_p, rs1_p, 0, lw_off),
        (0, 3) => op(Ld, rd_p, rs1_p, 0, ld_off),
        (0, 6) => op(Sw, 0, rs1_p, rd_p, lw_off),
        (0, 7) => op(Sd, 0, rs1_p, rd_p, ld_off),
        (1, 0) => op(Addi, rd, rd, 0, ci_imm),
        (1, 1) => if rd == 0 { bad } else { op(Addiw, rd, rd, 0, ci_imm) },
        (1, 2) => op(Addi, rd, 0, 0, ci_imm),
        (1, 3) if rd == 2 => {
            let imm = sext(
                (field(x, 12, 12) << 9) | (field(x, 6, 6) << 4) | (field(x, 5, 5) << 6) | (field(x, 4, 3) << 7) | (field(x, 2, 2) << 5),
                10,
            );
            if imm == 0 { bad } else { op(Addi, 2, 2, 0, imm) }
        }
        (1, 3) => if ci_imm == 0 { bad } else { op(Lui, rd, 0, 0, ci_imm << 12) },
        (1, 4) => {
            let rd = rs1_p;
            match (field(x, 11, 10), field(x, 12, 12), field(x, 6, 5)) {
                (0, _, _) => op(Srli, rd, rd, 0, shamt),
                (1, _, _) => op(Srai, rd, rd, 0, shamt),
                (2, _, _) => op(Andi, rd, rd, 0, ci_imm),
                (3, 0, f) => op([Sub, Xor, Or, And][f as usize], rd, rd, rd_p, 0),
                (3, 1, 0) => op(Subw, rd, rd, rd_p, 0),
                (3, 1, 1) => op(Addw, rd, rd, rd_p, 0),
                _ => bad,
            }
        }
        (1, 5) => {
            let imm = (field(x, 12, 12) << 11) | (field(x, 11, 11) << 4) | (field(x, 10, 9) << 8) | (field(x, 8, 8) << 10)
                | (field(x, 7, 7) << 6) | (field(x, 6, 6) << 7) | (field(x, 5, 3) << 1) | (field(x, 2, 2) << 5);
            op(Jal, 0, 0, 0, sext(imm, 12))
        }
        (1, 6) | (1, 7) => {
            let imm = (field(x, 12, 12) << 8) | (field(x, 11, 10) << 3) | (field(x, 6, 5) << 6) | (field(x, 4, 3) << 1) | (field(x, 2, 2) << 5);
            op(if f3 == 6 { Beq } else { Bne }, 0, rs1_p, 0, sext(imm, 9))
        }
        (2, 0) => op(Slli, rd, rd, 0, shamt),
        (2, 2) => {
            let imm = (field(x, 12, 12) << 5) | (field(x, 6, 4) << 2) | (field(x, 3, 2) << 6);
            if rd == 0 { bad } else { op(Lw, rd, 2, 0, imm as i32) }
        }
        (2, 3) => {
            let imm = (field(x, 12, 12) << 5) | (field(x, 6, 5) << 3) | (field(x, 4, 2) << 6);
            if rd == 0 { bad } else { op(Ld, rd, 2, 0, imm as i32) }
        }
        (2, 4) => match (field(x, 12, 12), rd, rs2) {
            (0, 0, 0) => bad,
            (0, _, 0) => op(Jalr, 0, rd, 0, 0),
            (0, _, _) => op(Add, rd, 0, rs2, 0),
            (1, 0, 0) => op(Ebreak, 0, 0, 0, 0),
            (1, _, 0) => op(Jalr, 1, rd, 0, 0),
            _ => op(Add, rd, rd, rs2, 0),
        },
        (2, 6) => op(Sw, 0, 2, rs2, ((field(x, 12, 9) << 2) | (field(x, 8, 7) << 6)) as i32),
        (2, 7) => op(Sd, 0, 2, rs2, ((field(x, 12, 10) << 3) | (field(x, 9, 7) << 6)) as i32),
        _ => bad,
    }
}
