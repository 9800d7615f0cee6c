//! The kernel's run of a problem's workload, as the questions read it: the RESULT line and the
//! trace (`docs/trace.md`), on one clock. Trace times are the machine's; RESULT's are from the
//! workload's start; here everything is from the workload's start, in ns, as a student's
//! answers are.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use runqueue_report::trace::{Event, Kind};
use runqueue_report::{RunResult, TaskResult, console, trace};

/// One stint: a task on a hart from `from` to `to` (ns since the workload's start), and why it
/// left (`preempt`, `yield`, `sleep`, `block`, `exit`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stint {
    pub hart: u32,
    pub tid: u32,
    pub from: u64,
    pub to: u64,
    pub why: String,
}

pub struct Run {
    pub result: RunResult,
    /// Every event, times shifted to the workload's start.
    pub events: Vec<Event>,
    pub stints: Vec<Stint>,
    /// The machine's time of the problem's 0, for the absolute times some events report
    /// (a deadline server's `dl`).
    pub start_ns: u64,
}

impl Run {
    /// Reads a finished run: the kernel's console (its RESULT line) and its trace text, with
    /// time 0 `lead_ns` after the workload's start.
    pub fn parse(console_text: &str, trace_text: &str, lead_ns: u64) -> Result<Run, String> {
        let split = console::split(console_text);
        let json = console::result_json(&split.console).ok_or("the kernel printed no RESULT line")?;
        let mut result = RunResult::parse(json)?;
        let mut events = trace::parse(trace_text).map_err(|e| e.to_string())?;
        events.extend(trace::parse(&split.trace).map_err(|e| e.to_string())?);
        // The workload's start in machine time: a task's `new` is its arrival.
        let first = result.tasks.first().ok_or("the run has no tasks")?;
        let new = events.iter().find(|e| e.kind == Kind::New && e.tid == first.tid).ok_or("the trace has no new event for the first task")?;
        let start = new.time_ns.checked_sub(first.arrive_ns).ok_or("a task arrived before the trace began")? + lead_ns;
        for t in &mut result.tasks {
            t.arrive_ns = t.arrive_ns.saturating_sub(lead_ns);
            t.finish_ns = t.finish_ns.saturating_sub(lead_ns);
        }
        for e in &mut events {
            e.time_ns = e.time_ns.saturating_sub(start);
        }
        events.sort_by_key(|e| e.time_ns);
        let stints = stints(&events);
        Ok(Run { result, events, stints, start_ns: start })
    }

    pub fn task(&self, tid: u32) -> &TaskResult {
        self.result.tasks.iter().find(|t| t.tid == tid).expect("a task of the run")
    }

    pub fn name(&self, tid: u32) -> &str {
        &self.task(tid).name
    }

    pub fn tid(&self, name: &str) -> Option<u32> {
        self.result.task(name).map(|t| t.tid)
    }

    /// Names in the order the tasks finished (ties by tid).
    pub fn finish_order(&self) -> Vec<String> {
        let mut tasks: Vec<&TaskResult> = self.result.tasks.iter().collect();
        tasks.sort_by_key(|t| (t.finish_ns, t.tid));
        tasks.iter().map(|t| t.name.clone()).collect()
    }

    /// The stint running on `hart` at `t`, if any.
    pub fn running_at(&self, hart: u32, t: u64) -> Option<&Stint> {
        self.stints.iter().find(|s| s.hart == hart && s.from <= t && t < s.to)
    }

    /// The stints of one task, in time order.
    pub fn stints_of(&self, tid: u32) -> impl Iterator<Item = &Stint> {
        self.stints.iter().filter(move |s| s.tid == tid)
    }

    /// The events of one task, in time order.
    pub fn events_of(&self, tid: u32) -> impl Iterator<Item = &Event> {
        self.events.iter().filter(move |e| e.tid == tid)
    }

    /// The last value of `key` that any event of `tid` reported at or before `t`.
    pub fn field_at(&self, tid: u32, key: &str, t: u64) -> Option<i64> {
        self.events_of(tid).filter(|e| e.time_ns <= t).filter_map(|e| e.num(key)).last()
    }

