//! A region's function body. Its shape:
//!
//! ```text
//! prologue: frame fields and the region's guest registers into locals
//! block $exit
//!   loop $dispatch
//!     block $b[n-1] ... block $b[0]
//!       br_table $b[0] .. $b[n-1] (the block index local)
//!     end  code of block 0
//!     ...
//!     end  code of block n-1
//!   end
//! end
//! epilogue: registers written back, `left` stored
//! ```
//!
//! Going to block `k` sets the block index and branches to `$dispatch`, or, when `k` is the
//! block laid out next, simply runs on. Leaving stores `Frame::next` and branches to `$exit`.

use crate::encode::op::*;
use crate::encode::{Code, Label, Local, Ty};
use crate::helpers::Helper;
use crate::ops::{sem, Calc, Second, Sem, Width};
use alloc::vec::Vec;
use core::mem::{offset_of, size_of};
use runqueue_emu::jit::{Block, End, Frame, Op, Region, TlbEntry, PAGE_SIZE, TLB_ENTRIES, ZERO_SINK};

/// Guest registers a region can name: x0..x31 (x0 reads as zero, writes go to `ZERO_SINK`).
const REGS: usize = 32;

/// A field of the frame, by its byte offset on the host (wasm32) the crate is built for.
fn field(offset: usize) -> u32 {
    offset as u32
}

/// The function's locals. Parameter 0 is the frame pointer.
struct Locals {
    frame: Local,
    x: Local,
    ram: Local,
    tlb_read: Local,
    tlb_write: Local,
    block: Local,
    entry: Local,
    base: Local,
    ram_len: Local,
    ctx: Local,
    left: Local,
    va: Local,
    off: Local,
    /// The i64 local holding each guest register the region uses.
    reg: [Option<Local>; REGS],
}

const I32_LOCALS: u32 = 6;
const I64_FIXED: u32 = 6;

impl Locals {
    fn new(used: &[bool; REGS]) -> Locals {
        let l = |i: u32| Local(1 + i);
        let mut reg = [None; REGS];
        let mut next = 1 + I32_LOCALS + I64_FIXED;
        for (r, slot) in reg.iter_mut().enumerate() {
            if used[r] {
                *slot = Some(Local(next));
                next += 1;
            }
        }
        Locals {
            frame: Local(0),
            x: l(0),
            ram: l(1),
            tlb_read: l(2),
            tlb_write: l(3),
            block: l(4),
            entry: l(5),
            base: l(6),
            ram_len: l(7),
            ctx: l(8),
            left: l(9),
            va: l(10),
            off: l(11),
            reg,
        }
    }

    /// The local declarations: (count, type) runs.
    fn declarations(&self) -> [(u32, Ty); 2] {
        let regs = self.reg.iter().flatten().count() as u32;
        [(I32_LOCALS, Ty::I32), (I64_FIXED + regs, Ty::I64)]
    }
}

/// Which guest registers the region reads, and which it writes (x0 neither).
fn registers(region: &Region) -> ([bool; REGS], [bool; REGS]) {
    let (mut read, mut written) = ([false; REGS], [false; REGS]);
    for (_, op) in region.blocks.iter().flat_map(|b| &b.ops) {
        let Some(s) = sem(op.kind) else { continue };
        let (rs1, rs2, rd) = match s {
            Sem::Alu { second: Second::Rs2, .. } => (true, true, true),
            Sem::Alu { second: Second::Imm, .. } | Sem::Load { .. } | Sem::Jalr => (true, false, true),
            Sem::Lui | Sem::Auipc | Sem::Jal => (false, false, true),
            Sem::Branch(_) | Sem::Store { .. } => (true, true, false),
            Sem::Nop => (false, false, false),
        };
        let mark = |set: &mut [bool; REGS], r: u8, used: bool| {
            if used && r != 0 && (r as usize) < REGS {
                set[r as usize] = true;
            }
        };
        mark(&mut read, op.rs1, rs1);
        mark(&mut read, op.rs2, rs2);
        mark(&mut written, op.rd, rd);
    }
    (read, written)
}

