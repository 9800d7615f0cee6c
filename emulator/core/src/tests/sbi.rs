//! The built-in SBI, driven by hand-assembled S-mode programs.

use super::enc::*;
use super::util::*;
use crate::{BootMode, Config, Stop};

const BASE: i64 = 0x10;
const TIME: i64 = 0x5449_4d45;
const IPI: i64 = 0x73_5049;
const HSM: i64 = 0x48_534d;
const DBCN: i64 = 0x4442_434e;

/// Copies a0/a1 of the last SBI call into registers `to`, `to + 1`.
fn keep(a: &mut Asm, to: u32) {
    a.emit(add(to, A0, 0)).emit(add(to + 1, A1, 0));
}

#[test]
fn base_extension_and_unknown_calls() {
    let mut a = Asm::default();
    sbi(&mut a, BASE, 0, &[]);
    keep(&mut a, 18);
    sbi(&mut a, BASE, 3, &[TIME]);
    keep(&mut a, 20);
    sbi(&mut a, BASE, 3, &[0x1234_5678]);
    keep(&mut a, 22);
    sbi(&mut a, 0x0abc_def0, 0, &[]);
    keep(&mut a, 24);
    sbi(&mut a, BASE, 99, &[]);
    keep(&mut a, 26);
    sbi_exit(&mut a, 0);
    let mut m = smode(&a, Config::default());
    assert_eq!(m.boot_mode(), BootMode::Supervisor);
    assert_eq!(finish(&mut m).0, 0);
    let regs: alloc::vec::Vec<u64> = (18..28).map(|r| m.reg(0, r)).collect();
    assert_eq!(regs, [0, 2 << 24, 0, 1, 0, 0, (-2i64) as u64, 0, (-2i64) as u64, 0]);
}

#[test]
fn console_calls() {
    let mut a = Asm::default();
    sbi(&mut a, 1, 0, &[b'L' as i64]); // legacy putchar
    sbi(&mut a, DBCN, 2, &[b'B' as i64]); // write_byte
    a.li(T0, (KERNEL + 0x800) as i64).li(T1, 0x0a6b6f).emit(sw(T1, T0, 0)); // "ok\n"
    sbi(&mut a, DBCN, 0, &[3, (KERNEL + 0x800) as i64, 0]);
    keep(&mut a, 18);
    sbi(&mut a, 2, 0, &[]); // legacy getchar: 'x'
    a.emit(add(20, A0, 0));
    sbi(&mut a, 2, 0, &[]); // nothing left: -1
    a.emit(add(21, A0, 0));
    sbi_exit(&mut a, 0);
    let mut m = smode(&a, Config::default());
    m.push_input(b"x");
    let (code, console) = finish(&mut m);
    assert_eq!((code, console.as_str()), (0, "LBok\n"));
    assert_eq!((m.reg(0, 18), m.reg(0, 19)), (0, 3));
    assert_eq!((m.reg(0, 20), m.reg(0, 21)), (b'x' as u64, u64::MAX));
}

#[test]
fn shutdown_reasons_give_exit_codes() {
    for (reason, code) in [(0, 0), (1, 1)] {
        let mut a = Asm::default();
        sbi_exit(&mut a, reason);
        assert_eq!(finish(&mut smode(&a, Config::default())).0, code);
    }
    let mut a = Asm::default();
    sbi(&mut a, 8, 0, &[]); // legacy shutdown
    assert_eq!(finish(&mut smode(&a, Config::default())).0, 0);
}

