//! Tunables as the kernel's `CATALOG` line describes them (`docs/kernel.md`): JSON written
//! through `core::fmt`, which is all a `no_std` kernel has.

use crate::tunable::{Kind, Tunable};
use core::fmt::{self, Write};

/// Writes `s` as a JSON string literal.
pub fn write_string(w: &mut impl Write, s: &str) -> fmt::Result {
    w.write_char('"')?;
    for c in s.chars() {
        match c {
            '"' => w.write_str("\\\"")?,
            '\\' => w.write_str("\\\\")?,
            c if (c as u32) < 0x20 => write!(w, "\\u{:04x}", c as u32)?,
            c => w.write_char(c)?,
        }
    }
    w.write_char('"')
}

/// A JSON array of `items`, each written by `each`.
pub fn write_array<W: Write, T>(w: &mut W, items: impl IntoIterator<Item = T>, each: impl Fn(&mut W, T) -> fmt::Result) -> fmt::Result {
    w.write_char('[')?;
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            w.write_char(',')?;
        }
        each(w, item)?;
    }
    w.write_char(']')
}

/// `["a","b"]`
pub fn write_strings(w: &mut impl Write, items: &[&str]) -> fmt::Result {
    write_array(w, items, |w, item| write_string(w, item))
}

/// `{name,type,default,min,max,[values],unit,help}`; `default` is a number for an `int`.
fn write_tunable(w: &mut impl Write, t: &Tunable) -> fmt::Result {
    w.write_str("{\"name\":")?;
    write_string(w, t.name)?;
    write!(w, ",\"type\":\"{}\",\"default\":", t.kind.name())?;
    match t.kind {
        Kind::Int { .. } => w.write_str(t.default)?,
        _ => write_string(w, t.default)?,
    }
    match t.kind.range() {
        Some((min, max)) => write!(w, ",\"min\":{min},\"max\":{max}")?,
        None => w.write_str(",\"min\":null,\"max\":null")?,
    }
    if !t.kind.names().is_empty() {
        w.write_str(",\"values\":")?;
        write_strings(w, t.kind.names())?;
    }
    w.write_str(",\"unit\":")?;
    write_string(w, t.unit)?;
    w.write_str(",\"help\":")?;
    write_string(w, t.help)?;
    w.write_char('}')
}

/// A JSON array of `tunables`.
pub fn write_tunables<'t>(w: &mut impl Write, tunables: impl IntoIterator<Item = &'t Tunable>) -> fmt::Result {
    write_array(w, tunables, |w, t| write_tunable(w, t))
}
