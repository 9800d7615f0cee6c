//! The memory-mapped devices of the QEMU `virt` subset (`docs/platform.md`).

fn read8(addr: usize) -> u8 {
    unsafe { core::ptr::read_volatile(addr as *const u8) }
}

fn write8(addr: usize, value: u8) {
    unsafe { core::ptr::write_volatile(addr as *mut u8, value) }
}

fn write32(addr: usize, value: u32) {
    unsafe { core::ptr::write_volatile(addr as *mut u32, value) }
}

fn write64(addr: usize, value: u64) {
    unsafe { core::ptr::write_volatile(addr as *mut u64, value) }
}

/// The 16550A at 0x1000_0000 (byte registers).
pub mod uart {
    pub const BASE: usize = 0x1000_0000;
    pub const RBR: usize = 0;
    pub const THR: usize = 0;
    pub const LSR: usize = 5;
    pub const SCR: usize = 7;
    pub const LSR_DR: u8 = 0x01;
    pub const LSR_THRE: u8 = 0x20;

    pub fn read(reg: usize) -> u8 {
        super::read8(BASE + reg)
    }

    pub fn write(reg: usize, value: u8) {
        super::write8(BASE + reg, value)
    }

    pub fn put(byte: u8) {
        while read(LSR) & LSR_THRE == 0 {}
        write(THR, byte);
    }

    pub fn try_get() -> Option<u8> {
        (read(LSR) & LSR_DR != 0).then(|| read(RBR))
    }
}

/// The SiFive test finisher at 0x10_0000.
pub mod finisher {
    const BASE: usize = 0x10_0000;
    pub const PASS: u32 = 0x5555;
    pub const FAIL: u32 = 0x3333;
    pub const RESET: u32 = 0x7777;

    pub fn write(value: u32) {
        super::write32(BASE, value)
    }
}

/// Runqueue's trace device (absent on QEMU).
pub mod trace {
    pub const BASE: usize = 0x1020_0000;

    /// Hands a whole line over in two stores.
    pub fn write(line: &[u8]) {
        super::write64(BASE, line.as_ptr() as u64);
        super::write64(BASE + 8, line.len() as u64);
    }

    /// The slow path: one store per byte.
    pub fn write_bytes(line: &[u8]) {
        line.iter().for_each(|&b| super::write8(BASE + 0x10, b));
    }
}

/// Ends the run with `code` however the machine allows: SRST, then the finisher.
pub fn fail(code: u32) -> ! {
    crate::sbi::shutdown(1);
    finisher::write(finisher::FAIL | code << 16);
    loop {
        crate::wfi();
    }
}

/// Ends the run successfully.
pub fn pass() -> ! {
    crate::sbi::shutdown(0);
    finisher::write(finisher::PASS);
    loop {
        crate::wfi();
    }
}
