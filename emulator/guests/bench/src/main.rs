//! The benchmark `runqueue bench` runs: one M-mode ELF with HTIF console and exit, so the same
//! binary runs on Runqueue, on `qemu-system-riscv64 -machine spike -bios none` and on TinyEMU.
//!
//! It prints `#phase NAME INSTRET` when a phase starts, `#result NAME HEX` (a checksum of the
//! phase's work, equal on every correct emulator) when it ends, and `#end INSTRET` after the last
//! one. The host timestamps these lines; INSTRET (`minstret`, exact on Runqueue) gives each
//! phase's instruction count. Boot argument `quick` makes every phase ten times shorter.

#![no_std]
#![no_main]

mod host;
mod phases;
mod trap;

use core::fmt::Write;

core::arch::global_asm!(
    r#"
    .section .text.entry, "ax"
    .globl _start
_start:
    bnez a0, 3f
    la t0, __bss_start
    la t1, __bss_end
1:  bgeu t0, t1, 2f
    sd zero, 0(t0)
    addi t0, t0, 8
    j 1b
2:  la sp, __stack_top
    la t0, __trap_stack_top
    csrw mscratch, t0
    la t0, bench_trap
    csrw mtvec, t0
    call bench_main
    // Harts other than 0 have nothing to do.
3:  wfi
    j 3b
"#
);

/// Console output through HTIF, one character per request.
pub struct Console;

impl Write for Console {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        s.bytes().for_each(host::putc);
        Ok(())
    }
}

#[macro_export]
macro_rules! println {
    ($($arg:tt)*) => {{
        let _ = core::fmt::Write::write_fmt(&mut $crate::Console, format_args!("{}\n", format_args!($($arg)*)));
    }};
}

#[unsafe(no_mangle)]
extern "C" fn bench_main(_hart: usize, fdt: usize) -> ! {
    host::detect(fdt);
    let scale = if host::bootargs_have("quick") { 10 } else { 1 };
    println!("runqueue bench guest (work / {scale})");
    for (name, run) in phases::ALL {
        println!("#phase {name} {}", instret());
        let checksum = run(scale);
        println!("#result {name} {checksum:016x}");
    }
    println!("#end {}", instret());
    host::exit(0)
}

fn instret() -> u64 {
    let n: u64;
    unsafe { core::arch::asm!("csrr {}, minstret", out(reg) n) };
    n
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    println!("panic: {}", info.message());
    host::exit(3)
}
