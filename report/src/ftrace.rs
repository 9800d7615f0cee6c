//! The trace as Linux's ftrace prints it (`/sys/kernel/tracing/trace`, `trace-cmd report`):
//! `sched_switch`, `sched_waking`/`sched_wakeup`, `sched_wakeup_new`, `sched_migrate_task` and
//! `sched_process_exit` lines with the fields of Linux 6.x's `include/trace/events/sched.h`, so
//! Perfetto's scheduling views and other ftrace tools read a run like a Linux trace.
//!
//! Our kernel switches through a per-hart scheduler loop (as xv6 does), so a task's `out` and
//! the next task's `in` are two moments: the hart runs its idle context (`swapper/N`, pid 0)
//! in between, for the few microseconds the loop takes, or for as long as nothing is runnable.

use crate::trace::{Event, Kind, ParseError};
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

/// The 4-character latency flags (irqs off, no resched, no irq, preempt depth 2): the older
/// kernels' width, which every ftrace text reader accepts.
const FLAGS: &str = "d..2";

/// What Linux prints for a task: its name and `prio` (`p->prio`: 120 + nice for a fair task,
/// 99 - priority for a real-time one, -1 for a deadline one).
#[derive(Clone)]
struct Comm {
    name: String,
    prio: i64,
}

fn prio_of(e: &Event) -> i64 {
    match e.get("class") {
        Some("fifo" | "rr") => 99 - e.num("prio").unwrap_or(0),
        Some("dl") => -1,
        _ => 120 + e.num("nice").unwrap_or(0),
    }
}

/// Linux's one-letter `prev_state` for why a task left the CPU (`R+`: preempted, still runnable).
fn prev_state(why: Option<&str>) -> &'static str {
    match why {
        Some("preempt") => "R+",
        Some("yield") => "R",
        Some("block") => "D",
        Some("sleep") => "S",
        Some("exit") => "X",
        _ => "R",
    }
}

struct Writer {
    comms: BTreeMap<u32, Comm>,
    /// The task each hart runs (absent: its idle context).
    current: BTreeMap<u32, u32>,
    lines: Vec<(u64, String)>,
}

impl Writer {
    fn comm(&self, tid: u32, hart: u32) -> Comm {
        if tid == 0 {
            return Comm { name: alloc::format!("swapper/{hart}"), prio: 120 };
        }
        self.comms.get(&tid).cloned().unwrap_or_else(|| Comm { name: alloc::format!("task{tid}"), prio: 120 })
    }

    /// One line in the context of what `hart` runs now.
    fn line(&mut self, e: &Event, event: &str, body: String) {
        let tid = self.current.get(&e.hart).copied().unwrap_or(0);
        let who = if tid == 0 { String::from("<idle>") } else { self.comm(tid, e.hart).name };
        let mut text = String::new();
        let _ = write!(
            text,
            "{:>16}-{:<7} [{:03}] {FLAGS} {:>5}.{:06}: {event}: {body}",
            who,
            tid,
            e.hart,
            e.time_ns / 1_000_000_000,
            e.time_ns % 1_000_000_000 / 1000
        );
        self.lines.push((e.time_ns, text));
    }

    fn switch(&mut self, e: &Event, prev: u32, state: &str, next: u32) {
        let (p, n) = (self.comm(prev, e.hart), self.comm(next, e.hart));
        let body = alloc::format!(
            "prev_comm={} prev_pid={prev} prev_prio={} prev_state={state} ==> next_comm={} next_pid={next} next_prio={}",
            p.name, p.prio, n.name, n.prio
        );
        self.line(e, "sched_switch", body);
    }

    fn task_fields(&self, e: &Event) -> String {
        let c = self.comm(e.tid, e.hart);
        alloc::format!("comm={} pid={} prio={}", c.name, e.tid, c.prio)
    }

    fn event(&mut self, e: &Event) {
        match e.kind {
            Kind::New => {
                let name = e.get("name").map(String::from).unwrap_or_else(|| alloc::format!("task{}", e.tid));
                self.comms.insert(e.tid, Comm { name, prio: prio_of(e) });
                let target = e.num("rq").unwrap_or(e.hart as i64);
                let body = alloc::format!("{} target_cpu={target:03}", self.task_fields(e));
                self.line(e, "sched_wakeup_new", body);
            }
            Kind::Wake => {
                let target = e.num("rq").unwrap_or(e.hart as i64);
                let body = alloc::format!("{} target_cpu={target:03}", self.task_fields(e));
                self.line(e, "sched_waking", body.clone());
                self.line(e, "sched_wakeup", body);
            }
            Kind::In => {
                self.switch(e, 0, "R", e.tid);
                self.current.insert(e.hart, e.tid);
            }
            Kind::Out => {
                if e.get("why") == Some("exit") {
                    let body = self.task_fields(e);
                    self.line(e, "sched_process_exit", body);
                }
                self.switch(e, e.tid, prev_state(e.get("why")), 0);
                self.current.remove(&e.hart);
            }
            Kind::Migrate => {
                let (from, to) = (e.num("from").unwrap_or(0), e.num("to").unwrap_or(0));
                let body = alloc::format!("{} orig_cpu={from} dest_cpu={to}", self.task_fields(e));
                self.line(e, "sched_migrate_task", body);
            }
            // The host's steal is invisible to a guest's own ftrace; mutex events have no
            // scheduler tracepoint of their own here.
            Kind::Exit | Kind::State | Kind::Mark | Kind::Steal | Kind::Lock | Kind::Boost | Kind::Unboost | Kind::Throttle | Kind::Unthrottle => {}
        }
    }
}

