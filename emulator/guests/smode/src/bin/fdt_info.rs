//! Reads the device tree from a1: boot arguments, the number of cpus, the timebase, and the
//! devices a kernel probes for.

#![no_std]
#![no_main]

use smode_rt::{boot, devices, println};

#[unsafe(no_mangle)]
extern "C" fn kmain(_hart: usize, fdt: usize) -> ! {
    let fdt = boot::fdt(fdt);
    println!("bootargs {}", boot::bootargs(&fdt));
    println!("cpus {}", fdt.count_children("/cpus", "cpu@"));
    let timebase = fdt.property("/cpus", "timebase-frequency").and_then(|v| v.try_into().ok()).map(u32::from_be_bytes);
    println!("timebase {timebase:?}");
    for compatible in ["ns16550a", "sifive,clint0", "sifive,test0", "runqueue,trace"] {
        let mut node = "";
        fdt.find_compatible(compatible, |path| node = path.last().copied().unwrap_or(""));
        println!("{compatible}: {node}");
    }
    devices::pass()
}
