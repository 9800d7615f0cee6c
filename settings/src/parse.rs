//! The parser: a command line's words read against a catalog, into the values handles read.

use crate::catalog::{Catalog, Entry, Tables};
use crate::error::ArgError;
use crate::handle::{Setting, Type};
use crate::tunable::Tunable;
use crate::value::{Value, parse_value};

/// The most tunables one command line may set.
pub const MAX_GIVEN: usize = 32;

/// The values of a command line: those it gave, and each handle's declared default for the rest.
pub struct Settings<'a> {
    args: &'a str,
    sched: Option<Entry>,
    workload: Option<Entry>,
    given: [Option<(&'static Tunable, Value<'a>)>; MAX_GIVEN],
}

/// What one word of a command line does.
#[derive(Clone, Copy, Debug)]
pub enum Word<'a> {
    Sched(Entry),
    Workload(Entry),
    /// Names a tunable, with the value as written (`Word::value` reads it).
    Set(&'static Tunable, &'a str),
}

impl<'a> Word<'a> {
    /// The value a `Set` gives its tunable, or why the tunable does not take it.
    pub fn value(t: &'static Tunable, text: &'a str) -> Result<Value<'a>, ArgError<'a>> {
        parse_value(t, text).ok_or(ArgError::BadValue(t, text))
    }
}

fn key_value(word: &str) -> Result<(&str, &str), ArgError<'_>> {
    word.split_once('=').ok_or(ArgError::NotKeyValue(word))
}

/// Each word of `args` read against `catalog`, with `workload`'s tunables for the words
/// that are not global or a scheduler's: what it does, or why it is refused (its value is
/// read by `Word::value`). For a caller that reports every problem (the page);
/// `Settings::parse` stops at the first.
pub fn words<'a, 'c, C: Catalog>(args: &'a str, catalog: &'c C, workload: Option<Entry>) -> impl Iterator<Item = Result<Word<'a>, ArgError<'a>>> + use<'a, 'c, C> {
    args.split_ascii_whitespace().map(move |word| {
        let (key, value) = key_value(word)?;
        match key {
            "sched" => catalog.sched(value).map(Word::Sched).ok_or(ArgError::UnknownSched(value)),
            "workload" => catalog.workload(value).map(Word::Workload).ok_or(ArgError::UnknownWorkload(value)),
            _ => {
                catalog.tunable(key, workload).map(|t| Word::Set(t, value)).ok_or(ArgError::UnknownKey(key, workload))
            }
        }
    })
}

impl<'a> Settings<'a> {
    /// Reads the whole command line (the kernel's rule): `sched=` and `workload=` first, each
    /// at most once and known, then every other word, which must name a global, a scheduler's
    /// tunable or the workload's, once, with a value it takes. `catalog` is the caller's.
    pub fn parse<C: Catalog>(args: &'a str, catalog: &C) -> Result<Settings<'a>, ArgError<'a>> {
        let (mut sched_name, mut workload_name) = (None, None);
        for word in args.split_ascii_whitespace() {
            let (key, value) = key_value(word)?;
            let slot = match key {
                "sched" => &mut sched_name,
                "workload" => &mut workload_name,
                _ => continue,
            };
            if slot.replace(value).is_some() {
                return Err(ArgError::Duplicate(key));
            }
        }
        let sched_name = sched_name.unwrap_or(catalog.default_sched());
        let workload_name = workload_name.unwrap_or(catalog.default_workload());
        let sched = catalog.sched(sched_name).ok_or(ArgError::UnknownSched(sched_name))?;
        let workload = catalog.workload(workload_name).ok_or(ArgError::UnknownWorkload(workload_name))?;
        let mut settings = Settings { args, sched: Some(sched), workload: Some(workload), given: [None; MAX_GIVEN] };
        for word in words(args, catalog, Some(workload)) {
            if let Word::Set(t, text) = word? {
                settings.set(t, text)?;
            }
        }
        Ok(settings)
    }

    /// Reads only the words `tables` declare (the machine's part of a kernel command line):
    /// each once, with a value it takes. Other words are left to their reader (the kernel),
    /// except that a word in one of the `owned` namespaces (`"cache."`) must be declared.
    pub fn parse_part(args: &'a str, tables: &[&'static [Tunable]], owned: &[&str]) -> Result<Settings<'a>, ArgError<'a>> {
        let catalog = Tables(tables);
        let mut settings = Settings { args, sched: None, workload: None, given: [None; MAX_GIVEN] };
        for word in args.split_ascii_whitespace() {
            let Some((key, value)) = word.split_once('=') else { continue };
            let Some(t) = catalog.tunable(key, None) else {
                if owned.iter().any(|prefix| key.starts_with(prefix)) {
                    return Err(ArgError::UnknownKey(key, None));
                }
                continue;
            };
            settings.set(t, value)?;
        }
        Ok(settings)
    }

    /// Gives `t` the value `text`: a tunable given twice, or a value it does not take, is an error.
    fn set(&mut self, t: &'static Tunable, text: &'a str) -> Result<(), ArgError<'a>> {
        if self.given(t.name) {
            return Err(ArgError::Duplicate(t.name));
        }
        let value = Word::value(t, text)?;
        let free = self.given.iter_mut().find(|g| g.is_none()).ok_or(ArgError::TooMany)?;
        *free = Some((t, value));
        Ok(())
    }

    fn given(&self, name: &str) -> bool {
        self.given.iter().flatten().any(|(t, _)| t.name == name)
    }

    /// The value of `setting`: the command line's, or the default it was declared with.
    pub fn get<T: Type>(&self, setting: &Setting<T>) -> T::Value<'a> {
        let name = setting.name();
        let value = match self.given.iter().flatten().find(|(t, _)| t.name == name) {
            Some(&(_, value)) => value,
            // Every default parses: `Catalog::broken_default` checks each table (`catalog`).
            None => parse_value(&setting.tunable, setting.tunable.default).unwrap_or_else(|| panic!("the default of {name} does not parse")),
        };
        setting.read(value)
    }

    /// Whether the command line set `setting` (rather than leaving its default).
    pub fn is_given<T>(&self, setting: &Setting<T>) -> bool {
        self.given(setting.tunable.name)
    }

    /// The first word of the command line that sets one of `table`'s tunables.
    pub fn first_given(&self, table: &[Tunable]) -> Option<&'static str> {
        self.given.iter().flatten().map(|(t, _)| t.name).find(|name| table.iter().any(|t| t.name == *name))
    }

    /// The command line itself.
    pub fn args(&self) -> &'a str {
        self.args
    }

    /// The scheduler `sched=` chose (or the catalog's default); none for `parse_part`.
    pub fn sched(&self) -> Option<Entry> {
        self.sched
    }

    /// The workload `workload=` chose (or the catalog's default); none for `parse_part`.
    pub fn workload(&self) -> Option<Entry> {
        self.workload
    }
}
