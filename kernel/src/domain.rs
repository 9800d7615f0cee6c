//! The lab policy's protection domain (`docs/kernel.md`, "The lab's protection domain").
//!
//! A lab policy is a student's code, and safe Rust is only as safe as the compiler is sound:
//! rustc has known holes (rust-lang/rust#25860) through which safe code can write any address.
//! So the lab slot does not run in the core at all. It is built on its own (`lab-domain`) and
//! runs in U-mode under a page table that maps its code (execute), its read-only data, its data
//! and stack (read-write), the shared page the calls go by, and the gate's page (which U-mode
//! cannot touch): not the core's memory, not the devices. The core calls it through the gate:
//! it writes the call into the shared page, switches to the domain's page table and `sret`s to
//! the domain's entry; the domain answers by `ecall`, and any fault it takes ends the call the
//! same way, with the fault, which stops the kernel as the student's error.
//!
//! The core runs with paging off, as it always has: the domain's table is in force only while
//! the domain runs, interrupts stay masked meanwhile (`sie` cleared: U-mode would take them
//! whatever `sstatus.SIE` says), and nothing of this runs unless a lab policy was chosen.

use crate::console::Uart;
use crate::power::{self, Exit};
use core::fmt::Write;
use runqueue_lab_abi::{self as abi, Op, Shared};

/// The domain's image: an ELF linked at `abi::BASE` (`build.rs`).
static IMAGE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/lab-domain.elf"));

const PAGE: usize = 4096;
/// The domain's physical pages: five page tables, its image, stack and shared page.
const TABLES: usize = 5;
const PAGES: usize = TABLES + (abi::IMAGE_MAX + abi::STACK_SIZE + abi::SHARED_SIZE) / PAGE;

#[repr(C, align(4096))]
struct Pages([[u8; PAGE]; PAGES]);

/// Not zeroed at boot (`link.ld`): `load` zeroes what it uses.
#[unsafe(link_section = ".domain")]
static mut MEMORY: Pages = Pages([[0; PAGE]; PAGES]);

/// What `gate_enter` saves of the core and needs to enter the domain, and how the domain left.
#[repr(C)]
struct Frame {
    ra: u64,
    sp: u64,
    gp: u64,
    tp: u64,
    s: [u64; 12],
    sie: u64,
    stvec: u64,
    entry: u64,
    user_sp: u64,
    satp: u64,
    shared: u64,
    scause: u64,
    stval: u64,
    sepc: u64,
}

static mut FRAME: Frame = Frame { ra: 0, sp: 0, gp: 0, tp: 0, s: [0; 12], sie: 0, stvec: 0, entry: 0, user_sp: 0, satp: 0, shared: 0, scause: 0, stval: 0, sepc: 0 };

// The gate, on its own page (`link.ld`), mapped in the domain's table at its own address so
// that execution goes on across each `satp` write. `gate_enter(frame)` saves the core's
// callee-saved registers, masks interrupts, points traps at `gate_trap` and enters the domain
// in U-mode; any trap from the domain (its `ecall`, or a fault) lands in `gate_trap`, which
// switches paging off again, records the cause and returns from `gate_enter`.
core::arch::global_asm!(
    r#"
    .section .text.gate, "ax"
    .globl gate_enter
    .align 2
gate_enter:
    sd ra, 0(a0)
    sd sp, 8(a0)
    sd gp, 16(a0)
    sd tp, 24(a0)
    sd s0, 32(a0)
    sd s1, 40(a0)
    sd s2, 48(a0)
    sd s3, 56(a0)
    sd s4, 64(a0)
    sd s5, 72(a0)
    sd s6, 80(a0)
    sd s7, 88(a0)
    sd s8, 96(a0)
    sd s9, 104(a0)
    sd s10, 112(a0)
    sd s11, 120(a0)
    csrrw t0, sie, zero
    sd t0, 128(a0)
    la t1, gate_trap
    csrrw t0, stvec, t1
    sd t0, 136(a0)
    csrw sscratch, a0
    li t0, 0x120
    csrc sstatus, t0
    ld t0, 144(a0)
    csrw sepc, t0
    ld sp, 152(a0)
    ld t1, 160(a0)
    ld a0, 168(a0)
    csrw satp, t1
    sret
    .align 2
gate_trap:
    csrw satp, zero
    csrr a0, sscratch
    csrr t0, scause
    sd t0, 176(a0)
    csrr t0, stval
    sd t0, 184(a0)
    csrr t0, sepc
    sd t0, 192(a0)
    ld t0, 128(a0)
    csrw sie, t0
    ld t0, 136(a0)
    csrw stvec, t0
    ld ra, 0(a0)
    ld sp, 8(a0)
    ld gp, 16(a0)
    ld tp, 24(a0)
    ld s0, 32(a0)
    ld s1, 40(a0)
    ld s2, 48(a0)
    ld s3, 56(a0)
    ld s4, 64(a0)
    ld s5, 72(a0)
    ld s6, 80(a0)
    ld s7, 88(a0)
    ld s8, 96(a0)
    ld s9, 104(a0)
    ld s10, 112(a0)
    ld s11, 120(a0)
    ret
"#
);

