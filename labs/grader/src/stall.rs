//! Why a run that used up its instruction budget never ended, told from the trace it left.
//! A student hears "tasks 3 and 5 were lost" or "the kernel went silent inside your code"
//! rather than only "it did not finish": the two bugs look alike from outside (the workload
//! never ends) and are fixed in different places.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use runqueue_report::trace::{self, Event, Kind};

/// A task runnable this long on a machine with nothing to run was dropped by the policy:
/// the core's own latency from wakeup to switch-in is microseconds.
const LOST_AFTER_NS: u64 = 20_000_000;
/// Every workload marks a unit of work at least every few milliseconds, and ticks preempt:
/// this long without any event means no task is making progress.
const SILENT_AFTER_NS: u64 = 100_000_000;
/// Emulated time per instruction (docs/platform.md). A machine whose harts wait for
/// interrupts skips time, so a run that took far longer than its instructions was idle.
const NS_PER_INSN: u64 = 10;

#[derive(Clone, Copy, PartialEq)]
enum State {
    Runnable { since: u64 },
    Running,
    Waiting { since: u64 },
    Exited,
}

struct Task {
    tid: u32,
    name: String,
    state: State,
}

/// Why a test's run used up its `max_insns` by `end_ns` (emulated time), given the trace
/// lines it wrote until then.
pub fn diagnose(trace_text: &str, max_insns: u64, end_ns: u64) -> String {
    let budget = format!("it did not shut down within the test's {max_insns} instructions ({} ms)", end_ns / 1_000_000);
    // The budget may have stopped the machine in the middle of writing a line.
    let complete = trace_text.rfind('\n').map_or("", |end| &trace_text[..end]);
    let Ok(events) = trace::parse(complete) else {
        return format!("{budget}, and its trace is garbled: does your code print to the trace?");
    };
    let tasks = replay(&events);
    let stuck = |t: &&Task| match t.state {
        State::Runnable { since } | State::Waiting { since } => end_ns.saturating_sub(since) >= LOST_AFTER_NS,
        _ => false,
    };
    let idle = end_ns / NS_PER_INSN > 2 * max_insns;
    let lost: Vec<&Task> = tasks.iter().filter(stuck).filter(|t| matches!(t.state, State::Runnable { .. })).collect();
    if idle && !lost.is_empty() {
        return format!(
            "{budget}: tasks were lost from your run queue. {}, and never picked while the harts had nothing to run: \
             check that every task enqueue() receives is kept until pick_next() returns it",
            describe(&lost, "runnable")
        );
    }
    let waiting: Vec<&Task> = tasks.iter().filter(stuck).collect();
    if idle && !waiting.is_empty() {
        return format!("{budget}: the harts sat idle. {}, and nothing woke it", describe(&waiting, "waiting"));
    }
    let last = events.last().map_or(0, |e| e.time_ns);
    if !idle && end_ns.saturating_sub(last) >= SILENT_AFTER_NS {
        let at = events.last().map_or(String::from("none at all"), |e| format!("at {} ms, task {} {}", e.time_ns / 1_000_000, e.tid, e.kind.as_str()));
        return format!(
            "{budget}: the kernel went silent {} ms before the end (last trace event: {at}) while the CPU kept busy: \
             a loop that never ends, most likely in your policy's code, holds the scheduler lock",
            (end_ns - last) / 1_000_000
        );
    }
    let left = tasks.iter().filter(|t| t.state != State::Exited).count();
    format!("{budget}: tasks kept running ({left} of {} had not exited); the workload is slower under your policy than the test allows", tasks.len())
}

/// Each task's last state, from the core's events (the policy cannot forge them).
fn replay(events: &[Event]) -> Vec<Task> {
    let mut tasks: Vec<Task> = Vec::new();
    for e in events {
        let state = match (e.kind, e.get("why")) {
            (Kind::New | Kind::Wake, _) | (Kind::Out, Some("preempt" | "yield")) => State::Runnable { since: e.time_ns },
            (Kind::In, _) => State::Running,
            (Kind::Out, Some("exit")) | (Kind::Exit, _) => State::Exited,
            (Kind::Out, _) => State::Waiting { since: e.time_ns },
            (Kind::State | Kind::Mark | Kind::Migrate | Kind::Lock | Kind::Boost | Kind::Unboost | Kind::Steal | Kind::Throttle | Kind::Unthrottle, _) => continue,
        };
        match tasks.iter_mut().find(|t| t.tid == e.tid) {
            Some(t) => t.state = state,
            None => tasks.push(Task { tid: e.tid, name: String::from(e.get("name").unwrap_or("?")), state }),
        }
    }
    tasks
}

/// The first few `tasks`, each with the time it has been `what` since.
fn describe(tasks: &[&Task], what: &str) -> String {
    let told: Vec<String> = tasks
        .iter()
        .take(5)
        .map(|t| {
            let (State::Runnable { since } | State::Waiting { since }) = t.state else { unreachable!("only stuck tasks are described") };
            format!("task {} ({}) was {what} from {} ms", t.tid, t.name, since / 1_000_000)
        })
        .collect();
    told.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const NEW: &str = "T 0 0 new 1 name=a\nT 0 0 new 2 name=b\n";

    /// 1000 instructions are 10 us busy: a run that ends at 900 ms on them was idle.
    const IDLE_END: u64 = 900_000_000;
    const BUSY_END: u64 = 10_000;

    #[test]
    fn a_task_the_policy_dropped_is_named() {
        let text = format!("{NEW}T 10 0 in 1\nT 5000000 0 out 1 why=preempt ran=4999990\nT 5000010 0 in 2\nT 9000000 0 out 2 why=exit ran=1\nT 9000000 0 exit 2\n");
        let why = diagnose(&text, 1000, IDLE_END);
        assert!(why.contains("lost") && why.contains("task 1 (a) was runnable from 5 ms"), "{why}");
    }

    #[test]
    fn a_task_never_woken_is_named() {
        let text = format!("{NEW}T 10 0 in 1\nT 5000000 0 out 1 why=block ran=4999990\nT 5000010 0 in 2\nT 9000000 0 exit 2\n");
        let why = diagnose(&text, 1000, IDLE_END);
        assert!(why.contains("task 1 (a) was waiting from 5 ms") && !why.contains("lost"), "{why}");
    }

    #[test]
    fn a_busy_silent_kernel_is_told_apart_from_a_lost_task() {
        // The same trace as a lost task's, but the instructions were all used: a spin.
        let text = format!("{NEW}T 10 0 in 1\nT 5000000 0 out 1 why=preempt ran=4999990\n");
        let why = diagnose(&text, 100_000_000, 1_000_000_000);
        assert!(why.contains("went silent 995 ms") && !why.contains("lost"), "{why}");
    }

    #[test]
    fn a_busy_run_is_only_slow() {
        let text = format!("{NEW}T 10 0 in 1\nT 9000 0 mark 1 iter=1\n");
        let why = diagnose(&text, 1000, BUSY_END);
        assert!(why.contains("slower") && why.contains("2 of 2"), "{why}");
    }

    #[test]
    fn a_half_written_last_line_is_ignored_and_garbage_is_reported() {
        let text = format!("{NEW}T 10 0 in 1\nT 9000 0 ma");
        assert!(diagnose(&text, 100_000_000, 1_000_000_000).contains("silent"));
        assert!(diagnose("T x\n", 1000, BUSY_END).contains("garbled"));
    }
}