    /// Whether some hart ran nothing while a task waited, or sat idle between the first
    /// arrival and the last exit (`from`..`to`): questions about a busy CPU avoid such runs.
    pub fn idle_between(&self, hart: u32, from: u64, to: u64) -> bool {
        let mut at = from;
        for s in self.stints.iter().filter(|s| s.hart == hart && s.to > from && s.from < to) {
            if s.from > at + IDLE_GAP_NS {
                return true;
            }
            at = at.max(s.to);
        }
        at + IDLE_GAP_NS < to
    }

    /// Arrivals and wakeups (`new`, `wake`) of fair and real-time tasks, as (time, tid).
    pub fn arrivals(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        self.events.iter().filter(|e| matches!(e.kind, Kind::New | Kind::Wake) && e.tid != 0).map(|e| (e.time_ns, e.tid))
    }
}

/// A gap between stints shorter than this is the kernel switching, not the CPU idling.
pub const IDLE_GAP_NS: u64 = 200_000;

fn stints(events: &[Event]) -> Vec<Stint> {
    let mut open: Vec<(u32, u32, u64)> = Vec::new(); // (hart, tid, from)
    let mut out = Vec::new();
    for e in events {
        match e.kind {
            Kind::In => open.push((e.hart, e.tid, e.time_ns)),
            Kind::Out => {
                if let Some(i) = open.iter().position(|&(h, t, _)| h == e.hart && t == e.tid) {
                    let (hart, tid, from) = open.remove(i);
                    out.push(Stint { hart, tid, from, to: e.time_ns, why: e.get("why").unwrap_or("").to_string() });
                }
            }
            _ => {}
        }
    }
    out.sort_by_key(|s| (s.from, s.hart));
    out
}

/// ns as ms with two decimals, as the problems print times.
pub fn ms(ns: u64) -> String {
    let hundredths = (ns + 5_000) / 10_000;
    alloc::format!("{}.{:02}", hundredths / 100, hundredths % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONSOLE: &str = "boot\nRESULT {\"version\":1,\"workload\":\"bursts\",\"sched\":\"fifo\",\"smp\":1,\"seed\":0,\"args\":\"\",\"time_ns\":9000000,\"tasks\":[{\"tid\":1,\"name\":\"job0\",\"arrive_ns\":100,\"response_ns\":50,\"finish_ns\":5000000,\"turnaround_ns\":4999900,\"cpu_ns\":4000000,\"wait_ns\":50,\"switches\":1,\"iterations\":4},{\"tid\":2,\"name\":\"job1\",\"arrive_ns\":1000000,\"response_ns\":4000000,\"finish_ns\":9000000,\"turnaround_ns\":8000000,\"cpu_ns\":4000000,\"wait_ns\":4000000,\"switches\":1,\"iterations\":4}]}\n";
    const TRACE: &str = "T 500100 0 new 1 name=job0 class=fair\nT 500150 0 in 1\nT 1500000 0 new 2 name=job1 class=fair\nT 5500000 0 out 1 why=exit ran=4000000\nT 5500000 0 exit 1\nT 5500100 0 in 2\nT 9500000 0 out 2 why=exit ran=4000000\n";

    #[test]
    fn times_are_from_the_workload_start() {
        let run = Run::parse(CONSOLE, TRACE, 0).unwrap();
        assert_eq!(run.events[0].time_ns, 100);
        assert_eq!(run.stints.len(), 2);
        assert_eq!(run.running_at(0, 3_000_000).map(|s| s.tid), Some(1));
        assert_eq!(run.running_at(0, 5_000_050).map(|s| s.tid), None);
        assert_eq!(run.finish_order(), ["job0", "job1"]);
        assert!(!run.idle_between(0, 50, 9_000_000));
        assert!(run.idle_between(0, 50, 9_500_000));
        assert_eq!(ms(8_625_000), "8.63");
        assert!(Run::parse("no result\n", TRACE, 0).is_err());
    }
}
