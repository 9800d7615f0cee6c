//! Properties every correct schedule has, checked over a trace: the checks the kernel's tests
//! and the lab grader share. Each returns the first violation, with the time it happened, so
//! a student sees where the schedule first broke the rule.

use crate::trace::{Event, Kind};
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub time_ns: u64,
    pub rule: &'static str,
    pub detail: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {} ns: {}", self.rule, self.time_ns, self.detail)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    Runnable(u64),
    Running(u32),
    Blocked,
    Done,
}

/// The events in time order; events at the same time keep their emitted order.
pub fn by_time(events: &[Event]) -> Vec<&Event> {
    let mut v: Vec<&Event> = events.iter().collect();
    v.sort_by_key(|e| e.time_ns);
    v
}

/// A task is on at most one hart, a hart runs at most one task, every switch-out matches a
/// switch-in, and every task created also exits (no task lost).
pub fn consistent(events: &[Event]) -> Result<(), Violation> {
    let mut state: BTreeMap<u32, State> = BTreeMap::new();
    let mut on_hart: BTreeMap<u32, u32> = BTreeMap::new();
    let bad = |e: &Event, rule, detail: String| Err(Violation { time_ns: e.time_ns, rule, detail });
    for e in by_time(events) {
        if e.tid == 0 {
            continue;
        }
        let now = state.get(&e.tid).copied();
        match e.kind {
            Kind::New => {
                if now.is_some() {
                    return bad(e, "task created twice", format!("task {} already exists", e.tid));
                }
                state.insert(e.tid, State::Runnable(e.time_ns));
            }
            Kind::In => {
                if let Some(State::Running(h)) = now {
                    return bad(e, "task on two harts", format!("task {} switched in on hart {} while running on hart {h}", e.tid, e.hart));
                }
                if now.is_none() || now == Some(State::Done) {
                    return bad(e, "unknown task ran", format!("task {} was never created or has exited", e.tid));
                }
                if let Some(other) = on_hart.insert(e.hart, e.tid) {
                    return bad(e, "hart ran two tasks", format!("task {} switched in on hart {} while task {other} still ran there", e.tid, e.hart));
                }
                state.insert(e.tid, State::Running(e.hart));
            }
            Kind::Out => {
                if now != Some(State::Running(e.hart)) {
                    return bad(e, "switch-out without switch-in", format!("task {} left hart {} where it was not running", e.tid, e.hart));
                }
                on_hart.remove(&e.hart);
                let next = match e.get("why") {
                    Some("preempt" | "yield") => State::Runnable(e.time_ns),
                    Some("exit") => State::Done,
                    _ => State::Blocked,
                };
                state.insert(e.tid, next);
            }
            Kind::Wake => {
                if let Some(State::Blocked) = now {
                    state.insert(e.tid, State::Runnable(e.time_ns));
                }
            }
            Kind::Exit => {
                state.insert(e.tid, State::Done);
            }
            Kind::State | Kind::Mark => {}
        }
    }
    match state.iter().find(|(_, s)| **s != State::Done) {
        Some((tid, s)) => Err(Violation {
            time_ns: events.iter().map(|e| e.time_ns).max().unwrap_or(0),
            rule: "task lost",
            detail: format!("task {tid} never finished (last state {s:?})"),
        }),
        None => Ok(()),
    }
}

/// None of the `harts` harts stays idle for longer than `slack_ns` while a task is runnable.
/// Only meaningful when every task may run on every hart.
pub fn work_conserving(events: &[Event], harts: u32, slack_ns: u64) -> Result<(), Violation> {
    let start = events.iter().map(|e| e.time_ns).min().unwrap_or(0);
    let mut busy: BTreeMap<u32, u32> = BTreeMap::new();
    let mut runnable: BTreeMap<u32, u64> = BTreeMap::new();
    let mut idle_since: BTreeMap<u32, u64> = (0..harts).map(|h| (h, start)).collect();
    for e in by_time(events) {
        // Before applying this event, look for a hart that has been idle too long while
        // something was runnable the whole time.
        if let Some((&tid, &since)) = runnable.iter().min_by_key(|(_, t)| **t) {
            for (&h, &idle) in &idle_since {
                let overlap_start = since.max(idle);
                if e.time_ns > overlap_start + slack_ns {
                    return Err(Violation {
                        time_ns: overlap_start + slack_ns,
                        rule: "not work-conserving",
                        detail: format!("hart {h} idle while task {tid} was runnable since {since} ns"),
                    });
                }
            }
        }
        if e.tid == 0 {
            continue;
        }
        match e.kind {
            Kind::New | Kind::Wake => {
                runnable.entry(e.tid).or_insert(e.time_ns);
            }
            Kind::In => {
                runnable.remove(&e.tid);
                busy.insert(e.hart, e.tid);
                idle_since.remove(&e.hart);
            }
            Kind::Out => {
                busy.remove(&e.hart);
                idle_since.insert(e.hart, e.time_ns);
                if matches!(e.get("why"), Some("preempt" | "yield")) {
                    runnable.insert(e.tid, e.time_ns);
                }
            }
            Kind::Exit => {
                runnable.remove(&e.tid);
            }
            Kind::State | Kind::Mark => {}
        }
    }
    Ok(())
}

/// Per task, the CPU time each stint reported (`out ... ran=`), summed.
pub fn cpu_by_task(events: &[Event]) -> BTreeMap<u32, u64> {
    let mut cpu = BTreeMap::new();
    for e in events.iter().filter(|e| e.kind == Kind::Out && e.tid != 0) {
        *cpu.entry(e.tid).or_insert(0) += e.num("ran").unwrap_or(0).max(0) as u64;
    }
    cpu
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::parse;

    const GOOD: &str = "T 0 0 new 1 name=a\nT 0 0 new 2 name=b\nT 10 0 in 1\nT 10 1 in 2\n\
        T 50 0 out 1 why=yield ran=40\nT 50 0 in 1\nT 90 0 out 1 why=exit ran=40\nT 90 0 exit 1\n\
        T 95 1 out 2 why=exit ran=85\nT 95 1 exit 2\n";

    #[test]
    fn a_sound_schedule_passes() {
        let ev = parse(GOOD).unwrap();
        assert_eq!(consistent(&ev), Ok(()));
        assert_eq!(work_conserving(&ev, 2, 20), Ok(()));
        assert_eq!(cpu_by_task(&ev).get(&1), Some(&80));
    }

    #[test]
    fn each_broken_rule_is_caught() {
        let two_harts = GOOD.replace("T 10 1 in 2", "T 10 1 in 1");
        assert_eq!(consistent(&parse(&two_harts).unwrap()).unwrap_err().rule, "task on two harts");
        let lost = GOOD.replace("T 95 1 exit 2\n", "").replace("T 95 1 out 2 why=exit ran=85\n", "T 95 1 out 2 why=sleep ran=85\n");
        assert_eq!(consistent(&parse(&lost).unwrap()).unwrap_err().rule, "task lost");
        let stray = alloc::format!("{GOOD}T 99 0 out 2 why=yield ran=1\n");
        assert_eq!(consistent(&parse(&stray).unwrap()).unwrap_err().rule, "switch-out without switch-in");
        // Task 2 starts late although hart 1 sat idle.
        let lazy = GOOD.replace("T 10 1 in 2", "T 80 1 in 2");
        let v = work_conserving(&parse(&lazy).unwrap(), 2, 20).unwrap_err();
        assert_eq!((v.rule, v.time_ns), ("not work-conserving", 20));
    }
}