/// set_timer raises STIP at the deadline; a hart in wfi sleeps until then at no cost.
#[test]
fn timer_interrupt_wakes_wfi_and_time_skips() {
    const HANDLER: usize = 0x400;
    let mut a = Asm::default();
    a.la(T0, HANDLER as i32).emit(csrrw(0, 0x105, T0)); // stvec
    a.li(T0, 1 << 5).emit(csrrs(0, 0x104, T0)); // sie.STIE
    a.emit(csrrs(S1, 0xc01, 0)); // time
    a.emit(addi(A0, S1, 0)).li(T0, 1_000_000).emit(add(A0, A0, T0)); // +100 ms
    a.li(A7, TIME).li(A6, 0).emit(ECALL);
    a.emit(csrrsi(0, 0x100, 2)); // sstatus.SIE
    let spin = a.here();
    a.emit(WFI);
    let back = spin - a.here();
    a.emit(jal(0, back));
    a.at(HANDLER);
    a.emit(csrrs(18, 0x142, 0)).emit(csrrs(19, 0xc01, 0)).emit(csrrs(20, 0x144, 0)); // scause, time, sip
    a.li(A0, -1).li(A7, TIME).li(A6, 0).emit(ECALL); // disarm: STIP clears
    a.emit(csrrs(21, 0x144, 0));
    sbi_exit(&mut a, 0);
    let mut m = smode(&a, Config::default());
    assert_eq!(finish(&mut m).0, 0);
    let start = m.reg(0, S1 as usize);
    assert_eq!(m.reg(0, 18), (1 << 63) | 5);
    let woke = m.reg(0, 19);
    assert!(woke >= start + 1_000_000 && woke < start + 1_000_000 + 200, "woke at {woke}, armed at {start}");
    assert_eq!((m.reg(0, 20) & 0x20, m.reg(0, 21) & 0x20), (0x20, 0));
    assert!(m.time_ns() >= 100_000_000, "emulated time passed");
    assert!(m.instret() < 1000, "sleeping cost {} instructions", m.instret());
}

#[test]
fn hsm_starts_a_hart_and_ipi_raises_ssip() {
    const SECOND: usize = 0x600;
    let flag = KERNEL + 0x900;
    let mut a = Asm::default();
    sbi(&mut a, HSM, 2, &[1]); // status of hart 1: stopped
    keep(&mut a, 18);
    a.la(A1, SECOND as i32).li(A0, 1).li(A2, 0x77).li(A7, HSM).li(A6, 0).emit(ECALL);
    keep(&mut a, 20);
    sbi(&mut a, HSM, 0, &[1, KERNEL as i64, 0]); // already started
    keep(&mut a, 22);
    a.li(T0, flag as i64);
    let wait = a.here();
    a.emit(ld(T1, T0, 0));
    let back = wait - a.here();
    a.emit(beq(T1, 0, back));
    sbi(&mut a, IPI, 0, &[1, 0]); // IPI to self (hart 0)
    a.emit(csrrs(24, 0x144, 0)); // sip
    sbi(&mut a, HSM, 2, &[1]); // hart 1 stopped itself
    keep(&mut a, 25);
    sbi_exit(&mut a, 0);
    a.at(SECOND);
    // Hart 1: a0 = hart id, a1 = opaque; publish them, then stop.
    a.li(T0, flag as i64).emit(sd(A1, T0, 8)).emit(sd(A0, T0, 16)).li(T1, 1).emit(sd(T1, T0, 0));
    sbi(&mut a, HSM, 1, &[]);
    a.emit(0xffff_ffff); // never reached
    let mut m = smode(&a, Config { harts: 2, ..Config::default() });
    assert_eq!(finish(&mut m).0, 0);
    assert_eq!((m.reg(0, 18), m.reg(0, 19)), (0, 1), "hart 1 starts stopped");
    assert_eq!(m.reg(0, 20), 0, "hart_start succeeds");
    assert_eq!(m.reg(0, 22), (-6i64) as u64, "a started hart is already available");
    assert_eq!((read_u64(&m, flag + 8), read_u64(&m, flag + 16)), (0x77, 1));
    assert_eq!(m.reg(0, 24) & 2, 2, "SSIP pending after the IPI");
    assert_eq!(m.reg(0, 26), 1, "hart 1 reports stopped");
}

#[test]
fn undelegated_exceptions_reach_the_supervisor() {
    const HANDLER: usize = 0x400;
    let mut a = Asm::default();
    a.la(T0, HANDLER as i32).emit(csrrw(0, 0x105, T0));
    a.emit(csrrs(A0, 0x300, 0)); // mstatus from S-mode: illegal instruction (cause 2, not delegated)
    a.emit(0xffff_ffff);
    a.at(HANDLER);
    a.emit(csrrs(18, 0x142, 0)).emit(csrrs(19, 0x143, 0));
    sbi_exit(&mut a, 0);
    let mut m = smode(&a, Config::default());
    assert_eq!(finish(&mut m).0, 0);
    assert_eq!((m.reg(0, 18), m.reg(0, 19)), (2, csrrs(A0, 0x300, 0) as u64));
}

#[test]
fn every_hart_stopped_is_a_fault() {
    let mut a = Asm::default();
    sbi(&mut a, HSM, 1, &[]);
    let mut m = smode(&a, Config::default());
    match m.run(10_000) {
        Stop::Fault(f) => assert!(f.what.contains("stopped"), "{f}"),
        other => panic!("{other:?}"),
    }
}
