//! Address translation (Sv39, hardware-updated A/D bits) and the software TLBs that make a
//! RAM access a tag compare plus an add.
//!
//! A TLB tag is `vpn << 4 | ctx`, where the context says how the page was checked: the
//! effective privilege plus SUM and MXR, or [`BARE`] / [`BARE_SU`] when no translation
//! applies (M-mode and S/U-mode apart, as PMP treats them differently). So a privilege or
//! mstatus change needs no flush; PMP writes and sfence.vma flush everything, and a satp write
//! every entry a page table made (those of untranslated accesses stay right under any satp).
//!
//! Physical accesses, page-table reads included, pass the PMP check of `pmp.rs`; a page is
//! entered in a TLB only when the PMP allows the access for all of it.
//!
//! With the data cache on, every data access must reach the cache. Rather than add a test to
//! the inline fast paths, data entries are then filled with the [`CACHED`] bit in their tag:
//! the fast paths never match them, so every access reaches a slow path, which does match
//! them, charges the cache and accesses RAM (the interpreter's loop for a machine with a cache
//! calls the slow paths directly). With the cache off the fast paths are exactly as before.

use crate::bus::{le_read, le_write, Bus, PAGE_SIZE, RAM_BASE};
use crate::hart::{cause, Hart, Trap, PRV_S, PRV_U};
use crate::pmp;

/// No translation, in M-mode.
pub const BARE: u64 = 0xf;
/// No translation, in S- or U-mode.
pub const BARE_SU: u64 = 0xe;
/// Marks data TLB entries filled while the data cache is on. No computed tag has it: a VPN is
/// at most 52 bits, so `vpn << 4 | ctx` stays below bit 56.
const CACHED: u64 = 1 << 63;
pub const ENTRIES: usize = 256;
const CTX_SUM: u64 = 1 << 2;
const CTX_MXR: u64 = 1 << 3;

const PTE_V: u64 = 1 << 0;
const PTE_R: u64 = 1 << 1;
const PTE_W: u64 = 1 << 2;
const PTE_X: u64 = 1 << 3;
const PTE_U: u64 = 1 << 4;
const PTE_A: u64 = 1 << 6;
const PTE_D: u64 = 1 << 7;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Access {
    Fetch,
    Load,
    Store,
}

impl Access {
    fn page_fault(self, va: u64) -> Trap {
        let c = match self {
            Access::Fetch => cause::FETCH_PAGE,
            Access::Load => cause::LOAD_PAGE,
            Access::Store => cause::STORE_PAGE,
        };
        Trap::new(c, va)
    }

    pub fn access_fault(self, va: u64) -> Trap {
        let c = match self {
            Access::Fetch => cause::FETCH_ACCESS,
            Access::Load => cause::LOAD_ACCESS,
            Access::Store => cause::STORE_ACCESS,
        };
        Trap::new(c, va)
    }

    /// The PMP permission the access needs.
    fn pmp_need(self) -> u8 {
        match self {
            Access::Fetch => pmp::X,
            Access::Load => pmp::R,
            Access::Store => pmp::W,
        }
    }
}

#[derive(Clone, Copy)]
#[repr(C)]
pub struct Entry {
    pub tag: u64,
    /// `va + addend` is the offset into RAM.
    pub addend: u64,
}

const EMPTY: Entry = Entry { tag: u64::MAX, addend: 0 };

#[derive(Clone)]
pub struct Tlb {
    pub read: [Entry; ENTRIES],
    pub write: [Entry; ENTRIES],
    fetch: [Entry; ENTRIES],
}

#[inline(always)]
pub fn key(va: u64, ctx: u64) -> (usize, u64) {
    let vpn = va >> 12;
    ((vpn as usize) % ENTRIES, (vpn << 4) | ctx)
}

impl Tlb {
    pub fn new() -> Tlb {
        Tlb { read: [EMPTY; ENTRIES], write: [EMPTY; ENTRIES], fetch: [EMPTY; ENTRIES] }
    }

    /// The read, write and fetch entries.
    pub fn sets(&self) -> [&[Entry; ENTRIES]; 3] {
        [&self.read, &self.write, &self.fetch]
    }

    pub fn sets_mut(&mut self) -> [&mut [Entry; ENTRIES]; 3] {
        [&mut self.read, &mut self.write, &mut self.fetch]
    }

