//! `print!`/`println!` to the 16550 UART, with a lock so lines from several harts do not mix.
//!
//! The UART (not an SBI call) is used so that the very same bytes come out on QEMU, where
//! OpenSBI's console would be a second, different path.

use crate::devices::uart;
use core::sync::atomic::{AtomicBool, Ordering};

static LOCK: AtomicBool = AtomicBool::new(false);

pub struct Console;

impl core::fmt::Write for Console {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        s.bytes().for_each(uart::put);
        Ok(())
    }
}

pub fn print(args: core::fmt::Arguments) {
    while LOCK.swap(true, Ordering::Acquire) {
        core::hint::spin_loop();
    }
    let _ = core::fmt::Write::write_fmt(&mut Console, args);
    LOCK.store(false, Ordering::Release);
}

/// Lets a panicking hart print even if it panicked while holding the lock.
pub fn force_unlock() {
    LOCK.store(false, Ordering::Release);
}

#[macro_export]
macro_rules! print {
    ($($arg:tt)*) => { $crate::console::print(format_args!($($arg)*)) };
}

#[macro_export]
macro_rules! println {
    ($($arg:tt)*) => { $crate::console::print(format_args!("{}\n", format_args!($($arg)*))) };
}
