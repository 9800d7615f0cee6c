//! Tunables: what a policy declares it takes, and how it reads their values. The kernel
//! parses the command line against these tables (and the book builds its controls from
//! them); a policy only reads the result.

pub const MAX_LIST: usize = 16;

#[derive(Clone, Copy)]
pub enum Kind {
    Int { min: i64, max: i64 },
    /// `p/q` (or a plain 0 or 1) between 0 and 1.
    Fraction,
    /// Comma-separated integers, each in `min..=max`.
    List { min: i64, max: i64 },
    /// Comma-separated feature names, each turning one on, or off with a `NO_` prefix; applied
    /// over the default set, like writes to Linux's `sched_features`.
    Features(&'static [&'static str]),
    Choice(&'static [&'static str]),
    /// Comma-separated names, each one of these; read as the list of their indices.
    Choices(&'static [&'static str]),
    /// Free text the kernel parses itself (cgroup paths and keyed lists such as `a:100,b:300`);
    /// a policy never reads one.
    Text,
}

/// One tunable: its name, what values it takes, and how the book should present it.
pub struct Tunable {
    pub name: &'static str,
    pub kind: Kind,
    pub default: &'static str,
    pub unit: &'static str,
    pub help: &'static str,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct IntList {
    pub items: [i64; MAX_LIST],
    pub len: usize,
}

impl IntList {
    pub const EMPTY: IntList = IntList { items: [0; MAX_LIST], len: 0 };

    pub fn as_slice(&self) -> &[i64] {
        &self.items[..self.len]
    }
}

/// The values of the command line's tunables (each one's default when not given).
pub trait Settings {
    fn int(&self, name: &str) -> i64;
    fn fraction(&self, name: &str) -> (u64, u64);
    /// A `List`, or a `Choices` as the index of each name.
    fn list(&self, name: &str) -> IntList;
    /// Bit i set = feature i of the tunable's list is on.
    fn features(&self, name: &str) -> u32;
    /// Whether the command line set `name` (rather than leaving its default).
    fn given(&self, name: &str) -> bool;
    /// Harts that run tasks.
    fn smp(&self) -> usize {
        self.int("smp") as usize
    }
    /// A millisecond tunable, in ns.
    fn ms(&self, name: &str) -> u64 {
        self.int(name).max(0) as u64 * 1_000_000
    }
}

/// A combination of values the tables cannot express (e.g. a list whose length must match
/// another): the tunable's name and why, printed as `error: NAME: WHY`.
#[derive(Clone, Copy, Debug)]
pub struct Invalid(pub &'static str, pub &'static str);