    pub fn flush(&mut self) {
        *self = Tlb::new();
    }

    /// Drops the entries a page table made, keeping those of untranslated accesses (M-mode,
    /// or S/U-mode with paging off), which no `satp` changes: a kernel that enters a
    /// paged domain and comes back by two `satp` writes finds its own entries still there.
    pub fn flush_translated(&mut self) {
        for table in [&mut self.read, &mut self.write, &mut self.fetch] {
            for e in table.iter_mut().filter(|e| !matches!(e.tag & 0xf, BARE | BARE_SU)) {
                *e = EMPTY;
            }
        }
    }

    pub fn flush_writes(&mut self) {
        self.write = [EMPTY; ENTRIES];
    }

    fn table(&mut self, access: Access) -> &mut [Entry; ENTRIES] {
        match access {
            Access::Fetch => &mut self.fetch,
            Access::Load => &mut self.read,
            Access::Store => &mut self.write,
        }
    }
}

impl Default for Tlb {
    fn default() -> Self {
        Tlb::new()
    }
}

impl Hart {
    /// Translates `va` for an access of `size` bytes (no TLB) and checks the PMP.
    pub fn translate(&mut self, bus: &mut Bus, va: u64, access: Access, size: u64) -> Result<u64, Trap> {
        let ctx = if access == Access::Fetch { self.fetch_ctx } else { self.data_ctx };
        let pa = if ctx == BARE || ctx == BARE_SU { va } else { self.walk(bus, va, access, ctx)? };
        if !self.csr.pmp.allows(pa, size, access.pmp_need(), ctx == BARE) {
            return Err(access.access_fault(va));
        }
        Ok(pa)
    }

    /// The Sv39 walk; its page-table accesses are S-mode accesses for the PMP.
    fn walk(&mut self, bus: &mut Bus, va: u64, access: Access, ctx: u64) -> Result<u64, Trap> {
        // Sv39: bits 63..39 must equal bit 38.
        if ((va << 25) as i64 >> 25) as u64 != va {
            return Err(access.page_fault(va));
        }
        let prv = (ctx & 3) as u8;
        let mut table = (self.csr.satp & ((1 << 44) - 1)) << 12;
        for level in (0..3).rev() {
            let pte_addr = table + ((va >> (12 + 9 * level)) & 0x1ff) * 8;
            let Some(off) = bus.ram_offset(pte_addr, 8).filter(|_| self.csr.pmp.allows(pte_addr, 8, pmp::R, false)) else {
                return Err(access.access_fault(va));
            };
            let pte = le_read::<8>(&bus.ram[off..]);
            if pte & PTE_V == 0 || (pte & PTE_R == 0 && pte & PTE_W != 0) || pte >> 54 != 0 {
                return Err(access.page_fault(va));
            }
            let ppn = (pte >> 10) & ((1 << 44) - 1);
            if pte & (PTE_R | PTE_X) == 0 {
                table = ppn << 12;
                continue;
            }
            let allowed = match access {
                Access::Fetch => pte & PTE_X != 0,
                Access::Load => pte & PTE_R != 0 || (ctx & CTX_MXR != 0 && pte & PTE_X != 0),
                Access::Store => pte & PTE_W != 0,
            };
            let user_ok = match prv {
                PRV_U => pte & PTE_U != 0,
                PRV_S => pte & PTE_U == 0 || (access != Access::Fetch && ctx & CTX_SUM != 0),
                _ => true,
            };
            let low_ppn_mask = (1u64 << (9 * level)) - 1;
            if !allowed || !user_ok || ppn & low_ppn_mask != 0 {
                return Err(access.page_fault(va));
            }
            let dirty = if access == Access::Store { PTE_D } else { 0 };
            if pte & (PTE_A | dirty) != PTE_A | dirty {
                if !self.csr.pmp.allows(pte_addr, 8, pmp::W, false) {
                    return Err(access.access_fault(va));
                }
                le_write::<8>(&mut bus.ram[off..], pte | PTE_A | dirty);
                bus.note_ram_write(pte_addr, 8);
            }
            let page = (ppn & !low_ppn_mask) | ((va >> 12) & low_ppn_mask);
            return Ok((page << 12) | (va & 0xfff));
        }
        Err(access.page_fault(va))
    }

