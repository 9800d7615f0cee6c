//! The phases. `alu` and `mem` are hand-written loops with a known instruction mix; `crc`,
//! `sieve` and `mixed` are ordinary compiled Rust; `ecall` and `timer` measure the trap path.
//! Each returns a checksum of its work; `scale` divides the amount of work.

use crate::trap::{self, ECALLS, TICKS};
use core::hint::black_box;
use core::sync::atomic::Ordering;

pub type Phase = fn(u64) -> u64;

pub const ALL: [(&str, Phase); 7] = [
    ("alu", alu),
    ("mem", mem),
    ("crc", crc),
    ("sieve", sieve),
    ("ecall", ecall),
    ("timer", timer),
    ("mixed", mixed),
];

/// 100 M iterations of a five-instruction loop: add, xor, shift, count, branch.
fn alu(scale: u64) -> u64 {
    let (mut a, mut b, mut t) = (1u64, 0x9e37_79b9u64, 0u64);
    unsafe {
        core::arch::asm!(
            "1: addi {n}, {n}, -1",
            "add {a}, {a}, {t}",
            "xor {b}, {b}, {a}",
            "slli {t}, {b}, 1",
            "bnez {n}, 1b",
            n = inout(reg) 100_000_000 / scale => _,
            a = inout(reg) a, b = inout(reg) b, t = inout(reg) t,
        );
    }
    a ^ b ^ t
}

/// A phase's work array, borrowed for the phase.
///
/// # Safety
/// One hart runs the benchmark, and no other reference to the array is live.
unsafe fn exclusive<T>(array: *mut T) -> &'static mut T {
    unsafe { &mut *array }
}

static mut MEM: [u64; 4096] = [0; 4096];

/// Read-modify-write over 32 KiB, 2000 times: load, add, store, advance, branch.
fn mem(scale: u64) -> u64 {
    let start = &raw mut MEM as *mut u64;
    let end = start.wrapping_add(4096);
    for pass in 0..2000 / scale {
        unsafe {
            core::arch::asm!(
                "1: ld {v}, 0({p})",
                "add {v}, {v}, {k}",
                "sd {v}, 0({p})",
                "addi {p}, {p}, 8",
                "bne {p}, {end}, 1b",
                p = inout(reg) start => _, end = in(reg) end, k = in(reg) pass, v = out(reg) _,
            );
        }
    }
    // SAFETY: the loop above has finished with the array.
    unsafe { exclusive(&raw mut MEM) }.iter().fold(0, |acc, &v| acc.wrapping_mul(31).wrapping_add(v))
}

static mut BUF: [u8; 65536] = [0; 65536];

/// Bitwise CRC-32 over 64 KiB, 8 times.
fn crc(scale: u64) -> u64 {
    // SAFETY: single hart, no other reference to BUF is live.
    let buf = unsafe { exclusive(&raw mut BUF) };
    for (i, b) in buf.iter_mut().enumerate() {
        *b = (i as u32).wrapping_mul(2_654_435_761).to_le_bytes()[3];
    }
    let mut crc = !0u32;
    for _ in 0..8 / scale.min(8) {
        for &b in black_box(&buf[..]) {
            crc ^= b as u32;
            for _ in 0..8 {
                crc = (crc >> 1) ^ (0xEDB8_8320 & (crc & 1).wrapping_neg());
            }
        }
    }
    !crc as u64
}

static mut SIEVE: [bool; 1 << 20] = [false; 1 << 20];

/// The sieve of Eratosthenes up to 1 Mi, 10 times; returns the number of primes found.
fn sieve(scale: u64) -> u64 {
    // SAFETY: single hart, no other reference to SIEVE is live.
    let composite = unsafe { exclusive(&raw mut SIEVE) };
    let mut primes = 0;
    for _ in 0..10 / scale {
        composite.fill(false);
        let mut count = 0u64;
        for i in 2..composite.len() {
            if !composite[i] {
                count += 1;
                (i * i..composite.len()).step_by(i).for_each(|j| composite[j] = true);
            }
        }
        primes = black_box(count);
    }
    primes
}

/// 200 k ecall round trips into the M-mode trap handler.
fn ecall(scale: u64) -> u64 {
    let before = ECALLS.load(Ordering::Relaxed);
    for _ in 0..200_000 / scale {
        trap::ecall();
    }
    ECALLS.load(Ordering::Relaxed) - before
}

/// Ten timer interrupts 10 ms (100 k ticks) apart, sleeping in `wfi` in between.
fn timer(_scale: u64) -> u64 {
    let before = TICKS.load(Ordering::Relaxed);
    for i in 1..=10 {
        trap::arm_once(100_000);
        while TICKS.load(Ordering::Relaxed) - before < i {
            unsafe { core::arch::asm!("wfi") };
        }
    }
    TICKS.load(Ordering::Relaxed) - before
}

static mut TABLE: [u32; 1 << 16] = [0; 1 << 16];

/// A kernel-like blend: a PRNG feeding an open-addressing hash table (scattered loads and
/// stores, data-dependent branches), an ecall every 256 steps, and a timer interrupt every 1 ms.
/// The interrupts' count depends on the machine's speed, so it stays out of the checksum.
fn mixed(scale: u64) -> u64 {
    // SAFETY: single hart; the trap handler does not touch TABLE.
    let table = unsafe { exclusive(&raw mut TABLE) };
    table.fill(0);
    trap::start_periodic(10_000);
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut probes = 0u64;
    for step in 0..2_000_000 / scale {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let key = (state >> 40) as u32 | 1;
        let mut slot = (key.wrapping_mul(0x9e37_79b1) >> 16) as usize;
        // Replace the first empty or equal slot within 8 probes, else evict the 8th.
        for _ in 0..8 {
            probes += 1;
            if table[slot] == 0 || table[slot] == key {
                break;
            }
            slot = (slot + 1) & (table.len() - 1);
        }
        table[slot] = key;
        if step % 256 == 0 {
            trap::ecall();
        }
    }
    trap::stop();
    table.iter().fold(probes, |acc, &k| acc.rotate_left(7) ^ k as u64)
}
