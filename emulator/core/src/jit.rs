//! The compiled tier's contract: which code gets compiled, the region a compiler is given, and
//! the frame through which compiled code reads and writes the hart.
//!
//! A jump that lands on the same slot [`HOT`] times, for [`ROUNDS`] rounds, makes that slot the
//! entry of a *region* (a compiler may ask for fewer: tests compile at the first jump):
//! the ops reachable from it on the same page through straight-line code, branches and direct
//! jumps, up to the first op a compiler does not take (CSRs, atomics, privileged ops, anything
//! that may trap other than a load or store). A [`Compiler`] turns the region into native code
//! (natively machine code, in the page a WebAssembly function); the interpreter then runs it
//! whenever it reaches the entry.
//!
//! Compiled code must do exactly what the interpreter would do, tick for tick, so that a run
//! is byte-identical with or without it (`make test-determinism` checks this against the
//! reference mode, which never compiles). The rules that make this so:
//! - Each block (a straight run of ops ending at a branch, a jump or an op the region leaves
//!   to the interpreter) first checks that `left` holds all of its ops; if not, it leaves at
//!   its start. Executed ops are taken off `left`, one tick each.
//! - A load or store takes the interpreter's fast path only: a hit in the hart's data TLB
//!   ([`tlb_key`]) within one page and within RAM. Anything else leaves *before* the access,
//!   with the registers written back, so the interpreter runs that op (its slow path handles
//!   devices, faults, page crossings and stores into code). A store fast path never writes
//!   code: the TLB's write entries never cover a page that holds code.
//! - Leaving sets `Frame::next` to the page offset where the interpreter continues (an offset
//!   of `PAGE_SIZE` or more, or "negative" as a wrapped `u64`, leaves the page: the pc is
//!   `base + next`, as the interpreter's own jumps compute it).
//! - `x0` reads as zero; writes to it go to [`ZERO_SINK`], whatever a compiler does with them.

pub use crate::bus::PAGE_SIZE;
use alloc::vec::Vec;

// A region's ops, named by compilers outside this crate.
pub use crate::decode::{Kind, Op, ZERO_SINK};
pub use crate::mmu::{Entry as TlbEntry, ENTRIES as TLB_ENTRIES};

/// Jumps that make a slot a region's entry. Low enough that a loop run a few dozen times is
/// compiled, high enough that code run once is not.
pub const HOT: u8 = 32;

/// Rounds of [`HOT`] jumps (32768 jumps) before a region is compiled. Compiling costs about a
/// millisecond a region (Cranelift, or V8 compiling and tiering up a module), so lukewarm
/// regions cost short runs more than they gain. Measured against 1 round (`docs/bench.md`):
/// natively, the cyclictest run (101 M instructions) takes 0.20 s of CPU against 1.11 (0.43
/// interpreted), the bench guest 0.47 s against 0.74; in node, 0.42 s against 1.87 (0.63)
/// and 0.68 s against 1.54.
pub const ROUNDS: u16 = 1024;

/// Most ops in one region, and most blocks: compile time grows with them, and a region far
/// larger than a loop nest buys little.
pub const MAX_OPS: usize = 512;
pub const MAX_BLOCKS: usize = 64;

/// What compiled code gets. Pointers are the embedder's (32-bit in WebAssembly): compilers take
/// field offsets from `core::mem::offset_of!`.
#[repr(C)]
pub struct Frame {
    /// The hart's register file: `x[0]` is always zero, `x[ZERO_SINK]` absorbs writes to x0.
    pub x: *mut u64,
    /// The machine's RAM and its length in bytes.
    pub ram: *mut u8,
    pub ram_len: u64,
    /// The hart's data TLB for loads and for stores, [`TLB_ENTRIES`] entries each.
    pub tlb_read: *const TlbEntry,
    pub tlb_write: *const TlbEntry,
    /// The translation context data accesses are tagged with (see [`tlb_key`]).
    pub data_ctx: u64,
    /// The virtual address of the page the region is on.
    pub base: u64,
    /// In: ticks the hart may still run. Out: what is left after the ops the region ran.
    pub left: u64,
    /// Out: the page offset where the interpreter goes on.
    pub next: u64,
}

/// A compiled region: it runs from its entry until it leaves, with `frame` set up as above.
pub type CompiledFn = unsafe extern "C" fn(frame: *mut Frame);

/// The TLB slot and tag for a data access at `va`: the entry at `index` serves it when its
/// `tag` equals `tag`, and the access then reads or writes RAM at offset `va + addend`, if
/// the access stays within its 4 KiB page and within RAM.
pub fn tlb_key(va: u64, ctx: u64) -> (usize, u64) {
    crate::mmu::key(va, ctx)
}