    /// Translates `va` for `size` bytes and, if it is ordinary RAM whose whole page the PMP
    /// allows, remembers the page in the TLB. Returns the physical address.
    fn translate_fill(&mut self, bus: &mut Bus, va: u64, access: Access, size: u64) -> Result<u64, Trap> {
        let pa = self.translate(bus, va, access, size)?;
        let page_pa = pa & !(PAGE_SIZE - 1);
        let ctx = if access == Access::Fetch { self.fetch_ctx } else { self.data_ctx };
        if bus.ram_offset(page_pa, PAGE_SIZE).is_some() && self.csr.pmp.allows(page_pa, PAGE_SIZE, access.pmp_need(), ctx == BARE) {
            let page = ((page_pa - RAM_BASE) / PAGE_SIZE) as usize;
            if access != Access::Store || !bus.is_watched_page(page) {
                let (i, tag) = key(va, ctx);
                let tag = if access != Access::Fetch && bus.dcache.is_some() { tag | CACHED } else { tag };
                let addend = (page_pa - RAM_BASE).wrapping_sub(va & !(PAGE_SIZE - 1));
                self.tlb.table(access)[i] = Entry { tag, addend };
            }
        }
        Ok(pa)
    }

    /// The RAM offset of the page holding `pc` for fetching; `None` when the PMP does not let
    /// the whole page run, so its instructions must be fetched one at a time.
    #[inline(always)]
    pub fn fetch_page(&mut self, bus: &mut Bus, pc: u64) -> Result<Option<usize>, Trap> {
        let (i, tag) = key(pc, self.fetch_ctx);
        let e = self.tlb.fetch[i];
        if e.tag == tag {
            return Ok(Some(pc.wrapping_add(e.addend) as usize & !(PAGE_SIZE as usize - 1)));
        }
        let pa = self.translate_fill(bus, pc, Access::Fetch, 2)?;
        match bus.ram_offset(pa & !(PAGE_SIZE - 1), PAGE_SIZE) {
            Some(off) => Ok((self.tlb.fetch[i].tag == tag).then_some(off)),
            None => Err(Trap::new(cause::FETCH_ACCESS, pc)),
        }
    }

    /// Loads `N` bytes (zero-extended).
    #[inline(always)]
    pub fn load<const N: usize>(&mut self, bus: &mut Bus, va: u64) -> Result<u64, Trap> {
        match self.load_fast::<N>(bus, va) {
            Some(v) => Ok(v),
            None => self.load_slow(bus, va, N),
        }
    }

    /// A TLB hit on RAM within one page, or `None`.
    #[inline(always)]
    pub fn load_fast<const N: usize>(&self, bus: &Bus, va: u64) -> Option<u64> {
        let (i, tag) = key(va, self.data_ctx);
        let e = self.tlb.read[i];
        if e.tag == tag && (va & 0xfff) as usize <= PAGE_SIZE as usize - N {
            let off = va.wrapping_add(e.addend) as usize;
            return bus.ram.get(off..off + N).map(le_read::<N>);
        }
        None
    }

    /// Everything else: page crossing, TLB miss, devices, faults, and every RAM access while
    /// the data cache is on. A cache miss adds its stall to `ticks`.
    #[inline(never)]
    pub fn load_slow(&mut self, bus: &mut Bus, va: u64, size: usize) -> Result<u64, Trap> {
        if (va & 0xfff) as usize + size > PAGE_SIZE as usize {
            let mut value = 0;
            for i in 0..size as u64 {
                value |= self.load::<1>(bus, va.wrapping_add(i))? << (8 * i);
            }
            return Ok(value);
        }
        if let Some(off) = self.cached_offset(va, Access::Load) {
            self.touch_cache(bus, off, size, false);
            let bytes = &bus.ram[off..];
            return Ok(match size {
                1 => le_read::<1>(bytes),
                2 => le_read::<2>(bytes),
                4 => le_read::<4>(bytes),
                _ => le_read::<8>(bytes),
            });
        }
        let pa = self.translate_fill(bus, va, Access::Load, size as u64)?;
        if let Some(off) = bus.ram_offset(pa, size as u64) {
            self.touch_cache(bus, off, size, false);
        }
        let mtime = self.mtime();
        bus.read(pa, size, mtime).ok_or(Trap::new(cause::LOAD_ACCESS, va))
    }