/// The ftrace text of a run's trace, whichever kernel wrote it: Linux's own, as Linux printed
/// it; the teaching kernel's lines, through [`to_text`].
pub fn of_trace(trace: &str, harts: u32) -> Result<String, ParseError> {
    if crate::linux::is_ftrace(trace) { Ok(trace.into()) } else { Ok(to_text(&crate::trace::parse(trace)?, harts)) }
}

/// The ftrace text of `events` for a run on `harts` harts: the tracer's header, then one line
/// per scheduler event in time order (events at the same time keep the trace's order).
pub fn to_text(events: &[Event], harts: u32) -> String {
    let mut w = Writer { comms: BTreeMap::new(), current: BTreeMap::new(), lines: Vec::new() };
    for e in events {
        w.event(e);
    }
    w.lines.sort_by_key(|(t, _)| *t);
    let n = w.lines.len();
    let mut out = String::new();
    let _ = write!(
        out,
        "# tracer: nop\n#\n# entries-in-buffer/entries-written: {n}/{n}   #P:{harts}\n#\n\
         #                                _-----=> irqs-off\n\
         #                               / _----=> need-resched\n\
         #                              | / _---=> hardirq/softirq\n\
         #                              || / _--=> preempt-depth\n\
         #                              ||| /     delay\n\
         #           TASK-PID     CPU#  ||||   TIMESTAMP  FUNCTION\n\
         #              | |         |   ||||      |         |\n"
    );
    for (_, line) in w.lines {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::parse;

    const RUN: &str = "T 1000 0 new 1 name=a class=fair nice=-5 vr=0\nT 2000 0 new 2 name=rt class=fifo prio=50\n\
        T 3000 0 in 2 prio=50\nT 5000 0 out 2 why=sleep ran=2000\nT 5500 0 in 1 vr=0\n\
        T 9000 1 wake 2 prio=50\nT 9500 0 out 1 why=preempt ran=4000 vr=4000\nT 9600 0 in 2 prio=50\n\
        T 12000 0 out 2 why=exit ran=2400\nT 12000 0 exit 2 cpu=4400 wait=0\n";

    #[test]
    fn switches_name_both_tasks_with_linux_prio_and_state() {
        let text = to_text(&parse(RUN).unwrap(), 2);
        assert!(text.starts_with("# tracer: nop\n"));
        assert!(text.contains("#P:2\n"));
        let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(body.len(), 11, "{text}");
        assert_eq!(
            body[2],
            "          <idle>-0       [000] d..2     0.000003: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 \
             prev_state=R ==> next_comm=rt next_pid=2 next_prio=49"
        );
        assert!(body[3].contains("rt-2       [000] d..2     0.000005: sched_switch: prev_comm=rt prev_pid=2 prev_prio=49 prev_state=S"));
        assert!(body[5].ends_with("sched_waking: comm=rt pid=2 prio=49 target_cpu=001"), "{}", body[5]);
        assert!(body[7].contains("prev_comm=a prev_pid=1 prev_prio=115 prev_state=R+ ==> next_comm=swapper/0"));
        assert!(body[9].ends_with("sched_process_exit: comm=rt pid=2 prio=49"));
        assert!(body[10].contains("prev_state=X"));
    }

    #[test]
    fn lines_come_in_time_order_across_harts() {
        let ev = parse("T 0 0 new 1 name=a\nT 0 0 new 2 name=b rq=1\nT 50 1 in 2\nT 40 0 in 1\nT 60 1 migrate 1 from=0 to=1 why=periodic\n").unwrap();
        let text = to_text(&ev, 2);
        let events: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).map(|l| l.split(": ").nth(1).unwrap()).collect();
        assert_eq!(events, ["sched_wakeup_new", "sched_wakeup_new", "sched_switch", "sched_switch", "sched_migrate_task"]);
        let first_switch = text.lines().find(|l| l.contains("sched_switch")).unwrap();
        assert!(first_switch.contains("[000]") && first_switch.ends_with("next_pid=1 next_prio=120"), "{first_switch}");
        assert!(text.contains("sched_wakeup_new: comm=b pid=2 prio=120 target_cpu=001"));
        assert!(text.contains("comm=a pid=1 prio=120 orig_cpu=0 dest_cpu=1"));
    }
}
