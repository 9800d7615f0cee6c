//! The compiled tier's plumbing, without a real compiler: which regions are found, and that
//! a region which runs nothing leaves the machine exactly as the interpreter alone would.

use super::enc::*;
use super::util::*;
use crate::code::place;
use crate::decode::{decode32, Kind, Op};
use crate::jit::{discover, CompiledFn, Compiler, End, Frame, Region, MAX_OPS};
use crate::{Machine, Stop};

use alloc::boxed::Box;
use alloc::rc::Rc;
use alloc::vec::Vec;
use core::cell::Cell;

/// The region from `entry` of a page holding `code` (4-byte instructions from offset 0).
fn region(code: &[u32], entry: usize) -> Option<Region> {
    discover(entry, |slot| match code.get(slot / 2) {
        Some(&bits) if slot % 2 == 0 => place(decode32(bits), slot * 2),
        _ => Op::PAGE_END,
    })
}

fn starts(r: &Region) -> Vec<usize> {
    r.blocks.iter().map(|b| b.start).collect()
}

#[test]
fn a_loop_is_one_block_that_jumps_to_itself() {
    let code = [addi(A0, A0, -1), bne(A0, 0, -4), csrrw(0, 0x340, A0)];
    let r = region(&code, 0).expect("a region");
    // The loop, then the exit path's first op is a CSR access: not compiled, no block.
    assert_eq!(starts(&r), [0]);
    assert_eq!(r.blocks[0].ops.len(), 2);
    assert_eq!(r.blocks[0].end, End::Control);
    assert_eq!(r.block_at(0), Some(0));
    assert_eq!(r.block_at(8), None);
}

#[test]
fn a_block_stops_before_an_op_the_interpreter_keeps() {
    let code = [addi(A0, A0, 1), add(A1, A1, A0), ECALL, addi(A0, A0, 1)];
    let r = region(&code, 0).expect("a region");
    assert_eq!(r.blocks.len(), 1);
    assert_eq!(r.blocks[0].end, End::Leave(4));
    // An entry the compiler does not take gives no region at all.
    assert_eq!(region(&code, 4), None);
}

#[test]
fn both_ways_of_a_branch_and_a_join_become_blocks() {
    // 0: beq a0, zero, +12 -> 12;  4: addi;  8: jal +8 -> 16;  12: addi;  16: add, ret
    let code = [beq(A0, 0, 12), addi(A1, A1, 1), jal(0, 8), addi(A1, A1, 2), add(A2, A1, A1), jalr(0, RA, 0)];
    let r = region(&code, 0).expect("a region");
    let mut s = starts(&r);
    s.sort();
    assert_eq!(s, [0, 2, 6, 8]);
    // The jalr ends its block; nothing follows it.
    let last = &r.blocks[r.block_at(16).unwrap()];
    assert_eq!(last.ops.last().unwrap().1.kind, Kind::Jalr);
    assert_eq!(last.end, End::Control);
}

#[test]
fn targets_off_the_page_are_not_followed_and_regions_are_bounded() {
    let code = [bne(A0, 0, -8), addi(A0, A0, 1), jal(0, 8192)];
    let r = region(&code, 0).expect("a region");
    assert_eq!(starts(&r), [0, 2]);
    let long: Vec<u32> = (0..1024).map(|_| addi(A0, A0, 1)).collect();
    let r = region(&long, 0).expect("a region");
    assert_eq!(r.op_count(), MAX_OPS);
    assert_eq!(r.blocks[0].end, End::Leave(2 * MAX_OPS));
}

/// A compiled region that never runs anything: every entry falls back to the interpreter.
unsafe extern "C" fn runs_nothing(_frame: *mut Frame) {}

/// Hands out `runs_nothing` and counts the regions it was given.
pub(super) struct Idle(pub(super) Rc<Cell<usize>>);

impl Compiler for Idle {
    fn compile(&mut self, _region: &Region) -> Option<CompiledFn> {
        self.0.set(self.0.get() + 1);
        Some(runs_nothing)
    }
    fn reset(&mut self) {}
    fn rounds(&self) -> u16 {
        1
    }
}

/// A program with a hot loop over memory that, half way, rewrites the loop's own `add` into a
/// `sub` (so its region is dropped and found again), then exits.
fn program() -> Asm {
    const FENCE_I: u32 = 0x0000_100f;
    let mut a = Asm::default();
    a.li(S0, (RAM + 0x10000) as i64).li(S1, 300).li(S4, 150).li(S3, sub(T1, T1, S1) as i64);
    let la = a.here();
    a.emit(auipc(T2, 0));
    let la_offset = a.hole();
    let top = a.here();
    let add_at = top + 4;
    a.all(&[ld(T1, S0, 0), add(T1, T1, S1), sd(T1, S0, 0), addi(S1, S1, -1), bne(S1, S4, 12), sw(S3, T2, 0), FENCE_I]);
    let back = top - a.here();
    a.emit(bne(S1, 0, back));
    a.patch(la_offset, addi(T2, T2, add_at - la));
    a.exit(0);
    a
}

fn state(m: &Machine) -> (u64, u64, [u64; 32], u64) {
    let h = &m.harts[0];
    (h.pc, h.retired(), h.x[..32].try_into().unwrap(), read_u64(m, RAM + 0x10000))
}

#[test]
fn a_region_that_runs_nothing_changes_nothing() {
    let a = program();
    for limit in [1, 7, 100, 1001, 1202, 5000] {
        let mut plain = mmode(&a);
        let mut tiered = mmode(&a);
        let asked = Rc::new(Cell::new(0));
        tiered.set_compiler(Some(Box::new(Idle(asked.clone()))));
        assert_eq!(plain.run(limit), tiered.run(limit), "limit {limit}");
        assert_eq!(state(&plain), state(&tiered), "limit {limit}");
        if limit >= 1001 {
            assert!(asked.get() > 0, "the loop never became hot by {limit} instructions");
        }
    }
    // Run to the end: the sum of 300..=151 added, then 150..=1 taken away.
    let mut tiered = mmode(&a);
    tiered.set_compiler(Some(Box::new(Idle(Rc::new(Cell::new(0))))));
    assert_eq!(finish(&mut tiered).0, 0);
    let added: u64 = (151..=300).sum();
    let taken: u64 = (1..=150).sum();
    assert_eq!(state(&tiered).3, added - taken);
    assert!(matches!(tiered.run(1), Stop::Exit(0)));
}

/// A compiler given to a machine that has run a while still finds the loops that grew hot
/// before it came (a cold Linux boot gets its compiler so, at its park).
#[test]
fn a_compiler_given_late_finds_the_loops_hot_before_it() {
    let mut a = Asm::default();
    a.li(T0, 2000);
    let top = a.here();
    a.emit(addi(T0, T0, -1));
    let back = top - a.here();
    a.emit(bne(T0, ZERO, back));
    a.exit(0);
    let mut m = mmode(&a);
    assert_eq!(m.run(1000), Stop::Budget, "500 rounds: the loop's head is far past hot");
    let asked = Rc::new(Cell::new(0));
    m.set_compiler(Some(Box::new(Idle(asked.clone()))));
    assert_eq!(finish(&mut m).0, 0);
    assert!(asked.get() > 0, "the loop was compiled");
}
