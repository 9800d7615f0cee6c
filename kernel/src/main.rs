//! Runqueue's teaching kernel: boots on QEMU `virt` or Runqueue's emulator, reads the command
//! line, builds the chosen scheduler, runs the chosen workload on 1-4 harts, and reports.
//!
//! Boot flow: `_start` (arch.rs) -> `kmain`: device tree, arguments, policy, tasks, start the
//! other harts -> every hart runs `dispatch::scheduler_loop` until the last task exits.

#![no_std]
#![no_main]

mod arch;
mod catalog;
mod console;
mod dispatch;
mod domain;
mod fdt;
mod hart;
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

use core::sync::atomic::Ordering;
use dispatch::{KERNEL, Kernel, RunInfo};
use lock::Guard;
use power::Exit;
use workload::Plan;
use runqueue_machine_settings::{SEED, SMP, TRACE};
use runqueue_settings::Settings;
use sched::Spec;
use workload::WorkloadSpec;


fn fail(code: Exit, args: core::fmt::Arguments) -> ! {
    println!("{}", args);
    power::exit(code)
}

/// The boot hart, entered from `_start` with a0 = hart id and a1 = the device tree.
pub extern "C" fn kmain(hart_id: usize, fdt_addr: usize) -> ! {
    hart::this().hart_id.store(hart_id, Ordering::Relaxed);
    arch::init_traps();
    stack::arm();
    let boot = unsafe { fdt::parse(fdt_addr) }.unwrap_or_else(|e| fail(Exit::Fault, format_args!("boot: {e}")));
    if boot.bootargs.split_ascii_whitespace().any(|w| w == "catalog") {
        match catalog::print() {
            Ok(()) => power::exit(Exit::Done),
            Err(name) => fail(Exit::Fault, format_args!("catalog: {name} is declared twice or its default does not parse")),
        }
    }
    let settings = Settings::parse(boot.bootargs, &catalog::Kernel).unwrap_or_else(|e| fail(Exit::BadArgs, format_args!("error: {}", e.show(&catalog::Kernel))));
    let (sched, work) = (Spec::chosen(&settings), WorkloadSpec::chosen(&settings));
    let smp = settings.get(&SMP) as usize;
    if smp > boot.cpus {
        fail(Exit::BadArgs, format_args!("error: smp={smp} but the machine has {} hart(s)", boot.cpus));
    }
    let smp_settings = dispatch::Smp::new(&settings).unwrap_or_else(|e| fail(Exit::BadArgs, format_args!("error: {}", e.show(&catalog::Kernel))));
    let trace_on = settings.get(&TRACE);
    trace::configure(trace_on, boot.trace_device);
    let tick_us = settings.get(&dispatch::TICK_US) as u64;
    println!(
        "runqueue-kernel: sched={} workload={} smp={smp} tick_us={tick_us} trace={} ram={} MiB",
        sched.name(),
        work.name,
        if !trace_on {
            "off"
        } else if boot.trace_device {
            "device"
        } else {
            "uart"
        },
        boot.mem_bytes >> 20
    );

    let mut k = KERNEL.lock();
    let run = RunInfo { args: settings.args(), sched: sched.name(), workload: work.name, smp, seed: settings.get(&SEED) as u64 };
    let configured = k.configure(&settings, run, tick_us * 1000, smp_settings);
    let mut spawner = workload::Spawner::new(&mut k, &settings);
    let planned = configured.and_then(|_| (work.spawn)(&settings, &mut spawner));
    let plan = spawner.plan();
    if let Err(e) = planned {
        drop(k);
        fail(Exit::BadArgs, format_args!("error: {}", e.show(&catalog::Kernel)));
    }
    start(k, plan, &boot.hart_ids[..boot.cpus], hart_id, smp)
}

/// Everything from the workload's start on: waits for it (`dispatch::start_workload`, a fixed
/// time), creates the planned tasks, starts logical harts 1..`smp` on the device tree's other
/// cpus (`ids`), in order, and runs the scheduler on this one. Never inlined: merged into the
/// boot's code, it would be compiled differently whenever that code changed, and cost a few
/// instructions more or less after the start, where every instruction shows in the figures.
#[inline(never)]
fn start(mut k: Guard<'static, Kernel>, plan: Plan, ids: &[usize], boot_hart: usize, smp: usize) -> ! {
    dispatch::start_workload();
    let created = plan.create(&mut k);
    drop(k);
    if let Err(e) = created {
        fail(Exit::BadArgs, format_args!("error: {}", e.show(&catalog::Kernel)));
    }
    let others = ids.iter().filter(|&&id| id != boot_hart);
    for (index, &id) in (1..smp).zip(others) {
        hart::get(index).hart_id.store(id, Ordering::Relaxed);
        if let Err(err) = sbi::hart_start(id, arch::secondary_start as *const () as usize, index) {
            fail(Exit::Fault, format_args!("boot: SBI could not start hart {id} (error {err})"));
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
    power::exit(Exit::Fault)
}
