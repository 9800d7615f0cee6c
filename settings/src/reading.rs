//! A command line as the book's page reads it: against a catalog read from the kernel's
//! `CATALOG` JSON, over the settings a widget already has, every word either applied or
//! refused with data that says why (which word, what is wrong, what would be accepted), so the
//! page words each problem in the reader's language. The page's wasm (`runqueue-wasm`) and
//! `runqueue settings` (which the figure generator uses to spell lines as the page does) both
//! read through `read`, with the parser the kernel uses.

extern crate alloc;

use crate::catalog::{Catalog, Entry};
use crate::error::ArgError;
use crate::parse::{Word, words};
use crate::tunable::{Kind, Tunable};
use crate::value::parse_int;
use alloc::borrow::ToOwned;
use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde_json::{Map, Value as Json};

/// A catalog read from the kernel's `CATALOG` JSON. Its text lives as long as the program (the
/// page reads one catalog per page, the CLI one per run), as the kernel's own tables do.
pub struct OwnedCatalog {
    globals: &'static [Tunable],
    schedulers: Vec<Entry>,
    workloads: Vec<Entry>,
    default_sched: &'static str,
    default_workload: &'static str,
}

fn leak(text: &str) -> &'static str {
    Box::leak(text.to_owned().into_boxed_str())
}

fn text<'j>(j: &'j Json, key: &str) -> Result<&'j str, String> {
    j[key].as_str().ok_or_else(|| format!("catalog: `{key}` is not text in {j}"))
}

fn tunable(j: &Json) -> Result<Tunable, String> {
    let names: &'static [&'static str] = match j["values"].as_array() {
        Some(values) => Box::leak(values.iter().map(|v| v.as_str().map(leak).ok_or("catalog: a value is not text")).collect::<Result<Vec<_>, _>>()?.into_boxed_slice()),
        None => &[],
    };
    // A bound left out (null) is no bound.
    let (min, max) = (j["min"].as_i64().unwrap_or(i64::MIN), j["max"].as_i64().unwrap_or(i64::MAX));
    let kind = match text(j, "type")? {
        "int" => Kind::Int { min, max },
        "list" => Kind::List { min, max },
        "fraction" => Kind::Fraction,
        "features" => Kind::Features(names),
        "choice" => Kind::Choice(names),
        "choices" => Kind::Choices(names),
        "text" => Kind::Text,
        other => return Err(format!("catalog: unknown type {other}")),
    };
    let default = match &j["default"] {
        Json::Number(n) => leak(&n.to_string()),
        other => other.as_str().map(leak).ok_or_else(|| format!("catalog: {j} has no default"))?,
    };
    // A catalog written by hand (the page's tests) may leave out what only the book shows.
    let shown = |key: &str| leak(j[key].as_str().unwrap_or(""));
    Ok(Tunable { name: leak(text(j, "name")?), kind, default, unit: shown("unit"), help: shown("help") })
}

fn tunables(list: &Json) -> Result<&'static [Tunable], String> {
    let list = list.as_array().ok_or("catalog: tunables are not a list")?;
    Ok(Box::leak(list.iter().map(tunable).collect::<Result<Vec<_>, _>>()?.into_boxed_slice()))
}

fn entries(list: &Json) -> Result<Vec<Entry>, String> {
    let list = list.as_array().ok_or("catalog: no list of entries")?;
    let no_tunables = Json::Array(Vec::new());
    list.iter()
        .map(|e| {
            let list = if e["tunables"].is_null() { &no_tunables } else { &e["tunables"] };
            Ok(Entry { name: leak(text(e, "name")?), help: leak(e["help"].as_str().unwrap_or("")), tunables: tunables(list)? })
        })
        .collect()
}

impl OwnedCatalog {
    /// The catalog the kernel printed (`runqueue run --append catalog`, the JSON after
    /// `CATALOG `).
    pub fn from_json(json: &str) -> Result<OwnedCatalog, String> {
        let j: Json = serde_json::from_str(json).map_err(|e| format!("catalog: {e}"))?;
        Ok(OwnedCatalog {
            globals: tunables(&j["globals"])?,
            schedulers: entries(&j["schedulers"])?,
            workloads: entries(&j["workloads"])?,
            default_sched: leak(text(&j["defaults"], "sched")?),
            default_workload: leak(text(&j["defaults"], "workload")?),
        })
    }
}

impl Catalog for OwnedCatalog {
    fn globals(&self) -> impl Iterator<Item = &'static Tunable> + Clone {
        self.globals.iter()
    }

    fn schedulers(&self) -> impl Iterator<Item = Entry> + Clone {
        self.schedulers.iter().copied()
    }

    fn workloads(&self) -> impl Iterator<Item = Entry> + Clone {
        self.workloads.iter().copied()
    }

    fn default_sched(&self) -> &'static str {
        self.default_sched
    }

    fn default_workload(&self) -> &'static str {
        self.default_workload
    }
}