/// The function body of `region` (locals included), and the helpers it calls, which the
/// module must define as functions `1..` in this order.
pub fn function(region: &Region) -> (Vec<u8>, Vec<(Helper, Ty)>) {
    let (read, written) = registers(region);
    let used: [bool; REGS] = core::array::from_fn(|r| read[r] || written[r]);
    let locals = Locals::new(&used);
    let mut e = Emitter { c: Code::new(), l: locals, region, helpers: Vec::new(), exit: None, dispatch: None };
    e.prologue();
    let exit = e.c.block();
    let dispatch = e.c.looped();
    e.exit = Some(exit);
    e.dispatch = Some(dispatch);
    let n = region.blocks.len();
    let labels: Vec<Label> = (0..n).map(|_| e.c.block()).collect();
    // Opened outermost first: block 0's label is the innermost.
    let targets: Vec<Label> = labels.iter().rev().copied().collect();
    e.c.get(e.l.block);
    e.c.br_table(&targets, targets[0]);
    for (k, block) in region.blocks.iter().enumerate() {
        e.c.end();
        e.block(k, block);
    }
    e.c.end(); // $dispatch
    e.c.end(); // $exit
    e.epilogue(&written);
    e.c.finish();

    let mut body = Vec::new();
    let decls = e.l.declarations();
    crate::encode::uleb(&mut body, decls.len() as u64);
    for (count, ty) in decls {
        crate::encode::uleb(&mut body, count as u64);
        body.push(ty as u8);
    }
    body.extend_from_slice(&e.c.bytes);
    (body, e.helpers)
}

struct Emitter<'r> {
    c: Code,
    l: Locals,
    region: &'r Region,
    helpers: Vec<(Helper, Ty)>,
    exit: Option<Label>,
    dispatch: Option<Label>,
}

