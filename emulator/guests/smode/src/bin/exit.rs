//! Ends the run the way boot argument `exit=` says: `srst:REASON`, `legacy`, `finisher:CODE`,
//! `finisher-pass` or `finisher-reset`.

#![no_std]
#![no_main]

use smode_rt::{boot, devices::finisher, println, sbi};

#[unsafe(no_mangle)]
extern "C" fn kmain(_hart: usize, fdt: usize) -> ! {
    let fdt = boot::fdt(fdt);
    let how = boot::arg(boot::bootargs(&fdt), "exit").unwrap_or("");
    println!("exit via {how}");
    let number = |s: &str| s.parse::<u32>().unwrap_or_else(|_| panic!("bad number {s:?}"));
    match how.split_once(':') {
        Some(("srst", reason)) => {
            sbi::shutdown(number(reason) as usize);
        }
        Some(("finisher", code)) => finisher::write(finisher::FAIL | number(code) << 16),
        None if how == "legacy" => {
            sbi::legacy(sbi::LEGACY_SHUTDOWN, 0);
        }
        None if how == "finisher-pass" => finisher::write(finisher::PASS),
        None if how == "finisher-reset" => finisher::write(finisher::RESET),
        _ => panic!("unknown exit= {how:?}"),
    }
    panic!("still running after exit via {how}");
}
