//! The boot command line (`docs/platform.md`, contract 3). One table of tunables drives both
//! the parser and the `catalog` the book builds its controls from, so they cannot drift.

use crate::sched::{Spec, schedulers};
use crate::workload::{WORKLOADS, WorkloadSpec};
use core::fmt;

mod host;

pub use runqueue_sched_api::{IntList, Kind, MAX_LIST, Tunable};

const MAX_GIVEN: usize = 32;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Value {
    Int(i64),
    Fraction(u64, u64),
    List(IntList),
    /// Bit i set = feature i of the tunable's list is on.
    Features(u32),
    Choice(usize),
    Text(&'static str),
}

/// The command-line settings everything else is built from.
pub struct Settings {
    pub args: &'static str,
    pub sched: Spec,
    pub workload: &'static WorkloadSpec,
    given: [Option<(&'static Tunable, Value)>; MAX_GIVEN],
}

/// Settings every run has, whatever its scheduler and workload.
pub const GLOBAL: &[Tunable] = &[
    Tunable {
        name: "smp",
        kind: Kind::Int { min: 1, max: crate::hart::MAX_HARTS as i64 },
        default: "1",
        unit: "harts",
        help: "harts that run tasks (QEMU and the emulator must provide at least this many)",
    },
    Tunable {
        name: "seed",
        kind: Kind::Int { min: 0, max: u32::MAX as i64 },
        default: "0",
        unit: "",
        help: "seed for anything random: a workload's, and sched=lottery's draws (reported in RESULT)",
    },
    Tunable { name: "trace", kind: Kind::Choice(&["on", "off"]), default: "on", unit: "", help: "emit trace events (trace device, or @-lines on the UART)" },
    Tunable { name: "tick_us", kind: Kind::Int { min: 100, max: 100_000 }, default: "1000", unit: "us", help: "period of each hart's scheduler tick" },
    // The machine's data cache (docs/platform.md, "Data cache model"): the emulator reads these
    // words from the same command line and checks them further (powers of two, whole sets);
    // the kernel only accepts them. Ranges and defaults as in runqueue_emu::CacheConfig.
    Tunable { name: "cache.kb", kind: Kind::Int { min: 0, max: 4096 }, default: "0", unit: "KiB", help: "size of each hart's data cache, 0 = none (with one, moving a task to another hart costs misses); provided by the machine, QEMU ignores it" },
    Tunable { name: "cache.line", kind: Kind::Int { min: 16, max: 4096 }, default: "64", unit: "bytes", help: "data cache line size, a power of two; provided by the machine, QEMU ignores it" },
    Tunable { name: "cache.ways", kind: Kind::Int { min: 1, max: 32 }, default: "8", unit: "ways", help: "data cache associativity (lines per set); provided by the machine, QEMU ignores it" },
    Tunable { name: "cache.miss_ns", kind: Kind::Int { min: 0, max: 10_000 }, default: "100", unit: "ns", help: "how long a data cache miss stalls the hart, a multiple of 10 ns (default: a DRAM access); provided by the machine, QEMU ignores it" },
    crate::dispatch::IDLE,
    host::HOST,
    host::CPUS_COUNT,
    host::VCPU,
    host::VCPU_PRIO,
    host::PIN,
    host::ISOLCPUS,
    host::NOHZ_FULL,
    host::RCU_NOCBS,
    host::IRQ_AFFINITY,
    host::RT_THROTTLE,
    host::IDLE,
    host::KERNEL,
    host::CSTATE_US,
    host::EXIT_NS,
    host::DIRECT_IRQ,
    host::HOGS,
    host::GUESTS,
    host::NOISE,
    crate::sched::rt::RUNTIME,
    crate::sched::rt::PERIOD,
    crate::sched::rt::RR_SLICE,
    crate::sched::fair_server::STARVATION,
    crate::sched::fair_server::RUNTIME,
    crate::sched::fair_server::PERIOD,
    crate::mutex::PI,
    crate::workload::NICE,
    crate::workload::RTPRIO,
    crate::workload::RTPOLICY,
    crate::workload::POLICY,
    crate::workload::WARP,
    crate::workload::AFFINITY,
    crate::workload::ARRIVE,
    crate::workload::TICKETS,
    crate::workload::SLICE,
    crate::sched::cgroup::CGROUP,
    crate::sched::cgroup::WEIGHT,
    crate::sched::cgroup::WEIGHT_NICE,
    crate::sched::cgroup::MAX,
    crate::dispatch::balance::RQ,
    crate::dispatch::balance::BALANCE_MS,
    crate::dispatch::balance::MIGRATION_COST,
    crate::dispatch::balance::NR_MIGRATE,
    crate::dispatch::balance::ISOLCPUS,
    crate::dispatch::balance::NOHZ_FULL,
    crate::dispatch::balance::TIMER_MIGRATION,
];

pub const DEFAULT_SCHED: &str = "cfs";
pub const DEFAULT_WORKLOAD: &str = "fairness-unequal";

pub enum ArgError {
    NotKeyValue(&'static str),
    UnknownSched(&'static str),
    UnknownWorkload(&'static str),
    /// An argument that is no global, scheduler or this workload's tunable.
    UnknownKey(&'static str, &'static WorkloadSpec),
    Duplicate(&'static str),
    BadValue(&'static Tunable, &'static str),
    TooMany,
    /// A combination the tables cannot express (e.g. a list whose length must match another).
    Invalid(&'static str, &'static str),
    /// One word of a text tunable is wrong: the tunable, the word, why.
    BadWord(&'static str, &'static str, &'static str),
}

fn names<T>(out: &mut fmt::Formatter, items: impl IntoIterator<Item = T>, name: impl Fn(&T) -> &str) -> fmt::Result {
    for (i, item) in items.into_iter().enumerate() {
        write!(out, "{}{}", if i == 0 { "" } else { ", " }, name(&item))?;
    }
    Ok(())
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            ArgError::NotKeyValue(w) => write!(f, "argument '{w}' is not NAME=VALUE (or the word 'catalog')"),
            ArgError::UnknownSched(s) => {
                write!(f, "unknown scheduler '{s}'; accepted: ")?;
                names(f, schedulers(), |s| s.name())
            }
            ArgError::UnknownWorkload(w) => {
                write!(f, "unknown workload '{w}'; accepted: ")?;
                names(f, WORKLOADS, |w| w.name)
            }
            ArgError::UnknownKey(k, workload) => {
                write!(f, "unknown argument '{k}'; accepted: sched, workload, ")?;
                names(f, GLOBAL, |t| t.name)?;
                for s in schedulers().filter(|s| !s.tunables().is_empty()) {
                    write!(f, ", ")?;
                    names(f, s.tunables(), |t| t.name)?;
                }
                write!(f, ", and {}'s: ", workload.name)?;
                names(f, workload.tunables, |t| t.name)?;
                write!(f, " (see 'catalog')")
            }
            ArgError::Duplicate(k) => write!(f, "argument '{k}' given twice"),
            ArgError::BadValue(t, v) => {
                write!(f, "bad value '{v}' for {}: expected ", t.name)?;
                describe_kind(f, t)
            }
            ArgError::TooMany => write!(f, "too many arguments (at most {MAX_GIVEN})"),
            ArgError::Invalid(name, why) => write!(f, "{name}: {why}"),
            ArgError::BadWord(name, word, why) => write!(f, "{name}: '{word}': {why}"),
        }
    }
}

fn describe_kind(f: &mut fmt::Formatter, t: &Tunable) -> fmt::Result {
    let unit = if t.unit.is_empty() { "" } else { " " };
    match t.kind {
        Kind::Int { min, max } => write!(f, "an integer in {min}..={max}{unit}{}", t.unit),
        Kind::Fraction => write!(f, "a fraction p/q between 0 and 1, e.g. 1/16"),
        Kind::List { min, max } => {
            write!(f, "1 to {MAX_LIST} comma-separated integers in {min}..={max}{unit}{}", t.unit)
        }
        Kind::Features(all) => {
            write!(f, "comma-separated features, each NAME or NO_NAME, from: ")?;
            names(f, all, |n| n)
        }
        Kind::Choice(all) => {
            write!(f, "one of: ")?;
            names(f, all, |n| n)
        }
        Kind::Choices(all) => {
            write!(f, "1 to {MAX_LIST} comma-separated names, each one of: ")?;
            names(f, all, |n| n)
        }
        Kind::Text => write!(f, "text: {}", t.help),
    }
}

fn parse_int(text: &str) -> Option<i64> {
    let (neg, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    if digits.is_empty() || digits.len() > 18 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let v = digits.bytes().fold(0i64, |acc, b| acc * 10 + (b - b'0') as i64);
    Some(if neg { -v } else { v })
}

/// Parses `text` as a value of `t`; `None` when it is not one.
pub fn parse_value(t: &Tunable, text: &'static str) -> Option<Value> {
    match t.kind {
        Kind::Int { min, max } => parse_int(text).filter(|v| (min..=max).contains(v)).map(Value::Int),
        Kind::Fraction => {
            let (p, q) = text.split_once('/').unwrap_or((text, "1"));
            let (p, q) = (parse_int(p)?, parse_int(q)?);
            (p >= 0 && q > 0 && p <= q && q <= 1 << 20).then_some(Value::Fraction(p as u64, q as u64))
        }
        Kind::List { min, max } => parse_list(text, |item| parse_int(item).filter(|v| (min..=max).contains(v))),
        Kind::Choices(all) => parse_list(text, |item| all.iter().position(|c| *c == item).map(|i| i as i64)),
        Kind::Features(all) => apply_features(all, apply_features(all, 0, t.default)?, text).map(Value::Features),
        Kind::Choice(all) => all.iter().position(|c| *c == text).map(Value::Choice),
        // Checked by whoever reads it (`sched::cgroup`), which names what is wrong.
        Kind::Text => Some(Value::Text(text)),
    }
}

/// A comma-separated list of at most `MAX_LIST` items, each read by `item`.
fn parse_list(text: &str, item: impl Fn(&str) -> Option<i64>) -> Option<Value> {
    let mut list = IntList { items: [0; MAX_LIST], len: 0 };
    for text in text.split(',') {
        *list.items.get_mut(list.len)? = item(text)?;
        list.len += 1;
    }
    Some(Value::List(list))
}

/// `base` with each comma-separated `NAME` (on) or `NO_NAME` (off) in `text` applied.
fn apply_features(all: &[&str], base: u32, text: &str) -> Option<u32> {
    let mut on = base;
    for item in text.split(',').filter(|i| !i.is_empty()) {
        let (enable, name) = match item.strip_prefix("NO_") {
            Some(name) => (false, name),
            None => (true, item),
        };
        let bit = 1u32 << all.iter().position(|f| *f == name)?;
        on = if enable { on | bit } else { on & !bit };
    }
    Some(on)
}

/// A tunable's default value; every default is checked by `check_defaults` (run by `catalog`).
fn default_value(t: &'static Tunable) -> Value {
    parse_value(t, t.default).unwrap_or(Value::Int(0))
}

impl Settings {
    /// Parses the whole command line. `catalog` is handled by the caller before this.
    pub fn parse(args: &'static str) -> Result<Settings, ArgError> {
        let (mut sched_name, mut workload_name) = (None, None);
        for word in args.split_ascii_whitespace() {
            let (key, value) = word.split_once('=').ok_or(ArgError::NotKeyValue(word))?;
            let slot = match key {
                "sched" => &mut sched_name,
                "workload" => &mut workload_name,
                _ => continue,
            };
            if slot.replace(value).is_some() {
                return Err(ArgError::Duplicate(key));
            }
        }
        let (sched_name, workload_name) = (sched_name.unwrap_or(DEFAULT_SCHED), workload_name.unwrap_or(DEFAULT_WORKLOAD));
        let sched = schedulers().find(|s| s.name() == sched_name).ok_or(ArgError::UnknownSched(sched_name))?;
        let workload = WORKLOADS.iter().find(|w| w.name == workload_name).ok_or(ArgError::UnknownWorkload(workload_name))?;
        let mut settings = Settings { args, sched, workload, given: [None; MAX_GIVEN] };
        let mut count = 0;
        for word in args.split_ascii_whitespace() {
            let (key, value) = word.split_once('=').ok_or(ArgError::NotKeyValue(word))?;
            if key == "sched" || key == "workload" {
                continue;
            }
            let t = settings.tunable(key).ok_or(ArgError::UnknownKey(key, workload))?;
            if settings.given.iter().flatten().any(|(g, _)| g.name == key) {
                return Err(ArgError::Duplicate(key));
            }
            let v = parse_value(t, value).ok_or(ArgError::BadValue(t, value))?;
            *settings.given.get_mut(count).ok_or(ArgError::TooMany)? = Some((t, v));
            count += 1;
        }
        Ok(settings)
    }

    /// The tunable called `name` among the globals, every scheduler's, and this workload's.
    fn tunable(&self, name: &str) -> Option<&'static Tunable> {
        let scheds = schedulers().flat_map(|s| s.tunables().iter());
        GLOBAL.iter().chain(scheds).chain(self.workload.tunables.iter()).find(|t| t.name == name)
    }

    fn value(&self, name: &str) -> Value {
        if let Some((_, v)) = self.given.iter().flatten().find(|(t, _)| t.name == name) {
            return *v;
        }
        self.tunable(name).map(default_value).unwrap_or(Value::Int(0))
    }

    /// Whether the command line set `name` (rather than leaving its default).
    pub fn given(&self, name: &str) -> bool {
        self.given.iter().flatten().any(|(t, _)| t.name == name)
    }

    pub fn int(&self, name: &str) -> i64 {
        match self.value(name) {
            Value::Int(v) => v,
            Value::Choice(i) => i as i64,
            _ => 0,
        }
    }

    pub fn fraction(&self, name: &str) -> (u64, u64) {
        match self.value(name) {
            Value::Fraction(p, q) => (p, q),
            _ => (0, 1),
        }
    }

    pub fn list(&self, name: &str) -> IntList {
        match self.value(name) {
            Value::List(l) => l,
            _ => IntList::EMPTY,
        }
    }

    pub fn features(&self, name: &str) -> u32 {
        match self.value(name) {
            Value::Features(bits) => bits,
            _ => 0,
        }
    }

    /// A text tunable's value ("" when not given and its default is empty).
    pub fn text(&self, name: &str) -> &'static str {
        match self.value(name) {
            Value::Text(t) => t,
            _ => "",
        }
    }

    pub fn smp(&self) -> usize {
        self.int("smp") as usize
    }

    pub fn trace_on(&self) -> bool {
        self.int("trace") == 0
    }
}

/// What a policy reads of the settings (`runqueue_sched_api::Settings`).
impl runqueue_sched_api::Settings for Settings {
    fn int(&self, name: &str) -> i64 {
        Settings::int(self, name)
    }

    fn fraction(&self, name: &str) -> (u64, u64) {
        Settings::fraction(self, name)
    }

    fn list(&self, name: &str) -> IntList {
        Settings::list(self, name)
    }

    fn features(&self, name: &str) -> u32 {
        Settings::features(self, name)
    }

    fn given(&self, name: &str) -> bool {
        Settings::given(self, name)
    }
}

impl From<runqueue_sched_api::Invalid> for ArgError {
    fn from(runqueue_sched_api::Invalid(name, why): runqueue_sched_api::Invalid) -> ArgError {
        ArgError::Invalid(name, why)
    }
}

/// Checks every default in every table parses; `catalog` refuses to describe a broken table.
pub fn check_defaults() -> Result<(), &'static str> {
    let scheds = schedulers().flat_map(|s| s.tunables().iter());
    let works = WORKLOADS.iter().flat_map(|w| w.tunables.iter());
    for t in GLOBAL.iter().chain(scheds).chain(works) {
        if parse_value(t, t.default).is_none() {
            return Err(t.name);
        }
    }
    Ok(())
}
