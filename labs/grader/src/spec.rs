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
//!
//! A test set per student: in `args`, `{a|b|c}` stands for one of the alternatives and
//! `{lo..hi}` for an integer from lo to hi, chosen by the grade's *variant* (any text: a
//! student's id, a repository's owner), so that each student's hidden tests have parameters of
//! their own and `runqueue grade --variant V` gives the same ones again. The choice depends on
//! the variant, the test's name and the placeholder's place alone.

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

/// Parses a test file, choosing its placeholders' values for `variant`; `file` names it in
/// messages.
pub fn parse_tests(text: &str, file: &str, hidden: bool, variant: &str) -> Result<Vec<TestCase>, String> {
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
            "args" => test.args = resolve(value, &test.name, variant).map_err(|e| format!("{}: {e}", at()))?,
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

/// FNV-1a: a variant's text and a test's name, as a number.
fn fnv(bytes: &[u8], mut h: u64) -> u64 {
    for &b in bytes {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// SplitMix64's output for `x`.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// `args` with each `{...}` replaced by the value `variant` chooses for it in test `test`.
fn resolve(args: &str, test: &str, variant: &str) -> Result<String, String> {
    let seed = fnv(test.as_bytes(), fnv(variant.as_bytes(), 0xcbf2_9ce4_8422_2325) ^ 0xff);
    let mut out = String::new();
    let mut rest = args;
    let mut n = 0u64;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = rest[open..].find('}').map(|c| open + c).ok_or_else(|| format!("a `{{` with no `}}` in {args:?}"))?;
        let inner = &rest[open + 1..close];
        let draw = mix(seed ^ mix(n));
        n += 1;
        out.push_str(&choose(inner, draw)?);
        rest = &rest[close + 1..];
    }
    if rest.contains('}') {
        return Err(format!("a `}}` with no `{{` in {args:?}"));
    }
    out.push_str(rest);
    Ok(out)
}

/// The value of one placeholder's inside, `a|b|c` or `lo..hi`, for the random number `draw`.
fn choose(inner: &str, draw: u64) -> Result<String, String> {
    let bad = |why: &str| Err(format!("{{{inner}}}: {why} (write {{a|b|c}} or {{lo..hi}})"));
    if let Some((lo, hi)) = inner.split_once("..") {
        let (Ok(lo), Ok(hi)) = (lo.trim().parse::<i64>(), hi.trim().parse::<i64>()) else { return bad("not two integers") };
        if lo > hi {
            return bad("lo is above hi");
        }
        let span = (hi - lo) as u64 + 1;
        return Ok(format!("{}", lo + (draw % span) as i64));
    }
    let choices: Vec<&str> = inner.split('|').collect();
    if choices.len() < 2 || choices.iter().any(|c| c.is_empty() || c.contains(char::is_whitespace) || c.contains('{')) {
        return bad("no choices");
    }
    Ok(choices[(draw % choices.len() as u64) as usize].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_blocks_and_rejects_mistakes() {
        let text = "# c\n[a]\npoints = 3\nargs = workload=spin\nchecks = x y\n\n[b]\nargs = workload=intr\nmax_insns = 7\n";
        let t = parse_tests(text, "f", true, "").unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!((t[0].points, t[0].args.as_str(), t[0].checks.len(), t[0].hidden), (3, "workload=spin", 2, true));
        assert_eq!((t[1].points, t[1].max_insns), (1, 7));
        // Placeholders: the same variant gives the same values, others other values, and each
        // value is one the placeholder allows.
        let text = "[t]\nargs = wl.run_ms={60..100} lab.sjf.alpha={1/2|1/3|3/4} arrive_ms=0,{5..9}\n[u]\nargs = x={60..100}\n";
        let args = |variant: &str| parse_tests(text, "f", true, variant).unwrap().into_iter().map(|t| t.args).collect::<Vec<_>>();
        assert_eq!(args("octocat"), args("octocat"));
        let sets: alloc::collections::BTreeSet<Vec<String>> = (0..20).map(|i| args(&format!("student-{i}"))).collect();
        assert!(sets.len() >= 15, "{} distinct sets of 20", sets.len());
        for variant in ["", "1234567", "octocat"] {
            let a = args(variant);
            let words: Vec<&str> = a[0].split(' ').collect();
            let run: u64 = words[0].strip_prefix("wl.run_ms=").unwrap().parse().unwrap();
            assert!((60..=100).contains(&run), "{a:?}");
            assert!(["lab.sjf.alpha=1/2", "lab.sjf.alpha=1/3", "lab.sjf.alpha=3/4"].contains(&words[1]), "{a:?}");
            let late: u64 = words[2].strip_prefix("arrive_ms=0,").unwrap().parse().unwrap();
            assert!((5..=9).contains(&late), "{a:?}");
        }
        for (bad, says) in [
            ("points = 1\n", "before the first"),
            ("[a]\nargs = x\n[a]\nargs = y\n", "twice"),
            ("[a]\nargs = x\npoints = many\n", "whole number"),
            ("[a]\nargs = x\ncolour = red\n", "unknown key"),
            ("[a b]\nargs = x\n", "must be letters"),
            ("[a]\npoints = 1\n", "no `args`"),
            ("[a]\njust words\n", "expected"),
            ("[a]\nargs = x={1..\n", "no `}`"),
            ("[a]\nargs = x=1}\n", "no `{`"),
            ("[a]\nargs = x={3..1}\n", "lo is above hi"),
            ("[a]\nargs = x={b..c}\n", "not two integers"),
            ("[a]\nargs = x={only}\n", "no choices"),
            ("[a]\nargs = x={a||b}\n", "no choices"),
        ] {
            let e = parse_tests(bad, "f", false, "").unwrap_err();
            assert!(e.contains(says), "{bad:?}: {e}");
        }
    }
}
