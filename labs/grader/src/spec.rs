//! Test files (`labs/<lab>/tests/*.tests`, an instructor's hidden `--tests DIR`): one block
//! per test, an INI-like text so instructors write them by hand and the wasm page parses
//! them without a TOML library:
//!
//! ```text
//! # comment
//! [sjf-order]
//! points = 2
//! args = workload=fairness-unequal wl.run_ms=100 lab.sjf.alpha=1/2
//! checks = sjf.order sjf.pred
//! max_insns = 200000000
//! ```

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// Instructions a test may run when its file does not say: 1 s of emulated time.
pub const DEFAULT_MAX_INSNS: u64 = 100_000_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestCase {
    pub name: String,
    pub points: u32,
    /// The kernel command line after `sched=lab-<lab>`.
    pub args: String,
    /// The lab's checks this test scores (`Lab::checks`); the run itself is always checked.
    pub checks: Vec<String>,
    pub max_insns: u64,
    /// From the instructor's hidden directory: counts, but shows only its name (or nothing).
    pub hidden: bool,
}

/// Parses a test file; `file` names it in messages.
pub fn parse_tests(text: &str, file: &str, hidden: bool) -> Result<Vec<TestCase>, String> {
    let mut tests: Vec<TestCase> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let at = || format!("{file}:{}", i + 1);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
            if !ok {
                return Err(format!("{}: test name {name:?} must be letters, digits, '-', '_' or '.'", at()));
            }
            if tests.iter().any(|t| t.name == name) {
                return Err(format!("{}: test [{name}] is defined twice", at()));
            }
            tests.push(TestCase { name: name.to_string(), points: 1, args: String::new(), checks: Vec::new(), max_insns: DEFAULT_MAX_INSNS, hidden });
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            return Err(format!("{}: expected `[name]` or `key = value`, got {line:?}", at()));
        };
        let Some(test) = tests.last_mut() else {
            return Err(format!("{}: `{}` before the first [test name]", at(), key.trim()));
        };
        let value = value.trim();
        let number = |what| value.parse::<u64>().map_err(|_| format!("{}: {what} must be a whole number, got {value:?}", at()));
        match key.trim() {
            "points" => test.points = u32::try_from(number("points")?).map_err(|_| format!("{}: too many points", at()))?,
            "args" => test.args = value.to_string(),
            "checks" => test.checks = value.split_ascii_whitespace().map(str::to_string).collect(),
            "max_insns" => test.max_insns = number("max_insns")?,
            other => return Err(format!("{}: unknown key {other:?} (points, args, checks, max_insns)", at())),
        }
    }
    if let Some(t) = tests.iter().find(|t| t.args.is_empty()) {
        return Err(format!("{file}: test [{}] has no `args`", t.name));
    }
    Ok(tests)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_blocks_and_rejects_mistakes() {
        let text = "# c\n[a]\npoints = 3\nargs = workload=spin\nchecks = x y\n\n[b]\nargs = workload=intr\nmax_insns = 7\n";
        let t = parse_tests(text, "f", true).unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!((t[0].points, t[0].args.as_str(), t[0].checks.len(), t[0].hidden), (3, "workload=spin", 2, true));
        assert_eq!((t[1].points, t[1].max_insns), (1, 7));
        for (bad, says) in [
            ("points = 1\n", "before the first"),
            ("[a]\nargs = x\n[a]\nargs = y\n", "twice"),
            ("[a]\nargs = x\npoints = many\n", "whole number"),
            ("[a]\nargs = x\ncolour = red\n", "unknown key"),
            ("[a b]\nargs = x\n", "must be letters"),
            ("[a]\npoints = 1\n", "no `args`"),
            ("[a]\njust words\n", "expected"),
        ] {
            let e = parse_tests(bad, "f", false).unwrap_err();
            assert!(e.contains(says), "{bad:?}: {e}");
        }
    }
}
