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
