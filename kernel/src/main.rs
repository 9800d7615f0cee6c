//! Runqueue's teaching kernel: boots on QEMU `virt` or Runqueue's emulator, reads the command
//! line, builds the chosen scheduler, runs the chosen workload on 1-4 harts, and reports.
//!
//! Boot flow: `_start` (arch.rs) -> `kmain`: device tree, arguments, policy, tasks, start the
//! other harts -> every hart runs `dispatch::scheduler_loop` until the last task exits.

#![no_std]
#![no_main]

mod arch;
mod args;
mod catalog;
mod console;
mod dispatch;
mod domain;
mod fdt;
mod hart;
mod json;
mod latency;
mod lock;
mod mutex;
mod pipe;
mod power;
mod report;
mod sbi;
mod sched;
mod stack;
mod task;
mod trace;
mod trap;
mod work;
mod workload;

use args::Settings;
use core::sync::atomic::Ordering;
use dispatch::{KERNEL, RunInfo};

/// Exit codes: 0 done, 2 bad arguments (`docs/platform.md`), 3 a kernel or machine fault.
const EXIT_BAD_ARGS: u32 = 2;
const EXIT_FAULT: u32 = 3;

fn fail(code: u32, args: core::fmt::Arguments) -> ! {
    println!("{}", args);
    power::exit(code)
}

/// The boot hart, entered from `_start` with a0 = hart id and a1 = the device tree.
pub extern "C" fn kmain(hart_id: usize, fdt_addr: usize) -> ! {
    hart::this().hart_id.store(hart_id, Ordering::Relaxed);
    arch::init_traps();
    stack::arm();
    let boot = unsafe { fdt::parse(fdt_addr) }.unwrap_or_else(|e| fail(EXIT_FAULT, format_args!("boot: {e}")));
    if boot.bootargs.split_ascii_whitespace().any(|w| w == "catalog") {
        match catalog::print() {
            Ok(()) => power::exit(0),
            Err(name) => fail(EXIT_FAULT, format_args!("catalog: the default of {name} does not parse")),
        }
    }
    let settings = Settings::parse(boot.bootargs).unwrap_or_else(|e| fail(EXIT_BAD_ARGS, format_args!("error: {e}")));
    let smp = settings.smp();
    if smp > boot.cpus {
        fail(EXIT_BAD_ARGS, format_args!("error: smp={smp} but the machine has {} hart(s)", boot.cpus));
    }
    let smp_settings = dispatch::Smp::new(&settings).unwrap_or_else(|e| fail(EXIT_BAD_ARGS, format_args!("error: {e}")));
    trace::configure(settings.trace_on(), boot.trace_device);
    let tick_us = settings.int("tick_us") as u64;
    println!(
        "runqueue-kernel: sched={} workload={} smp={smp} tick_us={tick_us} trace={} ram={} MiB",
        settings.sched.name(),
        settings.workload.name,
        if !settings.trace_on() {
            "off"
        } else if boot.trace_device {
            "device"
        } else {
            "uart"
        },
        boot.mem_bytes >> 20
    );

    dispatch::start_workload();
    {
        let mut k = KERNEL.lock();
        let run = RunInfo { args: settings.args, sched: settings.sched.name(), workload: settings.workload.name, smp, seed: settings.int("seed") as u64 };
        let configured = k.configure(&settings, run, tick_us * 1000, smp_settings);
        let spawned = configured.and_then(|_| (settings.workload.spawn)(&settings, &mut workload::Spawner::new(&mut k, &settings)));
        if let Err(e) = spawned {
            drop(k);
            fail(EXIT_BAD_ARGS, format_args!("error: {e}"));
        }
    }

    // Logical harts 1.. are the device tree's other cpus, in order.
    let others = boot.hart_ids[..boot.cpus].iter().filter(|&&id| id != hart_id);
    for (index, &id) in (1..smp).zip(others) {
        hart::get(index).hart_id.store(id, Ordering::Relaxed);
        if let Err(err) = sbi::hart_start(id, arch::secondary_start as *const () as usize, index) {
            fail(EXIT_FAULT, format_args!("boot: SBI could not start hart {id} (error {err})"));
        }
    }
    dispatch::scheduler_loop()
}

/// Harts 1.., entered from `secondary_start` with their logical index in `tp`.
pub extern "C" fn secondary_main(_hart_id: usize, _index: usize) -> ! {
    arch::init_traps();
    dispatch::scheduler_loop()
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    // Bypass the console lock: the panicking code may hold it.
    use core::fmt::Write;
    let _ = writeln!(console::Uart, "kernel panic: {info}");
    power::exit(EXIT_FAULT)
}
