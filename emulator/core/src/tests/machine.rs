//! Whole-machine behaviour: atomics, self-modifying code, page-straddling instructions, idle
//! skipping, determinism across harts and budgets.

use super::enc::*;
use super::util::*;
use crate::{Config, Exec, Machine, Stop};
use alloc::vec::Vec;

#[test]
fn atomics_and_lr_sc() {
    let data = RAM + 0x3000;
    let mut a = Asm::default();
    a.li(S0, data as i64).li(T0, -5).emit(sd(T0, S0, 0)).li(T1, 3);
    // funct5: add 0, swap 1, xor 4, or 8, and 12, min 16, max 20, minu 24, maxu 28
    let ops = [(0b00000, 3), (0b10000, 3), (0b10100, 3), (0b11000, 3), (0b11100, 3), (0b00100, 2), (0b01000, 2), (0b01100, 2), (0b00001, 2)];
    for (n, (f5, width)) in ops.into_iter().enumerate() {
        a.li(T0, -5).emit(sd(T0, S0, 0));
        a.emit(amo(f5, width, 18, S0, T1)); // x18 = old
        a.emit(ld(19 + n as u32, S0, 0)); // new memory value
    }
    a.li(T0, 7).emit(sd(T0, S0, 8)).emit(addi(S1, S0, 8));
    a.emit(amo(0b00011, 3, 28, S1, T1)); // sc.d without a reservation: fails (1)
    a.emit(amo(0b00010, 3, 29, S1, 0)); // lr.d
    a.emit(amo(0b00011, 3, 30, S1, T1)); // sc.d: succeeds (0), stores 3
    a.emit(amo(0b00010, 3, 0, S1, 0)).li(T0, 9).emit(sd(T0, S1, 0)); // lr, then the value changes
    a.emit(amo(0b00011, 3, 31, S1, T1)); // sc fails
    a.emit(ld(8, S1, 0));
    a.exit(0);
    let mut m = mmode(&a);
    assert_eq!(finish(&mut m).0, 0);
    let minus5 = (-5i64) as u64;
    let got: Vec<u64> = (19..28).map(|r| m.reg(0, r)).collect();
    let low = 0xffff_ffff_0000_0000u64;
    assert_eq!(
        got,
        [
            minus5.wrapping_add(3), // amoadd.d
            minus5,                 // amomin.d
            3,                      // amomax.d
            3,                      // amominu.d
            minus5,                 // amomaxu.d
            low | (0xffff_fffb ^ 3), // amoxor.w keeps the upper word
            low | (0xffff_fffb | 3), // amoor.w
            low | (0xffff_fffb & 3), // amoand.w
            low | 3,                // amoswap.w
        ]
    );
    assert_eq!(m.reg(0, 18), minus5 & 0xffff_ffff | low, "amo .w returns the sign-extended old word");
    assert_eq!((m.reg(0, 28), m.reg(0, 29), m.reg(0, 30), m.reg(0, 31), m.reg(0, 8)), (1, 7, 0, 1, 9));
}

#[test]
fn stores_into_code_take_effect_after_fence_i() {
    let mut a = Asm::default();
    a.li(S1, 0);
    let target = a.here() + 12;
    a.la(S0, target).li(A0, 0); // 3 instructions, then the patched one at `target`
    assert_eq!(a.here(), target);
    a.emit(addi(A0, A0, 1));
    a.emit(add(18, A0, 0)).emit(addi(S1, S1, 1)).li(T0, 2);
    let done = a.hole();
    a.li(T0, addi(A0, A0, 100) as i64).emit(sw(T0, S0, 0)).emit(FENCE_I);
    let back = target - a.here();
    a.emit(jal(0, back));
    a.patch(done, beq(S1, T0, a.here() - done));
    a.exit(0);
    let mut m = mmode(&a);
    assert_eq!(finish(&mut m).0, 0);
    assert_eq!(m.reg(0, 18), 101, "the second pass ran the new instruction");
}

#[test]
fn instructions_straddling_a_page_run() {
    let mut a = Asm::default();
    a.li(A0, 1);
    while a.here() < 0xffe {
        a.emit16(0x0001); // c.nop
    }
    a.emit(addi(A0, A0, 41)); // bytes 0xffe..0x1002
    a.emit(add(18, A0, 0));
    a.exit(0);
    let mut m = mmode(&a);
    assert_eq!(finish(&mut m).0, 0);
    assert_eq!(m.reg(0, 18), 42);
}

