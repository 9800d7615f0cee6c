//! UART registers, CLINT, trace device, finisher and HTIF, from guest programs.

use super::enc::*;
use super::util::*;
use crate::{Config, Machine, Stop};

const UART: i64 = 0x1000_0000;

/// Reads UART register `reg` into x`into`.
fn uart_read(a: &mut Asm, reg: i32, into: u32) {
    a.li(T0, UART).emit(lbu(into, T0, reg));
}

fn uart_write(a: &mut Asm, reg: i32, value: i64) {
    a.li(T0, UART).li(T1, value).emit(sb(T1, T0, reg));
}

#[test]
fn uart_registers() {
    let mut a = Asm::default();
    uart_read(&mut a, 5, 18); // LSR with input: THRE|TEMT|DR
    uart_read(&mut a, 0, 19); // RBR: 'a'
    uart_read(&mut a, 5, 20); // LSR without input
    uart_read(&mut a, 2, 21); // IIR: nothing pending
    uart_write(&mut a, 1, 0xff); // IER keeps 4 bits; THRE interrupt becomes pending
    uart_read(&mut a, 1, 22);
    uart_read(&mut a, 2, 23); // IIR: THRE, then cleared by the read
    uart_read(&mut a, 2, 24);
    uart_write(&mut a, 3, 0x83); // LCR: DLAB
    uart_write(&mut a, 0, 0x12); // DLL, not THR
    uart_write(&mut a, 1, 0x34); // DLM, not IER
    uart_read(&mut a, 0, 25);
    uart_read(&mut a, 1, 26);
    uart_write(&mut a, 3, 0x03);
    uart_read(&mut a, 1, 27); // IER again
    uart_write(&mut a, 7, 0x5a); // scratch
    uart_read(&mut a, 7, 28);
    uart_read(&mut a, 6, 29); // MSR
    uart_write(&mut a, 2, 0x01); // FCR: FIFO on -> IIR bits 7:6
    uart_read(&mut a, 2, 30);
    a.print("ok");
    a.exit(0);
    let mut m = mmode(&a);
    m.push_input(b"a");
    let (code, console) = finish(&mut m);
    assert_eq!((code, console.as_str()), (0, "ok"), "DLL/DLM writes did not transmit");
    let r = |i| m.reg(0, i);
    assert_eq!((r(18), r(19), r(20), r(21)), (0x61, b'a' as u64, 0x60, 0x01));
    assert_eq!((r(22), r(23), r(24)), (0x0f, 0x02, 0x01));
    assert_eq!((r(25), r(26), r(27), r(28), r(29), r(30)), (0x12, 0x34, 0x0f, 0x5a, 0xb0, 0xc1));
}

#[test]
fn clint_time_and_compare_registers() {
    let mut a = Asm::default();
    a.li(S0, 0x200_0000).li(T1, 0xbff8).emit(add(S1, S0, T1));
    a.emit(ld(18, S1, 0)); // mtime
    a.all(&[addi(0, 0, 0); 20]);
    a.emit(ld(19, S1, 0));
    a.li(T1, 0x4000).emit(add(T2, S0, T1));
    a.li(T1, 0x1234_5678_9abc).emit(sd(T1, T2, 0)).emit(lw(20, T2, 4)); // mtimecmp high half
    a.li(T1, 1).emit(sw(T1, S0, 0)).emit(csrrs(21, 0x344, 0)); // msip -> mip.MSIP
    a.emit(sw(0, S0, 0)).emit(csrrs(22, 0x344, 0));
    a.exit(0);
    let mut m = mmode(&a);
    assert_eq!(finish(&mut m).0, 0);
    let (t0, t1) = (m.reg(0, 18), m.reg(0, 19));
    assert!(t1 - t0 >= 2 && t1 - t0 <= 3, "22 instructions are 2.2 ticks: {t0} -> {t1}");
    assert_eq!(m.reg(0, 20), 0x1234);
    assert_eq!((m.reg(0, 21) & 8, m.reg(0, 22) & 8), (8, 0));
}

#[test]
fn trace_device_copies_lines() {
    let line = RAM + 0x4000;
    let mut a = Asm::default();
    a.li(T0, line as i64).li(T1, 0x0a_6968).emit(sw(T1, T0, 0)); // "hi\n"
    a.li(S0, 0x1020_0000).emit(sd(T0, S0, 0)).li(T1, 3).emit(sd(T1, S0, 8));
    a.li(T1, b'!' as i64).emit(sb(T1, S0, 16));
    a.li(T1, 5000).emit(sd(T1, S0, 8)); // too long: store access fault
    a.exit(0);
    let mut m = mmode(&a);
    match m.run(10_000) {
        Stop::Fault(f) => assert!(f.what.contains("cannot be fetched"), "mtvec is 0: {f}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(m.take_trace(), b"hi\n!");
    assert_eq!(m.csr(0, 0x342), Some(7), "store access fault");
}

#[test]
fn finisher_codes() {
    for (value, code) in [(0x5555, 0), (0x7777, 0), (0x3333 | (42 << 16), 42)] {
        let mut a = Asm::default();
        a.li(T0, 0x10_0000).li(T1, value).emit(sw(T1, T0, 0));
        assert_eq!(finish(&mut mmode(&a)).0, code);
    }
}

#[test]
fn htif_console_and_exit() {
    const TOHOST: u64 = RAM + 0x1000;
    const FROMHOST: u64 = RAM + 0x1040;
    let mut a = Asm::default();
    a.li(S0, TOHOST as i64);
    for c in b"ok" {
        a.li(T1, ((1i64 << 56) | (1 << 48)) | *c as i64).emit(sd(T1, S0, 0));
    }
    a.emit(ld(18, S0, 0x40)); // fromhost acknowledgement
    a.li(T1, (5 << 1) | 1).emit(sw(T1, S0, 0));
    let f = elf(RAM, &a.bytes, 0, &[("tohost", TOHOST), ("fromhost", FROMHOST)]);
    let mut m = Machine::new(Config::default(), &f).unwrap();
    let (code, console) = finish(&mut m);
    assert_eq!((code, console.as_str()), (5, "ok"));
    assert_eq!(m.reg(0, 18), (1 << 56) | (1 << 48) | 0x100 | b'k' as u64);
    assert_eq!(m.exit_code(), Some(5));
    assert_eq!(m.run(100), Stop::Exit(5), "a finished machine stays finished");
}
