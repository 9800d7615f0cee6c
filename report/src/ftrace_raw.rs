//! Linux's trace in its binary form, printed on the host as Linux's own `trace` file prints it.
//!
//! Runqueue's init for Linux (`linux/init/main.c`, `trace_raw_dump`) hands over each CPU's
//! ring-buffer pages from `per_cpu/cpuN/trace_pipe_raw` instead of the `trace` text, because
//! Linux formatting the text inside the emulated machine costs more than the whole workload.
//! The container: the line `# runqueue ftrace raw 1`, then sections, each a line `NAME LENGTH`
//! followed by LENGTH bytes:
//!
//! - `online`: the number of CPUs online (the header's `#P:`);
//! - `events/<system>/<event>/format`: each enabled event's format file (its id, its fields'
//!   offsets and sizes, its print format);
//! - `saved_cmdlines`: Linux's pid-to-comm map, which the text's first column comes from;
//! - `per_cpu/cpuN/stats`: the CPU's counts before the read (the header's entries);
//! - `per_cpu/cpuN`: one page as `trace_pipe_raw` gave it (any number of them, in order).
//!
//! [`to_text`] prints exactly what the `trace` file shows for the same buffer on Linux 6.1 and
//! 6.12 (the two agree on everything used here): the header of `print_func_help_header_irq`
//! (`kernel/trace/trace.c`), and each event as `trace_print_context` and
//! `trace_print_lat_fmt` (`kernel/trace/trace_output.c`) and the events' `TP_printk`
//! (`include/trace/events/sched.h`) print it, all CPUs merged by time stamp as the `trace`
//! iterator merges them (`__find_next_entry`: the earliest, ties to the lowest CPU). The page
//! layout is `kernel/trace/ring_buffer.c`'s. Print events (`trace_marker` writes) are named
//! `tracing_mark_write`, the function whose address they carry: the host has no symbol table.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write};

/// The container's first line, version included.
pub const MAGIC: &str = "# runqueue ftrace raw 1\n";

/// Whether `bytes` are a raw container (of any version) rather than text.
pub fn is_raw(bytes: &[u8]) -> bool {
    bytes.starts_with(b"# runqueue ftrace raw ")
}

/// Why a container could not be printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawError(pub String);

impl fmt::Display for RawError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Linux's raw trace: {}", self.0)
    }
}

fn err<T>(why: impl Into<String>) -> Result<T, RawError> {
    Err(RawError(why.into()))
}

/// The container's sections in order, as (name, body).
fn sections(bytes: &[u8]) -> Result<Vec<(&str, &[u8])>, RawError> {
    let Some(mut rest) = bytes.strip_prefix(MAGIC.as_bytes()) else {
        let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
        return err(alloc::format!("not version 1 of the container: {:?}", String::from_utf8_lossy(first)));
    };
    let mut out = Vec::new();
    while !rest.is_empty() {
        let end = rest.iter().position(|&b| b == b'\n').ok_or_else(|| RawError("a section's head line has no end".into()))?;
        let head = core::str::from_utf8(&rest[..end]).map_err(|_| RawError("a section's head line is not text".into()))?;
        let (name, len) = head.rsplit_once(' ').ok_or_else(|| RawError(alloc::format!("section head {head:?} is not `NAME LENGTH`")))?;
        let len: usize = len.parse().map_err(|_| RawError(alloc::format!("section head {head:?}: the length is not a number")))?;
        let body = rest.get(end + 1..end + 1 + len).ok_or_else(|| RawError(alloc::format!("section {name} is cut short")))?;
        out.push((name, body));
        rest = &rest[end + 1 + len..];
    }
    Ok(out)
}

/// One field of an event's format file.
#[derive(Clone, Copy)]
struct Field {
    offset: usize,
    size: usize,
}

/// An event's format file: its name, id, fields by name and the quoted part of its print format.
struct Format<'a> {
    name: &'a str,
    id: u16,
    fields: BTreeMap<&'a str, Field>,
    print: &'a str,
}

