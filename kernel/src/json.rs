//! The two JSON lines the kernel prints (`RESULT`, `CATALOG`) need only string escaping.

use core::fmt::{self, Write};

/// Writes `s` as a JSON string literal.
pub fn string(w: &mut impl Write, s: &str) -> fmt::Result {
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
