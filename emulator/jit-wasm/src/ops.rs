//! What each op does, as data: the emitter (`emit.rs`) has one arm per shape, not per kind.
//! The semantics are the interpreter's (`Hart::block` in the core's exec.rs); WebAssembly's
//! shifts already take their count modulo the operand width, as RISC-V's do, and its
//! comparisons give an i32 0 or 1, which `I64_EXTEND_I32_U` makes the register value.

use crate::helpers::Helper;
use runqueue_emu::jit::Kind;

/// The second operand of an ALU op.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Second {
    Rs2,
    Imm,
}

/// How wide an ALU op computes: `W` ops take the low 32 bits of their operands and
/// sign-extend their 32-bit result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Width {
    X,
    W,
}

/// What turns the two operands into the result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Calc {
    /// These instructions, in sequence.
    Code(&'static [u8]),
    /// A helper function of the module (the ops WebAssembly has no single instruction for,
    /// or whose instruction traps where RISC-V does not).
    Call(Helper),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Sem {
    /// `rd = calc(rs1, second)`.
    Alu { second: Second, width: Width, calc: Calc },
    Lui,
    Auipc,
    Jal,
    Jalr,
    /// Taken when this i64 comparison of rs1 with rs2 holds.
    Branch(u8),
    /// `rd = ` the `bytes`-byte value at `rs1 + imm`, read by this i64 load instruction.
    Load { bytes: u32, opcode: u8 },
    /// The low `bytes` bytes of rs2 to `rs1 + imm`, by this i64 store instruction.
    Store { bytes: u32, opcode: u8 },
    Nop,
}

// WebAssembly opcodes used only here.
const I32_MUL: u8 = 0x6c;
const I32_SHL: u8 = 0x74;
const I32_SHR_S: u8 = 0x75;
const I32_SHR_U: u8 = 0x76;
const I64_LT_S: u8 = 0x53;
const I64_GE_S: u8 = 0x59;
const I64_GE_U: u8 = 0x5a;
const I64_XOR: u8 = 0x85;
const I64_EXTEND_I32_U: u8 = 0xad;

use crate::encode::op::*;

/// The semantics of a kind `jit::compilable` accepts; `None` for any other.
pub fn sem(kind: Kind) -> Option<Sem> {
    use Kind::*;
    use Second::{Imm, Rs2};
    use Width::{W, X};
    let alu = |second, width, code| Sem::Alu { second, width, calc: Calc::Code(code) };
    let call = |width, helper| Sem::Alu { second: Rs2, width, calc: Calc::Call(helper) };
    let load = |bytes, opcode| Sem::Load { bytes, opcode };
    let store = |bytes, opcode| Sem::Store { bytes, opcode };
    Some(match kind {
        Lui => Sem::Lui,
        Auipc => Sem::Auipc,
        Jal => Sem::Jal,
        Jalr => Sem::Jalr,
        Beq => Sem::Branch(I64_EQ),
        Bne => Sem::Branch(I64_NE),
        Blt => Sem::Branch(I64_LT_S),
        Bge => Sem::Branch(I64_GE_S),
        Bltu => Sem::Branch(I64_LT_U),
        Bgeu => Sem::Branch(I64_GE_U),
        Lb => load(1, 0x30),
        Lbu => load(1, 0x31),
        Lh => load(2, 0x32),
        Lhu => load(2, 0x33),
        Lw => load(4, 0x34),
        Lwu => load(4, 0x35),
        Ld => load(8, I64_LOAD),
        Sb => store(1, 0x3c),
        Sh => store(2, 0x3d),
        Sw => store(4, 0x3e),
        Sd => store(8, I64_STORE),
        Addi => alu(Imm, X, &[I64_ADD]),
        Slti => alu(Imm, X, &[I64_LT_S, I64_EXTEND_I32_U]),
        Sltiu => alu(Imm, X, &[I64_LT_U, I64_EXTEND_I32_U]),
        Xori => alu(Imm, X, &[I64_XOR]),
        Ori => alu(Imm, X, &[I64_OR]),
        Andi => alu(Imm, X, &[I64_AND]),
        Slli => alu(Imm, X, &[I64_SHL]),
        Srli => alu(Imm, X, &[I64_SHR_U]),
        Srai => alu(Imm, X, &[I64_SHR_S]),
        Add => alu(Rs2, X, &[I64_ADD]),
        Sub => alu(Rs2, X, &[I64_SUB]),
        Sll => alu(Rs2, X, &[I64_SHL]),
        Slt => alu(Rs2, X, &[I64_LT_S, I64_EXTEND_I32_U]),
        Sltu => alu(Rs2, X, &[I64_LT_U, I64_EXTEND_I32_U]),
        Xor => alu(Rs2, X, &[I64_XOR]),
        Srl => alu(Rs2, X, &[I64_SHR_U]),
        Sra => alu(Rs2, X, &[I64_SHR_S]),
        Or => alu(Rs2, X, &[I64_OR]),
        And => alu(Rs2, X, &[I64_AND]),
        Addiw => alu(Imm, W, &[I32_ADD]),
        Slliw => alu(Imm, W, &[I32_SHL]),
        Srliw => alu(Imm, W, &[I32_SHR_U]),
        Sraiw => alu(Imm, W, &[I32_SHR_S]),
        Addw => alu(Rs2, W, &[I32_ADD]),
        Subw => alu(Rs2, W, &[I32_SUB]),
        Sllw => alu(Rs2, W, &[I32_SHL]),
        Srlw => alu(Rs2, W, &[I32_SHR_U]),
        Sraw => alu(Rs2, W, &[I32_SHR_S]),
        Mul => alu(Rs2, X, &[I64_MUL]),
        Mulw => alu(Rs2, W, &[I32_MUL]),
        Mulh => call(X, Helper::MulHigh { a_signed: true, b_signed: true }),
        Mulhsu => call(X, Helper::MulHigh { a_signed: true, b_signed: false }),
        Mulhu => call(X, Helper::MulHigh { a_signed: false, b_signed: false }),
        Div => call(X, Helper::Divide { signed: true, rem: false }),
        Divu => call(X, Helper::Divide { signed: false, rem: false }),
        Rem => call(X, Helper::Divide { signed: true, rem: true }),
        Remu => call(X, Helper::Divide { signed: false, rem: true }),
        Divw => call(W, Helper::Divide { signed: true, rem: false }),
        Divuw => call(W, Helper::Divide { signed: false, rem: false }),
        Remw => call(W, Helper::Divide { signed: true, rem: true }),
        Remuw => call(W, Helper::Divide { signed: false, rem: true }),
        Fence => Sem::Nop,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use runqueue_emu::jit::compilable;

    #[test]
    fn every_compilable_kind_has_semantics_and_no_other() {
        // Kinds are a fieldless u8 enum: walk them all through their discriminants.
        for k in 0..=u8::MAX {
            let Some(kind) = kind_from(k) else { break };
            assert_eq!(sem(kind).is_some(), compilable(kind), "{kind:?}");
        }
    }

    fn kind_from(k: u8) -> Option<Kind> {
        (k <= Kind::Csrrci as u8).then(|| {
            // SAFETY: `Kind` is `repr(u8)` with discriminants 0..=Csrrci, its last variant.
            unsafe { core::mem::transmute::<u8, Kind>(k) }
        })
    }
}