fn parse_format(text: &str) -> Result<Format<'_>, RawError> {
    let bad = |why: &str| RawError(alloc::format!("an event format file {why}"));
    let (mut name, mut id, mut print, mut fields) = (None, None, None, BTreeMap::new());
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("name: ") {
            name = Some(n);
        } else if let Some(n) = line.strip_prefix("ID: ") {
            id = Some(n.parse().map_err(|_| bad("has an ID that is not a number"))?);
        } else if let Some(p) = line.strip_prefix("print fmt: \"") {
            print = Some(p.split_once('"').ok_or_else(|| bad("has an unclosed print format"))?.0);
        } else if let Some(decl) = line.trim_start().strip_prefix("field:") {
            // field:char prev_comm[16];	offset:8;	size:16;	signed:0;
            let mut parts = decl.split(';').map(str::trim);
            let declared = parts.next().unwrap_or_default();
            let field_name = declared.split('[').next().unwrap_or_default().rsplit(' ').next().unwrap_or_default();
            let mut number = |key: &str| {
                parts.next().and_then(|p| p.strip_prefix(key)).and_then(|v| v.parse().ok()).ok_or_else(|| bad("has a field line without its offset and size"))
            };
            let (offset, size) = (number("offset:")?, number("size:")?);
            fields.insert(field_name, Field { offset, size });
        }
    }
    Ok(Format { name: name.ok_or_else(|| bad("has no name"))?, id: id.ok_or_else(|| bad("has no ID"))?, fields, print: print.ok_or_else(|| bad("has no print format"))? })
}

/// The events Runqueue's init enables, each with the print format (`TP_printk`'s string, the
/// same in 6.1 and 6.12) that [`Printer::fields`] prints.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Printer {
    Switch,
    Wakeup,
    Migrate,
    Exit,
    Print,
}

impl Printer {
    fn of(name: &str) -> Option<(Printer, &'static str)> {
        Some(match name {
            "sched_switch" => (Printer::Switch, "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d"),
            "sched_wakeup" | "sched_wakeup_new" => (Printer::Wakeup, "comm=%s pid=%d prio=%d target_cpu=%03d"),
            "sched_migrate_task" => (Printer::Migrate, "comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d"),
            "sched_process_exit" => (Printer::Exit, "comm=%s pid=%d prio=%d"),
            "print" => (Printer::Print, "%ps: %s"),
            _ => return None,
        })
    }
}

/// An event type the container describes: how to print it and where its fields are.
struct Kind<'a> {
    name: &'a str,
    printer: Printer,
    fields: BTreeMap<&'a str, Field>,
}

/// One event's payload (the trace entry, common fields first), as the kind's fields read it.
struct Entry<'a, 'k> {
    kind: &'k Kind<'a>,
    data: &'a [u8],
}

impl Entry<'_, '_> {
    fn bytes(&self, name: &str) -> Result<&[u8], RawError> {
        let f = self.kind.fields.get(name).ok_or_else(|| RawError(alloc::format!("{} has no field {name}", self.kind.name)))?;
        // A field of size 0 (`char buf[]`) runs to the end of the entry.
        let end = if f.size == 0 { self.data.len() } else { f.offset + f.size };
        self.data.get(f.offset..end).ok_or_else(|| RawError(alloc::format!("a {} event is too short for its field {name}", self.kind.name)))
    }

    /// A signed integer field of 1, 2, 4 or 8 bytes (little-endian, as RISC-V is).
    fn int(&self, name: &str) -> Result<i64, RawError> {
        let b = self.bytes(name)?;
        Ok(match b.len() {
            1 => b[0] as i8 as i64,
            2 => i16::from_le_bytes([b[0], b[1]]) as i64,
            4 => i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as i64,
            8 => i64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
            n => return err(alloc::format!("{}'s field {name} has {n} bytes, not an integer's", self.kind.name)),
        })
    }

    /// A `char[]` field as `%s` prints it: up to its first NUL.
    fn text(&self, name: &str) -> Result<String, RawError> {
        let b = self.bytes(name)?;
        let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
        Ok(String::from_utf8_lossy(&b[..end]).into_owned())
    }
}