/// Turns regions into native code (Cranelift's natively, WebAssembly in the page).
pub trait Compiler {
    /// Host code for `region`, or `None` to leave it to the interpreter (it is not asked again).
    fn compile(&mut self, region: &Region) -> Option<CompiledFn>;
    /// Every function handed out so far is dropped: none will be called again.
    fn reset(&mut self);
    /// Jumps to a slot that make it hot once. Tests take 1, so that code run once runs
    /// compiled too.
    fn hot(&self) -> u8 {
        HOT
    }
    /// Times a slot must grow hot before its region is compiled.
    fn rounds(&self) -> u16 {
        ROUNDS
    }
}

/// A straight run of ops. Every op but the last falls through to the next; the last is a
/// branch, a jump or an ordinary op, as `end` says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Slot of the first op.
    pub start: usize,
    /// Each op with its slot (`pc = base + 2 * slot`). Ops are as the code cache holds them:
    /// a direct jump's or branch's `imm` is its target's page offset (`code::place`), `next`
    /// the slot that follows.
    pub ops: Vec<(usize, Op)>,
    pub end: End,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The last op is a branch, `jal` or `jalr`: it says where control goes.
    Control,
    /// After the last op, leave for the interpreter at this slot: its op is not compiled, or
    /// the region is full.
    Leave(usize),
}

/// The blocks reachable from an entry slot; `blocks[0]` starts at the entry. A jump to a
/// slot where one of the blocks starts goes to that block; any other target leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    pub blocks: Vec<Block>,
}

impl Region {
    /// The block starting at page offset `offset`, if there is one.
    pub fn block_at(&self, offset: u64) -> Option<usize> {
        if offset >= PAGE_SIZE || offset % 2 != 0 {
            return None;
        }
        self.blocks.iter().position(|b| b.start == offset as usize / 2)
    }

    pub fn op_count(&self) -> usize {
        self.blocks.iter().map(|b| b.ops.len()).sum()
    }
}

/// Whether a compiler takes ops of this kind: everything that cannot trap, or traps only
/// through a load or store's slow path, or ends a block by a jump.
pub fn compilable(kind: Kind) -> bool {
    use Kind::*;
    matches!(
        kind,
        Lui | Auipc | Jal | Jalr | Beq | Bne | Blt | Bge | Bltu | Bgeu
            | Lb | Lh | Lw | Ld | Lbu | Lhu | Lwu | Sb | Sh | Sw | Sd
            | Addi | Slti | Sltiu | Xori | Ori | Andi | Slli | Srli | Srai
            | Add | Sub | Sll | Slt | Sltu | Xor | Srl | Sra | Or | And
            | Addiw | Slliw | Srliw | Sraiw | Addw | Subw | Sllw | Srlw | Sraw
            | Mul | Mulh | Mulhsu | Mulhu | Div | Divu | Rem | Remu | Mulw | Divw | Divuw | Remw | Remuw
            | Fence
    )
}

fn ends_block(kind: Kind) -> bool {
    use Kind::*;
    matches!(kind, Jal | Jalr | Beq | Bne | Blt | Bge | Bltu | Bgeu)
}

/// Where control may go after a block: its in-page successors.
fn successors(block: &Block) -> impl Iterator<Item = usize> {
    let (_, last) = *block.ops.last().expect("blocks are never empty");
    let (taken, fall) = match (block.end, last.kind) {
        (End::Leave(_), _) | (_, Kind::Jalr) => (None, None),
        (_, Kind::Jal) => (Some(last.imm as i64 as u64), None),
        _ => (Some(last.imm as i64 as u64), Some(last.next as u64 * 2)),
    };
    [taken, fall].into_iter().flatten().filter(|&o| o < PAGE_SIZE).map(|o| o as usize / 2)
}

/// The region from `entry`, reading ops through `op_at` (which decodes slots not decoded yet).
/// `None` when the entry's own op is not compilable.
pub fn discover(entry: usize, mut op_at: impl FnMut(usize) -> Op) -> Option<Region> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut todo = alloc::vec![entry];
    let mut total = 0;
    while let Some(start) = todo.pop() {
        if blocks.iter().any(|b| b.start == start) || blocks.len() == MAX_BLOCKS || start as u64 >= PAGE_SIZE / 2 {
            continue;
        }
        let mut ops = Vec::new();
        let mut slot = start;
        let end = loop {
            let op = op_at(slot);
            if !compilable(op.kind) || total == MAX_OPS {
                break End::Leave(slot);
            }
            ops.push((slot, op));
            total += 1;
            if ends_block(op.kind) {
                break End::Control;
            }
            slot = op.next as usize;
        };
        if ops.is_empty() {
            if start == entry {
                return None;
            }
            continue;
        }
        let block = Block { start, ops, end };
        todo.extend(successors(&block));
        blocks.push(block);
    }
    Some(Region { blocks })
}
