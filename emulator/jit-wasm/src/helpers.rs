//! The module's helper functions, for the M extension's ops WebAssembly does not have as one
//! instruction: the high half of a 64x64 product (no 128-bit arithmetic in WebAssembly 1.0)
//! and division, whose instructions trap on a zero divisor (and on `MIN / -1`) where RISC-V
//! gives a defined result. Each takes its two operands as parameters and returns the result.

use crate::encode::op::*;
use crate::encode::{Code, Local, Ty};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Helper {
    /// The high 64 bits of the 128-bit product, each operand signed or not (i64 only).
    MulHigh { a_signed: bool, b_signed: bool },
    /// Quotient or remainder, as RISC-V defines them for a zero divisor (all ones, or the
    /// dividend) and for `MIN / -1` (`MIN`, remainder 0).
    Divide { signed: bool, rem: bool },
}

const A: Local = Local(0);
const B: Local = Local(1);
const LOW32: i64 = 0xffff_ffff;

impl Helper {
    /// Extra locals the body uses, all of the operands' type.
    pub fn locals(self) -> u32 {
        match self {
            Helper::MulHigh { .. } => 2,
            Helper::Divide { .. } => 0,
        }
    }

    /// The body's instructions for operands (and result) of type `ty`.
    pub fn body(self, ty: Ty) -> Code {
        let mut c = Code::new();
        match self {
            Helper::MulHigh { a_signed, b_signed } => {
                debug_assert_eq!(ty, Ty::I64);
                mul_high(&mut c, a_signed, b_signed);
            }
            Helper::Divide { signed, rem } => divide(&mut c, ty, signed, rem),
        }
        c
    }
}

/// Unsigned high product from 32-bit halves, then the signed corrections: reading a negative
/// operand as unsigned adds 2^64 times the other operand to the product, so its high half is
/// too large by exactly the other operand.
fn mul_high(c: &mut Code, a_signed: bool, b_signed: bool) {
    let (lh, hl) = (Local(2), Local(3));
    let low = |c: &mut Code, x| {
        c.get(x).i64(LOW32).raw(I64_AND);
    };
    let high = |c: &mut Code, x| {
        c.get(x).i64(32).raw(I64_SHR_U);
    };
    low(c, A);
    high(c, B);
    c.raw(I64_MUL).set(lh);
    high(c, A);
    low(c, B);
    c.raw(I64_MUL).set(hl);
    // The middle column: the carry out of the low 64 bits.
    low(c, A);
    low(c, B);
    c.raw(I64_MUL).i64(32).raw(I64_SHR_U);
    low(c, lh);
    c.raw(I64_ADD);
    low(c, hl);
    c.raw(I64_ADD).i64(32).raw(I64_SHR_U);
    high(c, A);
    high(c, B);
    c.raw(I64_MUL).raw(I64_ADD);
    high(c, lh);
    c.raw(I64_ADD);
    high(c, hl);
    c.raw(I64_ADD);
    let correct = |c: &mut Code, negative: Local, other: Local| {
        c.get(negative).i64(63).raw(I64_SHR_S).get(other).raw(I64_AND).raw(I64_SUB);
    };
    if a_signed {
        correct(c, A, B);
    }
    if b_signed {
        correct(c, B, A);
    }
}

fn divide(c: &mut Code, ty: Ty, signed: bool, rem: bool) {
    // (i32, i64) opcodes.
    let pick = |pair: (u8, u8)| if ty == Ty::I32 { pair.0 } else { pair.1 };
    let konst = |c: &mut Code, v: i64| {
        if ty == Ty::I32 { c.i32(v as i32) } else { c.i64(v) };
    };
    let opcode = match (signed, rem) {
        (true, false) => pick((0x6d, 0x7f)),
        (false, false) => pick((0x6e, 0x80)),
        (true, true) => pick((0x6f, 0x81)),
        (false, true) => pick((0x70, 0x82)),
    };
    c.get(B).raw(pick((I32_EQZ, I64_EQZ)));
    c.if_(Some(ty));
    if rem {
        c.get(A);
    } else {
        konst(c, -1);
    }
    c.else_();
    // Only a signed quotient traps on MIN / -1 (the remainder is 0 there, and rem_s gives it);
    // dividing by -1 is negating, which wraps MIN to itself as RISC-V wants.
    if signed && !rem {
        c.get(B);
        konst(c, -1);
        c.raw(pick((0x46, I64_EQ)));
        c.if_(Some(ty));
        konst(c, 0);
        c.get(A).raw(pick((I32_SUB, I64_SUB)));
        c.else_();
        c.get(A).get(B).raw(opcode);
        c.end();
    } else {
        c.get(A).get(B).raw(opcode);
    }
    c.end();
}