/// `prev_state` as sched_switch's `TP_printk` prints it: the `__print_flags` names of the
/// reported state bits joined by `|` (`R` for none), `+` when TASK_REPORT_MAX (preempted) is set.
fn prev_state(state: i64) -> String {
    const NAMES: [(i64, &str); 8] = [(0x01, "S"), (0x02, "D"), (0x04, "T"), (0x08, "t"), (0x10, "X"), (0x20, "Z"), (0x40, "P"), (0x80, "I")];
    const REPORT_MAX: i64 = 0x100;
    let mut left = state & (REPORT_MAX - 1);
    let mut out = String::new();
    if left == 0 {
        out.push('R');
    }
    for (mask, name) in NAMES {
        if left & mask == mask && left != 0 {
            if !out.is_empty() {
                out.push('|');
            }
            out.push_str(name);
            left &= !mask;
        }
    }
    if state & REPORT_MAX != 0 {
        out.push('+');
    }
    out
}

impl Printer {
    /// The event's name and fields after the context columns, newline included.
    fn write(self, e: &Entry, out: &mut String) -> Result<(), RawError> {
        let name = e.kind.name;
        let _ = match self {
            Printer::Switch => writeln!(
                out,
                "{name}: prev_comm={} prev_pid={} prev_prio={} prev_state={} ==> next_comm={} next_pid={} next_prio={}",
                e.text("prev_comm")?,
                e.int("prev_pid")?,
                e.int("prev_prio")?,
                prev_state(e.int("prev_state")?),
                e.text("next_comm")?,
                e.int("next_pid")?,
                e.int("next_prio")?
            ),
            Printer::Wakeup => writeln!(out, "{name}: comm={} pid={} prio={} target_cpu={:03}", e.text("comm")?, e.int("pid")?, e.int("prio")?, e.int("target_cpu")?),
            Printer::Migrate => writeln!(
                out,
                "{name}: comm={} pid={} prio={} orig_cpu={} dest_cpu={}",
                e.text("comm")?,
                e.int("pid")?,
                e.int("prio")?,
                e.int("orig_cpu")?,
                e.int("dest_cpu")?
            ),
            Printer::Exit => writeln!(out, "{name}: comm={} pid={} prio={}", e.text("comm")?, e.int("pid")?, e.int("prio")?),
            // The marker's text carries its own newline (tracing_mark_write adds one).
            Printer::Print => write!(out, "tracing_mark_write: {}", e.text("buf")?),
        };
        Ok(())
    }
}

/// The latency columns as `trace_print_lat_fmt` prints them (TRACE_FLAG_* of
/// `include/linux/trace_events.h`): irqs-off/BH, need-resched, hard/soft irq, preempt depth,
/// migrate-disable depth.
fn lat_fmt(flags: u8, preempt: u8, out: &mut String) {
    const IRQS_OFF: u8 = 0x01;
    const NOSUPPORT: u8 = 0x02;
    const NEED_RESCHED: u8 = 0x04;
    const HARDIRQ: u8 = 0x08;
    const SOFTIRQ: u8 = 0x10;
    const PREEMPT_RESCHED: u8 = 0x20;
    const NMI: u8 = 0x40;
    const BH_OFF: u8 = 0x80;
    let on = |f: u8| flags & f != 0;
    out.push(match (on(IRQS_OFF), on(BH_OFF)) {
        (true, true) => 'D',
        (true, false) => 'd',
        (false, true) => 'b',
        _ if on(NOSUPPORT) => 'X',
        _ => '.',
    });
    out.push(match (on(NEED_RESCHED), on(PREEMPT_RESCHED)) {
        (true, true) => 'N',
        (true, false) => 'n',
        (false, true) => 'p',
        _ => '.',
    });
    out.push(match (on(NMI), on(HARDIRQ), on(SOFTIRQ)) {
        (true, true, _) => 'Z',
        (true, false, _) => 'z',
        (false, true, true) => 'H',
        (false, true, false) => 'h',
        (false, false, true) => 's',
        _ => '.',
    });
    for depth in [preempt & 0xf, preempt >> 4] {
        out.push(if depth == 0 { '.' } else { char::from_digit(depth as u32, 16).unwrap_or('?') });
    }
}

/// One data event of a CPU's buffer: its time stamp and its payload.
struct Raw<'a> {
    ts: u64,
    data: &'a [u8],
}

