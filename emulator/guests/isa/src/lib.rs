//! Shared support for the conformance programs: each `src/bin/<test>.rs` is one assembly file
//! (`asm/<test>.S`) assembled together with the shared harness (`asm/harness.S`).
#![no_std]

/// Assembles one conformance program together with the shared harness macros.
#[macro_export]
macro_rules! isa_test {
    ($file:literal) => {
        core::arch::global_asm!(
            include_str!("../../asm/harness.S"),
            include_str!(concat!("../../asm/", $file)),
            options(raw)
        );
    };
}

// The programs are pure assembly; Rust code never runs, so a panic cannot happen.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