/// Why `value` is not one of `t`'s, as the page words it: `not-integer`, `out-of-range`, or
/// `format` (not written as the kind is).
fn why_bad(t: &Tunable, value: &str) -> &'static str {
    match t.kind {
        Kind::Int { .. } if parse_int(value).is_some() => "out-of-range",
        Kind::Int { .. } => "not-integer",
        _ => "format",
    }
}

fn names(items: impl Iterator<Item = &'static str>) -> Json {
    Json::Array(items.map(|n| Json::String(n.into())).collect())
}

fn problem(catalog: &OwnedCatalog, workload: Option<Entry>, e: &ArgError) -> Json {
    let mut o = Map::new();
    let mut put = |k: &str, v: Json| {
        o.insert(k.into(), v);
    };
    match *e {
        ArgError::NotKeyValue(word) => {
            put("error", "not-key-value".into());
            put("word", word.into());
        }
        ArgError::UnknownSched(value) | ArgError::UnknownWorkload(value) => {
            let sched = matches!(e, ArgError::UnknownSched(_));
            put("error", if sched { "unknown-sched" } else { "unknown-workload" }.into());
            put("value", value.into());
            let list = if sched { &catalog.schedulers } else { &catalog.workloads };
            put("accepted", names(list.iter().map(|e| e.name)));
        }
        ArgError::UnknownKey(name, _) => {
            put("error", "unknown-key".into());
            put("name", name.into());
            put("workload", workload.map_or(Json::Null, |w| w.name.into()));
            put("elsewhere", catalog.workloads.iter().any(|w| w.tunables.iter().any(|t| t.name == name)).into());
        }
        ArgError::Duplicate(name) => {
            put("error", "duplicate".into());
            put("name", name.into());
        }
        ArgError::BadValue(t, value) => {
            put("error", "bad-value".into());
            put("name", t.name.into());
            put("value", value.into());
            put("why", why_bad(t, value).into());
            put("type", t.kind.name().into());
            let (min, max) = t.kind.range().map_or((Json::Null, Json::Null), |(a, b)| (a.into(), b.into()));
            put("min", min);
            put("max", max);
            put("values", names(t.kind.names().iter().copied()));
            put("unit", t.unit.into());
        }
        // Not a reading's problems (the kernel finds them once the line is read), but spelled
        // out all the same.
        ArgError::TooMany | ArgError::Invalid(..) | ArgError::BadWord(..) => {
            put("error", "invalid".into());
            put("text", e.show(catalog).to_string().into());
        }
    }
    Json::Object(o)
}

/// Reads the command line `args` over `base`, the settings a widget has before it
/// (`{"sched", "workload", "tunables": [[name, value], ...]}`): `sched=` and `workload=` choose,
/// every other word sets a tunable (checked against the workload the line ends with, or
/// `base`'s). A bad word is refused and the rest applies. Returns `{"sched", "workload",
/// "tunables": [[name, value as written], ...], "errors": [problem, ...]}`, the tunables in
/// `base`'s order with new ones after.
pub fn read(args: &str, catalog: &OwnedCatalog, base: &Json) -> Json {
    let mut sched = base["sched"].as_str().unwrap_or(catalog.default_sched).to_string();
    let mut workload = base["workload"].as_str().unwrap_or(catalog.default_workload).to_string();
    let mut set: Vec<(String, String)> = base["tunables"]
        .as_array()
        .map(|list| list.iter().filter_map(|p| Some((p[0].as_str()?.to_string(), p[1].as_str()?.to_string()))).collect())
        .unwrap_or_default();
    // Workload tunables are checked against the workload the line ends with.
    let chosen = args.split_ascii_whitespace().filter_map(|w| w.strip_prefix("workload=")).filter_map(|w| catalog.workload(w)).last();
    let entry = chosen.or_else(|| catalog.workload(&workload));
    let mut errors = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (word, reading) in args.split_ascii_whitespace().zip(words(args, catalog, entry)) {
        let key = word.split_once('=').map_or(word, |(k, _)| k);
        if reading.is_ok() && seen.contains(&key) {
            errors.push(problem(catalog, entry, &ArgError::Duplicate(key)));
            continue;
        }
        seen.push(key);
        match reading.and_then(|w| if let Word::Set(t, text) = w { Word::value(t, text).map(|_| w) } else { Ok(w) }) {
            Ok(Word::Sched(e)) => sched = e.name.into(),
            Ok(Word::Workload(e)) => workload = e.name.into(),
            Ok(Word::Set(t, text)) => match set.iter_mut().find(|(name, _)| name == t.name) {
                Some(slot) => slot.1 = text.into(),
                None => set.push((t.name.into(), text.into())),
            },
            Err(e) => errors.push(problem(catalog, entry, &e)),
        }
    }
    let mut out = Map::new();
    out.insert("sched".into(), sched.into());
    out.insert("workload".into(), workload.into());
    out.insert("tunables".into(), Json::Array(set.into_iter().map(|(k, v)| Json::Array([k.into(), v.into()].into())).collect()));
    out.insert("errors".into(), Json::Array(errors));
    Json::Object(out)
}
