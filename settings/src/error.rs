//! Why a command line is refused, as data: the word, what is wrong, and (through the tunable)
//! what would be accepted. `ArgError::show` words it in English for the kernel's console; the
//! page renders the same data in the reader's language.

use crate::catalog::{Catalog, Entry};
use crate::parse::MAX_GIVEN;
use crate::tunable::{Kind, MAX_LIST, Tunable};
use core::fmt;

#[derive(Clone, Copy, Debug)]
pub enum ArgError<'a> {
    NotKeyValue(&'a str),
    UnknownSched(&'a str),
    UnknownWorkload(&'a str),
    /// A word that names no global, no scheduler's tunable and none of the workload's (when
    /// the line has a workload).
    UnknownKey(&'a str, Option<Entry>),
    Duplicate(&'a str),
    BadValue(&'static Tunable, &'a str),
    TooMany,
    /// A combination the tables cannot express (e.g. a list whose length must match another).
    Invalid(&'static str, &'static str),
    /// One word of a text tunable is wrong: the tunable, the word, why.
    BadWord(&'static str, &'a str, &'static str),
}

/// A combination of values the tables cannot express (e.g. a list whose length must match
/// another): the tunable's name and why, printed as `error: NAME: WHY`.
#[derive(Clone, Copy, Debug)]
pub struct Invalid(pub &'static str, pub &'static str);

impl From<Invalid> for ArgError<'_> {
    fn from(Invalid(name, why): Invalid) -> Self {
        ArgError::Invalid(name, why)
    }
}

impl<'a> ArgError<'a> {
    /// The error in English, listing what `catalog` accepts where the error is about a name.
    pub fn show<'e, C: Catalog>(&'e self, catalog: &'e C) -> impl fmt::Display + 'e {
        Shown(self, catalog)
    }
}

struct Shown<'e, 'a, C>(&'e ArgError<'a>, &'e C);

fn names<'n>(out: &mut fmt::Formatter, items: impl IntoIterator<Item = &'n str>) -> fmt::Result {
    for (i, item) in items.into_iter().enumerate() {
        write!(out, "{}{}", if i == 0 { "" } else { ", " }, item)?;
    }
    Ok(())
}

impl<C: Catalog> fmt::Display for Shown<'_, '_, C> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let catalog = self.1;
        match *self.0 {
            ArgError::NotKeyValue(w) => write!(f, "argument '{w}' is not NAME=VALUE (or the word 'catalog')"),
            ArgError::UnknownSched(s) => {
                write!(f, "unknown scheduler '{s}'; accepted: ")?;
                names(f, catalog.schedulers().map(|s| s.name))
            }
            ArgError::UnknownWorkload(w) => {
                write!(f, "unknown workload '{w}'; accepted: ")?;
                names(f, catalog.workloads().map(|w| w.name))
            }
            ArgError::UnknownKey(k, workload) => {
                write!(f, "unknown argument '{k}'; accepted: ")?;
                if catalog.schedulers().next().is_some() {
                    write!(f, "sched, workload, ")?;
                }
                names(f, catalog.globals().map(|t| t.name))?;
                for s in catalog.schedulers().filter(|s| !s.tunables.is_empty()) {
                    write!(f, ", ")?;
                    names(f, s.tunables.iter().map(|t| t.name))?;
                }
                if let Some(workload) = workload {
                    write!(f, ", and {}'s: ", workload.name)?;
                    names(f, workload.tunables.iter().map(|t| t.name))?;
                    write!(f, " (see 'catalog')")?;
                }
                Ok(())
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

/// What values `t` takes, in English ("an integer in 1..=4 harts").
pub fn describe_kind(f: &mut fmt::Formatter, t: &Tunable) -> fmt::Result {
    let unit = if t.unit.is_empty() { "" } else { " " };
    match t.kind {
        Kind::Int { min, max } => write!(f, "an integer in {min}..={max}{unit}{}", t.unit),
        Kind::Fraction => write!(f, "a fraction p/q between 0 and 1, e.g. 1/16"),
        Kind::List { min, max } => {
            write!(f, "1 to {MAX_LIST} comma-separated integers in {min}..={max}{unit}{}", t.unit)
        }
        Kind::Features(all) => {
            write!(f, "comma-separated features, each NAME or NO_NAME, from: ")?;
            names(f, all.iter().copied())
        }
        Kind::Choice(all) => {
            write!(f, "one of: ")?;
            names(f, all.iter().copied())
        }
        Kind::Choices(all) => {
            write!(f, "1 to {MAX_LIST} comma-separated names, each one of: ")?;
            names(f, all.iter().copied())
        }
        Kind::Text => write!(f, "text: {}", t.help),
    }
}
