//! Physical address space: RAM and the devices of `docs/platform.md`.

use crate::cache::DataCaches;
use crate::uart::Uart;
use crate::{MAX_HARTS, TICKS_PER_MTIME};
use alloc::string::String;
use alloc::vec::Vec;

pub const RAM_BASE: u64 = 0x8000_0000;
pub const FINISHER_BASE: u64 = 0x10_0000;
pub const CLINT_BASE: u64 = 0x200_0000;
pub const CLINT_SIZE: u64 = 0x1_0000;
pub const PLIC_BASE: u64 = 0xc00_0000;
pub const PLIC_SIZE: u64 = 0x400_0000;
pub const UART_BASE: u64 = 0x1000_0000;
pub const UART_SIZE: u64 = 0x100;
pub const TRACE_BASE: u64 = 0x1020_0000;
/// Longest line the trace device copies in one request.
pub const TRACE_MAX_LINE: u64 = 4096;
pub const PAGE_SIZE: u64 = 4096;

const CLINT_MTIMECMP: u64 = 0x4000;
const CLINT_MTIME: u64 = 0xbff8;

/// The Spike HTIF mailbox of an M-mode test ELF.
#[derive(Clone, Copy)]
pub struct Htif {
    pub tohost: u64,
    pub fromhost: Option<u64>,
}

#[derive(Clone)]
pub struct Bus {
    pub ram: Vec<u8>,
    pub harts: usize,
    pub uart: Uart,
    pub msip: [bool; MAX_HARTS],
    pub mtimecmp: [u64; MAX_HARTS],
    /// Trace device: the guest physical address of the next line.
    pub trace_addr: u64,
    pub trace: Vec<u8>,
    pub console: Vec<u8>,
    pub htif: Option<Htif>,
    pub exit: Option<i32>,
    pub fault: Option<String>,
    /// One bit per RAM page holding decoded code: stores there take the slow path.
    code_pages: Vec<u64>,
    /// Bumped when a page gains decoded code, so harts drop write-TLB entries for it.
    pub code_epoch: u64,
    /// Stores into code pages not yet applied to the decoded-code cache: (address, length).
    pub code_writes: Vec<(u64, u64)>,
    /// Every hart's data cache, when the machine has one (here, where a store on one hart can
    /// reach the others' caches).
    pub dcache: Option<DataCaches>,
    /// What the trace device hands the guest when it asks for its words (a Linux init): the
    /// whole command line, of which Linux's own holds only Linux's words.
    pub words: Vec<u8>,
    /// Whether the machine stops when the guest asks for its words, so that a snapshot of it
    /// can start every run that boots the same way (`Machine::fork`).
    pub park_at_words: bool,
    /// The address the guest asked its words at while parked, not yet given.
    pub parked: Option<u64>,
}

/// Reads `N` little-endian bytes as a zero-extended u64.
#[inline(always)]
pub fn le_read<const N: usize>(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b[..N].copy_from_slice(&bytes[..N]);
    u64::from_le_bytes(b)
}

#[inline(always)]
pub fn le_write<const N: usize>(bytes: &mut [u8], value: u64) {
    bytes[..N].copy_from_slice(&value.to_le_bytes()[..N]);
}

/// Replaces the `size`-byte lane at byte `shift` of `old` with `value`.
fn merge(old: u64, offset_in_reg: u64, size: usize, value: u64) -> u64 {
    let shift = offset_in_reg * 8;
    let mask = if size >= 8 { u64::MAX } else { ((1u64 << (size * 8)) - 1) << shift };
    (old & !mask) | ((value << shift) & mask)
}

/// `bytes` zeroed bytes in one allocation that may fail, so a computer that cannot hold the RAM
/// gets an error rather than an abort. The memory comes zeroed from the system, untouched: a
/// probing allocation freed first would come back from the allocator's free list, which then
/// clears it, as the page's WebAssembly allocator did (128 MiB, most of a Worker's boot).
fn zeroed(bytes: usize) -> Option<Vec<u8>> {
    if bytes == 0 {
        return Some(Vec::new());
    }
    let layout = core::alloc::Layout::array::<u8>(bytes).ok()?;
    // SAFETY: the layout's size is not zero.
    let p = unsafe { alloc::alloc::alloc_zeroed(layout) };
    // SAFETY: `p` holds `bytes` initialised bytes, allocated by the global allocator with the
    // layout a `Vec<u8>` of that capacity has.
    (!p.is_null()).then(|| unsafe { Vec::from_raw_parts(p, bytes, bytes) })
}

