//! Physical memory protection (privileged spec 3.7): 16 entries, as QEMU `virt` has, with a
//! granularity of 4 bytes (G = 0, so NA4 is available and `pmpaddr` reads back as written).
//!
//! Checks apply to every physical access: fetches, loads, stores, AMOs and page-table walks
//! (as S-mode), in RAM and devices alike. An access is decided by the lowest-numbered entry
//! that matches any of its bytes: it fails unless that entry covers all of them and grants
//! the access (M-mode is held to the entry only when it is locked). With no matching entry,
//! M-mode succeeds and S/U fail, since entries are implemented.
//!
//! The TLBs cache a page only when one decision holds for the whole page (see
//! [`Pmp::allows`] with the page as the access), so TLB hits need no PMP check; writes to
//! the PMP CSRs flush the TLBs.

pub const ENTRIES: usize = 16;

pub const R: u8 = 1 << 0;
pub const W: u8 = 1 << 1;
pub const X: u8 = 1 << 2;
const A_SHIFT: u8 = 3;
const A: u8 = 3 << A_SHIFT;
const A_TOR: u8 = 1;
const A_NA4: u8 = 2;
const A_NAPOT: u8 = 3;
const L: u8 = 1 << 7;
/// `pmpaddr` holds bits 55..2 of an address (RV64); bits 63..54 read zero.
const ADDR_BITS: u64 = (1 << 54) - 1;

/// One active entry: the bytes `lo..hi` and its configuration.
#[derive(Clone, Copy, Default)]
struct Rule {
    lo: u64,
    hi: u64,
    cfg: u8,
}

#[derive(Clone, Default)]
pub struct Pmp {
    cfg: [u8; ENTRIES],
    addr: [u64; ENTRIES],
    /// The entries that match something, in priority order (derived from `cfg` and `addr`).
    rules: [Rule; ENTRIES],
    active: usize,
}

impl Pmp {
    /// `pmpcfg0` or `pmpcfg2` (`reg` 0 or 2): eight entries' configuration bytes.
    pub fn read_cfg(&self, reg: usize) -> u64 {
        let first = reg / 2 * 8;
        (0..8).fold(0, |v, i| v | (self.cfg[first + i] as u64) << (8 * i))
    }

    /// Writes `pmpcfg0` or `pmpcfg2`; locked entries keep their byte.
    pub fn write_cfg(&mut self, reg: usize, value: u64) {
        let first = reg / 2 * 8;
        for i in 0..8 {
            let entry = first + i;
            if self.cfg[entry] & L == 0 {
                self.cfg[entry] = legal_cfg((value >> (8 * i)) as u8);
            }
        }
        self.update();
    }

    pub fn read_addr(&self, entry: usize) -> u64 {
        self.addr[entry]
    }

    /// Writes `pmpaddr<entry>` unless the entry is locked, or the next entry is a locked TOR
    /// entry that uses this address as its bottom.
    pub fn write_addr(&mut self, entry: usize, value: u64) {
        let locked_tor_above =
            self.cfg.get(entry + 1).is_some_and(|&c| c & L != 0 && (c & A) >> A_SHIFT == A_TOR);
        if self.cfg[entry] & L == 0 && !locked_tor_above {
            self.addr[entry] = value & ADDR_BITS;
            self.update();
        }
    }

    /// The whole physical address space, readable, writable and executable by S and U, as
    /// OpenSBI leaves it for the kernel: entry 0, NAPOT over everything, not locked.
    pub fn grant_all(&mut self) {
        self.addr[0] = ADDR_BITS;
        self.cfg[0] = A_NAPOT << A_SHIFT | R | W | X;
        self.update();
    }

    /// Recomputes the active rules from the registers.
    fn update(&mut self) {
        self.active = 0;
        for i in 0..ENTRIES {
            let cfg = self.cfg[i];
            let addr = self.addr[i];
            let (lo, hi) = match (cfg & A) >> A_SHIFT {
                A_TOR => (if i == 0 { 0 } else { self.addr[i - 1] << 2 }, addr << 2),
                A_NA4 => (addr << 2, (addr << 2) + 4),
                A_NAPOT => {
                    // k trailing ones: a region of 2^(k+3) bytes. addr < 2^54, so this fits.
                    let size = 1u64 << (addr.trailing_ones() + 3);
                    let lo = (addr << 2) & !(size - 1);
                    (lo, lo + size)
                }
                _ => continue,
            };
            // A TOR entry whose top is not above its bottom matches nothing.
            if lo < hi {
                self.rules[self.active] = Rule { lo, hi, cfg };
                self.active += 1;
            }
        }
    }

    /// Whether an access of `size` bytes at `pa` needing permission `need` (R, W or X)
    /// succeeds; `machine` says the effective privilege is M.
    ///
    /// With a whole page as the access, a true answer holds for every access within it.
    #[inline]
    pub fn allows(&self, pa: u64, size: u64, need: u8, machine: bool) -> bool {
        let last = pa.saturating_add(size - 1);
        for rule in &self.rules[..self.active] {
            if last < rule.lo || pa >= rule.hi {
                continue;
            }
            if pa < rule.lo || last >= rule.hi {
                return false; // matches some bytes but not all
            }
            return (machine && rule.cfg & L == 0) || rule.cfg & need != 0;
        }
        machine
    }
}

/// The configuration byte as stored: bits 6..5 are reserved (zero), and W without R is a
/// reserved combination, stored with W cleared (no read, no write).
fn legal_cfg(byte: u8) -> u8 {
    let byte = byte & !0x60;
    if byte & (R | W) == W { byte & !W } else { byte }
}
