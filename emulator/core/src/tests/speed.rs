//! A local speed check (not a timed assertion): hand-assembled loops, reported in MIPS.
//! `cargo test --release -p runqueue-emu --lib speed -- --ignored --nocapture`

use super::enc::*;
use super::util::*;
use crate::{Machine, Stop};
use std::time::Instant;

fn measure(name: &str, m: &mut Machine, insns: u64) -> f64 {
    let start = Instant::now();
    assert_eq!(m.run(insns), Stop::Budget);
    let secs = start.elapsed().as_secs_f64();
    std::println!("{name}: {:.0} MIPS", insns as f64 / secs / 1e6);
    secs
}

#[test]
#[ignore = "speed report, run by hand"]
fn speed() {
    // ALU: the bench guest's 5-instruction loop.
    let mut a = Asm::default();
    a.li(A0, 1).li(A1, 0).li(A2, 7);
    let top = a.here();
    a.all(&[addi(A2, A2, 1), add(A1, A1, A2), r(0x33, A1, 4, A1, A2, 0), slli(A2, A1, 1)]);
    let back = top - a.here();
    a.emit(bne(A0, 0, back));
    measure("alu", &mut mmode(&a), 200_000_000);

    // Memory: ld/add/sd/addi/bne over 32 KiB.
    let mut a = Asm::default();
    a.li(S0, (RAM + 0x10000) as i64).li(S1, (RAM + 0x18000) as i64).emit(addi(T0, S0, 0));
    let top = a.here();
    a.all(&[ld(T1, T0, 0), add(T1, T1, T0), sd(T1, T0, 0), addi(T0, T0, 8)]);
    let skip = a.hole();
    a.emit(addi(T0, S0, 0));
    a.patch(skip, bne(T0, S1, a.here() - skip));
    let back = top - a.here();
    a.emit(jal(0, back));
    measure("mem", &mut mmode(&a), 200_000_000);

    // Trap round trip: ecall -> handler (mepc += 4) -> mret; 6 instructions each.
    let mut a = Asm::default();
    a.la(T0, 0x100).emit(csrrw(0, 0x305, T0));
    let top = a.here();
    a.emit(ECALL);
    let back = top - a.here();
    a.emit(jal(0, back));
    a.at(0x100);
    a.all(&[csrrs(T1, 0x341, 0), addi(T1, T1, 4), csrrw(0, 0x341, T1), MRET]);
    let trips = 20_000_000u64;
    let secs = measure("ecall loop", &mut mmode(&a), trips * 7);
    std::println!("trap round trip: {:.3} us", secs / trips as f64 * 1e6);
}