/// Control flow at page edges, where the block loop uses its page-relative targets and
/// sentinel slots: a straddling branch taken backwards, a fall-through from the last slot, a
/// `jalr` whose link register is its base, and a branch to the next page. minstret checks
/// that every instruction before the csrr reading it retired exactly once.
#[test]
fn control_flow_at_page_edges() {
    let mut a = Asm::default();
    a.li(S0, 3).li(S1, 0);
    let pad = |a: &mut Asm, to: i32| {
        let n = (to - a.here()) / 2;
        (0..n).for_each(|_| {
            a.emit16(0x0001); // c.nop
        });
        n as u64
    };
    let mut retired = 2 + pad(&mut a, 0xff6);
    a.emit(addi(S0, S0, -1)).emit(addi(S1, S1, 1)); // 0xff6..0xffe
    a.emit(bne(S0, 0, 0xff6 - 0xffe)); // straddles 0xffe..0x1002
    retired += 3 * 3;
    retired += pad(&mut a, 0x2000); // the last c.nop is at 0x1ffe
    a.la(T0, 0x2010).emit(jalr(T0, T0, 0)); // 0x2000..0x200c
    a.emit(addi(S1, S1, 100)); // skipped
    a.emit(add(S2, T0, 0)); // 0x2010
    let far = a.hole(); // 0x2014
    a.emit(addi(S1, S1, 1000)); // skipped
    a.at(0x3004).emit(addi(S3, 0, 7));
    a.patch(far, beq(0, 0, 0x3004 - far));
    a.emit(csrrs(S4, 0xb02, 0));
    retired += 3 + 1 + 1 + 1;
    a.exit(0);
    let mut m = mmode(&a);
    assert_eq!(finish(&mut m).0, 0);
    let regs: Vec<u64> = [S0, S1, S2, S3].into_iter().map(|r| m.reg(0, r as usize)).collect();
    assert_eq!(regs, [0, 3, RAM + 0x200c, 7]);
    assert_eq!(m.reg(0, S4 as usize), retired, "minstret reads what retired before the csrr");
}

#[test]
fn idle_harts_skip_to_the_timer_and_a_dead_machine_faults() {
    let mut a = Asm::default();
    a.li(S0, 0x200_4000).li(T0, 5_000_000).emit(sd(T0, S0, 0)); // mtimecmp: 0.5 s
    a.li(T0, 0x80).emit(csrrw(0, 0x304, T0)); // MTIE, but MIE stays off: wfi just returns
    a.emit(WFI).emit(csrrs(18, 0xc01, 0));
    a.emit(csrrw(0, 0x304, 0)).emit(WFI); // nothing enabled: nothing can wake it
    let mut m = mmode(&a);
    match m.run(1_000_000) {
        Stop::Fault(f) => assert!(f.what.contains("no enabled interrupt"), "{f}"),
        other => panic!("{other:?}"),
    }
    assert!(m.reg(0, 18) >= 5_000_000 && m.reg(0, 18) < 5_000_000 + 100, "woke at mtime {}", m.reg(0, 18));
    assert!(m.instret() < 100);
}

/// Two harts race on a shared counter and print; hart 0 exits when both are done.
fn racing_harts() -> Vec<u8> {
    let data = RAM + 0x3000;
    let mut a = Asm::default();
    a.li(S0, data as i64).li(T2, 3000).li(A1, 1);
    let top = a.here();
    a.emit(amo(0, 3, 0, S0, A1)); // amoadd.d counter += 1
    a.emit(andi_(T1, T2, 255));
    let skip = a.hole();
    a.li(T0, 0x1000_0000).emit(addi(T1, A0, b'0' as i32)).emit(sb(T1, T0, 0));
    a.patch(skip, bne(T1, 0, a.here() - skip));
    a.emit(addi(T2, T2, -1));
    let back = top - a.here();
    a.emit(bne(T2, 0, back));
    a.emit(amo(0, 3, 0, S0, A1)); // done marker: counter += 1
    let park = a.hole();
    a.li(T1, 6002);
    let wait = a.here();
    a.emit(ld(T0, S0, 0));
    let back = wait - a.here();
    a.emit(bne(T0, T1, back));
    a.exit(0);
    a.patch(park, bne(A0, 0, a.here() - park)); // hart 1 parks here
    a.emit(jal(0, 0));
    elf(RAM, &a.bytes, 0, &[])
}

fn andi_(rd: u32, rs1: u32, imm: i32) -> u32 {
    i(0x13, rd, 7, rs1, imm)
}

fn run_sliced(elf: &[u8], slice: u64) -> (Vec<u8>, u64, u64) {
    run_in(Exec::Fast, elf, slice)
}

