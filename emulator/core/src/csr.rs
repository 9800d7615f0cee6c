//! CSR reads and writes with their access rules and WARL behaviour.

use crate::bus::Bus;
use crate::hart::{cause, irq, mstatus, Hart, Trap, PRV_M, PRV_S, PRV_U};

pub const SSTATUS: u16 = 0x100;
pub const SIE: u16 = 0x104;
pub const STVEC: u16 = 0x105;
pub const SCOUNTEREN: u16 = 0x106;
pub const SENVCFG: u16 = 0x10a;
pub const SSCRATCH: u16 = 0x140;
pub const SEPC: u16 = 0x141;
pub const SCAUSE: u16 = 0x142;
pub const STVAL: u16 = 0x143;
pub const SIP: u16 = 0x144;
pub const SATP: u16 = 0x180;
pub const MSTATUS: u16 = 0x300;
pub const MISA: u16 = 0x301;
pub const MEDELEG: u16 = 0x302;
pub const MIDELEG: u16 = 0x303;
pub const MIE: u16 = 0x304;
pub const MTVEC: u16 = 0x305;
pub const MCOUNTEREN: u16 = 0x306;
pub const MENVCFG: u16 = 0x30a;
pub const MCOUNTINHIBIT: u16 = 0x320;
pub const MSCRATCH: u16 = 0x340;
pub const MEPC: u16 = 0x341;
pub const MCAUSE: u16 = 0x342;
pub const MTVAL: u16 = 0x343;
pub const MIP: u16 = 0x344;
pub const PMPCFG0: u16 = 0x3a0;
pub const PMPCFG2: u16 = 0x3a2;
pub const PMPADDR0: u16 = 0x3b0;
pub const PMPADDR15: u16 = 0x3bf;
pub const MCYCLE: u16 = 0xb00;
pub const MINSTRET: u16 = 0xb02;
pub const CYCLE: u16 = 0xc00;
pub const TIME: u16 = 0xc01;
pub const INSTRET: u16 = 0xc02;
pub const MVENDORID: u16 = 0xf11;
pub const MHARTID: u16 = 0xf14;

/// RV64 with A, C, I, M, S, U.
const MISA_VALUE: u64 = (2 << 62) | (1 << 0) | (1 << 2) | (1 << 8) | (1 << 12) | (1 << 18) | (1 << 20);
const SATP_MODE_SV39: u64 = 8;
/// ASID (16 bits) and PPN (44 bits).
const SATP_WRITABLE: u64 = (0xffff << 44) | ((1 << 44) - 1);

fn illegal() -> Trap {
    Trap::new(cause::ILLEGAL, 0)
}

/// CSRs that exist but always read zero and ignore writes: the PMP entries past the 16
/// implemented (pmpcfg4..14, even only; pmpaddr16..63), performance counters and events,
/// environment configuration, debug triggers, mconfigptr. The odd pmpcfg CSRs do not exist
/// on RV64.
fn reads_zero(addr: u16) -> bool {
    match addr {
        0x3a4..=0x3ae => addr.is_multiple_of(2),
        0x3c0..=0x3ef | 0xb03..=0xb1f | 0x323..=0x33f | 0xc03..=0xc1f
        | MENVCFG | SENVCFG | MCOUNTINHIBIT | 0x7a0..=0x7a3 | 0xf12 | 0xf13 | 0xf15 | MVENDORID => true,
        _ => false,
    }
}

/// The counters whose value depends on when in an instruction they are read.
fn is_counter(addr: u16) -> bool {
    matches!(addr, MCYCLE | MINSTRET | CYCLE | INSTRET)
}

impl Hart {
    /// Privilege and read-only checks from the CSR number, plus TVM and counter enables.
    fn check_access(&self, addr: u16, write: bool) -> Result<(), Trap> {
        let min_prv = ((addr >> 8) & 3) as u8;
        if self.prv < min_prv || (write && addr >> 10 == 3) {
            return Err(illegal());
        }
        if addr == SATP && self.prv == PRV_S && self.csr.mstatus & mstatus::TVM != 0 {
            return Err(illegal());
        }
        if (CYCLE..=0xc1f).contains(&addr) {
            let bit = 1u64 << (addr - CYCLE);
            let allowed = match self.prv {
                PRV_M => true,
                PRV_S => self.csr.mcounteren & bit != 0,
                _ => self.csr.mcounteren & self.csr.scounteren & bit != 0,
            };
            if !allowed {
                return Err(illegal());
            }
        }
        Ok(())
    }

    /// Reads a CSR without access checks; `None` if it does not exist.
    pub fn csr_read(&self, addr: u16, bus: &Bus) -> Option<u64> {
        let c = &self.csr;
        Some(match addr {
            SSTATUS => c.mstatus & mstatus::SSTATUS_VIEW,
            SIE => c.mie & c.mideleg,
            STVEC => c.stvec,
            SCOUNTEREN => c.scounteren,
            SSCRATCH => c.sscratch,
            SEPC => c.sepc,
            SCAUSE => c.scause,
            STVAL => c.stval,
            SIP => self.mip(bus) & c.mideleg,
            SATP => c.satp,
            MSTATUS => c.mstatus,
            MISA => MISA_VALUE,
            MEDELEG => c.medeleg,
            MIDELEG => c.mideleg,
            MIE => c.mie,
            MTVEC => c.mtvec,
            MCOUNTEREN => c.mcounteren,
            MSCRATCH => c.mscratch,
            MEPC => c.mepc,
            MCAUSE => c.mcause,
            MTVAL => c.mtval,
            MIP => self.mip(bus),
            MCYCLE | CYCLE => self.ticks.wrapping_add(c.cycle_delta),
            MINSTRET | INSTRET => self.retired().wrapping_add(c.instret_delta),
            TIME => self.mtime(),
            MHARTID => self.id as u64,
            PMPCFG0 | PMPCFG2 => c.pmp.read_cfg((addr - PMPCFG0) as usize),
            PMPADDR0..=PMPADDR15 => c.pmp.read_addr((addr - PMPADDR0) as usize),
            a if reads_zero(a) => 0,
            _ => return None,
        })
    }

