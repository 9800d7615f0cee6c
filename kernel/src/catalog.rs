//! `catalog` on the command line: one line `CATALOG {json}` describing every scheduler,
//! workload and tunable, generated from the same tables the parser uses. The book builds
//! its controls from it.

use crate::args::{self, GLOBAL, Kind, Tunable};
use crate::console::{self, Uart};
use crate::json;
use crate::sched::schedulers;
use crate::workload::WORKLOADS;
use core::fmt::{self, Write};

fn names(u: &mut Uart, items: &[&str]) -> fmt::Result {
    u.write_char('[')?;
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            u.write_char(',')?;
        }
        json::string(u, item)?;
    }
    u.write_char(']')
}

fn tunable(u: &mut Uart, t: &Tunable) -> fmt::Result {
    u.write_str("{\"name\":")?;
    json::string(u, t.name)?;
    let (kind, range, values): (&str, Option<(i64, i64)>, &[&str]) = match t.kind {
        Kind::Int { min, max } => ("int", Some((min, max)), &[]),
        Kind::Fraction => ("fraction", None, &[]),
        Kind::List { min, max } => ("list", Some((min, max)), &[]),
        Kind::Features(all) => ("features", None, all),
        Kind::Choice(all) => ("choice", None, all),
        Kind::Choices(all) => ("choices", None, all),
        Kind::Text => ("text", None, &[]),
    };
    write!(u, ",\"type\":\"{kind}\",\"default\":")?;
    match t.kind {
        Kind::Int { .. } => u.write_str(t.default)?,
        _ => json::string(u, t.default)?,
    }
    match range {
        Some((min, max)) => write!(u, ",\"min\":{min},\"max\":{max}")?,
        None => u.write_str(",\"min\":null,\"max\":null")?,
    }
    if !values.is_empty() {
        u.write_str(",\"values\":")?;
        names(u, values)?;
    }
    u.write_str(",\"unit\":")?;
    json::string(u, t.unit)?;
    u.write_str(",\"help\":")?;
    json::string(u, t.help)?;
    u.write_char('}')
}

fn tunables(u: &mut Uart, list: &[Tunable]) -> fmt::Result {
    u.write_char('[')?;
    for (i, t) in list.iter().enumerate() {
        if i > 0 {
            u.write_char(',')?;
        }
        tunable(u, t)?;
    }
    u.write_char(']')
}

/// A named thing with its own tunables (a scheduler or a workload).
fn entry(u: &mut Uart, first: bool, name: &str, help: &str, list: &[Tunable]) -> fmt::Result {
    u.write_str(if first { "{\"name\":" } else { ",{\"name\":" })?;
    json::string(u, name)?;
    u.write_str(",\"help\":")?;
    json::string(u, help)?;
    u.write_str(",\"tunables\":")?;
    tunables(u, list)?;
    u.write_char('}')
}

fn write(u: &mut Uart) -> fmt::Result {
    write!(u, "CATALOG {{\"version\":1,\"defaults\":{{\"sched\":\"{}\",\"workload\":\"{}\"}},\"globals\":", args::DEFAULT_SCHED, args::DEFAULT_WORKLOAD)?;
    tunables(u, GLOBAL)?;
    u.write_str(",\"schedulers\":[")?;
    for (i, s) in schedulers().enumerate() {
        entry(u, i == 0, s.name(), s.help(), s.tunables())?;
    }
    u.write_str("],\"workloads\":[")?;
    for (i, w) in WORKLOADS.iter().enumerate() {
        entry(u, i == 0, w.name, w.help, w.tunables)?;
    }
    u.write_str("]}\n")
}

/// Prints the catalog; `Err` names a tunable whose default does not parse (a table bug).
pub fn print() -> Result<(), &'static str> {
    args::check_defaults()?;
    console::with(|u| {
        let _ = write(u);
    });
    Ok(())
}