unsafe extern "C" {
    fn gate_enter(frame: *mut Frame);
}

/// `scause` of an `ecall` from U-mode: the domain's way back.
const ECALL_FROM_U: u64 = 8;

const PTE_V: u64 = 1;
const PTE_R: u64 = 1 << 1;
const PTE_W: u64 = 1 << 2;
const PTE_X: u64 = 1 << 3;
const PTE_U: u64 = 1 << 4;
const PTE_A: u64 = 1 << 6;
const PTE_D: u64 = 1 << 7;

fn page(i: usize) -> *mut u8 {
    unsafe { (&raw mut MEMORY.0[i]).cast() }
}

fn table(i: usize) -> *mut u64 {
    page(i).cast()
}

/// Maps the 4 KiB page at `va` to `pa` with `flags` (the tables are pages 0..5: the root, then
/// the domain's and the gate's two lower levels).
fn map(va: usize, pa: usize, flags: u64) {
    let vpn = [(va >> 12) & 0x1ff, (va >> 21) & 0x1ff, (va >> 30) & 0x1ff];
    let (l1, l0) = if va >= 0x8000_0000 { (3, 4) } else { (1, 2) };
    let entry = |t: usize, i: usize| unsafe { table(t).add(i) };
    let pointer = |t: usize| ((page(t) as u64) >> 12) << 10 | PTE_V;
    unsafe {
        entry(0, vpn[2]).write(pointer(l1));
        entry(l1, vpn[1]).write(pointer(l0));
        entry(l0, vpn[0]).write(((pa as u64) >> 12) << 10 | flags | PTE_V | PTE_A | PTE_D);
    }
}

/// Little-endian fields of the ELF image.
fn u16_at(at: usize) -> usize {
    u16::from_le_bytes([IMAGE[at], IMAGE[at + 1]]) as usize
}

fn u64_at(at: usize) -> usize {
    let mut b = [0; 8];
    b.copy_from_slice(&IMAGE[at..at + 8]);
    u64::from_le_bytes(b) as usize
}

/// The page of the domain's memory `i` is, zeroed (the memory is not zeroed at boot).
fn fresh(i: usize) -> *mut u8 {
    if i >= PAGES {
        let _ = writeln!(Uart, "kernel bug: the lab's protection domain needs more than its {PAGES} pages");
        power::exit(Exit::Fault);
    }
    let p = page(i);
    unsafe { p.write_bytes(0, PAGE) };
    p
}

/// The shared page's physical address, once `load` has run.
static mut SHARED_AT: usize = 0;

