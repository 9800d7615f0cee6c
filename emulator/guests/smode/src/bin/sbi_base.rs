//! SBI base extension: spec version, probing each extension (and an absent one), and the
//! error for calls nobody implements.

#![no_std]
#![no_main]

use smode_rt::{devices, println, sbi};

#[unsafe(no_mangle)]
extern "C" fn kmain(_hart: usize, _fdt: usize) -> ! {
    let (major, minor) = sbi::spec_version();
    println!("spec {major}.{minor}");
    let extensions = [
        ("base", sbi::BASE),
        ("time", sbi::TIME),
        ("ipi", sbi::IPI),
        ("rfence", sbi::RFENCE),
        ("hsm", sbi::HSM),
        ("srst", sbi::SRST),
        ("dbcn", sbi::DBCN),
        ("legacy-set-timer", sbi::LEGACY_SET_TIMER),
        ("legacy-putchar", sbi::LEGACY_PUTCHAR),
        ("legacy-getchar", sbi::LEGACY_GETCHAR),
        ("legacy-shutdown", sbi::LEGACY_SHUTDOWN),
        ("pmu", 0x50_4D55),
    ];
    for (name, eid) in extensions {
        println!("probe {name} {}", if sbi::probe(eid) != 0 { "yes" } else { "no" });
    }
    println!("unknown extension: error {}", sbi::call(0x0ABC_DEF0, 0, 0, 0, 0).error);
    println!("unknown base function: error {}", sbi::call(sbi::BASE, 99, 0, 0, 0).error);
    devices::pass()
}
