//! One word's value, parsed against the tunable that names it.

use crate::tunable::{IntList, Kind, MAX_LIST, Tunable};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Value<'a> {
    Int(i64),
    Fraction(u64, u64),
    List(IntList),
    /// Bit i set = feature i of the tunable's list is on.
    Features(u32),
    Choice(usize),
    Text(&'a str),
}

pub(crate) fn parse_int(text: &str) -> Option<i64> {
    let (neg, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    if digits.is_empty() || digits.len() > 18 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let v = digits.bytes().fold(0i64, |acc, b| acc * 10 + (b - b'0') as i64);
    Some(if neg { -v } else { v })
}

/// Parses `text` as a value of `t`; `None` when it is not one.
pub fn parse_value<'a>(t: &Tunable, text: &'a str) -> Option<Value<'a>> {
    match t.kind {
        Kind::Int { min, max } => parse_int(text).filter(|v| (min..=max).contains(v)).map(Value::Int),
        Kind::Fraction => {
            let (p, q) = text.split_once('/').unwrap_or((text, "1"));
            let (p, q) = (parse_int(p)?, parse_int(q)?);
            (p >= 0 && q > 0 && p <= q && q <= 1 << 20).then_some(Value::Fraction(p as u64, q as u64))
        }
        Kind::List { min, max } => parse_list(text, |item| parse_int(item).filter(|v| (min..=max).contains(v))),
        Kind::Choices(all) => parse_list(text, |item| all.iter().position(|c| *c == item).map(|i| i as i64)),
        Kind::Features(all) => apply_features(all, apply_features(all, 0, t.default)?, text).map(Value::Features),
        Kind::Choice(all) => all.iter().position(|c| *c == text).map(Value::Choice),
        // Checked by whoever reads it (the kernel's `sched::cgroup`), which names what is wrong.
        Kind::Text => Some(Value::Text(text)),
    }
}

/// A comma-separated list of at most `MAX_LIST` items, each read by `item`.
fn parse_list<'a>(text: &str, item: impl Fn(&str) -> Option<i64>) -> Option<Value<'a>> {
    let mut list = IntList { items: [0; MAX_LIST], len: 0 };
    for text in text.split(',') {
        *list.items.get_mut(list.len)? = item(text)?;
        list.len += 1;
    }
    Some(Value::List(list))
}

/// `base` with each comma-separated `NAME` (on) or `NO_NAME` (off) in `text` applied.
fn apply_features(all: &[&str], base: u32, text: &str) -> Option<u32> {
    let mut on = base;
    for item in text.split(',').filter(|i| !i.is_empty()) {
        let (enable, name) = match item.strip_prefix("NO_") {
            Some(name) => (false, name),
            None => (true, item),
        };
        let bit = 1u32 << all.iter().position(|f| *f == name)?;
        on = if enable { on | bit } else { on & !bit };
    }
    Some(on)
}
