//! Linux's own trace: the text of tracefs's `trace` file (`sched_switch`, `sched_wakeup`,
//! `sched_wakeup_new`, `sched_migrate_task`, `sched_process_exit` and the workload's
//! `tracing_mark_write` markers, as Runqueue's init enables them) read back as the teaching
//! kernel's trace events (`docs/trace.md`), so the Chrome trace, the page's lanes and the checks
//! take a Linux run as they take ours. A task's tid is its Linux pid; pid 0 is each CPU's idle
//! task, as tid 0 is ours. A task first seen running (the init, a kernel thread) gets a `new`
//! at that moment with the name and class its first line shows.

use crate::trace::{Event, Kind, ParseError};
use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// Whether `text` is ftrace's text rather than the teaching kernel's trace lines.
pub fn is_ftrace(text: &str) -> bool {
    text.starts_with("# tracer:")
}

/// One line's parts: `COMM-PID [CPU] FLAGS SECS.USECS: EVENT: BODY`.
struct Line<'a> {
    pid: u32,
    cpu: u32,
    time_ns: u64,
    event: &'a str,
    body: &'a str,
}

fn split_line(text: &str) -> Option<Line<'_>> {
    // The CPU column is the first " [ddd] "; the comm before it may hold spaces and dashes.
    let open = text.match_indices(" [").find(|(i, _)| {
        let rest = &text[i + 2..];
        rest.find(']').is_some_and(|close| close > 0 && rest[..close].bytes().all(|b| b.is_ascii_digit()))
    })?.0;
    let who = text[..open].trim();
    let pid = who.rsplit_once('-')?.1.parse().ok()?;
    let rest = &text[open + 2..];
    let close = rest.find(']')?;
    let cpu = rest[..close].parse().ok()?;
    let mut after = rest[close + 1..].split_ascii_whitespace();
    let _flags = after.next()?;
    let stamp = after.next()?.strip_suffix(':')?;
    let (secs, usecs) = stamp.split_once('.')?;
    let time_ns = secs.parse::<u64>().ok()? * 1_000_000_000 + usecs.parse::<u64>().ok()? * 1000;
    let from = text.find(stamp)? + stamp.len() + 1;
    let (event, body) = text[from..].trim_start().split_once(": ").unwrap_or((text[from..].trim(), ""));
    Some(Line { pid, cpu, time_ns, event, body })
}

/// `key=value` words of an event's body (values without spaces, as the sched events print).
fn fields(body: &str) -> Vec<(&str, &str)> {
    body.split_ascii_whitespace().filter_map(|w| w.split_once('=')).collect()
}

fn field<'a>(f: &[(&'a str, &'a str)], key: &str) -> Option<&'a str> {
    f.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

/// The class and nice (or priority) of Linux's `prio`: 0..99 real-time (prio 99 - p), -1
/// deadline, 100..139 fair at nice prio - 120.
fn class_fields(prio: i64) -> Vec<(String, String)> {
    let pair = |k: &str, v: String| (k.to_string(), v);
    match prio {
        -1 => alloc::vec![pair("class", "dl".into())],
        0..=99 => alloc::vec![pair("class", "fifo".into()), pair("prio", (99 - prio).to_string())],
        _ if prio != 120 => alloc::vec![pair("class", "fair".into()), pair("nice", (prio - 120).to_string())],
        _ => alloc::vec![pair("class", "fair".into())],
    }
}

/// Why a task left the CPU, from `prev_state`: `R+` preempted, `R` gave it up still runnable,
/// `S` slept, `D` blocked uninterruptibly, `X`/`Z` exited.
fn why(state: &str) -> &'static str {
    match state {
        "R+" => "preempt",
        "R" => "yield",
        "D" => "block",
        "X" | "Z" | "X+" | "Z+" => "exit",
        _ => "sleep",
    }
}

struct Reader {
    events: Vec<Event>,
    known: BTreeMap<u32, ()>,
    /// When each CPU's current task went in.
    since: BTreeMap<u32, u64>,
}

