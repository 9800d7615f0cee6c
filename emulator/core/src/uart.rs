//! 16550A UART with byte registers. Transmission is instant (THRE and TEMT always set); input
//! comes from the embedder through a buffer. No interrupt line is wired (the PLIC is a stub), but
//! IIR reports what would be pending, as drivers poll it.

use alloc::collections::VecDeque;
use alloc::vec::Vec;

const LCR_DLAB: u8 = 0x80;
const LSR_DR: u8 = 0x01;
const LSR_THRE_TEMT: u8 = 0x60;
const IER_RDA: u8 = 0x01;
const IER_THRE: u8 = 0x02;
const IIR_NONE: u8 = 0x01;
const IIR_THRE: u8 = 0x02;
const IIR_RDA: u8 = 0x04;
const IIR_FIFO: u8 = 0xc0;
/// DCD, DSR and CTS asserted, as QEMU reports with nothing attached.
const MSR_IDLE: u8 = 0xb0;

#[derive(Clone, Default)]
pub struct Uart {
    pub input: VecDeque<u8>,
    pub ier: u8,
    pub lcr: u8,
    pub mcr: u8,
    pub scr: u8,
    pub fcr: u8,
    pub dll: u8,
    pub dlm: u8,
    /// The "transmitter empty" interrupt is pending until IIR reports it or THR is written.
    pub thre_pending: bool,
}

impl Uart {
    fn dlab(&self) -> bool {
        self.lcr & LCR_DLAB != 0
    }

    fn iir(&mut self) -> u8 {
        let fifo = if self.fcr & 1 != 0 { IIR_FIFO } else { 0 };
        if self.ier & IER_RDA != 0 && !self.input.is_empty() {
            IIR_RDA | fifo
        } else if self.ier & IER_THRE != 0 && self.thre_pending {
            self.thre_pending = false;
            IIR_THRE | fifo
        } else {
            IIR_NONE | fifo
        }
    }

    pub fn read(&mut self, offset: u64) -> u8 {
        match offset {
            0 if self.dlab() => self.dll,
            0 => self.input.pop_front().unwrap_or(0),
            1 if self.dlab() => self.dlm,
            1 => self.ier,
            2 => self.iir(),
            3 => self.lcr,
            4 => self.mcr,
            5 => LSR_THRE_TEMT | if self.input.is_empty() { 0 } else { LSR_DR },
            6 => MSR_IDLE,
            7 => self.scr,
            _ => 0,
        }
    }

    /// Writes a register; a transmitted byte goes to `console`.
    pub fn write(&mut self, offset: u64, value: u8, console: &mut Vec<u8>) {
        match offset {
            0 if self.dlab() => self.dll = value,
            0 => {
                console.push(value);
                self.thre_pending = true;
            }
            1 if self.dlab() => self.dlm = value,
            1 => {
                if value & IER_THRE != 0 && self.ier & IER_THRE == 0 {
                    self.thre_pending = true;
                }
                self.ier = value & 0x0f;
            }
            2 => {
                if value & 0x02 != 0 {
                    self.input.clear();
                }
                self.fcr = value & 0xc9;
            }
            3 => self.lcr = value,
            4 => self.mcr = value & 0x1f,
            7 => self.scr = value,
            _ => {}
        }
    }
}
