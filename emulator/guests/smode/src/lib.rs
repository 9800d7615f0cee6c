//! Runtime for the S-mode test programs: entry and stacks, SBI calls, the UART console, traps,
//! the FDT handed over in a1, and the ways to end a run.
//!
//! Each program in `src/bin` defines `kmain(hart, fdt) -> !`; the boot hart enters it with a
//! zeroed bss and its own stack. Harts started through SBI HSM run the function passed to
//! [`sbi::hart_start`].

#![no_std]

pub mod boot;
pub mod console;
pub mod devices;
pub mod sbi;
pub mod trap;

pub use runqueue_fdt::Fdt;

/// Bytes of stack per hart (the link script reserves eight of them).
pub const STACK_SHIFT: usize = 14;

core::arch::global_asm!(
    r#"
    .section .text.entry, "ax"
    .globl _start
_start:
    la t0, __bss_start
    la t1, __bss_end
1:  bgeu t0, t1, 2f
    sd zero, 0(t0)
    addi t0, t0, 8
    j 1b
2:  la sp, __stack_top
    slli t0, a0, {shift}
    sub sp, sp, t0
    call kmain

    .globl _secondary
_secondary:
    la sp, __stack_top
    slli t0, a0, {shift}
    sub sp, sp, t0
    call rt_secondary
"#,
    shift = const STACK_SHIFT,
);

unsafe extern "C" {
    /// Where HSM-started harts begin: it sets up their stack and calls `rt_secondary`.
    fn _secondary();
}

/// The address HSM `hart_start` should jump to.
pub fn secondary_entry() -> usize {
    _secondary as *const () as usize
}

/// A function a started hart runs; it receives its hart id and never returns.
pub type HartMain = extern "C" fn(usize) -> !;

/// `opaque` carries the function to run, so a wrong `a1` from the SBI shows up at once.
#[unsafe(no_mangle)]
extern "C" fn rt_secondary(hart: usize, opaque: usize) -> ! {
    // SAFETY: `sbi::hart_start` passes a `HartMain` as `opaque`.
    let main: HartMain = unsafe { core::mem::transmute(opaque) };
    main(hart)
}

/// Retired instructions (the `instret` counter, readable in S-mode through mcounteren).
#[inline(always)]
pub fn rdinstret() -> u64 {
    let v: u64;
    unsafe { core::arch::asm!("rdinstret {}", out(reg) v) };
    v
}

/// The `time` CSR: mtime, 10 MHz on both Runqueue and QEMU virt.
#[inline(always)]
pub fn rdtime() -> u64 {
    let v: u64;
    unsafe { core::arch::asm!("rdtime {}", out(reg) v) };
    v
}

/// Sleeps until an interrupt is pending.
#[inline(always)]
pub fn wfi() {
    unsafe { core::arch::asm!("wfi") };
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    console::force_unlock();
    println!("panic: {}", info.message());
    if let Some(at) = info.location() {
        println!("  at {}:{}", at.file(), at.line());
    }
    devices::fail(1)
}
