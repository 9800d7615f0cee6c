//! A hart's architectural state, traps, interrupts and privilege changes.

use crate::bus::Bus;
use crate::mmu::{Tlb, BARE, BARE_SU};
use crate::pmp::Pmp;
use crate::TICKS_PER_MTIME;

pub const PRV_U: u8 = 0;
pub const PRV_S: u8 = 1;
pub const PRV_M: u8 = 3;

pub mod mstatus {
    pub const SIE: u64 = 1 << 1;
    pub const MIE: u64 = 1 << 3;
    pub const SPIE: u64 = 1 << 5;
    pub const MPIE: u64 = 1 << 7;
    pub const SPP: u64 = 1 << 8;
    pub const MPP_SHIFT: u64 = 11;
    pub const MPP: u64 = 3 << MPP_SHIFT;
    pub const MPRV: u64 = 1 << 17;
    pub const SUM: u64 = 1 << 18;
    pub const MXR: u64 = 1 << 19;
    pub const TVM: u64 = 1 << 20;
    pub const TW: u64 = 1 << 21;
    pub const TSR: u64 = 1 << 22;
    /// UXL = SXL = 64 bits, read-only.
    pub const XLEN_FIELDS: u64 = (2 << 32) | (2 << 34);
    pub const WRITABLE: u64 = SIE | MIE | SPIE | MPIE | SPP | MPP | MPRV | SUM | MXR | TVM | TW | TSR;
    pub const SSTATUS_VIEW: u64 = SIE | SPIE | SPP | SUM | MXR | (3 << 32);
    pub const SSTATUS_WRITABLE: u64 = SIE | SPIE | SPP | SUM | MXR;
}

/// Interrupt bits of mip/mie.
pub mod irq {
    pub const SSI: u64 = 1 << 1;
    pub const MSI: u64 = 1 << 3;
    pub const STI: u64 = 1 << 5;
    pub const MTI: u64 = 1 << 7;
    pub const SEI: u64 = 1 << 9;
    pub const MEI: u64 = 1 << 11;
    /// Bits software may set in mip (the rest mirror devices).
    pub const MIP_WRITABLE: u64 = SSI | STI | SEI;
    pub const ALL: u64 = SSI | MSI | STI | MTI | SEI | MEI;
    pub const S_LEVEL: u64 = SSI | STI | SEI;
    /// Highest priority first (privileged spec 3.1.9).
    pub const PRIORITY: [u64; 6] = [11, 3, 7, 9, 1, 5];
}

pub mod cause {
    pub const FETCH_ACCESS: u64 = 1;
    pub const ILLEGAL: u64 = 2;
    pub const BREAKPOINT: u64 = 3;
    pub const LOAD_MISALIGNED: u64 = 4;
    pub const LOAD_ACCESS: u64 = 5;
    pub const STORE_MISALIGNED: u64 = 6;
    pub const STORE_ACCESS: u64 = 7;
    pub const ECALL_U: u64 = 8;
    pub const ECALL_S: u64 = 9;
    pub const FETCH_PAGE: u64 = 12;
    pub const LOAD_PAGE: u64 = 13;
    pub const STORE_PAGE: u64 = 15;
    pub const INTERRUPT: u64 = 1 << 63;
    /// Exceptions medeleg can delegate.
    pub const DELEGABLE: u64 = 0xb3ff;
}

/// A synchronous exception about to be taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trap {
    pub cause: u64,
    pub tval: u64,
}

