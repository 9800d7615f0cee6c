//! Trace events (`docs/trace.md`): `T <time_ns> <hart> <kind> <tid> [key=value ...]`.
//! Each line is formatted in the hart's own buffer and handed over in one go: to the trace
//! device when the machine has one (two stores), else to the UART behind an `@`.

use crate::arch;
use crate::console;
use crate::hart;
use runqueue_sched_api::Line;
use core::sync::atomic::{AtomicBool, Ordering};

static ON: AtomicBool = AtomicBool::new(false);
static DEVICE: AtomicBool = AtomicBool::new(false);

const TRACE_ADDR: *mut u64 = 0x1020_0000 as *mut u64;
const TRACE_LEN: *mut u64 = 0x1020_0008 as *mut u64;

pub fn configure(on: bool, device: bool) {
    ON.store(on, Ordering::Relaxed);
    DEVICE.store(device, Ordering::Relaxed);
}

/// Whether events are being emitted (callers skip work that only feeds the trace).
pub fn enabled() -> bool {
    ON.load(Ordering::Relaxed)
}

/// Emits one event. `fields` appends ` key=value` pairs. Call with interrupts off (the
/// buffer belongs to this hart and a trap must not start another line in it).
pub fn event(now: u64, kind: &str, tid: usize, fields: impl FnOnce(&mut Line)) {
    if !ON.load(Ordering::Relaxed) {
        return;
    }
    let line = unsafe { &mut *hart::this().trace_line.get() };
    line.clear();
    line.push("T ").num(now).byte(b' ').num(arch::hart_index() as u64).byte(b' ').push(kind).byte(b' ');
    line.num(tid as u64);
    fields(line);
    line.byte(b'\n');
    let bytes = line.as_bytes();
    if DEVICE.load(Ordering::Relaxed) {
        // The kernel runs with paging off, so the buffer's address is its physical address.
        unsafe {
            TRACE_ADDR.write_volatile(bytes.as_ptr() as u64);
            TRACE_LEN.write_volatile(bytes.len() as u64);
        }
    } else {
        console::with(|u| {
            u.bytes(b"@");
            u.bytes(bytes);
        });
    }
}
