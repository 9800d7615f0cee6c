//! Separating what a reader should see from what tools parse in the kernel's console output.
//! On QEMU the trace lines arrive on the UART prefixed by `@` (`docs/platform.md`).

use alloc::string::String;

#[derive(Default, Debug, PartialEq, Eq)]
pub struct Split {
    /// What a person reads: everything but the `@` trace lines.
    pub console: String,
    /// The trace lines, without their `@`.
    pub trace: String,
}

pub fn split(output: &str) -> Split {
    let mut s = Split::default();
    for line in output.split_inclusive('\n') {
        match line.strip_prefix("@T ") {
            Some(rest) => {
                s.trace.push_str("T ");
                s.trace.push_str(rest);
            }
            None => s.console.push_str(line),
        }
    }
    s
}

/// The JSON text after the last `RESULT ` at the start of a line.
pub fn result_json(console: &str) -> Option<&str> {
    console.lines().rev().find_map(|l| l.trim_end_matches('\r').strip_prefix("RESULT "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_trace_from_console() {
        let s = split("boot\n@T 1 0 in 1\nRESULT {}\n@T 2 0 out 1 why=exit\n");
        assert_eq!(s.console, "boot\nRESULT {}\n");
        assert_eq!(s.trace, "T 1 0 in 1\nT 2 0 out 1 why=exit\n");
        assert_eq!(result_json(&s.console), Some("{}"));
        assert_eq!(result_json("no result here\n"), None);
    }
}