impl Trap {
    pub fn new(cause: u64, tval: u64) -> Trap {
        Trap { cause, tval }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum RunState {
    Running = 0,
    /// In `wfi` (or SBI suspend) until an enabled interrupt is pending.
    Waiting = 1,
    /// Not started, or stopped through SBI HSM.
    Stopped = 2,
}

#[derive(Clone, Default)]
pub struct Csrs {
    pub mstatus: u64,
    pub medeleg: u64,
    pub mideleg: u64,
    pub mie: u64,
    /// Software-writable pending bits; device bits are added by [`Hart::mip`].
    pub mip: u64,
    pub mtvec: u64,
    pub stvec: u64,
    pub mscratch: u64,
    pub sscratch: u64,
    pub mepc: u64,
    pub sepc: u64,
    pub mcause: u64,
    pub scause: u64,
    pub mtval: u64,
    pub stval: u64,
    pub satp: u64,
    pub mcounteren: u64,
    pub scounteren: u64,
    /// Added to the hart's tick count to give mcycle / minstret (they can be written).
    pub cycle_delta: u64,
    pub instret_delta: u64,
    pub pmp: Pmp,
}

/// `repr(C)` with the registers first, so the interpreter addresses them from the hart's own
/// pointer and needs no extra register for the register file.
#[derive(Clone)]
#[repr(C)]
pub struct Hart {
    /// x0..x31, then a sink for writes to x0 (see `decode::ZERO_SINK`), padded so any `u8`
    /// index is in bounds.
    pub x: [u64; 256],
    pub id: usize,
    pub pc: u64,
    pub prv: u8,
    pub state: RunState,
    pub csr: Csrs,
    /// The hart's time, counted in instructions: those it retired (a trap counts as one) plus
    /// its data cache stalls. mcycle counts it; minstret leaves the stalls out.
    pub ticks: u64,
    /// Global ticks = `clock_base + ticks` while this hart runs.
    pub clock_base: u64,
    /// LR reservation: physical address and the value loaded.
    pub reservation: Option<(u64, u64)>,
    /// The emulator plays SBI firmware: M-mode traps are redirected to S-mode.
    pub firmware: bool,
    pub tlb: Tlb,
    pub tlb_epoch: u64,
    /// Translation context for loads/stores and for fetches (see `mmu`).
    pub data_ctx: u64,
    pub fetch_ctx: u64,
    /// A trap was just taken and no instruction has been fetched since.
    pub just_trapped: bool,
    /// The last block was cut short by the tick limit: the next one starts where it stopped,
    /// not where anything jumped, so its entry does not grow hot (`exec`).
    pub cut: bool,
    /// Waiting because of SBI HSM suspend (reported by hart_get_status).
    pub suspended: bool,
    /// Ticks spent stalled on data cache misses. This and `overrun` come last so that the
    /// fields the interpreter's loop uses keep their offsets.
    pub stalls: u64,
    /// Ticks a stall ran past the end of the hart's last turn, still to be taken from its
    /// next turns (see `Machine::next_turn`).
    pub overrun: u64,
    /// Reference execution (`Exec::Reference`): every block is one op long, so none of the
    /// interpreter's multi-op fast paths runs. The determinism test compares it with the fast mode.
    pub reference: bool,
}

impl Hart {
    pub fn new(id: usize) -> Hart {
        Hart {
            id,
            x: [0; 256],
            pc: 0,
            prv: PRV_M,
            state: RunState::Running,
            csr: Csrs { mstatus: mstatus::XLEN_FIELDS, ..Csrs::default() },
            ticks: 0,
            stalls: 0,
            overrun: 0,
            clock_base: 0,
            reservation: None,
            firmware: false,
            tlb: Tlb::new(),
            tlb_epoch: 0,
            data_ctx: BARE,
            fetch_ctx: BARE,
            just_trapped: false,
            cut: false,
            suspended: false,
            reference: false,
        }
    }

    /// Global ticks now.
    #[inline(always)]
    pub fn now(&self) -> u64 {
        self.clock_base.wrapping_add(self.ticks)
    }

    /// Instructions retired (a trap counts as one): the time less the stalls.
    pub fn retired(&self) -> u64 {
        self.ticks - self.stalls
    }

    pub fn mtime(&self) -> u64 {
        self.now() / TICKS_PER_MTIME
    }

    /// mip as software sees it: written bits plus the CLINT's software and timer lines.
    /// With the emulator as firmware they arrive as the supervisor bits, as OpenSBI forwards them.
    pub fn mip(&self, bus: &Bus) -> u64 {
        let mut mip = self.csr.mip;
        let (soft, timer) = if self.firmware { (irq::SSI, irq::STI) } else { (irq::MSI, irq::MTI) };
        if bus.msip[self.id] {
            mip |= soft;
        }
        if self.now() >= bus.timer_deadline(self.id) {
            mip |= timer;
        }
        mip
    }

    /// The interrupt to take now, if any, by the spec's enable and priority rules.
    #[inline(always)]
    pub fn pending_interrupt(&self, bus: &Bus) -> Option<u64> {
        let pending = self.mip(bus) & self.csr.mie;
        if pending == 0 {
            return None;
        }
        let m_on = self.prv < PRV_M || self.csr.mstatus & mstatus::MIE != 0;
        let s_on = self.prv < PRV_S || (self.prv == PRV_S && self.csr.mstatus & mstatus::SIE != 0);
        let mut take = 0;
        if m_on {
            take |= pending & !self.csr.mideleg;
        }
        if s_on {
            take |= pending & self.csr.mideleg;
        }
        irq::PRIORITY.into_iter().find(|&bit| take >> bit & 1 != 0).map(|bit| bit | cause::INTERRUPT)
    }

    /// Whether `wfi` would return at once (an enabled interrupt is pending, globally or not).
    pub fn wake_pending(&self, bus: &Bus) -> bool {
        self.mip(bus) & self.csr.mie != 0
    }

    /// Takes a trap at the current pc: to S-mode if delegated (or, as firmware, always),
    /// else to M-mode.
    pub fn trap(&mut self, cause_value: u64, tval: u64) {
        let interrupt = cause_value & cause::INTERRUPT != 0;
        let code = cause_value & 63;
        let deleg = if interrupt { self.csr.mideleg } else { self.csr.medeleg };
        let to_s = self.prv <= PRV_S && (deleg >> code & 1 != 0 || self.firmware);
        let ms = &mut self.csr.mstatus;
        if to_s {
            self.csr.scause = cause_value;
            self.csr.sepc = self.pc;
            self.csr.stval = tval;
            let sie = *ms & mstatus::SIE != 0;
            *ms &= !(mstatus::SPIE | mstatus::SIE | mstatus::SPP);
            if sie {
                *ms |= mstatus::SPIE;
            }
            if self.prv == PRV_S {
                *ms |= mstatus::SPP;
            }
            self.prv = PRV_S;
            self.pc = vector(self.csr.stvec, interrupt, code);
        } else {
            self.csr.mcause = cause_value;
            self.csr.mepc = self.pc;
            self.csr.mtval = tval;
            let mie = *ms & mstatus::MIE != 0;
            *ms &= !(mstatus::MPIE | mstatus::MIE | mstatus::MPP);
            if mie {
                *ms |= mstatus::MPIE;
            }
            *ms |= (self.prv as u64) << mstatus::MPP_SHIFT;
            self.prv = PRV_M;
            self.pc = vector(self.csr.mtvec, interrupt, code);
        }
        self.reservation = None;
        self.just_trapped = true;
        self.update_ctx();
    }

    /// `mret`: back to the privilege in MPP.
    pub fn mret(&mut self) {
        let ms = self.csr.mstatus;
        let prv = ((ms & mstatus::MPP) >> mstatus::MPP_SHIFT) as u8;
        let mut next = ms & !(mstatus::MPP | mstatus::MIE);
        next |= mstatus::MPIE;
        if ms & mstatus::MPIE != 0 {
            next |= mstatus::MIE;
        }
        if prv != PRV_M {
            next &= !mstatus::MPRV;
        }
        self.csr.mstatus = next;
        self.prv = prv;
        self.pc = self.csr.mepc;
        self.reservation = None;
        self.update_ctx();
    }

    /// `sret`: back to the privilege in SPP.
    pub fn sret(&mut self) {
        let ms = self.csr.mstatus;
        let prv = if ms & mstatus::SPP != 0 { PRV_S } else { PRV_U };
        let mut next = ms & !(mstatus::SPP | mstatus::SIE | mstatus::MPRV);
        next |= mstatus::SPIE;
        if ms & mstatus::SPIE != 0 {
            next |= mstatus::SIE;
        }
        self.csr.mstatus = next;
        self.prv = prv;
        self.pc = self.csr.sepc;
        self.reservation = None;
        self.update_ctx();
    }

    /// Recomputes the translation contexts after a change of privilege, mstatus or satp.
    pub fn update_ctx(&mut self) {
        let ms = self.csr.mstatus;
        let paging = self.csr.satp >> 60 == 8;
        let data_prv = if self.prv == PRV_M && ms & mstatus::MPRV != 0 { ((ms & mstatus::MPP) >> mstatus::MPP_SHIFT) as u8 } else { self.prv };
        self.data_ctx = if data_prv == PRV_M {
            BARE
        } else if !paging {
            BARE_SU
        } else {
            data_prv as u64 | (((ms & mstatus::SUM) != 0) as u64) << 2 | (((ms & mstatus::MXR) != 0) as u64) << 3
        };
        self.fetch_ctx = match self.prv {
            PRV_M => BARE,
            _ if !paging => BARE_SU,
            prv => prv as u64,
        };
    }
}

/// Trap target: vectored mode sends interrupts to base + 4 * cause.
fn vector(tvec: u64, interrupt: bool, code: u64) -> u64 {
    let base = tvec & !3;
    if interrupt && tvec & 3 == 1 { base.wrapping_add(4 * code) } else { base }
}