fn run_in(exec: Exec, elf: &[u8], slice: u64) -> (Vec<u8>, u64, u64) {
    let mut m = Machine::new(Config { harts: 2, quantum: 97, ..Config::default() }, elf).unwrap();
    m.set_exec(exec);
    let mut console = Vec::new();
    loop {
        let stop = m.run(slice);
        console.extend(m.take_console());
        match stop {
            Stop::Budget => continue,
            Stop::Exit(0) => return (console, m.instret(), m.time_ns()),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn same_program_same_output_whatever_the_slicing() {
    let elf = racing_harts();
    let whole = run_sliced(&elf, u64::MAX);
    assert!(whole.0.contains(&b'0') && whole.0.contains(&b'1'), "both harts printed");
    assert_eq!(run_sliced(&elf, u64::MAX), whole);
    assert_eq!(run_sliced(&elf, 1000), whole);
    assert_eq!(run_sliced(&elf, 7), whole);
}

/// The reference mode (one instruction per block) is what the fast mode's blocks must match.
#[test]
fn reference_mode_runs_as_the_fast_mode() {
    let elf = racing_harts();
    let fast = run_in(Exec::Fast, &elf, u64::MAX);
    assert_eq!(run_in(Exec::Reference, &elf, u64::MAX), fast);
    assert_eq!(run_in(Exec::Reference, &elf, 7), fast);
}

/// A timer interrupt due anywhere in a loop of two `addi`s that leaves its page and comes back
/// (each phase of the loop in turn, moved by padding): the reference mode takes it at the same
/// instruction as the fast mode, whose blocks may hold the whole loop.
#[test]
fn reference_mode_takes_interrupts_where_the_fast_mode_does() {
    for pad in 0..4 {
        let mut a = Asm::default();
        a.la(T0, 0x700).emit(csrrw(0, 0x305, T0));
        for _ in 0..pad {
            a.emit(andi_(0, 0, 0));
        }
        a.li(S0, 0x200_bff8).emit(ld(S1, S0, 0)).emit(addi(S1, S1, 37)); // deadline: mtime + 37
        a.li(T0, 0x200_4000).emit(sd(S1, T0, 0));
        a.li(T0, 0x80).emit(csrrw(0, 0x304, T0)).emit(csrrsi(0, 0x300, 8)); // MTIE, MIE
        let top = a.here();
        a.emit(addi(18, 18, 1)).emit(addi(19, 19, 1));
        a.emit(jal(0, 0x1000 - a.here()));
        a.at(0x700);
        a.emit(csrrs(20, 0x341, 0)); // mepc
        a.exit(0);
        a.at(0x1000);
        a.emit(jal(0, top - 0x1000));
        let elf = elf(RAM, &a.bytes, 0, &[]);
        let run = |exec| {
            let mut m = Machine::new(Config::default(), &elf).unwrap();
            m.set_exec(exec);
            assert_eq!(finish(&mut m).0, 0);
            (m.reg(0, 18), m.reg(0, 19), m.reg(0, 20), m.instret())
        };
        assert_eq!(run(Exec::Reference), run(Exec::Fast), "padding {pad}");
    }
}

/// A hart that sleeps mid-quantum wakes at its deadline, not at its next turn, while another
/// hart keeps running.
#[test]
fn wfi_wakes_at_the_deadline_within_a_quantum() {
    for quantum in [1000, 100_000] {
        let mut a = Asm::default();
        a.emit(bne(A0, 0, 0x180)); // hart 1 spins at 0x180
        a.la(T0, 0x200).emit(csrrw(0, 0x305, T0));
        a.li(S0, 0x200_bff8).emit(ld(S1, S0, 0)).emit(addi(S1, S1, 37)); // deadline: mtime + 37
        a.li(T0, 0x200_4000).emit(sd(S1, T0, 0));
        a.li(T0, 0x80).emit(csrrw(0, 0x304, T0)).emit(csrrsi(0, 0x300, 8)); // MTIE, MIE
        a.emit(WFI).emit(jal(0, 0));
        a.at(0x180);
        a.emit(jal(0, 0));
        a.at(0x200);
        a.emit(ld(18, S0, 0));
        a.exit(0);
        let elf = elf(RAM, &a.bytes, 0, &[]);
        let mut m = Machine::new(Config { quantum, harts: 2, ..Config::default() }, &elf).unwrap();
        assert_eq!(finish(&mut m).0, 0);
        let (deadline, woke) = (m.reg(0, 9), m.reg(0, 18));
        assert!(woke >= deadline && woke <= deadline + 1, "quantum {quantum}: deadline {deadline}, woke {woke}");
    }
}