    /// Writes a CSR without access checks (WARL rules applied). False if it does not exist.
    pub fn csr_write(&mut self, addr: u16, value: u64) -> bool {
        let c = &mut self.csr;
        match addr {
            SSTATUS => c.mstatus = (c.mstatus & !mstatus::SSTATUS_WRITABLE) | (value & mstatus::SSTATUS_WRITABLE),
            SIE => c.mie = (c.mie & !c.mideleg) | (value & c.mideleg),
            STVEC => c.stvec = legal_tvec(value),
            SCOUNTEREN => c.scounteren = value & 0xffff_ffff,
            SSCRATCH => c.sscratch = value,
            SEPC => c.sepc = value & !1,
            SCAUSE => c.scause = value,
            STVAL => c.stval = value,
            // Only SSIP is writable through sip, and only when delegated.
            SIP => {
                let mask = irq::SSI & c.mideleg;
                c.mip = (c.mip & !mask) | (value & mask);
            }
            SATP => {
                let mode = value >> 60;
                if mode != 0 && mode != SATP_MODE_SV39 {
                    return true; // unsupported mode: the write has no effect
                }
                c.satp = (mode << 60) | (value & SATP_WRITABLE);
                self.tlb.flush_translated();
            }
            MSTATUS => {
                let mut next = (c.mstatus & !mstatus::WRITABLE) | (value & mstatus::WRITABLE);
                if (next & mstatus::MPP) >> mstatus::MPP_SHIFT == 2 {
                    next &= !mstatus::MPP; // reserved privilege: WARL to U
                }
                c.mstatus = next;
            }
            MISA => {}
            MEDELEG => c.medeleg = value & cause::DELEGABLE,
            MIDELEG => c.mideleg = value & irq::S_LEVEL,
            MIE => c.mie = value & irq::ALL,
            MTVEC => c.mtvec = legal_tvec(value),
            MCOUNTEREN => c.mcounteren = value & 0xffff_ffff,
            MSCRATCH => c.mscratch = value,
            MEPC => c.mepc = value & !1,
            MCAUSE => c.mcause = value,
            MTVAL => c.mtval = value,
            MIP => c.mip = (c.mip & !irq::MIP_WRITABLE) | (value & irq::MIP_WRITABLE),
            // The counters are `ticks + delta`. During a CSR instruction `ticks` already counts
            // it, so the writing instruction is not counted on top of the value written.
            MCYCLE => c.cycle_delta = value.wrapping_sub(self.ticks),
            MINSTRET => c.instret_delta = value.wrapping_sub(self.ticks - self.stalls),
            PMPCFG0 | PMPCFG2 => {
                c.pmp.write_cfg((addr - PMPCFG0) as usize, value);
                self.tlb.flush();
            }
            PMPADDR0..=PMPADDR15 => {
                c.pmp.write_addr((addr - PMPADDR0) as usize, value);
                self.tlb.flush();
            }
            a if reads_zero(a) => {}
            _ => return false,
        }
        self.update_ctx();
        true
    }

    /// Executes a CSR instruction; `Ok(true)` when the write may change interrupt state or
    /// translation, so the block must end.
    pub fn csr_instruction(&mut self, bus: &Bus, addr: u16, rd: usize, source: u64, kind: CsrOp, skip_write: bool) -> Result<bool, Trap> {
        self.check_access(addr, !skip_write)?;
        let mut old = self.csr_read(addr, bus).ok_or_else(illegal)?;
        if is_counter(addr) {
            // `ticks` already counts this instruction, but it reads the count before it
            // retires; after a write of V the next instruction reads V (privileged spec 3.1.11).
            old = old.wrapping_sub(1);
        }
        if !skip_write {
            let new = match kind {
                CsrOp::Write => source,
                CsrOp::Set => old | source,
                CsrOp::Clear => old & !source,
            };
            if !self.csr_write(addr, new) {
                return Err(illegal());
            }
        }
        self.x[rd & 255] = old;
        Ok(!skip_write && ends_block(addr))
    }

    pub fn check_sfence(&self) -> Result<(), Trap> {
        if self.prv == PRV_U || (self.prv == PRV_S && self.csr.mstatus & mstatus::TVM != 0) {
            return Err(illegal());
        }
        Ok(())
    }
}

/// CSRs whose writes can make an interrupt deliverable or change address translation or
/// memory protection.
fn ends_block(addr: u16) -> bool {
    matches!(addr, SSTATUS | SIE | SIP | SATP | MSTATUS | MIE | MIP | MIDELEG | MEDELEG | PMPCFG0 | PMPCFG2 | PMPADDR0..=PMPADDR15)
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum CsrOp {
    Write,
    Set,
    Clear,
}

/// Direct (0) and vectored (1) modes; the reserved modes fall back to direct.
fn legal_tvec(value: u64) -> u64 {
    if value & 3 == 1 { value } else { value & !3 }
}
