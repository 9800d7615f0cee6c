//! SBI calls (the v2.0 calling convention and the legacy v0.1 one).

/// Extension ids.
pub const BASE: usize = 0x10;
pub const TIME: usize = 0x5449_4D45;
pub const IPI: usize = 0x73_5049;
pub const RFENCE: usize = 0x5246_4E43;
pub const HSM: usize = 0x48_534D;
pub const SRST: usize = 0x5352_5354;
pub const DBCN: usize = 0x4442_434E;
pub const LEGACY_SET_TIMER: usize = 0x00;
pub const LEGACY_PUTCHAR: usize = 0x01;
pub const LEGACY_GETCHAR: usize = 0x02;
pub const LEGACY_SHUTDOWN: usize = 0x08;

/// HSM hart states.
pub const STARTED: usize = 0;
pub const STOPPED: usize = 1;

#[derive(Clone, Copy)]
pub struct SbiRet {
    pub error: isize,
    pub value: usize,
}

pub fn call(eid: usize, fid: usize, a0: usize, a1: usize, a2: usize) -> SbiRet {
    let (error, value);
    unsafe {
        core::arch::asm!("ecall",
            inlateout("a0") a0 => error, inlateout("a1") a1 => value,
            in("a2") a2, in("a6") fid, in("a7") eid);
    }
    SbiRet { error, value }
}

/// A legacy call: one argument, the result in a0.
pub fn legacy(eid: usize, arg: usize) -> isize {
    call(eid, 0, arg, 0, 0).error
}

pub fn spec_version() -> (usize, usize) {
    let v = call(BASE, 0, 0, 0, 0).value;
    ((v >> 24) & 0x7f, v & 0xff_ffff)
}

pub fn probe(eid: usize) -> usize {
    call(BASE, 3, eid, 0, 0).value
}

pub fn set_timer(at: u64) -> SbiRet {
    call(TIME, 0, at as usize, 0, 0)
}

pub fn send_ipi(mask: usize, base: usize) -> SbiRet {
    call(IPI, 0, mask, base, 0)
}

pub fn remote_fence_i(mask: usize, base: usize) -> SbiRet {
    call(RFENCE, 0, mask, base, 0)
}

pub fn remote_sfence_vma(mask: usize, base: usize, start: usize, size: usize) -> SbiRet {
    call_4(RFENCE, 1, [mask, base, start, size])
}

fn call_4(eid: usize, fid: usize, args: [usize; 4]) -> SbiRet {
    let (error, value);
    unsafe {
        core::arch::asm!("ecall",
            inlateout("a0") args[0] => error, inlateout("a1") args[1] => value,
            in("a2") args[2], in("a3") args[3], in("a6") fid, in("a7") eid);
    }
    SbiRet { error, value }
}

/// Starts `hart` running `main` (see [`crate::HartMain`]).
pub fn hart_start(hart: usize, main: crate::HartMain) -> SbiRet {
    call(HSM, 0, hart, crate::secondary_entry(), main as *const () as usize)
}

pub fn hart_stop() -> SbiRet {
    call(HSM, 1, 0, 0, 0)
}

pub fn hart_status(hart: usize) -> SbiRet {
    call(HSM, 2, hart, 0, 0)
}

/// SRST system shutdown; `reason` 0 is "no reason" (exit 0), 1 "system failure" (exit 1).
pub fn shutdown(reason: usize) -> SbiRet {
    call(SRST, 0, 0, reason, 0)
}

/// DBCN console_write of a buffer in (identity-mapped) memory.
pub fn console_write(bytes: &[u8]) -> SbiRet {
    let addr = bytes.as_ptr() as usize;
    call(DBCN, 0, bytes.len(), addr, 0)
}

pub fn console_write_byte(byte: u8) -> SbiRet {
    call(DBCN, 2, byte as usize, 0, 0)
}
