//! Decoded-instruction cache: one array of ops per physical RAM page, filled lazily, one slot
//! per halfword. Stores into a page holding code reset the slots they overlap.
//!
//! Two sentinel slots past the end hold [`Kind::PageEnd`], so running off the page needs no
//! check per op, and direct jumps and branches carry their target as an offset from the start
//! of the page (see [`place`]), so staying on the page is one compare.

use crate::bus::{Bus, PAGE_SIZE, RAM_BASE};
use crate::bus::le_read;
use crate::decode::{decode16, decode32, is_full_width, Kind, Op};
use alloc::boxed::Box;
use alloc::vec::Vec;

pub const SLOTS: usize = (PAGE_SIZE / 2) as usize;

pub struct Page {
    /// `SLOTS` decoded slots, then two `PageEnd` sentinels: a 2-byte op in the last slot, or
    /// the 4-byte op the scratch page runs there, falls through to one of them.
    pub ops: [Op; SLOTS + 2],
    /// Where the page starts in RAM.
    base: usize,
}

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
    /// Holds a single instruction while it runs (see [`CodeCache::scratch`]).
    scratch: Box<Page>,
    scratch_slot: usize,
}

impl CodeCache {
    pub fn new(ram_bytes: u64) -> CodeCache {
        CodeCache { pages: (0..ram_bytes / PAGE_SIZE).map(|_| None).collect(), scratch: empty_page(0), scratch_slot: 0 }
    }

    /// A page that runs `op`, fetched on its own, from the slot at page offset `offset` (a
    /// page-straddling instruction from the last slot). It never decodes anything.
    pub fn scratch(&mut self, op: Op, offset: usize) -> &mut Page {
        self.scratch.ops[self.scratch_slot] = Op::UNDECODED;
        self.scratch_slot = offset / 2 % SLOTS;
        self.scratch.ops[self.scratch_slot] = place(op, self.scratch_slot * 2);
        &mut self.scratch
    }

    /// The decoded page for RAM page number `page`, created (empty) on first use.
    pub fn page(&mut self, page: usize, bus: &mut Bus) -> Option<&mut Page> {
        let slot = self.pages.get_mut(page)?;
        if slot.is_none() {
            bus.mark_code_page(page);
            *slot = Some(empty_page(page * PAGE_SIZE as usize));
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
                    p.ops[half as usize % SLOTS] = Op::UNDECODED;
                }
            }
        }
    }

    /// Drops everything (restore, host writes of unknown extent).
    pub fn clear(&mut self, bus: &mut Bus) {
        self.pages.iter_mut().for_each(|p| *p = None);
        bus.clear_code_pages();
    }
}

fn empty_page(base: usize) -> Box<Page> {
    let mut ops = [Op::UNDECODED; SLOTS + 2];
    ops[SLOTS..].fill(Op::PAGE_END);
    Box::new(Page { ops, base })
}
