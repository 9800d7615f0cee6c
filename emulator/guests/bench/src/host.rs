//! What differs between the machines the benchmark runs on, found from the FDT in a1: where
//! HTIF lives, and how wide device accesses may be.
//!
//! Runqueue and QEMU take HTIF requests at the ELF's `tohost` symbol and accept 64-bit device
//! accesses. TinyEMU ignores the symbol: its HTIF sits at 0x4000_8000, and its devices take
//! 32-bit accesses only. Its device tree's root says `ucbbar,riscvemu-bar_dev`.

use core::ptr::{read_volatile, write_volatile};
use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use runqueue_fdt::Fdt;

#[unsafe(no_mangle)]
#[unsafe(link_section = ".tohost")]
static mut tohost: u64 = 0;
#[unsafe(no_mangle)]
#[unsafe(link_section = ".tohost")]
static mut fromhost: u64 = 0;

const TINYEMU_HTIF: usize = 0x4000_8000;
const CLINT_MTIMECMP0: usize = 0x0200_4000;
const CLINT_MTIME: usize = 0x0200_BFF8;

static NARROW: AtomicBool = AtomicBool::new(false);
static FDT: AtomicUsize = AtomicUsize::new(0);

pub fn detect(fdt_addr: usize) {
    // SAFETY: all three machines pass their FDT's address in a1.
    let Ok(fdt) = (unsafe { Fdt::from_addr(fdt_addr) }) else { return };
    FDT.store(fdt_addr, Ordering::Relaxed);
    let tinyemu = fdt.property("/", "compatible").is_some_and(|c| c.starts_with(b"ucbbar,riscvemu"));
    NARROW.store(tinyemu, Ordering::Relaxed);
}

/// Whether the boot arguments contain the word `word`.
pub fn bootargs_have(word: &str) -> bool {
    let addr = FDT.load(Ordering::Relaxed);
    // SAFETY: `detect` only keeps an address that held a valid FDT.
    let Some(fdt) = (addr != 0).then(|| unsafe { Fdt::from_addr(addr) }).and_then(Result::ok) else {
        return false;
    };
    fdt.str_property("/chosen", "bootargs").is_some_and(|args| args.split_whitespace().any(|w| w == word))
}

fn narrow() -> bool {
    NARROW.load(Ordering::Relaxed)
}

fn write64(addr: usize, value: u64) {
    unsafe {
        if narrow() {
            // Low half first: both TinyEMU's HTIF and a CLINT act on the high half's write.
            write_volatile(addr as *mut u32, value as u32);
            write_volatile((addr + 4) as *mut u32, (value >> 32) as u32);
        } else {
            write_volatile(addr as *mut u64, value);
        }
    }
}

fn read64(addr: usize) -> u64 {
    unsafe {
        if narrow() {
            loop {
                let high = read_volatile((addr + 4) as *const u32);
                let low = read_volatile(addr as *const u32);
                if read_volatile((addr + 4) as *const u32) == high {
                    return (high as u64) << 32 | low as u64;
                }
            }
        } else {
            read_volatile(addr as *const u64)
        }
    }
}

fn htif() -> (usize, usize) {
    if narrow() {
        (TINYEMU_HTIF, TINYEMU_HTIF + 8)
    } else {
        (&raw mut tohost as usize, &raw mut fromhost as usize)
    }
}

pub fn putc(byte: u8) {
    let (to, from) = htif();
    write64(to, 1 << 56 | 1 << 48 | byte as u64);
    while read64(from) == 0 {}
    write64(from, 0);
}

pub fn exit(code: u32) -> ! {
    write64(htif().0, (code as u64) << 1 | 1);
    loop {
        unsafe { core::arch::asm!("wfi") };
    }
}

pub fn mtime() -> u64 {
    read64(CLINT_MTIME)
}

pub fn set_mtimecmp(at: u64) {
    if narrow() {
        // Never let a half-written compare value fire early.
        write64(CLINT_MTIMECMP0, u64::MAX);
    }
    write64(CLINT_MTIMECMP0, at);
}
