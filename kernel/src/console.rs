//! The 16550 UART console. One lock serialises whole messages, so lines from different
//! harts never interleave.

use crate::lock::SpinLock;
use core::fmt::{self, Write};

const UART: *mut u8 = 0x1000_0000 as *mut u8;
const LSR: usize = 5;
const LSR_THRE: u8 = 1 << 5;

static CONSOLE: SpinLock<()> = SpinLock::new(());

fn put_byte(b: u8) {
    unsafe {
        while UART.add(LSR).read_volatile() & LSR_THRE == 0 {}
        UART.write_volatile(b);
    }
}

/// Writes to the UART; only use while holding the console lock (see `with`).
pub struct Uart;

impl Uart {
    pub fn bytes(&mut self, bytes: &[u8]) {
        bytes.iter().for_each(|&b| put_byte(b));
    }
}

impl Write for Uart {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.bytes(s.as_bytes());
        Ok(())
    }
}

/// Runs `f` with the console to itself.
pub fn with<R>(f: impl FnOnce(&mut Uart) -> R) -> R {
    let _guard = CONSOLE.lock();
    f(&mut Uart)
}

pub fn print(args: fmt::Arguments) {
    with(|u| {
        let _ = u.write_fmt(args);
    });
}

#[macro_export]
macro_rules! print {
    ($($arg:tt)*) => { $crate::console::print(format_args!($($arg)*)) };
}

#[macro_export]
macro_rules! println {
    () => { $crate::print!("\n") };
    ($($arg:tt)*) => { $crate::console::print(format_args!("{}\n", format_args!($($arg)*))) };
}