    /// Stores `N` bytes; `Ok(true)` when the store hit a device or code, ending the block.
    #[inline(always)]
    pub fn store<const N: usize>(&mut self, bus: &mut Bus, va: u64, value: u64) -> Result<bool, Trap> {
        let (i, tag) = key(va, self.data_ctx);
        let e = self.tlb.write[i];
        if e.tag == tag && (va & 0xfff) as usize <= PAGE_SIZE as usize - N {
            let off = va.wrapping_add(e.addend) as usize;
            if let Some(bytes) = bus.ram.get_mut(off..off + N) {
                le_write::<N>(bytes, value);
                return Ok(false);
            }
        }
        self.store_slow(bus, va, N, value)
    }

    /// Everything [`Hart::store`]'s fast path does not do (see [`Hart::load_slow`]).
    #[inline(never)]
    pub fn store_slow(&mut self, bus: &mut Bus, va: u64, size: usize, value: u64) -> Result<bool, Trap> {
        if (va & 0xfff) as usize + size > PAGE_SIZE as usize {
            // Check both pages first so a fault leaves memory untouched.
            let last = va.wrapping_add(size as u64 - 1);
            self.translate(bus, va, Access::Store, 1)?;
            self.translate(bus, last, Access::Store, 1)?;
            let mut end_block = false;
            for i in 0..size as u64 {
                end_block |= self.store::<1>(bus, va.wrapping_add(i), value >> (8 * i))?;
            }
            return Ok(end_block);
        }
        // Like the fast path, a cached entry is never for a watched page, so no bookkeeping.
        if let Some(off) = self.cached_offset(va, Access::Store) {
            self.touch_cache(bus, off, size, true);
            let bytes = &mut bus.ram[off..];
            match size {
                1 => le_write::<1>(bytes, value),
                2 => le_write::<2>(bytes, value),
                4 => le_write::<4>(bytes, value),
                _ => le_write::<8>(bytes, value),
            }
            return Ok(false);
        }
        let pa = self.translate_fill(bus, va, Access::Store, size as u64)?;
        if let Some(off) = bus.ram_offset(pa, size as u64) {
            self.touch_cache(bus, off, size, true);
        }
        bus.write(pa, size, value).ok_or(Trap::new(cause::STORE_ACCESS, va))
    }

    /// The RAM offset of `va` from a data TLB entry filled while the cache is on.
    #[inline(always)]
    fn cached_offset(&mut self, va: u64, access: Access) -> Option<usize> {
        let (i, tag) = key(va, self.data_ctx);
        let e = self.tlb.table(access)[i];
        (e.tag == tag | CACHED).then(|| va.wrapping_add(e.addend) as usize)
    }

    /// Charges an access of `len` bytes at RAM offset `off` to this hart's data cache, if the
    /// machine has one: each line that misses stalls the hart for the miss penalty.
    pub fn touch_cache(&mut self, bus: &mut Bus, off: usize, len: usize, write: bool) {
        if let Some(cache) = &mut bus.dcache {
            let stall = cache.access(self.id, off as u64, len as u64, write);
            self.ticks += stall;
            self.stalls += stall;
        }
    }

    /// RAM offset for an atomic access of `size` bytes: aligned, translated for a store (LR:
    /// for a load), and in RAM. The flag says the page is watched (code or HTIF), so the
    /// write must be reported to the bus.
    pub fn atomic_target(&mut self, bus: &mut Bus, va: u64, size: u64, lr: bool) -> Result<(usize, bool), Trap> {
        let access = if lr { Access::Load } else { Access::Store };
        if !va.is_multiple_of(size) {
            let c = if lr { cause::LOAD_MISALIGNED } else { cause::STORE_MISALIGNED };
            return Err(Trap::new(c, va));
        }
        let (i, tag) = key(va, self.data_ctx);
        let e = self.tlb.table(access)[i];
        if e.tag & !CACHED == tag {
            return Ok((va.wrapping_add(e.addend) as usize, false));
        }
        let pa = self.translate_fill(bus, va, access, size)?;
        let off = bus.ram_offset(pa, size).ok_or(access.access_fault(va))?;
        Ok((off, bus.is_watched_page(off / PAGE_SIZE as usize)))
    }
}