/// Copies the image into the domain's pages and builds its page table, once, before the
/// first call. The image is the kernel's own, built with it; it is checked all the same.
fn load() {
    if unsafe { SHARED_AT } != 0 {
        return;
    }
    let fail = |what: &str| -> ! {
        let _ = writeln!(Uart, "kernel bug: the lab's protection domain image {what}");
        power::exit(Exit::Fault)
    };
    if IMAGE.len() < 64 || IMAGE[..4] != *b"\x7fELF" {
        fail("is not an ELF file");
    }
    (0..TABLES).for_each(|t| {
        fresh(t);
    });
    let (phoff, phentsize, phnum) = (u64_at(32), u16_at(54), u16_at(56));
    let mut next = TABLES;
    for i in 0..phnum {
        let ph = phoff + i * phentsize;
        if u16_at(ph) != 1 {
            continue;
        }
        let flags = IMAGE[ph + 4] as u64;
        let (offset, vaddr, filesz, memsz) = (u64_at(ph + 8), u64_at(ph + 16), u64_at(ph + 32), u64_at(ph + 40));
        if vaddr % PAGE != 0 || vaddr < abi::BASE || vaddr + memsz > abi::BASE + abi::IMAGE_MAX || filesz > memsz || offset + filesz > IMAGE.len() {
            fail("has a segment outside the domain's image");
        }
        // ELF's PF_X, PF_W, PF_R are bits 0, 1, 2.
        let perm = PTE_U | if flags & 4 != 0 { PTE_R } else { 0 } | if flags & 2 != 0 { PTE_W } else { 0 } | if flags & 1 != 0 { PTE_X } else { 0 };
        for at in (0..memsz).step_by(PAGE) {
            let pa = fresh(next);
            next += 1;
            let n = filesz.saturating_sub(at).min(PAGE);
            unsafe { core::ptr::copy_nonoverlapping(IMAGE.as_ptr().add(offset + at), pa, n) };
            map(vaddr + at, pa as usize, perm);
        }
    }
    for at in (0..abi::STACK_SIZE).step_by(PAGE) {
        map(abi::STACK_TOP - abi::STACK_SIZE + at, fresh(next) as usize, PTE_U | PTE_R | PTE_W);
        next += 1;
    }
    let shared = fresh(next) as usize;
    for at in (0..abi::SHARED_SIZE).step_by(PAGE) {
        // Physically contiguous, so the core sees one struct.
        map(abi::SHARED + at, fresh(next) as usize, PTE_U | PTE_R | PTE_W);
        next += 1;
    }
    let gate = gate_enter as *const () as usize & !(PAGE - 1);
    map(gate, gate, PTE_X);
    unsafe {
        let frame = &mut *(&raw mut FRAME);
        frame.entry = u64_at(24) as u64;
        frame.user_sp = abi::STACK_TOP as u64;
        frame.satp = 8 << 60 | (page(0) as u64) >> 12;
        frame.shared = abi::SHARED as u64;
        SHARED_AT = shared;
        core::arch::asm!("sfence.vma");
    }
}

/// The shared page, as the core reaches it (physically: the core runs with paging off).
pub fn shared() -> &'static mut Shared {
    load();
    unsafe { &mut *(SHARED_AT as *mut Shared) }
}

/// Makes call `op` (its arguments already in the shared page) and returns the answer; a
/// policy that panicked or faulted stops the kernel here, as the student's error. `policy`
/// names it in the message.
pub fn call(op: Op, policy: &str) -> &'static mut Shared {
    let s = shared();
    s.op = op as u64;
    s.status = 0;
    unsafe { gate_enter(&raw mut FRAME) };
    let (cause, stval, sepc) = unsafe { (FRAME.scause, FRAME.stval, FRAME.sepc) };
    if cause != ECALL_FROM_U {
        fault(policy, cause, stval, sepc);
    }
    match s.status {
        abi::DONE | abi::INVALID => s,
        abi::PANICKED => {
            let _ = writeln!(Uart, "kernel panic: {}", core::str::from_utf8(s.text()).unwrap_or("(a message that is not UTF-8)"));
            power::exit(Exit::Fault)
        }
        _ => fault(policy, cause, stval, sepc),
    }
}

/// A trap in the domain other than its `ecall` back: a stack overflow if it hit the unmapped
/// pages under the stack, else a protection fault (or an instruction U-mode may not run).
fn fault(policy: &str, cause: u64, stval: u64, sepc: u64) -> ! {
    let bottom = (abi::STACK_TOP - abi::STACK_SIZE) as u64;
    let what = match cause {
        ECALL_FROM_U => "return without answering (a jump into the domain's own exit)",
        1 | 12 => "run code at",
        5 | 13 => "read",
        7 | 15 => "write to",
        2 => "run an instruction it may not run, at",
        _ => "take a trap at",
    };
    if matches!(cause, 7 | 13 | 15) && (bottom.saturating_sub(64 * 1024)..bottom).contains(&stval) {
        let _ = writeln!(
            Uart,
            "kernel panic: stack overflow: {policy} overran its stack ({} KiB, in the lab's protection domain) at pc {sepc:#x}: unbounded recursion or a large local variable?",
            abi::STACK_SIZE >> 10
        );
    } else {
        let _ = writeln!(
            Uart,
            "kernel panic: protection fault: {policy} tried to {what} address {stval:#x} (at pc {sepc:#x}), outside its protection domain: a lab policy's code and data live in pages of their own, and nothing of the kernel is mapped for it (docs/labs.md, \"Integrity\")"
        );
    }
    power::exit(Exit::Fault)
}
