//! One region as a Cranelift function, op for op the interpreter's arms in `Hart::block`.
//!
//! The guest registers the region touches are Cranelift variables: loaded once at entry and
//! stored back (those written) at the one exit, so a loop runs in host registers. `left` is a
//! variable too. Each block takes its op count off `left` at its start; an exit in the middle
//! of a block (a load or store that misses the TLB fast path) gives back the ops not run.

use core::mem::offset_of;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::isa::TargetFrontendConfig;
use cranelift_codegen::ir::types::{I8, I16, I32, I64};
use cranelift_codegen::ir::{Block, Endianness, Function, InstBuilder, MemFlagsData, Type, Value};
use cranelift_frontend::{FuncInstBuilder, FunctionBuilder, FunctionBuilderContext, Variable};
use runqueue_emu::jit::{End, Frame, Kind, Op, Region, TlbEntry, TLB_ENTRIES, ZERO_SINK};

const PAGE_SIZE: u64 = 4096;
/// Registers a region may name: x0..x31, then the sink for writes to x0.
const REGS: usize = ZERO_SINK as usize;

/// Builds `func` (its signature already set) from `region`.
pub fn region(func: &mut Function, ctx: &mut FunctionBuilderContext, region: &Region, config: TargetFrontendConfig) {
    let ptr = config.pointer_type();
    let mut b = FunctionBuilder::new(func, ctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let frame_ptr = b.block_params(entry)[0];
    let field = |b: &mut FunctionBuilder, ty: Type, offset: usize| {
        b.ins().load(ty, MemFlagsData::trusted().with_readonly(), frame_ptr, offset as i32)
    };
    let frame = FrameValues {
        x: field(&mut b, ptr, offset_of!(Frame, x)),
        ram: field(&mut b, ptr, offset_of!(Frame, ram)),
        ram_len: field(&mut b, I64, offset_of!(Frame, ram_len)),
        tlb_read: field(&mut b, ptr, offset_of!(Frame, tlb_read)),
        tlb_write: field(&mut b, ptr, offset_of!(Frame, tlb_write)),
        data_ctx: field(&mut b, I64, offset_of!(Frame, data_ctx)),
        base: field(&mut b, I64, offset_of!(Frame, base)),
    };
    let left = b.declare_var(I64);
    let next = b.declare_var(I64);
    let start_left = field(&mut b, I64, offset_of!(Frame, left));
    b.def_var(left, start_left);
    let zero = b.ins().iconst(I64, 0);
    b.def_var(next, zero);

    let mut regs = [None; REGS];
    for r in used_registers(region) {
        let var = b.declare_var(I64);
        let value = b.ins().load(I64, MemFlagsData::trusted(), frame.x, 8 * r as i32);
        b.def_var(var, value);
        regs[r] = Some(var);
    }
    let blocks: Vec<Block> = region.blocks.iter().map(|_| b.create_block()).collect();
    let exit = b.create_block();
    b.ins().jump(blocks[0], &[]);

    let mut t = Translator { b, region, frame, regs, written: 0, left, next, blocks, exit, ptr, stubs: Vec::new() };
    for i in 0..region.blocks.len() {
        t.block(i);
    }
    t.fill_stubs();
    t.exit_block(frame_ptr);
    t.b.seal_all_blocks();
    t.b.finalize(config);
}

/// Every register an op of the region may read or write (x0 and the sink are not variables).
fn used_registers(region: &Region) -> impl Iterator<Item = usize> {
    let mut used = 0u64;
    for (_, op) in region.blocks.iter().flat_map(|b| &b.ops) {
        for r in [op.rd, op.rs1, op.rs2] {
            if (1..REGS).contains(&(r as usize)) {
                used |= 1 << r;
            }
        }
    }
    (1..REGS).filter(move |r| used & (1 << r) != 0)
}

/// The frame's fields, read once at entry.
struct FrameValues {
    x: Value,
    ram: Value,
    ram_len: Value,
    tlb_read: Value,
    tlb_write: Value,
    data_ctx: Value,
    base: Value,
}

struct Translator<'a> {
    b: FunctionBuilder<'a>,
    region: &'a Region,
    frame: FrameValues,
    regs: [Option<Variable>; REGS],
    /// Registers some op writes: the exit stores these back.
    written: u64,
    left: Variable,
    next: Variable,
    /// The Cranelift block of each region block.
    blocks: Vec<Block>,
    exit: Block,
    ptr: Type,
    /// Ways out made while another block was being filled, filled at the end (Cranelift wants
    /// one block finished before it switches to the next): the block, `next`, ticks unrun.
    stubs: Vec<(Block, u64, u64)>,
}