impl Bus {
    /// A bus with zeroed RAM; `None` if the computer running the emulator cannot allocate it.
    pub fn new(ram_bytes: u64, harts: usize) -> Option<Bus> {
        let pages = (ram_bytes / PAGE_SIZE) as usize;
        let bytes = usize::try_from(ram_bytes).ok()?;
        let ram = zeroed(bytes)?;
        Some(Bus {
            ram,
            harts,
            uart: Uart::default(),
            msip: [false; MAX_HARTS],
            mtimecmp: [u64::MAX; MAX_HARTS],
            trace_addr: 0,
            trace: Vec::new(),
            console: Vec::new(),
            htif: None,
            exit: None,
            fault: None,
            code_pages: alloc::vec![0; pages.div_ceil(64)],
            code_epoch: 0,
            code_writes: Vec::new(),
            dcache: None,
            words: Vec::new(),
            park_at_words: false,
            parked: None,
        })
    }

    pub fn ram_end(&self) -> u64 {
        RAM_BASE + self.ram.len() as u64
    }

    /// Offset into `ram` of `len` bytes at physical `pa`, if they are all RAM.
    #[inline(always)]
    pub fn ram_offset(&self, pa: u64, len: u64) -> Option<usize> {
        let off = pa.wrapping_sub(RAM_BASE);
        (off < self.ram.len() as u64 && len <= self.ram.len() as u64 - off).then_some(off as usize)
    }

    pub fn is_code_page(&self, page: usize) -> bool {
        self.code_pages.get(page / 64).is_some_and(|w| w >> (page % 64) & 1 != 0)
    }

    pub fn mark_code_page(&mut self, page: usize) {
        if let Some(w) = self.code_pages.get_mut(page / 64) {
            *w |= 1 << (page % 64);
            self.code_epoch += 1;
        }
    }

    /// Zeroed RAM of `ram_bytes` in place of this bus's, with no page holding decoded code;
    /// false if the computer running the emulator cannot allocate it.
    pub fn fresh_ram(&mut self, ram_bytes: u64) -> bool {
        let Some(fresh) = Bus::new(ram_bytes, self.harts) else { return false };
        (self.ram, self.code_pages) = (fresh.ram, fresh.code_pages);
        self.code_writes.clear();
        self.code_epoch += 1;
        true
    }

    pub fn clear_code_pages(&mut self) {
        self.code_pages.iter_mut().for_each(|w| *w = 0);
        self.code_writes.clear();
        self.code_epoch += 1;
    }

    /// Whether a store to RAM page `page` must take the slow path (decoded code or HTIF).
    pub fn is_watched_page(&self, page: usize) -> bool {
        self.is_code_page(page) || self.htif.is_some_and(|h| (h.tohost.wrapping_sub(RAM_BASE) / PAGE_SIZE) as usize == page)
    }

    /// Reads `size` bytes at `pa` (RAM or device). `None` is an access fault.
    pub fn read(&mut self, pa: u64, size: usize, mtime: u64) -> Option<u64> {
        if let Some(off) = self.ram_offset(pa, size as u64) {
            let mut b = [0u8; 8];
            b[..size].copy_from_slice(&self.ram[off..off + size]);
            return Some(u64::from_le_bytes(b));
        }
        let within = |base: u64, len: u64| pa.wrapping_sub(base) < len;
        if within(CLINT_BASE, CLINT_SIZE) {
            self.clint_read(pa - CLINT_BASE, size, mtime)
        } else if within(UART_BASE, UART_SIZE) {
            Some(self.uart.read(pa - UART_BASE) as u64)
        } else if within(PLIC_BASE, PLIC_SIZE) || within(FINISHER_BASE, PAGE_SIZE) || within(TRACE_BASE, PAGE_SIZE) {
            Some(0)
        } else {
            None
        }
    }

    /// Writes `size` bytes at `pa`. `None` is an access fault; `Some(true)` means the store
    /// touched a device or watched RAM, so the interpreter must end its block.
    pub fn write(&mut self, pa: u64, size: usize, value: u64) -> Option<bool> {
        if let Some(off) = self.ram_offset(pa, size as u64) {
            self.ram[off..off + size].copy_from_slice(&value.to_le_bytes()[..size]);
            return Some(self.note_ram_write(pa, size as u64));
        }
        let within = |base: u64, len: u64| pa.wrapping_sub(base) < len;
        if within(CLINT_BASE, CLINT_SIZE) {
            self.clint_write(pa - CLINT_BASE, size, value);
        } else if within(UART_BASE, UART_SIZE) {
            self.uart.write(pa - UART_BASE, value as u8, &mut self.console);
        } else if within(FINISHER_BASE, PAGE_SIZE) {
            if pa == FINISHER_BASE {
                self.finisher_write(value);
            }
        } else if within(TRACE_BASE, PAGE_SIZE) {
            return self.trace_write(pa - TRACE_BASE, size, value).then_some(true);
        } else if !within(PLIC_BASE, PLIC_SIZE) {
            return None;
        }
        Some(true)
    }

