//! A tunable as every table declares it: its name, the values it takes, its default, and how
//! the book presents it.

pub const MAX_LIST: usize = 16;

#[derive(Clone, Copy, Debug)]
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
    /// Free text its reader parses itself (cgroup paths and keyed lists such as `a:100,b:300`).
    Text,
}

impl Kind {
    /// The catalog's name for the kind (`docs/kernel.md`, "Policies and tunables").
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Int { .. } => "int",
            Kind::Fraction => "fraction",
            Kind::List { .. } => "list",
            Kind::Features(_) => "features",
            Kind::Choice(_) => "choice",
            Kind::Choices(_) => "choices",
            Kind::Text => "text",
        }
    }

    /// The integer range of an `Int` or a `List`.
    pub fn range(&self) -> Option<(i64, i64)> {
        match *self {
            Kind::Int { min, max } | Kind::List { min, max } => Some((min, max)),
            _ => None,
        }
    }

    /// The names a `Features`, `Choice` or `Choices` takes.
    pub fn names(&self) -> &'static [&'static str] {
        match *self {
            Kind::Features(all) | Kind::Choice(all) | Kind::Choices(all) => all,
            _ => &[],
        }
    }
}

/// One tunable: its name, what values it takes, and how the book should present it.
#[derive(Clone, Copy, Debug)]
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