/// How a load widens what it read.
#[derive(Clone, Copy)]
enum Extend {
    Sign,
    Zero,
}

impl<'a> Translator<'a> {
    fn ins(&mut self) -> FuncInstBuilder<'_, 'a> {
        self.b.ins()
    }

    fn block(&mut self, index: usize) {
        let block = &self.region.blocks[index];
        self.b.switch_to_block(self.blocks[index]);
        let n = block.ops.len() as i64;
        // Not enough ticks for the whole block: leave at its start.
        let left = self.b.use_var(self.left);
        let short = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, left, n);
        let run = self.b.create_block();
        let stop = self.leave_block(2 * block.start as u64, 0);
        self.b.ins().brif(short, stop, &[], run, &[]);
        self.b.switch_to_block(run);
        let left = self.b.ins().iadd_imm_s(left, -n);
        self.b.def_var(self.left, left);
        for (k, &(slot, op)) in block.ops.iter().enumerate() {
            // Ops not run if this one leaves for the interpreter: itself and those after it.
            let unrun = n as u64 - k as u64;
            self.op(slot, op, unrun);
        }
        if let End::Leave(slot) = block.end {
            self.leave_const(2 * slot as u64, 0);
        }
    }

    fn r(&mut self, index: u8) -> Value {
        match self.regs.get(index as usize).copied().flatten() {
            Some(var) => self.b.use_var(var),
            None => self.b.ins().iconst(I64, 0),
        }
    }

    fn w(&mut self, index: u8, value: Value) {
        // Writes to x0 go to the sink, which nothing reads.
        if let Some(var) = self.regs.get(index as usize).copied().flatten() {
            self.b.def_var(var, value);
            self.written |= 1 << index;
        }
    }

    /// `value` (32 bits) sign-extended into `rd`.
    fn w32(&mut self, rd: u8, value: Value) {
        let wide = self.b.ins().sextend(I64, value);
        self.w(rd, wide);
    }

    fn low32(&mut self, index: u8) -> Value {
        let v = self.r(index);
        self.b.ins().ireduce(I32, v)
    }

    fn pc_of(&mut self, slot: usize) -> Value {
        self.b.ins().iadd_imm_s(self.frame.base, 2 * slot as i64)
    }

    /// A new block that leaves for the interpreter at page offset `next`, giving back
    /// `unrun` ticks; it is filled by [`Translator::fill_stubs`].
    fn leave_block(&mut self, next: u64, unrun: u64) -> Block {
        let stub = self.b.create_block();
        self.b.set_cold_block(stub);
        self.stubs.push((stub, next, unrun));
        stub
    }

    fn fill_stubs(&mut self) {
        for (stub, next, unrun) in core::mem::take(&mut self.stubs) {
            self.b.switch_to_block(stub);
            self.leave_const(next, unrun);
        }
    }

    /// Ends the current block by leaving at constant page offset `next`.
    fn leave_const(&mut self, next: u64, unrun: u64) {
        let next = self.b.ins().iconst(I64, next as i64);
        self.leave(next, unrun);
    }

    fn leave(&mut self, next: Value, unrun: u64) {
        if unrun > 0 {
            let left = self.b.use_var(self.left);
            let left = self.b.ins().iadd_imm_s(left, unrun as i64);
            self.b.def_var(self.left, left);
        }
        self.b.def_var(self.next, next);
        self.b.ins().jump(self.exit, &[]);
    }

    /// The Cranelift block for a jump to constant page offset `offset`: the region's block
    /// that starts there, or a way out to the interpreter.
    fn target(&mut self, offset: u64) -> Block {
        match self.region.block_at(offset) {
            Some(i) => self.blocks[i],
            None => self.leave_block(offset, 0),
        }
    }

    fn goto(&mut self, offset: u64) {
        let target = self.target(offset);
        self.b.ins().jump(target, &[]);
    }

    fn branch(&mut self, op: Op, cc: IntCC) {
        let (a, b) = (self.r(op.rs1), self.r(op.rs2));
        let taken = self.b.ins().icmp(cc, a, b);
        let (to, fall) = (self.target(op.imm as i64 as u64), self.target(2 * op.next as u64));
        self.b.ins().brif(taken, to, &[], fall, &[]);
    }

    fn op(&mut self, slot: usize, op: Op, unrun: u64) {
        use Kind::*;
        let imm = op.imm as i64;
        macro_rules! alu {
            ($inst:ident) => {{
                let (a, b) = (self.r(op.rs1), self.r(op.rs2));
                let v = self.b.ins().$inst(a, b);
                self.w(op.rd, v)
            }};
        }
        macro_rules! alu_imm {
            ($inst:ident, $imm:expr) => {{
                let a = self.r(op.rs1);
                let v = self.b.ins().$inst(a, $imm);
                self.w(op.rd, v)
            }};
        }
        macro_rules! alu32 {
            ($inst:ident) => {{
                let (a, b) = (self.low32(op.rs1), self.low32(op.rs2));
                let v = self.b.ins().$inst(a, b);
                self.w32(op.rd, v)
            }};
        }
        macro_rules! alu32_imm {
            ($inst:ident, $imm:expr) => {{
                let a = self.low32(op.rs1);
                let v = self.b.ins().$inst(a, $imm);
                self.w32(op.rd, v)
            }};
        }
        macro_rules! set_if {
            ($cc:expr) => {{
                let (a, b) = (self.r(op.rs1), self.r(op.rs2));
                let c = self.b.ins().icmp($cc, a, b);
                let v = self.b.ins().uextend(I64, c);
                self.w(op.rd, v)
            }};
        }
        macro_rules! set_if_imm {
            ($cc:expr) => {{
                let a = self.r(op.rs1);
                let c = self.b.ins().icmp_imm_s($cc, a, imm);
                let v = self.b.ins().uextend(I64, c);
                self.w(op.rd, v)
            }};
        }
        match op.kind {
            Lui => {
                let v = self.b.ins().iconst(I64, imm);
                self.w(op.rd, v)
            }
            Auipc => {
                let v = self.b.ins().iadd_imm_s(self.frame.base, 2 * slot as i64 + imm);
                self.w(op.rd, v)
            }
            Jal => {
                let link = self.pc_of(op.next as usize);
                self.w(op.rd, link);
                self.goto(imm as u64);
            }
            Jalr => {
                // The target is read before the link is written: rd may be rs1.
                let a = self.r(op.rs1);
                let target = self.b.ins().iadd_imm_s(a, imm);
                let target = self.b.ins().band_imm_s(target, !1);
                let link = self.pc_of(op.next as usize);
                self.w(op.rd, link);
                let offset = self.b.ins().isub(target, self.frame.base);
                self.leave(offset, 0);
            }
            Beq => self.branch(op, IntCC::Equal),
            Bne => self.branch(op, IntCC::NotEqual),
            Blt => self.branch(op, IntCC::SignedLessThan),
            Bge => self.branch(op, IntCC::SignedGreaterThanOrEqual),
            Bltu => self.branch(op, IntCC::UnsignedLessThan),
            Bgeu => self.branch(op, IntCC::UnsignedGreaterThanOrEqual),
            Lb => self.load(slot, op, unrun, I8, Extend::Sign),
            Lh => self.load(slot, op, unrun, I16, Extend::Sign),
            Lw => self.load(slot, op, unrun, I32, Extend::Sign),
            Ld => self.load(slot, op, unrun, I64, Extend::Zero),
            Lbu => self.load(slot, op, unrun, I8, Extend::Zero),
            Lhu => self.load(slot, op, unrun, I16, Extend::Zero),
            Lwu => self.load(slot, op, unrun, I32, Extend::Zero),
            Sb => self.store(slot, op, unrun, I8),
            Sh => self.store(slot, op, unrun, I16),
            Sw => self.store(slot, op, unrun, I32),
            Sd => self.store(slot, op, unrun, I64),
            Addi => alu_imm!(iadd_imm_s, imm),
            Slti => set_if_imm!(IntCC::SignedLessThan),
            Sltiu => set_if_imm!(IntCC::UnsignedLessThan),
            Xori => alu_imm!(bxor_imm_s, imm),
            Ori => alu_imm!(bor_imm_s, imm),
            Andi => alu_imm!(band_imm_s, imm),
            Slli => alu_imm!(ishl_imm_s, imm & 63),
            Srli => alu_imm!(ushr_imm_s, imm & 63),
            Srai => alu_imm!(sshr_imm_s, imm & 63),
            // Cranelift masks shift amounts to the type's width, as RISC-V does.
            Add => alu!(iadd),
            Sub => alu!(isub),
            Sll => alu!(ishl),
            Slt => set_if!(IntCC::SignedLessThan),
            Sltu => set_if!(IntCC::UnsignedLessThan),
            Xor => alu!(bxor),
            Srl => alu!(ushr),
            Sra => alu!(sshr),
            Or => alu!(bor),
            And => alu!(band),
            Addiw => alu32_imm!(iadd_imm_s, imm),
            Slliw => alu32_imm!(ishl_imm_s, imm & 31),
            Srliw => alu32_imm!(ushr_imm_s, imm & 31),
            Sraiw => alu32_imm!(sshr_imm_s, imm & 31),
            Addw => alu32!(iadd),
            Subw => alu32!(isub),
            Sllw => alu32!(ishl),
            Srlw => alu32!(ushr),
            Sraw => alu32!(sshr),
            Mul => alu!(imul),
            Mulh => alu!(smulhi),
            Mulhu => alu!(umulhi),
            Mulhsu => {
                // Signed a times unsigned b: the unsigned high half, less b when a < 0.
                let (a, b) = (self.r(op.rs1), self.r(op.rs2));
                let high = self.b.ins().umulhi(a, b);
                let sign = self.b.ins().sshr_imm_s(a, 63);
                let fix = self.b.ins().band(sign, b);
                let v = self.b.ins().isub(high, fix);
                self.w(op.rd, v)
            }
            Mulw => alu32!(imul),
            Div | Rem | Divu | Remu => {
                let (a, b) = (self.r(op.rs1), self.r(op.rs2));
                let v = self.divide(op.kind, a, b);
                self.w(op.rd, v)
            }
            // The 32-bit forms divide the operands widened to 64 bits, where no quotient
            // overflows, and keep the low half.
            Divw | Remw | Divuw | Remuw => {
                let (a, b) = (self.low32(op.rs1), self.low32(op.rs2));
                let (wide, kind) = match op.kind {
                    Divw => (Extend::Sign, Div),
                    Remw => (Extend::Sign, Rem),
                    Divuw => (Extend::Zero, Divu),
                    _ => (Extend::Zero, Remu),
                };
                let (a, b) = (self.widen(a, wide), self.widen(b, wide));
                let v = self.divide(kind, a, b);
                let v = self.b.ins().ireduce(I32, v);
                self.w32(op.rd, v)
            }
            Fence => {}
            other => unreachable!("jit::compilable let {other:?} into a region"),
        }
    }

    fn widen(&mut self, v: Value, extend: Extend) -> Value {
        match extend {
            Extend::Sign => self.b.ins().sextend(I64, v),
            Extend::Zero => self.b.ins().uextend(I64, v),
        }
    }

    /// RISC-V division on 64-bit values: by zero gives all ones (quotient) or the dividend
    /// (remainder); the one signed overflow gives the dividend (quotient) or zero. The host
    /// divides by 1 in both cases so it never traps, then picks the RISC-V result.
    fn divide(&mut self, kind: Kind, a: Value, b: Value) -> Value {
        let by_zero = self.ins().icmp_imm_s(IntCC::Equal, b, 0);
        let one = self.ins().iconst(I64, 1);
        let signed = matches!(kind, Kind::Div | Kind::Rem);
        let unsafe_divisor = if signed {
            let min = self.ins().icmp_imm_s(IntCC::Equal, a, i64::MIN);
            let minus_one = self.ins().icmp_imm_s(IntCC::Equal, b, -1);
            let overflow = self.ins().band(min, minus_one);
            self.ins().bor(by_zero, overflow)
        } else {
            by_zero
        };
        let divisor = self.ins().select(unsafe_divisor, one, b);
        let (result, if_zero) = match kind {
            Kind::Div => (self.ins().sdiv(a, divisor), self.ins().iconst(I64, -1)),
            Kind::Divu => (self.ins().udiv(a, divisor), self.ins().iconst(I64, -1)),
            Kind::Rem => (self.ins().srem(a, divisor), a),
            _ => (self.ins().urem(a, divisor), a),
        };
        self.ins().select(by_zero, if_zero, result)
    }

    /// The host address for an access of `ty` at `rs1 + imm` through the TLB `table`, in a
    /// new block where the fast path hit; a miss leaves before the op.
    fn fast_path(&mut self, slot: usize, op: Op, unrun: u64, table: Value, ty: Type) -> Value {
        let size = ty.bytes() as i64;
        let a = self.r(op.rs1);
        let va = self.b.ins().iadd_imm_s(a, op.imm as i64);
        let vpn = self.ins().ushr_imm_s(va, 12);
        let index = self.ins().band_imm_s(vpn, TLB_ENTRIES as i64 - 1);
        let index = self.to_ptr(index);
        let scaled = self.ins().imul_imm_s(index, size_of::<TlbEntry>() as i64);
        let entry = self.ins().iadd(table, scaled);
        let flags = MemFlagsData::trusted();
        let tag = self.ins().load(I64, flags, entry, offset_of!(TlbEntry, tag) as i32);
        let addend = self.ins().load(I64, flags, entry, offset_of!(TlbEntry, addend) as i32);
        let want = self.ins().ishl_imm_s(vpn, 4);
        let want = self.b.ins().bor(want, self.frame.data_ctx);
        let tag_hit = self.ins().icmp(IntCC::Equal, tag, want);
        let in_page = self.ins().band_imm_s(va, 0xfff);
        let in_page = self.ins().icmp_imm_s(IntCC::UnsignedLessThanOrEqual, in_page, PAGE_SIZE as i64 - size);
        let offset = self.ins().iadd(va, addend);
        let last = self.b.ins().iadd_imm_s(self.frame.ram_len, -size);
        let in_ram = self.ins().icmp(IntCC::UnsignedLessThanOrEqual, offset, last);
        let hit = self.ins().band(tag_hit, in_page);
        let hit = self.ins().band(hit, in_ram);
        let go = self.b.create_block();
        let miss = self.leave_block(2 * slot as u64, unrun);
        self.b.ins().brif(hit, go, &[], miss, &[]);
        self.b.switch_to_block(go);
        let offset = self.to_ptr(offset);
        self.b.ins().iadd(self.frame.ram, offset)
    }

    fn to_ptr(&mut self, v: Value) -> Value {
        if self.ptr == I64 { v } else { self.b.ins().ireduce(self.ptr, v) }
    }

    fn load(&mut self, slot: usize, op: Op, unrun: u64, ty: Type, extend: Extend) {
        let at = self.fast_path(slot, op, unrun, self.frame.tlb_read, ty);
        let flags = MemFlagsData::new().with_notrap().with_endianness(Endianness::Little);
        let v = self.b.ins().load(ty, flags, at, 0);
        let v = if ty == I64 { v } else { self.widen(v, extend) };
        self.w(op.rd, v)
    }

    fn store(&mut self, slot: usize, op: Op, unrun: u64, ty: Type) {
        let at = self.fast_path(slot, op, unrun, self.frame.tlb_write, ty);
        let v = self.r(op.rs2);
        let v = if ty == I64 { v } else { self.b.ins().ireduce(ty, v) };
        let flags = MemFlagsData::new().with_notrap().with_endianness(Endianness::Little);
        self.b.ins().store(flags, v, at, 0);
    }

    /// The one way out: the written registers, `left` and `next` go back to the frame.
    fn exit_block(&mut self, frame_ptr: Value) {
        self.b.switch_to_block(self.exit);
        let flags = MemFlagsData::trusted();
        for r in 1..REGS {
            if self.written & (1 << r) != 0 {
                let v = self.b.use_var(self.regs[r].expect("written registers are variables"));
                self.b.ins().store(flags, v, self.frame.x, 8 * r as i32);
            }
        }
        let left = self.b.use_var(self.left);
        self.b.ins().store(flags, left, frame_ptr, offset_of!(Frame, left) as i32);
        let next = self.b.use_var(self.next);
        self.b.ins().store(flags, next, frame_ptr, offset_of!(Frame, next) as i32);
        self.b.ins().return_(&[]);
    }
}