const PAGE_HEADER: usize = 16;
/// Event header `type_len` values (ring_buffer.c): 1..=28 data of type_len * 4 bytes.
const TYPE_PADDING: u32 = 29;
const TYPE_TIME_EXTEND: u32 = 30;
const TYPE_TIME_STAMP: u32 = 31;
const TS_SHIFT: u32 = 27;
/// The commit word's flag bits (RB_MISSED_EVENTS, RB_MISSED_STORED), not part of its size.
const COMMIT_FLAGS: u64 = 3 << 30;
/// The top bits an absolute time stamp leaves out (TS_MSB): they come from the stamp before.
const TS_MSB: u64 = 0xf8 << 56;

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// `rb_fix_abs_ts`: an absolute time stamp's missing top bits from the stamp before it.
fn fix_abs(abs: u64, before: u64) -> u64 {
    if before & TS_MSB == 0 {
        return abs;
    }
    let abs = abs | (before & TS_MSB);
    if abs < before { abs.wrapping_add(1 << 59) } else { abs }
}

/// The data events of one ring-buffer page (`struct buffer_data_page`: u64 time stamp, u64
/// commit, then events), appended to `out`.
fn read_page<'a>(page: &'a [u8], cpu: usize, out: &mut Vec<Raw<'a>>) -> Result<(), RawError> {
    let bad = |why: &str| RawError(alloc::format!("CPU {cpu}'s page {why}"));
    let mut ts = u64_at(page, 0).ok_or_else(|| bad("is shorter than its header"))?;
    let size = (u64_at(page, 8).ok_or_else(|| bad("is shorter than its header"))? & !COMMIT_FLAGS) as usize;
    let data = page.get(PAGE_HEADER..PAGE_HEADER + size).ok_or_else(|| bad("commits more bytes than it holds"))?;
    let mut at = 0;
    while at < data.len() {
        let head = u32_at(data, at).ok_or_else(|| bad("ends inside an event header"))?;
        let (type_len, delta) = (head & 31, (head >> 5) as u64);
        let array0 = || u32_at(data, at + 4).map(u64::from).ok_or_else(|| bad("ends inside an event"));
        let len = match type_len {
            // The rest of the page is empty: a null padding event.
            TYPE_PADDING if delta == 0 => break,
            // A discarded event: its length, no time.
            TYPE_PADDING => array0()? as usize + 4,
            TYPE_TIME_EXTEND => {
                ts = ts.wrapping_add((array0()? << TS_SHIFT) + delta);
                8
            }
            TYPE_TIME_STAMP => {
                ts = fix_abs((array0()? << TS_SHIFT) + delta, ts);
                8
            }
            _ => {
                let (start, len) = if type_len == 0 { (8, array0()? as usize + 4) } else { (4, type_len as usize * 4 + 4) };
                ts = ts.wrapping_add(delta);
                let payload = data.get(at + start..at + len).ok_or_else(|| bad("ends inside an event"))?;
                out.push(Raw { ts, data: payload });
                len
            }
        };
        at += len;
    }
    Ok(())
}

/// What the container says of one CPU.
#[derive(Default)]
struct Cpu<'a> {
    /// `entries` and `overrun` from its stats.
    entries: u64,
    overrun: u64,
    events: Vec<Raw<'a>>,
}

fn stat(text: &str, key: &str) -> Result<u64, RawError> {
    text.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(": ")?.trim().parse().ok())
        .ok_or_else(|| RawError(alloc::format!("a CPU's stats have no number for {key}")))
}

fn utf8<'a>(name: &str, body: &'a [u8]) -> Result<&'a str, RawError> {
    core::str::from_utf8(body).map_err(|_| RawError(alloc::format!("section {name} is not text")))
}

/// The CPU number of `per_cpu/cpuN` (and `per_cpu/cpuN/stats`).
fn cpu_of(name: &str) -> Result<usize, RawError> {
    let n = name.strip_prefix("per_cpu/cpu").unwrap_or_default();
    let n = n.strip_suffix("/stats").unwrap_or(n);
    n.parse().ok().filter(|&n| n < 4096).ok_or_else(|| RawError(alloc::format!("section {name} names no CPU")))
}