impl Emitter<'_> {
    fn frame_i32(&mut self, offset: usize, into: Local) {
        self.c.get(self.l.frame).mem(I32_LOAD, 2, field(offset)).set(into);
    }

    fn frame_i64(&mut self, offset: usize, into: Local) {
        self.c.get(self.l.frame).mem(I64_LOAD, 3, field(offset)).set(into);
    }

    fn prologue(&mut self) {
        self.frame_i32(offset_of!(Frame, x), self.l.x);
        self.frame_i32(offset_of!(Frame, ram), self.l.ram);
        self.frame_i32(offset_of!(Frame, tlb_read), self.l.tlb_read);
        self.frame_i32(offset_of!(Frame, tlb_write), self.l.tlb_write);
        self.frame_i64(offset_of!(Frame, base), self.l.base);
        self.frame_i64(offset_of!(Frame, ram_len), self.l.ram_len);
        self.frame_i64(offset_of!(Frame, data_ctx), self.l.ctx);
        self.frame_i64(offset_of!(Frame, left), self.l.left);
        for r in 0..REGS {
            if let Some(local) = self.l.reg[r] {
                self.c.get(self.l.x).mem(I64_LOAD, 3, (8 * r) as u32).set(local);
            }
        }
        // The block index starts at 0, the entry, as every local starts at zero.
    }

    fn epilogue(&mut self, written: &[bool; REGS]) {
        for r in (0..REGS).filter(|&r| written[r]) {
            let local = self.l.reg[r].expect("written registers have locals");
            self.c.get(self.l.x).get(local).mem(I64_STORE, 3, (8 * r) as u32);
        }
        self.c.get(self.l.frame).get(self.l.left).mem(I64_STORE, 3, field(offset_of!(Frame, left)));
    }

    /// Leaves for the interpreter at page offset `next`.
    fn leave(&mut self, next: i64) {
        self.c.get(self.l.frame).i64(next).mem(I64_STORE, 3, field(offset_of!(Frame, next)));
        self.c.br(self.exit.expect("inside the body"));
    }

    /// Goes to page offset `target`: the region's block there, or the interpreter. `layout_next`
    /// is the block laid out after this code, which is reached by running on.
    fn goto(&mut self, target: i64, layout_next: Option<usize>) {
        match self.region.block_at(target as u64) {
            Some(k) if Some(k) == layout_next => {}
            Some(k) => {
                self.c.i32(k as i32).set(self.l.block);
                self.c.br(self.dispatch.expect("inside the body"));
            }
            None => self.leave(target),
        }
    }

    fn read(&mut self, r: u8) {
        match self.l.reg.get(r as usize).copied().flatten() {
            Some(local) => self.c.get(local),
            None => self.c.i64(0), // x0
        };
    }

    /// Takes the value on the stack into `rd`; a write to x0 is dropped.
    fn write(&mut self, rd: u8) {
        match self.l.reg.get(rd as usize).copied().flatten() {
            Some(local) if rd != ZERO_SINK => self.c.set(local),
            _ => self.c.raw(DROP),
        };
    }

    fn helper(&mut self, helper: Helper, ty: Ty) -> u32 {
        let at = self.helpers.iter().position(|&h| h == (helper, ty)).unwrap_or_else(|| {
            self.helpers.push((helper, ty));
            self.helpers.len() - 1
        });
        1 + at as u32
    }

    fn block(&mut self, k: usize, block: &Block) {
        let n = block.ops.len() as i64;
        let layout_next = (k + 1 < self.region.blocks.len()).then_some(k + 1);
        // Not enough ticks left for the whole block: the interpreter runs what fits.
        self.c.get(self.l.left).i64(n).raw(I64_LT_U);
        self.c.if_(None);
        self.leave(2 * block.start as i64);
        self.c.end();
        self.c.get(self.l.left).i64(n).raw(I64_SUB).set(self.l.left);
        let last = block.ops.len() - 1;
        for (j, &(slot, op)) in block.ops.iter().enumerate() {
            let unrun = n - j as i64;
            self.op(slot, op, unrun, if j == last { layout_next } else { None });
        }
        if let End::Leave(slot) = block.end {
            self.leave(2 * slot as i64);
        }
    }

    /// One op at `slot`; `unrun` ops of its block (it included) are not run yet, and are given
    /// back to `left` if it leaves before running.
    fn op(&mut self, slot: usize, op: Op, unrun: i64, layout_next: Option<usize>) {
        let s = sem(op.kind).expect("regions hold compilable ops only");
        let link = 2 * op.next as i64;
        match s {
            Sem::Alu { second, width, calc } => {
                if op.rd == ZERO_SINK {
                    return;
                }
                let wide = width == Width::X;
                self.read(op.rs1);
                if !wide {
                    self.c.raw(I32_WRAP_I64);
                }
                match (second, wide) {
                    (Second::Rs2, _) => {
                        self.read(op.rs2);
                        if !wide {
                            self.c.raw(I32_WRAP_I64);
                        }
                    }
                    (Second::Imm, true) => {
                        self.c.i64(op.imm as i64);
                    }
                    (Second::Imm, false) => {
                        self.c.i32(op.imm);
                    }
                }
                match calc {
                    Calc::Code(code) => {
                        self.c.raws(code);
                    }
                    Calc::Call(helper) => {
                        let f = self.helper(helper, if wide { Ty::I64 } else { Ty::I32 });
                        self.c.call(f);
                    }
                }
                if !wide {
                    self.c.raw(I64_EXTEND_I32_S);
                }
                self.write(op.rd);
            }
            Sem::Lui => {
                self.c.i64(op.imm as i64);
                self.write(op.rd);
            }
            Sem::Auipc => {
                self.c.get(self.l.base).i64(2 * slot as i64 + op.imm as i64).raw(I64_ADD);
                self.write(op.rd);
            }
            Sem::Jal => {
                self.c.get(self.l.base).i64(link).raw(I64_ADD);
                self.write(op.rd);
                self.goto(op.imm as i64, layout_next);
            }
            Sem::Jalr => {
                // The target is read before the link is written: rd may be rs1.
                self.read(op.rs1);
                self.c.i64(op.imm as i64).raw(I64_ADD).i64(!1).raw(I64_AND).set(self.l.va);
                self.c.get(self.l.base).i64(link).raw(I64_ADD);
                self.write(op.rd);
                self.c.get(self.l.frame).get(self.l.va).get(self.l.base).raw(I64_SUB);
                self.c.mem(I64_STORE, 3, field(offset_of!(Frame, next)));
                self.c.br(self.exit.expect("inside the body"));
            }
            Sem::Branch(compare) => {
                self.read(op.rs1);
                self.read(op.rs2);
                self.c.raw(compare);
                self.c.if_(None);
                self.goto(op.imm as i64, None);
                self.c.end();
                self.goto(link, layout_next);
            }
            Sem::Load { bytes, opcode } => {
                self.translate(op, bytes, offset_of!(Frame, tlb_read), slot, unrun);
                self.host_address();
                self.c.mem(opcode, 0, 0);
                self.write(op.rd);
            }
            Sem::Store { bytes, opcode } => {
                self.translate(op, bytes, offset_of!(Frame, tlb_write), slot, unrun);
                self.host_address();
                self.read(op.rs2);
                self.c.mem(opcode, 0, 0);
            }
            Sem::Nop => {}
        }
    }

    /// The data TLB's fast path for `bytes` bytes at `rs1 + imm`: on a hit `off` holds the RAM
    /// offset; anything else leaves before the op (see `jit`).
    fn translate(&mut self, op: Op, bytes: u32, table: usize, slot: usize, unrun: i64) {
        let l = &self.l;
        let (va, off, entry) = (l.va, l.off, l.entry);
        let tlb = if table == offset_of!(Frame, tlb_read) { l.tlb_read } else { l.tlb_write };
        self.read(op.rs1);
        self.c.i64(op.imm as i64).raw(I64_ADD).set(va);
        // The entry: the table plus (vpn mod entries) times the entry size.
        self.c.get(tlb);
        self.c.get(va).i64(12).raw(I64_SHR_U).raw(I32_WRAP_I64);
        self.c.i32(TLB_ENTRIES as i32 - 1).raw(I32_AND);
        self.c.i32(size_of::<TlbEntry>() as i32).raw(I32_MUL).raw(I32_ADD).set(entry);
        self.c.get(va).get(entry).mem(I64_LOAD, 3, field(offset_of!(TlbEntry, addend))).raw(I64_ADD).set(off);
        // Miss: the tag differs, or the access leaves the page, or RAM.
        self.c.get(entry).mem(I64_LOAD, 3, field(offset_of!(TlbEntry, tag)));
        self.c.get(va).i64(12).raw(I64_SHR_U).i64(4).raw(I64_SHL).get(self.l.ctx).raw(I64_OR);
        self.c.raw(I64_NE);
        self.c.get(va).i64(PAGE_SIZE as i64 - 1).raw(I64_AND).i64(PAGE_SIZE as i64 - bytes as i64).raw(I64_GT_U);
        self.c.raw(I32_OR);
        self.c.get(off).get(self.l.ram_len).i64(bytes as i64).raw(I64_SUB).raw(I64_GT_U);
        self.c.raw(I32_OR);
        self.c.if_(None);
        self.c.get(self.l.left).i64(unrun).raw(I64_ADD).set(self.l.left);
        self.leave(2 * slot as i64);
        self.c.end();
    }

    /// The host address of RAM offset `off`: RAM's pointer plus the offset (below 4 GiB: it is
    /// within RAM, which is in the 32-bit memory).
    fn host_address(&mut self) {
        self.c.get(self.l.ram).get(self.l.off).raw(I32_WRAP_I64).raw(I32_ADD);
    }
}
