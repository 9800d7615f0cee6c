//! Reading a lab's parameters from a test's kernel command line, with the lab's defaults.

use alloc::format;
use alloc::string::String;

/// The value of `key=` on the command line, if given.
pub fn find<'a>(args: &'a str, key: &str) -> Option<&'a str> {
    args.split_ascii_whitespace().find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
}

pub fn int(args: &str, key: &str, default: u64) -> Result<u64, String> {
    match find(args, key) {
        None => Ok(default),
        Some(v) => v.parse().map_err(|_| format!("{key}={v} is not a non-negative integer")),
    }
}

/// A fraction `p/q` (or a whole number) with 0 <= p <= q, q > 0.
pub fn fraction(args: &str, key: &str, default: (u64, u64)) -> Result<(u64, u64), String> {
    let Some(v) = find(args, key) else { return Ok(default) };
    let (p, q) = v.split_once('/').unwrap_or((v, "1"));
    match (p.parse::<u64>(), q.parse::<u64>()) {
        (Ok(p), Ok(q)) if q > 0 && p <= q => Ok((p, q)),
        _ => Err(format!("{key}={v} is not a fraction p/q between 0 and 1")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_values_and_defaults() {
        let a = "sched=lab-sjf lab.sjf.alpha=1/4 lab.sjf.tau0_ns=7";
        assert_eq!(fraction(a, "lab.sjf.alpha", (1, 2)), Ok((1, 4)));
        assert_eq!(int(a, "lab.sjf.tau0_ns", 5), Ok(7));
        assert_eq!(int(a, "lab.sjf.preempt", 0), Ok(0));
        assert!(fraction("lab.sjf.alpha=3/2", "lab.sjf.alpha", (1, 2)).is_err());
        assert!(int("x=-1", "x", 0).is_err());
        // A key that is a prefix of another is not confused with it.
        assert_eq!(find("lab.sjf.alpha2=1", "lab.sjf.alpha"), None);
    }
}