impl Reader {
    fn push(&mut self, time_ns: u64, hart: u32, kind: Kind, tid: u32, fields: Vec<(String, String)>) {
        self.events.push(Event { time_ns, hart, kind, tid, fields });
    }

    /// A `new` for a task seen for the first time without its `sched_wakeup_new`.
    fn meet(&mut self, time_ns: u64, hart: u32, tid: u32, comm: &str, prio: Option<&str>) {
        if tid == 0 || self.known.insert(tid, ()).is_some() {
            return;
        }
        let mut f = alloc::vec![("name".to_string(), comm.to_string())];
        f.extend(class_fields(prio.and_then(|p| p.parse().ok()).unwrap_or(120)));
        self.push(time_ns, hart, Kind::New, tid, f);
    }

    fn line(&mut self, l: &Line) -> Result<(), &'static str> {
        let f = fields(l.body);
        let num = |key| field(&f, key).and_then(|v| v.parse::<u32>().ok()).ok_or("a field is missing or not a number");
        match l.event {
            "sched_switch" => {
                let (prev, next) = (num("prev_pid")?, num("next_pid")?);
                self.meet(l.time_ns, l.cpu, prev, field(&f, "prev_comm").unwrap_or(""), field(&f, "prev_prio"));
                self.meet(l.time_ns, l.cpu, next, field(&f, "next_comm").unwrap_or(""), field(&f, "next_prio"));
                if prev != 0 {
                    let ran = self.since.get(&l.cpu).map_or(0, |&t| l.time_ns.saturating_sub(t));
                    let why = why(field(&f, "prev_state").unwrap_or("R"));
                    self.push(l.time_ns, l.cpu, Kind::Out, prev, alloc::vec![("why".into(), why.into()), ("ran".into(), ran.to_string())]);
                }
                self.since.insert(l.cpu, l.time_ns);
                if next != 0 {
                    self.push(l.time_ns, l.cpu, Kind::In, next, Vec::new());
                }
            }
            "sched_wakeup_new" => {
                let pid = num("pid")?;
                self.known.insert(pid, ());
                let mut fs = alloc::vec![("name".to_string(), field(&f, "comm").unwrap_or("").to_string())];
                fs.extend(class_fields(field(&f, "prio").and_then(|p| p.parse().ok()).unwrap_or(120)));
                fs.push(("rq".into(), num("target_cpu")?.to_string()));
                self.push(l.time_ns, l.cpu, Kind::New, pid, fs);
            }
            "sched_wakeup" => {
                let pid = num("pid")?;
                self.meet(l.time_ns, l.cpu, pid, field(&f, "comm").unwrap_or(""), field(&f, "prio"));
                self.push(l.time_ns, l.cpu, Kind::Wake, pid, alloc::vec![("rq".into(), num("target_cpu")?.to_string())]);
            }
            "sched_migrate_task" => {
                let pid = num("pid")?;
                self.meet(l.time_ns, l.cpu, pid, field(&f, "comm").unwrap_or(""), field(&f, "prio"));
                let fs = alloc::vec![("from".into(), num("orig_cpu")?.to_string()), ("to".into(), num("dest_cpu")?.to_string())];
                self.push(l.time_ns, l.cpu, Kind::Migrate, num("pid")?, fs);
            }
            "sched_process_exit" => self.push(l.time_ns, l.cpu, Kind::Exit, num("pid")?, Vec::new()),
            "tracing_mark_write" => {
                let fs = fields(l.body).into_iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
                self.push(l.time_ns, l.cpu, Kind::Mark, l.pid, fs);
            }
            // Other events are Linux's business, not the trace's.
            _ => {}
        }
        Ok(())
    }
}