const HEADER_LEGEND: &str = "\
#                                _-----=> irqs-off/BH-disabled
#                               / _----=> need-resched
#                              | / _---=> hardirq/softirq
#                              || / _--=> preempt-depth
#                              ||| / _-=> migrate-disable
#                              |||| /     delay
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
";

/// The container as the text of Linux's `trace` file for the same buffer.
pub fn to_text(bytes: &[u8]) -> Result<String, RawError> {
    let mut online = None;
    let mut kinds: BTreeMap<u16, Kind> = BTreeMap::new();
    let mut comms: BTreeMap<i64, &str> = BTreeMap::new();
    let mut cpus: Vec<Cpu> = Vec::new();
    for (name, body) in sections(bytes)? {
        if name == "online" {
            online = Some(utf8(name, body)?.trim().parse::<u32>().map_err(|_| RawError("section online is not a number".into()))?);
        } else if name.starts_with("events/") && name.ends_with("/format") {
            let f = parse_format(utf8(name, body)?)?;
            let (printer, print) = Printer::of(f.name).ok_or_else(|| RawError(alloc::format!("no printer for the event {}", f.name)))?;
            if f.print != print {
                return err(alloc::format!("{}'s print format {:?} is not the one Runqueue prints ({print:?})", f.name, f.print));
            }
            kinds.insert(f.id, Kind { name: f.name, printer, fields: f.fields });
        } else if name == "saved_cmdlines" {
            for line in utf8(name, body)?.lines() {
                let (pid, comm) = line.split_once(' ').ok_or_else(|| RawError(alloc::format!("saved_cmdlines line {line:?} is not `PID COMM`")))?;
                comms.insert(pid.parse().map_err(|_| RawError(alloc::format!("saved_cmdlines line {line:?}: the pid is not a number")))?, comm);
            }
        } else if name.starts_with("per_cpu/") {
            let n = cpu_of(name)?;
            if cpus.len() <= n {
                cpus.resize_with(n + 1, Cpu::default);
            }
            let cpu = &mut cpus[n];
            if name.ends_with("/stats") {
                let text = utf8(name, body)?;
                (cpu.entries, cpu.overrun) = (stat(text, "entries")?, stat(text, "overrun")?);
            } else {
                read_page(body, n, &mut cpu.events)?;
            }
        } else {
            return err(alloc::format!("unknown section {name:?}"));
        }
    }
    let online = online.ok_or_else(|| RawError("the container has no `online` section".into()))?;
    let common = kinds.values().next().map(|k| k.fields.clone()).ok_or_else(|| RawError("the container has no event formats".into()))?;
    let common_kind = Kind { name: "the common fields", printer: Printer::Print, fields: common };

    let (entries, written) = cpus.iter().fold((0, 0), |(e, w), c| (e + c.entries, w + c.entries + c.overrun));
    let mut out = String::with_capacity(cpus.iter().map(|c| c.events.len()).sum::<usize>() * 128 + 1024);
    let _ = write!(out, "# tracer: nop\n#\n# entries-in-buffer/entries-written: {entries}/{written}   #P:{online}\n#\n{HEADER_LEGEND}");
    let mut next = alloc::vec![0usize; cpus.len()];
    loop {
        // The earliest head of all CPUs, ties to the lowest CPU (`__find_next_entry`).
        let mut pick: Option<(usize, u64)> = None;
        for (cpu, c) in cpus.iter().enumerate() {
            if let Some(e) = c.events.get(next[cpu]) {
                if pick.is_none_or(|(_, ts)| e.ts < ts) {
                    pick = Some((cpu, e.ts));
                }
            }
        }
        let Some((cpu, ts)) = pick else { break };
        let raw = &cpus[cpu].events[next[cpu]];
        next[cpu] += 1;
        let head = Entry { kind: &common_kind, data: raw.data };
        let id = head.int("common_type")? as u16;
        let kind = kinds.get(&id).ok_or_else(|| RawError(alloc::format!("CPU {cpu} has an event of type {id}, whose format is not in the container")))?;
        let pid = head.int("common_pid")?;
        let comm = match pid {
            0 => "<idle>",
            _ => comms.get(&pid).copied().unwrap_or("<...>"),
        };
        let usecs = (ts + 500) / 1000;
        let _ = write!(out, "{comm:>16}-{pid:<7} [{cpu:03}] ");
        lat_fmt(head.int("common_flags")? as u8, head.int("common_preempt_count")? as u8, &mut out);
        let _ = write!(out, " {:>5}.{:06}: ", usecs / 1_000_000, usecs % 1_000_000);
        kind.printer.write(&Entry { kind, data: raw.data }, &mut out)?;
    }
    Ok(out)
}

