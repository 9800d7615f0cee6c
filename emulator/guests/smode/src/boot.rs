//! What the firmware hands over in a1: the device tree, and the boot arguments in it.

use runqueue_fdt::Fdt;

/// The FDT at `addr`, or a panic that says what is wrong with it.
pub fn fdt(addr: usize) -> Fdt<'static> {
    // SAFETY: both Runqueue and OpenSBI pass a valid FDT address in a1.
    match unsafe { Fdt::from_addr(addr) } {
        Ok(fdt) => fdt,
        Err(e) => panic!("no device tree at {addr:#x}: {e:?}"),
    }
}

pub fn bootargs(fdt: &Fdt<'static>) -> &'static str {
    fdt.str_property("/chosen", "bootargs").unwrap_or("")
}

/// The value of `key=value` among whitespace-separated boot arguments.
pub fn arg<'a>(bootargs: &'a str, key: &str) -> Option<&'a str> {
    bootargs.split_whitespace().find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
}