    /// Bookkeeping after RAM bytes changed: code invalidation and HTIF. True if it mattered.
    pub fn note_ram_write(&mut self, pa: u64, len: u64) -> bool {
        let first = ((pa - RAM_BASE) / PAGE_SIZE) as usize;
        let last = ((pa + len.max(1) - 1 - RAM_BASE) / PAGE_SIZE) as usize;
        let mut watched = false;
        for page in first..=last {
            if self.is_code_page(page) {
                self.code_writes.push((pa, len));
                watched = true;
            }
        }
        if let Some(htif) = self.htif
            && pa < htif.tohost.wrapping_add(8)
            && htif.tohost < pa + len
        {
            self.htif_request(htif);
            watched = true;
        }
        watched
    }

    fn clint_read(&self, offset: u64, size: usize, mtime: u64) -> Option<u64> {
        let (reg, value) = if offset < CLINT_MTIMECMP {
            let hart = (offset / 4) as usize;
            (offset & !3, (hart < self.harts && self.msip[hart]) as u64)
        } else if offset < CLINT_MTIME {
            let hart = ((offset - CLINT_MTIMECMP) / 8) as usize;
            (offset & !7, if hart < self.harts { self.mtimecmp[hart] } else { 0 })
        } else {
            (CLINT_MTIME, mtime)
        };
        let shift = (offset - reg) * 8;
        let value = value.checked_shr(shift as u32).unwrap_or(0);
        Some(if size >= 8 { value } else { value & ((1 << (size * 8)) - 1) })
    }

    /// CLINT writes; `mtime` is derived from instructions and cannot be written.
    fn clint_write(&mut self, offset: u64, size: usize, value: u64) {
        if offset < CLINT_MTIMECMP {
            let hart = (offset / 4) as usize;
            if hart < self.harts && offset.is_multiple_of(4) {
                self.msip[hart] = value & 1 != 0;
            }
        } else if offset < CLINT_MTIME {
            let hart = ((offset - CLINT_MTIMECMP) / 8) as usize;
            if hart < self.harts {
                let old = self.mtimecmp[hart];
                self.mtimecmp[hart] = merge(old, offset % 8, size, value);
            }
        }
    }

    fn finisher_write(&mut self, value: u64) {
        match value & 0xffff {
            0x5555 | 0x7777 => self.exit = Some(0),
            0x3333 => self.exit = Some(((value >> 16) & 0xffff) as i32),
            _ => {}
        }
    }

    /// Trace device; false when a copy request is out of range (the store faults).
    fn trace_write(&mut self, offset: u64, size: usize, value: u64) -> bool {
        match offset {
            0x00..=0x07 => self.trace_addr = merge(self.trace_addr, offset, size, value),
            0x08 => {
                if value > TRACE_MAX_LINE {
                    return false;
                }
                let Some(off) = self.ram_offset(self.trace_addr, value) else { return false };
                self.trace.extend_from_slice(&self.ram[off..off + value as usize]);
            }
            0x10 => self.trace.push(value as u8),
            0x18 if self.park_at_words => {
                if self.ram_offset(value, crate::machine::MAX_BOOTARGS as u64 + 1).is_none() {
                    return false;
                }
                self.parked = Some(value);
            }
            0x18 => return self.give_words(value),
            _ => {}
        }
        true
    }

    /// Writes the guest's words, NUL-terminated, at physical `addr`; false when they do not
    /// fit in RAM there (the store faults).
    pub fn give_words(&mut self, addr: u64) -> bool {
        // The room the longest line needs, whatever this one's length, so that a run parked
        // here and given other words later faults exactly where it would have.
        let Some(off) = self.ram_offset(addr, crate::machine::MAX_BOOTARGS as u64 + 1) else { return false };
        let len = self.words.len() as u64 + 1;
        self.ram[off..off + self.words.len()].copy_from_slice(&self.words);
        self.ram[off + self.words.len()] = 0;
        self.note_ram_write(addr, len);
        true
    }

    fn htif_request(&mut self, htif: Htif) {
        let Some(off) = self.ram_offset(htif.tohost, 8) else { return };
        let request = le_read::<8>(&self.ram[off..]);
        if request == 0 {
            return;
        }
        let (device, command, payload) = (request >> 56, (request >> 48) & 0xff, request & 0xffff_ffff_ffff);
        match (device, command) {
            (0, _) if payload & 1 == 1 => self.exit = Some((payload >> 1) as i32),
            (1, 1) => {
                self.console.push(payload as u8);
                le_write::<8>(&mut self.ram[off..], 0);
                if let Some(from) = htif.fromhost.and_then(|f| self.ram_offset(f, 8)) {
                    le_write::<8>(&mut self.ram[from..], (1 << 56) | (1 << 48) | 0x100 | (payload & 0xff));
                }
            }
            _ => {
                self.fault = Some(alloc::format!("unsupported HTIF request {request:#x} written to tohost"));
            }
        }
    }

    /// Global instruction ticks at which hart `hart`'s timer fires.
    pub fn timer_deadline(&self, hart: usize) -> u64 {
        self.mtimecmp[hart].saturating_mul(TICKS_PER_MTIME)
    }
}
