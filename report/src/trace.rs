//! Trace lines (`docs/trace.md`): `T <time_ns> <hart> <kind> <tid> [key=value ...]`.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    New,
    In,
    Out,
    Wake,
    Exit,
    State,
    Mark,
    Migrate,
    /// The host ran something else: the hart executed nothing for `ns=` before this moment.
    Steal,
    /// A mutex taken, waited for, released or handed over (`op=`).
    Lock,
    /// A mutex owner's priority raised to (or lowered to another) inherited level, or given
    /// back (`unboost`).
    Boost,
    Unboost,
    /// A cgroup's run queue out of `cpu.max` runtime (`cg=`, `rq=`), until its `unthrottle`.
    Throttle,
    Unthrottle,
}

impl Kind {
    fn parse(word: &str) -> Option<Kind> {
        Some(match word {
            "new" => Kind::New,
            "in" => Kind::In,
            "out" => Kind::Out,
            "wake" => Kind::Wake,
            "exit" => Kind::Exit,
            "state" => Kind::State,
            "mark" => Kind::Mark,
            "migrate" => Kind::Migrate,
            "lock" => Kind::Lock,
            "boost" => Kind::Boost,
            "unboost" => Kind::Unboost,
            "steal" => Kind::Steal,
            "throttle" => Kind::Throttle,
            "unthrottle" => Kind::Unthrottle,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::New => "new",
            Kind::In => "in",
            Kind::Out => "out",
            Kind::Wake => "wake",
            Kind::Exit => "exit",
            Kind::State => "state",
            Kind::Mark => "mark",
            Kind::Migrate => "migrate",
            Kind::Lock => "lock",
            Kind::Boost => "boost",
            Kind::Unboost => "unboost",
            Kind::Steal => "steal",
            Kind::Throttle => "throttle",
            Kind::Unthrottle => "unthrottle",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub time_ns: u64,
    pub hart: u32,
    pub kind: Kind,
    pub tid: u32,
    pub fields: Vec<(String, String)>,
}

impl Event {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// A numeric field; `None` when absent or not a (possibly negative) integer.
    pub fn num(&self, key: &str) -> Option<i64> {
        self.get(key)?.parse().ok()
    }
}

/// `events` as the page's JSON array, which its charts, lanes and exercises read:
/// `[{"t":time_ns,"h":hart,"k":"in","id":tid,"f":{"why":"exit","ran":1000}}, ...]`. Integer
/// field values become numbers, as in the Chrome trace export.
pub fn page_json(events: &[Event]) -> serde_json::Value {
    use serde_json::{Map, Value, json};
    let out = events.iter().map(|e| {
        let fields: Map<String, Value> = e.fields.iter().map(|(k, v)| (k.clone(), v.parse::<i64>().map(Value::from).unwrap_or_else(|_| Value::from(v.as_str())))).collect();
        json!({"t": e.time_ns, "h": e.hart, "k": e.kind.as_str(), "id": e.tid, "f": fields})
    });
    Value::Array(out.collect())
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub text: String,
    pub why: &'static str,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "trace line {}: {}: {:?}", self.line, self.why, self.text)
    }
}

/// Parses one line (without its newline). `line` is 1-based, for messages.
pub fn parse_line(text: &str, line: usize) -> Result<Event, ParseError> {
    let fail = |why| ParseError { line, text: text.to_string(), why };
    let mut words = text.split(' ');
    if words.next() != Some("T") {
        return Err(fail("does not start with 'T '"));
    }
    let mut next_num = |why| words.next().and_then(|w| w.parse::<u64>().ok()).ok_or_else(|| fail(why));
    let time_ns = next_num("bad time")?;
    let hart = u32::try_from(next_num("bad hart")?).map_err(|_| fail("bad hart"))?;
    let kind = words.next().and_then(Kind::parse).ok_or_else(|| fail("unknown event kind"))?;
    let tid = words
        .next()
        .and_then(|w| w.parse::<u32>().ok())
        .ok_or_else(|| fail("bad task id"))?;
    let mut fields = Vec::new();
    for word in words.filter(|w| !w.is_empty()) {
        let (k, v) = word.split_once('=').ok_or_else(|| fail("field is not key=value"))?;
        fields.push((k.to_string(), v.to_string()));
    }
    Ok(Event { time_ns, hart, kind, tid, fields })
}

/// Parses a whole trace stream. Blank lines are skipped; any other bad line is an error.
pub fn parse(text: &str) -> Result<Vec<Event>, ParseError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| parse_line(l.trim_end_matches('\r'), i + 1))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_fields_and_rejects_garbage() {
        let e = parse_line("T 1500 1 out 3 why=preempt ran=1000", 1).unwrap();
        assert_eq!((e.time_ns, e.hart, e.kind, e.tid), (1500, 1, Kind::Out, 3));
        assert_eq!(e.get("why"), Some("preempt"));
        assert_eq!(e.num("ran"), Some(1000));
        assert_eq!(e.num("why"), None);
        for bad in ["X 1 0 in 1", "T x 0 in 1", "T 1 0 jump 1", "T 1 0 in", "T 1 0 in 1 novalue"] {
            assert!(parse_line(bad, 7).is_err(), "{bad} should not parse");
        }
        assert_eq!(parse("T 1 0 in 1\n\nT 2 0 out 1 why=exit\n").unwrap().len(), 2);
        // Every kind the kernel emits parses and prints back as itself.
        for kind in ["new", "in", "out", "wake", "exit", "state", "mark", "migrate", "lock", "boost", "unboost", "throttle", "unthrottle"] {
            let e = parse_line(&alloc::format!("T 1 0 {kind} 2 k=v"), 1).unwrap();
            assert_eq!(e.kind.as_str(), kind);
        }
        assert_eq!(parse("T 1 0 in 1\nbad\n").unwrap_err().line, 2);
    }
}