/// Trace bytes from the machine as text: a raw container printed, anything else as it is.
pub fn text_of_trace(bytes: &[u8]) -> Result<String, RawError> {
    if is_raw(bytes) { to_text(bytes) } else { Ok(String::from_utf8_lossy(bytes).into_owned()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::vec;

    const COMMON: &str = "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\
\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n\
\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n\
\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n";

    fn format_file(name: &str, id: u16, fields: &str, print: &str) -> String {
        format!("name: {name}\nID: {id}\nformat:\n{COMMON}\n{fields}\nprint fmt: \"{print}\", REC->x\n")
    }

    fn formats() -> Vec<(String, String)> {
        let comm = |n: &str, at: usize| format!("\tfield:char {n}[16];\toffset:{at};\tsize:16;\tsigned:0;\n");
        let int = |n: &str, at: usize, size: usize| format!("\tfield:int {n};\toffset:{at};\tsize:{size};\tsigned:1;\n");
        let switch = [comm("prev_comm", 8), int("prev_pid", 24, 4), int("prev_prio", 28, 4), int("prev_state", 32, 8), comm("next_comm", 40), int("next_pid", 56, 4), int("next_prio", 60, 4)].concat();
        let wakeup = [comm("comm", 8), int("pid", 24, 4), int("prio", 28, 4), int("target_cpu", 32, 4)].concat();
        let print = "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n";
        vec![
            ("events/sched/sched_switch/format".into(), format_file("sched_switch", 69, &switch, Printer::of("sched_switch").unwrap().1)),
            ("events/sched/sched_wakeup/format".into(), format_file("sched_wakeup", 71, &wakeup, Printer::of("sched_wakeup").unwrap().1)),
            ("events/ftrace/print/format".into(), format_file("print", 5, print, "%ps: %s")),
        ]
    }

    fn section(out: &mut Vec<u8>, name: &str, body: &[u8]) {
        out.extend_from_slice(format!("{name} {}\n", body.len()).as_bytes());
        out.extend_from_slice(body);
    }

    fn common(id: u16, flags: u8, preempt: u8, pid: i32) -> Vec<u8> {
        [&id.to_le_bytes()[..], &[flags, preempt], &pid.to_le_bytes()].concat()
    }

    fn comm16(name: &str) -> Vec<u8> {
        let mut b = name.as_bytes().to_vec();
        b.resize(16, 0);
        b
    }

    fn switch(pid: i32, prev: (&str, i32, i64), next: (&str, i32)) -> Vec<u8> {
        let (flags, preempt) = (0x01 | 0x04 | 0x08, 0x21);
        [common(69, flags, preempt, pid), comm16(prev.0), prev.1.to_le_bytes().to_vec(), 120i32.to_le_bytes().to_vec(), prev.2.to_le_bytes().to_vec(), comm16(next.0), next.1.to_le_bytes().to_vec(), 19i32.to_le_bytes().to_vec()].concat()
    }

    fn wakeup(pid: i32, comm: &str, woken: i32, cpu: i32) -> Vec<u8> {
        [common(71, 0, 0, pid), comm16(comm), woken.to_le_bytes().to_vec(), 120i32.to_le_bytes().to_vec(), cpu.to_le_bytes().to_vec()].concat()
    }

    fn print(pid: i32, text: &str) -> Vec<u8> {
        let mut b = [common(5, 0, 1, pid), 0x8000_1234u64.to_le_bytes().to_vec(), text.as_bytes().to_vec()].concat();
        b.resize(b.len().next_multiple_of(4) + 4, 0);
        b
    }

    /// Event headers (`type_len` in the low 5 bits, the time delta above).
    fn head(type_len: u32, delta: u32) -> Vec<u8> {
        (type_len | delta << 5).to_le_bytes().to_vec()
    }

    /// A data event with its length in array[0] (type_len 0), as 8-byte-aligned kernels write them.
    fn data(delta: u32, payload: &[u8]) -> Vec<u8> {
        [head(0, delta), (payload.len() as u32 + 4).to_le_bytes().to_vec(), payload.to_vec()].concat()
    }

    fn page(ts: u64, events: &[Vec<u8>], commit_flags: u64) -> Vec<u8> {
        let body = events.concat();
        let mut p = [ts.to_le_bytes().to_vec(), (body.len() as u64 | commit_flags).to_le_bytes().to_vec(), body].concat();
        p.resize(4096, 0xee);
        p
    }

    const ABS: u64 = 2_000_000_000;

    /// Two CPUs' pages covering each kind of ring-buffer event, with their formats and comms.
    fn container() -> Vec<u8> {
        let mut out = MAGIC.as_bytes().to_vec();
        section(&mut out, "online", b"2");
        for (name, text) in formats() {
            section(&mut out, &name, text.as_bytes());
        }
        section(&mut out, "saved_cmdlines", b"40 task0\n41 task 1\n");
        section(&mut out, "per_cpu/cpu0/stats", b"entries: 3\noverrun: 1\ncommit overrun: 0\n");
        let cpu0 = page(
            1_000_000_000,
            &[
                data(1500, &switch(0, ("swapper/0", 0, 0), ("task0", 40))),
                // a time extend: 2^27 + 5 ns later
                [head(TYPE_TIME_EXTEND, 5), 1u32.to_le_bytes().to_vec()].concat(),
                data(0, &print(40, "iter=1\n")),
                // a discarded event: skipped, its delta not counted
                [head(TYPE_PADDING, 77), 8u32.to_le_bytes().to_vec(), vec![9; 4]].concat(),
                // an absolute time stamp
                [head(TYPE_TIME_STAMP, (ABS & ((1 << TS_SHIFT) - 1)) as u32), ((ABS >> TS_SHIFT) as u32).to_le_bytes().to_vec()].concat(),
                data(0, &wakeup(99, "ghost", 40, 1)),
                // the rest of the page is empty
                head(TYPE_PADDING, 0),
                data(1, &print(40, "never=1\n")),
            ],
            1 << 31,
        );
        section(&mut out, "per_cpu/cpu0", &cpu0);
        section(&mut out, "per_cpu/cpu1/stats", b"entries: 1\noverrun: 0\n");
        // the same time as CPU 0's marker: CPU 0's goes first; a data event with type_len > 0
        let state = 0x100 | 0x02;
        let sw = switch(41, ("task 1", 41, state), ("swapper/1", 0));
        let cpu1 = page(1_134_219_233, &[[head(sw.len() as u32 / 4, 0), sw].concat()], 0);
        section(&mut out, "per_cpu/cpu1", &cpu1);
        out
    }

    #[test]
    fn prints_the_pages_as_linuxs_trace_text() {
        let text = to_text(&container()).unwrap();
        let want = format!(
            "# tracer: nop\n#\n# entries-in-buffer/entries-written: 4/5   #P:2\n#\n{HEADER_LEGEND}{}",
            concat!(
                "          <idle>-0       [000] dnh12     1.000002: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=task0 next_pid=40 next_prio=19\n",
                "           task0-40      [000] ...1.     1.134219: tracing_mark_write: iter=1\n",
                "          task 1-41      [001] dnh12     1.134219: sched_switch: prev_comm=task 1 prev_pid=41 prev_prio=120 prev_state=D+ ==> next_comm=swapper/1 next_pid=0 next_prio=19\n",
                "           <...>-99      [000] .....     2.000000: sched_wakeup: comm=ghost pid=40 prio=120 target_cpu=001\n",
            )
        );
        assert_eq!(text, want);
    }

    #[test]
    fn prev_state_and_the_latency_columns_read_as_linux_prints_them() {
        assert_eq!([prev_state(0), prev_state(0x100), prev_state(1), prev_state(0x80), prev_state(0x03 | 0x100)], ["R", "R+", "S", "I", "S|D+"]);
        let lat = |flags, preempt| {
            let mut s = String::new();
            lat_fmt(flags, preempt, &mut s);
            s
        };
        assert_eq!([lat(0, 0), lat(0x81, 0), lat(0x80, 0), lat(0x02, 0x1f), lat(0x24, 0), lat(0x20, 0), lat(0x48, 0), lat(0x40, 0), lat(0x18, 0), lat(0x10, 0)], [
            ".....", "D....", "b....", "X..f1", ".N...", ".p...", "..Z..", "..z..", "..H..", "..s.."
        ]);
    }

    #[test]
    fn a_cut_container_is_an_error_never_a_panic() {
        let whole = container();
        for cut in 0..whole.len() {
            // A cut inside a page's header or events, or before a section's end, is an error;
            // a cut between sections leaves a shorter, valid container.
            if let Ok(text) = to_text(&whole[..cut]) {
                assert!(text.starts_with("# tracer: nop\n"), "cut at {cut}");
            }
        }
        let page_at = whole.windows(13).position(|w| w == b"per_cpu/cpu0 ").unwrap();
        assert!(to_text(&whole[..page_at + 30]).unwrap_err().0.contains("cut short"));
    }

    #[test]
    fn garbage_and_other_versions_are_errors_with_a_reason() {
        let mut out = MAGIC.as_bytes().to_vec();
        out.extend_from_slice(&[0xff, 0x00, 0x7f, b'\n', 1, 2, 3]);
        assert!(to_text(&out).unwrap_err().0.contains("not text"));
        assert!(to_text(b"# runqueue ftrace raw 2\n").unwrap_err().0.contains("not version 1"));
        assert!(to_text(b"# tracer: nop\n").is_err());
        // a page whose commit runs past its end, an event longer than its page, an event id
        // without a format
        let with_page = |page: &[u8]| {
            let mut out = MAGIC.as_bytes().to_vec();
            section(&mut out, "online", b"1");
            for (name, text) in formats() {
                section(&mut out, &name, text.as_bytes());
            }
            section(&mut out, "per_cpu/cpu0", page);
            to_text(&out).unwrap_err().0
        };
        let mut p = page(0, &[], 0);
        p[8..16].copy_from_slice(&5000u64.to_le_bytes());
        assert!(with_page(&p).contains("commits more bytes"));
        let mut long = data(0, &print(1, "x"));
        long[4..8].copy_from_slice(&4000u32.to_le_bytes());
        assert!(with_page(&page(0, &[long], 0)).contains("ends inside an event"));
        assert!(with_page(&page(0, &[data(0, &common(1234, 0, 0, 1))], 0)).contains("type 1234"));
        assert!(with_page(&page(0, &[data(0, &common(69, 0, 0, 1))], 0)).contains("too short"));
        // a format whose print format Runqueue does not print
        let mut out = MAGIC.as_bytes().to_vec();
        section(&mut out, "events/sched/sched_switch/format", format_file("sched_switch", 69, "", "prev=%d").as_bytes());
        assert!(to_text(&out).unwrap_err().0.contains("not the one Runqueue prints"));
    }

    #[test]
    fn an_absolute_time_stamp_takes_its_top_bits_from_the_stamp_before() {
        assert_eq!(fix_abs(5, 7), 5);
        let before = 0x0800_0000_0000_0100;
        assert_eq!(fix_abs(0x200, before), 0x0800_0000_0000_0200);
        // below the stamp before: the 59-bit counter wrapped
        assert_eq!(fix_abs(0x50, before), 0x0800_0000_0000_0050 + (1 << 59));
    }

    #[test]
    fn text_passes_through_and_the_container_is_recognised() {
        assert!(is_raw(MAGIC.as_bytes()) && !is_raw(b"# tracer: nop\n"));
        assert_eq!(text_of_trace(b"T 1 0 in 1\n").unwrap(), "T 1 0 in 1\n");
        assert!(text_of_trace(&container()).unwrap().starts_with("# tracer: nop\n"));
    }
}