/// Parses ftrace text into trace events, in the text's order. Comment lines (`#`) and blank
/// lines are skipped; a line that is not an ftrace event line is an error naming it.
pub fn parse(text: &str) -> Result<Vec<Event>, ParseError> {
    let mut r = Reader { events: Vec::new(), known: BTreeMap::new(), since: BTreeMap::new() };
    for (i, raw) in text.lines().enumerate() {
        let raw = raw.trim_end_matches('\r');
        if raw.trim().is_empty() || raw.starts_with('#') {
            continue;
        }
        let fail = |why| ParseError { line: i + 1, text: raw.to_string(), why };
        let line = split_line(raw).ok_or_else(|| fail("not an ftrace event line (COMM-PID [CPU] FLAGS TIME: EVENT: ...)"))?;
        r.line(&line).map_err(fail)?;
    }
    Ok(r.events)
}

/// Trace text of either kind as events: ftrace's, or the teaching kernel's lines.
pub fn parse_any(text: &str) -> Result<Vec<Event>, ParseError> {
    if is_ftrace(text) { parse(text) } else { crate::trace::parse(text) }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRACE: &str = "# tracer: nop\n#\n# entries-in-buffer/entries-written: 7/7   #P:2\n#\n\
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n\
            init-1       [000] d..2.     0.500000: sched_wakeup_new: comm=init pid=40 prio=120 target_cpu=001\n\
          <idle>-0       [001] d..2.     0.500010: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=task0 next_pid=40 next_prio=120\n\
           task0-40      [001] ...1.     0.501000: tracing_mark_write: iter=1\n\
 kworker/u4:1-12      [000] d..2.     0.502000: sched_wakeup: comm=task 1 pid=41 prio=110 target_cpu=000\n\
           task0-40      [001] d..2.     0.503000: sched_switch: prev_comm=task0 prev_pid=40 prev_prio=120 prev_state=R+ ==> next_comm=swapper/1 next_pid=0 next_prio=120\n\
           task0-40      [001] d..2.     0.504000: sched_migrate_task: comm=task0 pid=40 prio=120 orig_cpu=1 dest_cpu=0\n\
           task0-40      [000] ...1.     0.505000: sched_process_exit: comm=task0 pid=40 prio=120\n";

    #[test]
    fn reads_linux_sched_events_as_trace_events() {
        assert!(is_ftrace(TRACE) && !is_ftrace("T 1 0 in 1\n"));
        let ev = parse(TRACE).unwrap();
        let kinds: Vec<(Kind, u32, u32)> = ev.iter().map(|e| (e.kind, e.tid, e.hart)).collect();
        assert_eq!(
            kinds,
            [
                (Kind::New, 40, 0),
                (Kind::In, 40, 1),
                (Kind::Mark, 40, 1),
                (Kind::New, 41, 0),
                (Kind::Wake, 41, 0),
                (Kind::Out, 40, 1),
                (Kind::Migrate, 40, 1),
                (Kind::Exit, 40, 0)
            ]
        );
        assert_eq!((ev[0].time_ns, ev[0].get("name"), ev[0].get("rq")), (500_000_000, Some("init"), Some("1")));
        assert_eq!(ev[2].get("iter"), Some("1"));
        // A task first met in a wakeup: its name is the comm up to the first space, nice from prio.
        assert_eq!((ev[3].get("class"), ev[3].get("nice")), (Some("fair"), Some("-10")));
        assert_eq!((ev[5].get("why"), ev[5].num("ran")), (Some("preempt"), Some(2_990_000)));
        assert_eq!((ev[6].get("from"), ev[6].get("to")), (Some("1"), Some("0")));
    }

    #[test]
    fn a_line_that_is_not_ftrace_is_an_error_naming_it() {
        let bad = "# tracer: nop\n            init-1       [000] d..2.     0.500000: sched_wakeup_new: comm=init\nnonsense\n";
        let err = parse(bad).unwrap_err();
        assert_eq!(err.line, 2, "{err}");
        assert_eq!(parse("# tracer: nop\nnonsense here\n").unwrap_err().line, 2);
    }
}
