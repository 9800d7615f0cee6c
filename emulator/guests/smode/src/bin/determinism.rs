//! Four harts, each with its own periodic timer, alternating busy work and `wfi`, sharing a
//! counter and printing and tracing what they see. Every line depends on how the harts
//! interleave and on emulated time, so two runs agree only if the machine is deterministic.

#![no_std]
#![no_main]

use core::fmt::Write;
use core::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use smode_rt::{devices, println, rdtime, sbi, trap, wfi};

const HARTS: usize = 4;
const TICKS_EACH: u64 = 12;

static TICKS: [AtomicU64; HARTS] = [const { AtomicU64::new(0) }; HARTS];
static COUNTER: AtomicU64 = AtomicU64::new(0);
static DONE: AtomicUsize = AtomicUsize::new(0);

fn hart_id() -> usize {
    let tp: usize;
    unsafe { core::arch::asm!("mv {}, tp", out(reg) tp) };
    tp
}

/// Each hart ticks at its own period (in mtime ticks), so the interrupts interleave unevenly.
fn period(hart: usize) -> u64 {
    700 + 310 * hart as u64
}

fn on_interrupt(code: usize) {
    if code == trap::TIMER {
        let hart = hart_id();
        TICKS[hart].fetch_add(1, Ordering::AcqRel);
        sbi::set_timer(rdtime() + period(hart));
    }
}

/// A trace line built in a fixed buffer.
struct Line {
    bytes: [u8; 96],
    len: usize,
}

impl Write for Line {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len + s.len();
        self.bytes.get_mut(self.len..end).ok_or(core::fmt::Error)?.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

fn work(hart: usize) -> u64 {
    unsafe { core::arch::asm!("mv tp, {}", in(reg) hart) };
    trap::enable(on_interrupt, trap::STIP);
    sbi::set_timer(rdtime() + period(hart));
    let (mut seen, mut mix) = (0, hart as u64);
    while seen < TICKS_EACH {
        let tick = TICKS[hart].load(Ordering::Acquire);
        if tick != seen {
            seen = tick;
            let count = COUNTER.fetch_add(1, Ordering::AcqRel);
            let now = rdtime();
            if tick.is_multiple_of(3) {
                println!("hart {hart} tick {tick} counter {count} time {now}");
            }
            let mut line = Line { bytes: [0; 96], len: 0 };
            let _ = writeln!(line, "T {} {hart} mark {} iter={tick} mix={:x}", now * 100, hart + 1, mix & 0xffff);
            devices::trace::write(&line.bytes[..line.len]);
        }
        if seen % 2 == 1 {
            wfi();
        } else {
            mix = mix.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(COUNTER.load(Ordering::Relaxed));
        }
    }
    sbi::set_timer(u64::MAX);
    DONE.fetch_add(1, Ordering::AcqRel);
    mix
}

extern "C" fn secondary(hart: usize) -> ! {
    let mix = work(hart);
    println!("hart {hart} done mix {mix:016x}");
    sbi::hart_stop();
    panic!("hart_stop returned");
}

#[unsafe(no_mangle)]
extern "C" fn kmain(hart: usize, _fdt: usize) -> ! {
    for other in (0..HARTS).filter(|&h| h != hart) {
        sbi::hart_start(other, secondary);
    }
    let mix = work(hart);
    while DONE.load(Ordering::Acquire) < HARTS {
        core::hint::spin_loop();
    }
    println!("hart {hart} done mix {mix:016x}; counter {}", COUNTER.load(Ordering::Acquire));
    devices::pass()
}
