//! The interpreter: runs blocks of pre-decoded ops within one code page.
//!
//! Interrupts, the timer and the hart's instruction limit are looked at only between blocks.
//! A block ends on leaving the page, on anything that may change interrupt state or
//! translation (CSR writes, xRET, device stores, stores into code, fences, traps), when the
//! limit is reached, and when the hart's timer deadline arrives. Since nothing inside a block
//! can make an interrupt newly pending, checking at block starts is exact and deterministic.

use crate::bus::{le_read, le_write, Bus, PAGE_SIZE};
use crate::code::{place, CodeCache, Page, RegionCode, SLOTS};
use crate::csr::CsrOp;
use crate::decode::{decode16, decode32, is_full_width, Kind, Op};
use crate::hart::{cause, mstatus, Hart, RunState, Trap, PRV_M, PRV_S, PRV_U};
use crate::jit::Frame;

/// Why a hart stopped running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It ran its limit.
    Limit,
    /// It executed `wfi` with nothing pending.
    Wait,
    /// S-mode `ecall` with the emulator as firmware: the pc is at the ecall.
    Sbi,
    /// A device ended the run (exit code or fault recorded in the bus), or the machine parked.
    Halt,
    /// The trap handler itself cannot be fetched (it would trap forever).
    TrapLoop,
}

/// How a block ended, or what a slow-path op asks the block loop to do.
#[derive(PartialEq, Eq)]
enum Step {
    /// Continue at this pc (stays in the block if it is on the same page).
    Go(u64),
    /// The pc is set; end the block.
    End(u64),
    Trap(Trap),
    Wait(u64),
    /// The op at `pc` straddles a page boundary and must run from the scratch page.
    Straddle,
    /// The op at `pc` is a region's entry whose region cannot run now: run this op, as
    /// placed, from the scratch page.
    Single(Op),
    /// The pc is set, and the slot there has just become hot: compile its region.
    Compile(u64),
}

const ILLEGAL: Step = Step::Trap(Trap { cause: cause::ILLEGAL, tval: 0 });

impl Hart {
    #[inline(always)]
    fn r(&self, i: u8) -> u64 {
        self.x[i as usize]
    }

    #[inline(always)]
    fn w(&mut self, i: u8, v: u64) {
        self.x[i as usize] = v;
    }

    /// Runs at most `limit` ticks (retired instructions and traps).
    pub fn run(&mut self, bus: &mut Bus, code: &mut CodeCache, limit: u64) -> Exit {
        let end = self.ticks + limit;
        loop {
            if !bus.code_writes.is_empty() {
                code.apply_writes(bus);
            }
            if self.tlb_epoch != bus.code_epoch {
                self.tlb.flush_writes();
                self.tlb_epoch = bus.code_epoch;
            }
            if bus.exit.is_some() || bus.fault.is_some() || bus.parked.is_some() {
                return Exit::Halt;
            }
            if self.ticks >= end {
                return Exit::Limit;
            }
            if let Some(c) = self.pending_interrupt(bus) {
                self.trap(c, 0);
                self.ticks += 1;
                continue;
            }
            let mut stop = end;
            let deadline = bus.timer_deadline(self.id);
            let now = self.now();
            if deadline > now {
                stop = stop.min(self.ticks.saturating_add(deadline - now));
            }
            if self.reference {
                stop = stop.min(self.ticks + 1);
            }
            // A page the PMP does not let run as a whole is run one fetched instruction at a time.
            let mut page_no = 0;
            let fetched = self.fetch_page(bus, self.pc).and_then(|off| match off {
                Some(off) => {
                    page_no = off / PAGE_SIZE as usize;
                    code.page(page_no, bus).map(Some).ok_or(Trap::new(cause::FETCH_ACCESS, self.pc))
                }
                None => Ok(None),
            });
            let page = match fetched {
                Ok(page) => page,
                Err(t) => {
                    if self.just_trapped {
                        return Exit::TrapLoop;
                    }
                    self.ticks += 1;
                    if let Some(exit) = self.take(t) {
                        return exit;
                    }
                    continue;
                }
            };
            self.just_trapped = false;
            let cached = bus.dcache.is_some();
            let mut step = match page {
                Some(page) if cached => self.block::<true>(bus, page, stop),
                Some(page) => self.block::<false>(bus, page, stop),
                None => Step::Straddle,
            };
            let offset = (self.pc & (PAGE_SIZE - 1)) as usize;
            let single = match step {
                Step::Straddle => Some(self.fetch_one(bus, self.pc).map(|op| place(op, offset))),
                Step::Single(op) => Some(Ok(op)),
                Step::Compile(pc) => {
                    if !self.reference {
                        code.compile(page_no, (pc as usize >> 1) % SLOTS, bus);
                    }
                    None
                }
                _ => None,
            };
            if let Some(op) = single {
                step = match op {
                    Ok(op) => {
                        // Run just this op from a scratch page at the same page offset.
                        let (scratch, stop) = (code.scratch(op, offset), self.ticks + 1);
                        if cached { self.block::<true>(bus, scratch, stop) } else { self.block::<false>(bus, scratch, stop) }
                    }
                    Err(t) => {
                        self.ticks += 1;
                        Step::Trap(t)
                    }
                };
            }
            match step {
                Step::Trap(t) => {
                    if let Some(exit) = self.take(t) {
                        return exit;
                    }
                }
                Step::Wait(_) => {
                    self.state = RunState::Waiting;
                    return Exit::Wait;
                }
                _ => {}
            }
        }
    }

