//! Decoded-instruction cache: one array of ops per physical RAM page, filled lazily, one slot
//! per halfword. Stores into a page holding code reset the slots they overlap.
//!
//! Two sentinel slots past the end hold [`Kind::PageEnd`], so running off the page needs no
//! check per op, and direct jumps and branches carry their target as an offset from the start
//! of the page (see [`place`]), so staying on the page is one compare.

use crate::bus::{Bus, PAGE_SIZE, RAM_BASE};
use crate::bus::le_read;
use crate::decode::{decode16, decode32, is_full_width, Kind, Op};
use crate::jit::{discover, CompiledFn, Compiler};
use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;

pub const SLOTS: usize = (PAGE_SIZE / 2) as usize;

pub struct Page {
    /// `SLOTS` decoded slots, then two `PageEnd` sentinels: a 2-byte op in the last slot, or
    /// the 4-byte op the scratch page runs there, falls through to one of them.
    pub ops: [Op; SLOTS + 2],
    /// Where the page starts in RAM.
    base: usize,
    /// The regions compiled from this page; a `Kind::Compiled` slot holds its region's index.
    pub regions: Vec<RegionCode>,
    /// Slots that grew hot fewer times than the compiler's `rounds`, and how often.
    warmth: BTreeMap<u16, u16>,
    /// The heat at which a slot grows hot (the compiler's `hot`); 0, which heat never equals,
    /// when nothing compiles this page's code.
    pub hot: u8,
}

/// A compiled region, and the op its entry slot held.
#[derive(Clone, Copy)]
pub struct RegionCode {
    pub head: Op,
    pub run: CompiledFn,
}

/// Regions compiled between two resets of the compiler, which frees their code all at once.
const MAX_REGIONS: usize = 4096;

impl Page {
    /// Decodes the slot for `pc` from RAM. Kept out of line: it runs once per slot.
    #[cold]
    #[inline(never)]
    pub fn decode(&mut self, bus: &Bus, pc: u64) {
        let offset = pc as usize & (PAGE_SIZE as usize - 1);
        let at = self.base + offset;
        let low = le_read::<2>(&bus.ram[at..]) as u16;
        let op = if !is_full_width(low) {
            decode16(low)
        } else if offset == PAGE_SIZE as usize - 2 {
            Op::STRADDLE
        } else {
            decode32(le_read::<4>(&bus.ram[at..]) as u32)
        };
        self.ops[offset / 2] = place(op, offset);
    }
}

/// Fits a decoded op for the slot at page offset `offset`: records the next slot, and turns
/// the pc-relative immediate of a direct jump or branch into its target's offset from the
/// start of the page (it fits: `jal` reaches only +-1 MiB).
pub fn place(op: Op, offset: usize) -> Op {
    use Kind::*;
    let next = ((offset + op.len as usize) / 2) as u16;
    match op.kind {
        Jal | Beq | Bne | Blt | Bge | Bltu | Bgeu => Op { imm: op.imm + offset as i32, next, ..op },
        _ => Op { next, ..op },
    }
}

pub struct CodeCache {
    pages: Vec<Option<Box<Page>>>,
    compiler: Option<Box<dyn Compiler>>,
    /// The compiler's `hot`, kept here because a page is looked up for every block; 0 without
    /// a compiler.
    hot: u8,
    compiled: usize,
    /// Holds a single instruction while it runs (see [`CodeCache::scratch`]).
    scratch: Box<Page>,
    scratch_slot: usize,
}

impl CodeCache {
    pub fn new(ram_bytes: u64) -> CodeCache {
        CodeCache {
            pages: (0..ram_bytes / PAGE_SIZE).map(|_| None).collect(),
            compiler: None,
            hot: 0,
            compiled: 0,
            // Never hot: the scratch page is not compiled.
            scratch: empty_page(0, 0),
            scratch_slot: 0,
        }
    }

    /// From now on, hot code is compiled by `compiler` (`None`: interpreted only).
    pub fn set_compiler(&mut self, compiler: Option<Box<dyn Compiler>>) {
        self.drop_regions();
        self.hot = compiler.as_ref().map_or(0, |c| c.hot());
        self.compiler = compiler;
        let hot = self.hot;
        // Heat counts afresh: a slot that grew hot while nothing compiled is saturated past
        // `hot`, and would otherwise never become a region's entry.
        for p in self.pages.iter_mut().flatten() {
            p.hot = hot;
            p.warmth.clear();
            p.ops.iter_mut().for_each(|op| op.heat = 0);
        }
    }

