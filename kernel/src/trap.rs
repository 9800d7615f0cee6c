//! Supervisor traps. Kernel threads run in S-mode, so the only traps expected are the
//! timer and software (IPI) interrupts; anything else is a kernel bug, reported and fatal.

use crate::{arch, dispatch, power, println, stack};

const INTERRUPT: usize = 1 << 63;
const SUPERVISOR_SOFT: usize = INTERRUPT | 1;
const SUPERVISOR_TIMER: usize = INTERRUPT | 5;

/// Called by `trap_entry` with the saved registers on the stack.
pub extern "C" fn handle() {
    let (cause, epc, tval) = arch::trap_cause();
    match cause {
        SUPERVISOR_TIMER => dispatch::on_timer(),
        SUPERVISOR_SOFT => {
            arch::clear_soft_interrupt();
            dispatch::on_ipi();
        }
        _ => {
            // A fault after an overflow that returned is the overflow's doing.
            stack::check(crate::hart::this().running.get());
            println!("kernel trap: scause={cause:#x} sepc={epc:#x} stval={tval:#x} on hart {}", arch::hart_index());
            power::exit(power::Exit::Fault);
        }
    }
    stack::check(crate::hart::this().running.get());
}

/// Entered from `trap_entry` on the hart's emergency stack when a trap came with sp below
/// every stack.
pub extern "C" fn stack_overflow() -> ! {
    let (cause, epc, tval) = arch::trap_cause();
    stack::overflowed(format_args!("sp ran below every stack (trap scause={cause:#x} at pc {epc:#x}, address {tval:#x})"))
}
