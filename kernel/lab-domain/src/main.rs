//! The lab policy's protection domain (`docs/kernel.md`, "The lab's protection domain"): the
//! lab slot (`runqueue-lab`) linked on its own, entered by the kernel core's gate in U-mode
//! with a page table that maps only these pages and the shared page. Each entry carries one
//! call of the `Scheduler` API in the shared page (`runqueue-lab-abi`); this runtime makes it
//! on the instance it names, writes the answer back and returns to the core by `ecall`. A
//! panic does the same with its message. So whatever the policy's code does, even through a
//! hole in the compiler's safety checks, it can reach nothing but the pages mapped here.
#![no_std]
#![no_main]

use core::fmt::Write;
use runqueue_lab::{Lab, SCHEDULERS};
use runqueue_lab_abi::{self as abi, Field, Op, Shared};
use runqueue_sched_api::{Carry, Fields, Line, MAX_TASKS, Run, Scheduler, Settings, Tid};

// The core enters at `_entry` with a0 = the shared page and sp = the top of the domain's stack,
// and finds its way back by the `ecall`.
core::arch::global_asm!(
    ".section .text.entry, \"ax\"",
    ".globl _entry",
    "_entry:",
    "    call {main}",
    "    ecall",
    "1:  j 1b",
    main = sym domain_main,
);

/// The policy's instances, one per run queue (`Shared::slot`).
static mut INSTANCES: [Option<Lab>; abi::INSTANCES] = [const { None }; abi::INSTANCES];

/// The line a `describe` or `milestone` writes its fields into.
static mut LINE: Line = Line::new();

extern "C" fn domain_main(shared: &mut Shared) {
    shared.status = answer(shared);
}

fn answer(s: &mut Shared) -> u64 {
    let slot = s.slot as usize % abi::INSTANCES;
    // SAFETY: one call at a time (the core holds its lock across a call), and nothing else
    // in the domain touches the instances.
    let instance = unsafe { &mut (*(&raw mut INSTANCES))[slot] };
    let Some(op) = Op::from_u64(s.op) else { panic!("the lab's protection domain was asked for call {}, which it does not know", s.op) };
    if op == Op::Build {
        let spec = &SCHEDULERS[s.lab as usize % SCHEDULERS.len()];
        // The lab's own words only (the core handed no other): its handles read them, or
        // their defaults.
        let run = Run { harts: s.harts as usize, tick_ns: s.tick_ns, seed: s.seed };
        let Ok(words) = core::str::from_utf8(s.text()) else { panic!("the core handed the lab's protection domain settings that are not UTF-8") };
        let Ok(settings) = Settings::parse_part(words, &[spec.tunables], &[]) else {
            panic!("the core handed the lab's protection domain settings its table does not take: {words}")
        };
        return match (spec.build)(&settings, &run) {
            Ok(policy) => {
                *instance = Some(policy);
                abi::DONE
            }
            Err(invalid) => {
                let mut text = Text::new(s);
                let _ = write!(text, "{}\0{}", invalid.0, invalid.1);
                abi::INVALID
            }
        };
    }
    let Some(policy) = instance else { panic!("the lab's protection domain was called before its policy was built") };
    let (task, now) = (s.task.task(), s.now);
    match op {
        Op::Build => unreachable!(),
        Op::Enqueue => policy.get().enqueue(&task, abi::enqueue_from(s.arg), now),
        Op::PickNext => {
            let mask = s.allowed;
            let allowed = |t: Tid| t < MAX_TASKS && mask >> t & 1 == 1;
            s.result = policy.get().pick_next(s.hart as usize, now, &allowed).map_or(abi::NONE, |t| t as u64);
        }
        Op::Charge => policy.get().charge(&task, s.arg, now),
        Op::Tick => s.result = policy.get().tick(&task, now) as u64,
        Op::WakeupPreempts => s.result = policy.view().wakeup_preempts(&task, &s.other.task()) as u64,
        Op::Block => policy.get().block(&task, now),
        Op::Exit => policy.get().exit(&task),
        Op::FairPolicies => s.result = policy.view().fair_policies() as u64,
        Op::Describe | Op::Milestone => {
            // SAFETY: one call at a time; kept between calls so each need not clear 512 bytes.
            let line = unsafe { &mut *(&raw mut LINE) };
            line.clear();
            let mut fields = Fields::new(line);
            match op {
                Op::Describe => policy.view().describe(s.arg as usize, &mut fields),
                _ => policy.view().milestone(s.arg as usize, &mut fields),
            }
            let refused = fields.refused();
            s.field_count = split_fields(line.as_bytes(), refused, &mut s.fields) as u64;
        }
        Op::Detach => match policy.get().detach(&task, s.arg != 0, now) {
            Some(Carry(carry)) => {
                s.carry = carry;
                s.result = 1;
            }
            None => s.result = 0,
        },
        Op::Attach => policy.get().attach(&task, Carry(s.carry), s.arg != 0, now),
    }
    abi::DONE
}

/// The ` name=value` pairs of a line `Fields` wrote, as records the core checks again (it
/// trusts nothing the domain writes); a name `Fields` refused goes first, so the core refuses
/// it too and says which.
fn split_fields(line: &[u8], refused: Option<[u8; 16]>, out: &mut [Field; abi::MAX_FIELDS]) -> usize {
    let mut n = 0;
    if let Some(name) = refused {
        let len = name.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
        out[0] = Field { name, len: len as u64, signed: 0, value: 0 };
        n = 1;
    }
    for pair in line.split(|&b| b == b' ').filter(|p| !p.is_empty()) {
        let Some(eq) = pair.iter().position(|&b| b == b'=') else { continue };
        let (name, digits) = (&pair[..eq], &pair[eq + 1..]);
        let (signed, digits) = match digits.strip_prefix(b"-") {
            Some(rest) => (1, rest),
            None => (0, digits),
        };
        let magnitude = digits.iter().fold(0u64, |v, &d| v.wrapping_mul(10).wrapping_add((d - b'0') as u64));
        if n == out.len() || name.len() > 16 {
            break;
        }
        let mut field = Field { name: [b' '; 16], len: name.len() as u64, signed, value: if signed == 1 { magnitude.wrapping_neg() } else { magnitude } };
        field.name[..name.len()].copy_from_slice(name);
        out[n] = field;
        n += 1;
    }
    n
}

/// Writes into the shared page's text, cutting what does not fit.
struct Text<'a> {
    shared: &'a mut Shared,
}

impl<'a> Text<'a> {
    fn new(shared: &'a mut Shared) -> Text<'a> {
        shared.text_len = 0;
        Text { shared }
    }
}

impl Write for Text<'_> {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let at = self.shared.text_len as usize;
        let n = s.len().min(abi::TEXT - at);
        self.shared.text[at..at + n].copy_from_slice(&s.as_bytes()[..n]);
        self.shared.text_len = (at + n) as u64;
        Ok(())
    }
}

/// Goes back to the core with `message`, which it prints as it prints a panic of its own
/// (`kernel panic: ...`), and stops the kernel.
fn stop(message: core::fmt::Arguments) -> ! {
    // SAFETY: the shared page is mapped at `SHARED` for as long as the domain runs.
    let shared = unsafe { &mut *(abi::SHARED as *mut Shared) };
    let mut text = Text::new(shared);
    let _ = text.write_fmt(message);
    shared.status = abi::PANICKED;
    // SAFETY: `ecall` only leaves the domain for the core's gate.
    unsafe { core::arch::asm!("ecall", options(noreturn)) }
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    stop(format_args!("{info}"))
}