    /// Takes an exception, unless it is an SBI call for the emulator.
    fn take(&mut self, t: Trap) -> Option<Exit> {
        if self.firmware && t.cause == cause::ECALL_S {
            return Some(Exit::Sbi);
        }
        self.trap(t.cause, t.tval);
        None
    }

    /// Runs ops from one page until the block ends; leaves `pc` and `ticks` up to date.
    /// The hot ops are inline here, in a function of its own, so the slot index and the
    /// counter stay in registers. An op's pc is only needed by a few ops, so it is not kept:
    /// it is `base + 2 * idx`.
    ///
    /// `CACHE` says the machine has a data cache, whose misses (in the slow paths) stall the
    /// hart. Each machine gets its own copy of the loop, so without a cache the loop is the
    /// one it was before the cache existed: its speed moves by several per cent with small
    /// changes to its code, even cold ones (`docs/bench.md`).
    #[inline(never)]
    fn block<const CACHE: bool>(&mut self, bus: &mut Bus, page: &mut Page, mut stop: u64) -> Step {
        use Kind::*;
        let base = self.pc & !(PAGE_SIZE - 1);
        let pc_of = |idx: usize| base.wrapping_add(2 * idx as u64);
        let mut idx = ((self.pc as usize) >> 1) % SLOTS;
        // Code entered from elsewhere (a call from another page, a trap handler) grows hot too,
        // but not where the last block was cut short: a loop resumed wherever each quantum
        // ended would make every slot of it a region entry.
        let cut = core::mem::take(&mut self.cut);
        if !CACHE && !cut {
            let heat = &mut page.ops[idx].heat;
            *heat = heat.saturating_add(1);
            if *heat == page.hot {
                return Step::Compile(self.pc);
            }
        }
        // Counting down what is left keeps one register instead of the count and the limit.
        let mut left = stop.saturating_sub(self.ticks);
        let result = 'block: loop {
            if left == 0 {
                self.cut = true;
                break Step::End(pc_of(idx));
            }
            let op = &page.ops[idx];
            left -= 1;
            {
                // Operands are read in the arms that need them, so the dispatch itself keeps
                // few values alive.
                macro_rules! imm {
                    () => {
                        op.imm as i64 as u64
                    };
                }
                macro_rules! a {
                    () => {
                        self.r(op.rs1)
                    };
                }
                macro_rules! b {
                    () => {
                        self.r(op.rs2)
                    };
                }
                macro_rules! addr {
                    () => {
                        a!().wrapping_add(imm!())
                    };
                }
                // Falls through to the next slot; past the page's end is a `PageEnd` sentinel.
                macro_rules! next {
                    () => {{
                        idx = op.next as usize;
                        continue 'block;
                    }};
                }
                // Goes to the target `offset` bytes from the page's start, staying in the
                // block if that is on this page.
                macro_rules! jump {
                    ($offset:expr) => {{
                        let offset: u64 = $offset;
                        if offset < PAGE_SIZE {
                            idx = (offset >> 1) as usize;
                            // Jump targets grow hot; the compiled tier is for machines without a
                            // data cache, whose stalls it does not model.
                            if !CACHE {
                                let heat = &mut page.ops[idx].heat;
                                *heat = heat.saturating_add(1);
                                if *heat == page.hot {
                                    break 'block Step::Compile(pc_of(idx));
                                }
                            }
                            continue 'block;
                        }
                        break 'block Step::End(base.wrapping_add(offset));
                    }};
                }
                macro_rules! set {
                    ($v:expr) => {{
                        let v = $v;
                        self.w(op.rd, v);
                        next!()
                    }};
                }
                macro_rules! setw {
                    ($v:expr) => {{
                        let v: u32 = $v;
                        set!(v as i32 as i64 as u64)
                    }};
                }
                macro_rules! branch {
                    ($cond:expr) => {
                        if $cond { jump!(imm!()) } else { next!() }
                    };
                }
                macro_rules! loaded {
                    ($result:expr, $ext:expr) => {
                        match $result {
                            Ok(v) => set!($ext(v)),
                            Err(t) => break 'block Step::Trap(t),
                        }
                    };
                }
                macro_rules! stored {
                    ($result:expr) => {
                        match $result {
                            Ok(false) => next!(),
                            Ok(true) => break 'block Step::End(pc_of(op.next as usize)),
                            Err(t) => break 'block Step::Trap(t),
                        }
                    };
                }
                // With the data cache, every data access takes a slow path (see `mmu`), which
                // gets the tick count and may move it on by a miss's stall, maybe past `stop`;
                // `stop` then moves with it, so the block ends at once. Without the cache the
                // fast paths come first, as they always did.
                macro_rules! stalled {
                    () => {{
                        stop = stop.max(self.ticks);
                        left = stop - self.ticks;
                    }};
                }
                macro_rules! load {
                    ($n:literal, $ext:expr) => {
                        if CACHE {
                            self.ticks = stop - left;
                            let result = self.load_slow(bus, addr!(), $n);
                            stalled!();
                            loaded!(result, $ext)
                        } else {
                            match self.load_fast::<$n>(bus, addr!()) {
                                Some(v) => set!($ext(v)),
                                None => {
                                    // Devices may read the time, which needs the tick count.
                                    self.ticks = stop - left;
                                    loaded!(self.load_slow(bus, addr!(), $n), $ext)
                                }
                            }
                        }
                    };
                }
                macro_rules! store {
                    ($n:literal) => {
                        if CACHE {
                            self.ticks = stop - left;
                            let result = self.store_slow(bus, addr!(), $n, b!());
                            stalled!();
                            stored!(result)
                        } else {
                            stored!(self.store::<$n>(bus, addr!(), b!()))
                        }
                    };
                }
                match op.kind {
                    Addi => set!(addr!()),
                    Add => set!(a!().wrapping_add(b!())),
                    Lui => set!(imm!()),
                    Auipc => set!(pc_of(idx).wrapping_add(imm!())),
                    Jal => {
                        self.w(op.rd, pc_of(op.next as usize));
                        jump!(imm!())
                    }
                    Jalr => {
                        // Read the target before writing the link: rd may be rs1.
                        let target = addr!() & !1;
                        self.w(op.rd, pc_of(op.next as usize));
                        jump!(target.wrapping_sub(base))
                    }
                    Beq => branch!(a!() == b!()),
                    Bne => branch!(a!() != b!()),
                    Blt => branch!((a!() as i64) < (b!() as i64)),
                    Bge => branch!((a!() as i64) >= (b!() as i64)),
                    Bltu => branch!(a!() < b!()),
                    Bgeu => branch!(a!() >= b!()),
                    Lb => load!(1, |v: u64| v as i8 as i64 as u64),
                    Lh => load!(2, |v: u64| v as i16 as i64 as u64),
                    Lw => load!(4, |v: u64| v as i32 as i64 as u64),
                    Ld => load!(8, |v: u64| v),
                    Lbu => load!(1, |v: u64| v),
                    Lhu => load!(2, |v: u64| v),
                    Lwu => load!(4, |v: u64| v),
                    Sb => store!(1),
                    Sh => store!(2),
                    Sw => store!(4),
                    Sd => store!(8),
                    Slti => set!(((a!() as i64) < (imm!() as i64)) as u64),
                    Sltiu => set!((a!() < imm!()) as u64),
                    Xori => set!(a!() ^ imm!()),
                    Ori => set!(a!() | imm!()),
                    Andi => set!(a!() & imm!()),
                    Slli => set!(a!() << (imm!() & 63)),
                    Srli => set!(a!() >> (imm!() & 63)),
                    Srai => set!(((a!() as i64) >> (imm!() & 63)) as u64),
                    Sub => set!(a!().wrapping_sub(b!())),
                    Sll => set!(a!() << (b!() & 63)),
                    Slt => set!(((a!() as i64) < (b!() as i64)) as u64),
                    Sltu => set!((a!() < b!()) as u64),
                    Xor => set!(a!() ^ b!()),
                    Srl => set!(a!() >> (b!() & 63)),
                    Sra => set!(((a!() as i64) >> (b!() & 63)) as u64),
                    Or => set!(a!() | b!()),
                    And => set!(a!() & b!()),
                    Addiw => setw!(addr!() as u32),
                    Slliw => setw!((a!() as u32) << (imm!() & 31)),
                    Srliw => setw!((a!() as u32) >> (imm!() & 31)),
                    Sraiw => setw!(((a!() as i32) >> (imm!() & 31)) as u32),
                    Addw => setw!((a!() as u32).wrapping_add(b!() as u32)),
                    Subw => setw!((a!() as u32).wrapping_sub(b!() as u32)),
                    Sllw => setw!((a!() as u32) << (b!() & 31)),
                    Srlw => setw!((a!() as u32) >> (b!() & 31)),
                    Sraw => setw!(((a!() as i32) >> (b!() & 31)) as u32),
                    Mul => set!(a!().wrapping_mul(b!())),
                    Mulh => set!(((a!() as i64 as i128 * b!() as i64 as i128) >> 64) as u64),
                    Mulhsu => set!(((a!() as i64 as i128).wrapping_mul(b!() as i128) >> 64) as u64),
                    Mulhu => set!(((a!() as u128 * b!() as u128) >> 64) as u64),
                    Div => set!(div(a!() as i64, b!() as i64) as u64),
                    Divu => set!(a!().checked_div(b!()).unwrap_or(u64::MAX)),
                    Rem => set!(rem(a!() as i64, b!() as i64) as u64),
                    Remu => set!(if b!() == 0 { a!() } else { a!() % b!() }),
                    Mulw => setw!((a!() as u32).wrapping_mul(b!() as u32)),
                    Divw => setw!(div(a!() as i32 as i64, b!() as i32 as i64) as u32),
                    Divuw => setw!((a!() as u32).checked_div(b!() as u32).unwrap_or(u32::MAX)),
                    Remw => setw!(rem(a!() as i32 as i64, b!() as i32 as i64) as u32),
                    Remuw => setw!(if b!() as u32 == 0 { a!() as u32 } else { a!() as u32 % b!() as u32 }),
                    Fence => next!(),
                    Undecoded => {
                        page.decode(bus, pc_of(idx));
                        left += 1;
                        continue 'block;
                    }
                    Straddle => {
                        left += 1;
                        break 'block Step::Straddle;
                    }
                    PageEnd => {
                        left += 1;
                        break 'block Step::End(pc_of(idx));
                    }
                    Compiled => {
                        left += 1;
                        let RegionCode { head, run } = page.regions[op.imm as usize];
                        if CACHE {
                            break 'block Step::Single(head);
                        }
                        let mut frame = Frame {
                            x: self.x.as_mut_ptr(),
                            ram: bus.ram.as_mut_ptr(),
                            ram_len: bus.ram.len() as u64,
                            tlb_read: self.tlb.read.as_ptr(),
                            tlb_write: self.tlb.write.as_ptr(),
                            data_ctx: self.data_ctx,
                            base,
                            left,
                            next: 0,
                        };
                        // SAFETY: the compiler's contract (`jit`): the code touches only the
                        // registers, and RAM through TLB entries checked against its length.
                        unsafe { run(&mut frame) };
                        if frame.left == left {
                            // Too close to `stop` for its first block, or its first op needs a
                            // slow path: this one op goes the interpreter's way.
                            break 'block Step::Single(head);
                        }
                        left = frame.left;
                        jump!(frame.next)
                    }
                    Illegal => break 'block Step::Trap(Trap::new(cause::ILLEGAL, op.imm as u32 as u64)),
                    Csrrw | Csrrs | Csrrc | Csrrwi | Csrrsi | Csrrci | Ecall | Ebreak | FenceI | SfenceVma | Mret | Sret | Wfi
                    | LrW | ScW | AmoSwapW | AmoAddW | AmoXorW | AmoAndW | AmoOrW | AmoMinW | AmoMaxW | AmoMinuW | AmoMaxuW
                    | LrD | ScD | AmoSwapD | AmoAddD | AmoXorD | AmoAndD | AmoOrD | AmoMinD | AmoMaxD | AmoMinuD
                    | AmoMaxuD => {
                        let step = self.step_system(bus, *op, pc_of(idx), pc_of(op.next as usize), stop - left);
                        if CACHE {
                            stalled!();
                        }
                        match step {
                            // Falling through is no jump: the op after a CSR access does not
                            // grow hot, so it is not made a region's entry.
                            Step::Go(t) if t == pc_of(op.next as usize) => next!(),
                            Step::Go(t) => jump!(t.wrapping_sub(base)),
                            other => break 'block other,
                        }
                    }
                }
            }
        };
        // A trap or a!() straddling op leaves the pc at the op.
        self.pc = match result {
            Step::Go(t) | Step::End(t) | Step::Wait(t) | Step::Compile(t) => t,
            Step::Trap(_) | Step::Straddle | Step::Single(_) => pc_of(idx),
        };
        self.ticks = stop - left;
        result
    }

    /// The less frequent ops: atomics, CSRs, privileged instructions.
    #[inline(never)]
    fn step_system(&mut self, bus: &mut Bus, op: Op, pc: u64, next: u64, ticks: u64) -> Step {
        use Kind::*;
        // CSRs and wfi may look at the time, which needs the tick count.
        self.ticks = ticks;
        let a = self.r(op.rs1);
        let csr = |kind, source, skip| (op.imm as u16 & 0xfff, source, kind, skip);
        let (addr, source, kind, skip) = match op.kind {
            Csrrw => csr(CsrOp::Write, a, false),
            Csrrs => csr(CsrOp::Set, a, op.rs1 == 0),
            Csrrc => csr(CsrOp::Clear, a, op.rs1 == 0),
            Csrrwi => csr(CsrOp::Write, op.rs1 as u64, false),
            Csrrsi => csr(CsrOp::Set, op.rs1 as u64, op.rs1 == 0),
            Csrrci => csr(CsrOp::Clear, op.rs1 as u64, op.rs1 == 0),
            _ => return self.step_privileged(bus, op, pc, next),
        };
        match self.csr_instruction(bus, addr, op.rd as usize, source, kind, skip) {
            Ok(false) => Step::Go(next),
            Ok(true) => Step::End(next),
            Err(_) => Step::Trap(Trap::new(cause::ILLEGAL, self.raw_bits(op))),
        }
    }

    /// The instruction bits for `mtval` on an illegal CSR access: re-encoded from the op.
    fn raw_bits(&self, op: Op) -> u64 {
        let f3 = match op.kind {
            Kind::Csrrw => 1,
            Kind::Csrrs => 2,
            Kind::Csrrc => 3,
            Kind::Csrrwi => 5,
            Kind::Csrrsi => 6,
            _ => 7,
        };
        let rd = if op.rd == crate::decode::ZERO_SINK { 0 } else { op.rd as u64 };
        ((op.imm as u64 & 0xfff) << 20) | ((op.rs1 as u64) << 15) | (f3 << 12) | (rd << 7) | 0x73
    }

    fn step_privileged(&mut self, bus: &mut Bus, op: Op, pc: u64, next: u64) -> Step {
        use Kind::*;
        match op.kind {
            Ecall => Step::Trap(Trap::new(cause::ECALL_U + self.prv as u64, 0)),
            Ebreak => Step::Trap(Trap::new(cause::BREAKPOINT, pc)),
            FenceI => Step::End(next),
            SfenceVma => match self.check_sfence() {
                Ok(()) => {
                    self.tlb.flush();
                    Step::End(next)
                }
                Err(t) => Step::Trap(t),
            },
            Mret if self.prv == PRV_M => {
                self.mret();
                Step::End(self.pc)
            }
            Sret if self.prv == PRV_M || (self.prv == PRV_S && self.csr.mstatus & mstatus::TSR == 0) => {
                self.sret();
                Step::End(self.pc)
            }
            Mret | Sret => ILLEGAL,
            Wfi => {
                let trapped = self.prv == PRV_U || (self.prv == PRV_S && self.csr.mstatus & mstatus::TW != 0);
                if trapped {
                    ILLEGAL
                } else if self.wake_pending(bus) {
                    Step::End(next)
                } else {
                    Step::Wait(next)
                }
            }
            _ => match self.atomic(bus, op) {
                Ok(true) => Step::End(next),
                Ok(false) => Step::Go(next),
                Err(t) => Step::Trap(t),
            },
        }
    }

    /// LR/SC and AMOs. SC succeeds while the reserved word still holds the value LR saw (as
    /// QEMU does), which is enough since harts interleave only between blocks.
    fn atomic(&mut self, bus: &mut Bus, op: Op) -> Result<bool, Trap> {
        use Kind::*;
        let va = self.r(op.rs1);
        let src = self.r(op.rs2);
        let (size, lr, sc) = match op.kind {
            LrW => (4, true, false),
            ScW => (4, false, true),
            LrD => (8, true, false),
            ScD => (8, false, true),
            k if (k as u8) < (LrD as u8) => (4, false, false),
            _ => (8, false, false),
        };
        let (off, watched) = self.atomic_target(bus, va, size, lr)?;
        let read = |bus: &Bus| if size == 4 { le_read::<4>(&bus.ram[off..]) as i32 as i64 as u64 } else { le_read::<8>(&bus.ram[off..]) };
        let old = read(bus);
        // LR reads the line; AMOs and SC (even one that fails) want it for writing.
        self.touch_cache(bus, off, size as usize, !lr);
        let pa = crate::bus::RAM_BASE + off as u64;
        if lr {
            self.reservation = Some((pa, old));
            self.w(op.rd, old);
            return Ok(false);
        }
        let new = if sc {
            let ok = self.reservation.take() == Some((pa, old));
            self.w(op.rd, (!ok) as u64);
            if !ok {
                return Ok(false);
            }
            src
        } else {
            self.w(op.rd, old);
            let (o, s) = if size == 4 { (old as i32 as i64, src as i32 as i64) } else { (old as i64, src as i64) };
            let (uo, us) = if size == 4 { (old as u32 as u64, src as u32 as u64) } else { (old, src) };
            match op.kind {
                AmoSwapW | AmoSwapD => src,
                AmoAddW | AmoAddD => old.wrapping_add(src),
                AmoXorW | AmoXorD => old ^ src,
                AmoAndW | AmoAndD => old & src,
                AmoOrW | AmoOrD => old | src,
                AmoMinW | AmoMinD => o.min(s) as u64,
                AmoMaxW | AmoMaxD => o.max(s) as u64,
                AmoMinuW | AmoMinuD => uo.min(us),
                _ => uo.max(us),
            }
        };
        if size == 4 {
            le_write::<4>(&mut bus.ram[off..], new);
        } else {
            le_write::<8>(&mut bus.ram[off..], new);
        }
        Ok(watched && bus.note_ram_write(pa, size))
    }

    /// One instruction fetched and decoded on its own, a halfword at a time: a 32-bit
    /// instruction whose upper half is on the next page (that page's mapping and contents are
    /// not part of this page's cache), or any instruction of a page the PMP does not let run as
    /// a whole.
    #[inline(never)]
    fn fetch_one(&mut self, bus: &mut Bus, pc: u64) -> Result<Op, Trap> {
        let mut bits = 0u32;
        for i in 0..2u64 {
            let va = pc.wrapping_add(2 * i);
            let pa = self.translate(bus, va, crate::mmu::Access::Fetch, 2)?;
            let off = bus.ram_offset(pa, 2).ok_or(Trap::new(cause::FETCH_ACCESS, va))?;
            let half = le_read::<2>(&bus.ram[off..]) as u16;
            if i == 0 && !is_full_width(half) {
                return Ok(decode16(half));
            }
            bits |= (half as u32) << (16 * i);
        }
        Ok(decode32(bits))
    }
}

fn div(a: i64, b: i64) -> i64 {
    if b == 0 { -1 } else { a.wrapping_div(b) }
}

fn rem(a: i64, b: i64) -> i64 {
    if b == 0 { a } else { a.wrapping_rem(b) }
}