    /// A page that runs `op` (as placed at page offset `offset`, see [`place`]) on its own: a
    /// page-straddling instruction from the last slot, or a region's entry op when the region
    /// cannot run. Its block ends after that one op; it never decodes anything.
    pub fn scratch(&mut self, op: Op, offset: usize) -> &mut Page {
        self.scratch.ops[self.scratch_slot] = Op::UNDECODED;
        self.scratch_slot = offset / 2 % SLOTS;
        self.scratch.ops[self.scratch_slot] = op;
        &mut self.scratch
    }

    /// Compiles the region entered at `slot` of RAM page number `page`, if there is a
    /// compiler and the entry's op is one it takes.
    pub fn compile(&mut self, page: usize, slot: usize, bus: &Bus) {
        if self.compiler.is_none() {
            return;
        }
        if self.compiled == MAX_REGIONS {
            self.drop_regions();
        }
        let (Some(Some(p)), Some(compiler)) = (self.pages.get_mut(page), self.compiler.as_mut()) else { return };
        if p.ops[slot].kind == Kind::Compiled {
            return;
        }
        let rounds = compiler.rounds();
        if rounds > 1 {
            let warmth = p.warmth.entry(slot as u16).or_default();
            *warmth += 1;
            if *warmth < rounds {
                p.ops[slot].heat = 0;
                return;
            }
            p.warmth.remove(&(slot as u16));
        }
        let Some(region) = discover(slot, |s| p.op_for_region(bus, s)) else { return };
        if let Some(run) = compiler.compile(&region) {
            let head = p.ops[slot];
            p.ops[slot] = Op { kind: Kind::Compiled, imm: p.regions.len() as i32, ..head };
            p.regions.push(RegionCode { head, run });
            self.compiled += 1;
        }
    }

    /// Forgets every compiled region, and the code behind them.
    fn drop_regions(&mut self) {
        self.pages.iter_mut().flatten().for_each(|p| p.drop_regions());
        if let Some(c) = self.compiler.as_mut() {
            c.reset();
        }
        self.compiled = 0;
    }

    /// The decoded page for RAM page number `page`, created (empty) on first use.
    pub fn page(&mut self, page: usize, bus: &mut Bus) -> Option<&mut Page> {
        let slot = self.pages.get_mut(page)?;
        if slot.is_none() {
            bus.mark_code_page(page);
            *slot = Some(empty_page(page * PAGE_SIZE as usize, self.hot));
        }
        slot.as_deref_mut()
    }

    /// Applies the stores recorded in `bus.code_writes`.
    pub fn apply_writes(&mut self, bus: &mut Bus) {
        for (pa, len) in bus.code_writes.drain(..) {
            // A 32-bit instruction starting up to 2 bytes before the store overlaps it.
            let first = pa.saturating_sub(2).max(RAM_BASE) - RAM_BASE;
            let last = pa.saturating_add(len.max(1)) - 1 - RAM_BASE;
            for half in first / 2..=last / 2 {
                let page = (half * 2 / PAGE_SIZE) as usize;
                if let Some(Some(p)) = self.pages.get_mut(page) {
                    // A region may span any slot of its page.
                    p.drop_regions();
                    p.ops[half as usize % SLOTS] = Op::UNDECODED;
                }
            }
        }
    }

    /// Drops everything (the embedder's writes of unknown extent).
    pub fn clear(&mut self, bus: &mut Bus) {
        self.drop_regions();
        self.pages.iter_mut().for_each(|p| *p = None);
        bus.clear_code_pages();
    }
}

impl Page {
    /// Puts the ops back that the page's region entries stand for: the regions will not run.
    fn drop_regions(&mut self) {
        if self.regions.is_empty() {
            return;
        }
        // Cold again: a region dropped to free code may be compiled anew once hot.
        for op in self.ops.iter_mut().filter(|op| op.kind == Kind::Compiled) {
            *op = Op { heat: 0, ..self.regions[op.imm as usize].head };
        }
        self.regions.clear();
    }

    /// The op at `slot` as the region sees it: decoded if it was not, and for the entry of a
    /// region already compiled, the op that entry stands for.
    pub(crate) fn op_for_region(&mut self, bus: &Bus, slot: usize) -> Op {
        if slot >= SLOTS {
            return Op::PAGE_END;
        }
        if self.ops[slot].kind == Kind::Undecoded {
            self.decode(bus, 2 * slot as u64);
        }
        match self.ops[slot].kind {
            Kind::Compiled => self.regions[self.ops[slot].imm as usize].head,
            _ => self.ops[slot],
        }
    }
}

fn empty_page(base: usize, hot: u8) -> Box<Page> {
    let mut ops = [Op::UNDECODED; SLOTS + 2];
    ops[SLOTS..].fill(Op::PAGE_END);
    Box::new(Page { ops, base, regions: Vec::new(), warmth: BTreeMap::new(), hot })
}
