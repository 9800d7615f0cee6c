//! A problem as the student sees it (setup, the task table, the rules, the questions) and as
//! the kernel answered it (each question's answer, its tolerance and its worked steps), and
//! the check of a student's answer against it.

use crate::message::Message;
use crate::msg;
use crate::run::{Stint, ms};
use runqueue_report::trace::{self, Event};
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use alloc::format;
#[cfg(test)]
use alloc::vec;
use serde_json::{Value, json};

/// A table: its columns' headings and its rows of cells (numbers and names, as printed).
#[derive(Clone, Debug, Default)]
pub struct Table {
    pub head: Vec<Message>,
    pub rows: Vec<Vec<Cell>>,
}

/// A cell is text as it is (a name, a number) or a sentence to word in the reader's language.
#[derive(Clone, Debug)]
pub enum Cell {
    Text(String),
    Message(Message),
}

impl Cell {
    pub fn english(&self) -> String {
        match self {
            Cell::Text(t) => t.clone(),
            Cell::Message(m) => m.english(),
        }
    }

    fn to_json(&self) -> Value {
        match self {
            Cell::Text(t) => Value::String(t.clone()),
            Cell::Message(m) => m.to_json(),
        }
    }
}

/// How far a number may be from the kernel's and still count: `abs`, or `rel` of the value,
/// whichever is more.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    pub abs: f64,
    pub rel: f64,
}

impl Tolerance {
    /// How far from `value` an answer may be: `abs`, or `rel` of the value, whichever is more.
    pub fn room(&self, value: f64) -> f64 {
        self.abs.max(self.rel * value.abs())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Ms,
    /// Plain counts, levels, harts.
    Count,
    /// A share, in percent.
    Percent,
}

impl Unit {
    fn name(self) -> &'static str {
        match self {
            Unit::Ms => "ms",
            Unit::Count => "",
            Unit::Percent => "%",
        }
    }

    fn from_name(name: &str) -> Option<Unit> {
        [Unit::Ms, Unit::Count, Unit::Percent].into_iter().find(|u| u.name() == name)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    Number { value: f64, decimals: usize, unit: Unit, tol: Tolerance },
    /// One of `choices` (task names, or hart numbers).
    Choice { value: String, choices: Vec<String> },
    /// Every name of `value`, in that order.
    Order { value: Vec<String> },
}

impl Answer {
    /// A time in ms from a count of ns, checked within `tol`.
    pub fn time(ns: u64, tol: Tolerance) -> Answer {
        Answer::Number { value: ns as f64 / 1e6, decimals: 2, unit: Unit::Ms, tol }
    }

    /// The answer as printed: `8.62`, `job1`, `job1, job0`.
    pub fn text(&self) -> String {
        match self {
            Answer::Number { value, decimals, .. } => format!("{value:.decimals$}"),
            Answer::Choice { value, .. } => value.clone(),
            Answer::Order { value } => value.join(", "),
        }
    }

    /// What the question says about how it is checked.
    pub fn tolerance(&self) -> Message {
        match self {
            Answer::Number { unit: Unit::Ms, tol, .. } if tol.rel > 0.0 => msg!("tolerance-time", abs = fmt_num(tol.abs), rel = fmt_num(tol.rel * 100.0)),
            // A share is checked in percentage points: "within 2 %" would read as a relative margin.
            Answer::Number { unit: Unit::Percent, tol, .. } if tol.abs > 0.0 => msg!("tolerance-points", amount = fmt_num(tol.abs)),
            Answer::Number { tol, unit, .. } if tol.abs > 0.0 => {
                let amount = match unit.name() {
                    "" => fmt_num(tol.abs),
                    name => format!("{} {name}", fmt_num(tol.abs)),
                };
                msg!("tolerance-number", amount = amount)
            }
            Answer::Number { .. } => msg!("tolerance-exact"),
            Answer::Choice { choices, .. } => msg!("answer-choice", choices = choices.join(", ")),
            Answer::Order { .. } => msg!("answer-order"),
        }
    }

    /// Checks what a student typed. `Err` when it cannot be read as an answer of this kind
    /// (a word where a number goes, a name that is not a task's), with why.
    pub fn check(&self, input: &str) -> Result<bool, Unreadable> {
        match self {
            Answer::Number { value, tol, .. } => {
                let x = parse_number(input).ok_or(Unreadable::NotANumber)?;
                Ok((x - value).abs() <= tol.room(*value) + 1e-9)
            }
            Answer::Choice { value, choices } => {
                let name = match_name(input.trim(), choices).ok_or(Unreadable::UnknownName)?;
                Ok(name == value)
            }
            Answer::Order { value } => {
                let names: Vec<&str> = input.split(|c: char| c == ',' || c == '>' || c == '→' || c == '，' || c == '、' || c.is_whitespace()).filter(|w| !w.is_empty()).collect();
                let mut got = Vec::new();
                for word in names {
                    got.push(match_name(word, value).ok_or(Unreadable::UnknownName)?);
                }
                if got.len() != value.len() {
                    return Err(Unreadable::WrongCount(value.len()));
                }
                Ok(got.iter().zip(value).all(|(a, b)| *a == b))
            }
        }
    }

    pub fn to_json(&self) -> Value {
        match self {
            Answer::Number { value, decimals, unit, tol } => {
                json!({"kind": "number", "value": value, "decimals": decimals, "unit": unit.name(), "abs": tol.abs, "rel": tol.rel, "text": self.text()})
            }
            Answer::Choice { value, choices } => json!({"kind": "choice", "value": value, "choices": choices, "text": self.text()}),
            Answer::Order { value } => json!({"kind": "order", "value": value, "text": self.text()}),
        }
    }

    /// The answer `to_json` wrote (its `text` is ignored: it follows from the rest), for the
    /// page's checks, which read the answer from the page.
    pub fn from_json(v: &Value) -> Result<Answer, String> {
        let field = |name: &str| v.get(name).ok_or_else(|| format!("the answer has no \"{name}\""));
        let string = |name: &str| field(name)?.as_str().map(String::from).ok_or_else(|| format!("the answer's \"{name}\" is not a string"));
        let number = |name: &str| field(name)?.as_f64().filter(|x| x.is_finite()).ok_or_else(|| format!("the answer's \"{name}\" is not a number"));
        let names = |name: &str| -> Result<Vec<String>, String> {
            let list = field(name)?.as_array().ok_or_else(|| format!("the answer's \"{name}\" is not a list"))?;
            list.iter().map(|n| n.as_str().map(String::from).ok_or_else(|| format!("the answer's \"{name}\" holds a non-string"))).collect()
        };
        match string("kind")?.as_str() {
            "number" => {
                let unit = string("unit")?;
                let unit = Unit::from_name(&unit).ok_or_else(|| format!("the answer's unit \"{unit}\" is not ms, % or none"))?;
                let decimals = field("decimals")?.as_u64().filter(|d| *d <= 9).ok_or("the answer's \"decimals\" is not a count from 0 to 9")? as usize;
                let tol = Tolerance { abs: number("abs")?, rel: number("rel")? };
                Ok(Answer::Number { value: number("value")?, decimals, unit, tol })
            }
            "choice" => Ok(Answer::Choice { value: string("value")?, choices: names("choices")? }),
            "order" => Ok(Answer::Order { value: names("value")? }),
            other => Err(format!("the answer's kind \"{other}\" is not number, choice or order")),
        }
    }
}

/// Why an answer could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unreadable {
    NotANumber,
    UnknownName,
    /// An order with another number of names than this.
    WrongCount(usize),
}

impl Unreadable {
    pub fn key(self) -> &'static str {
        match self {
            Unreadable::NotANumber => "not-a-number",
            Unreadable::UnknownName => "unknown-name",
            Unreadable::WrongCount(_) => "wrong-count",
        }
    }
}

/// A number as a student types it: `8.62`, `8,62`, `8.62 ms`, `≈ 8.6`, `37 %`.
pub fn parse_number(input: &str) -> Option<f64> {
    let t = input.trim().trim_start_matches(['≈', '~']).trim();
    let t = t.trim_end_matches(|c: char| c.is_alphabetic() || c == '%' || c == 'µ' || c.is_whitespace() || c == '毫' || c == '秒');
    let t = t.replace(',', ".");
    if t.is_empty() || t.matches('.').count() > 1 {
        return None;
    }
    t.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// The name among `names` that `word` means: the name itself (any case), or its number when
/// the names are `<word><number>` and only one ends so (`2` for `job2`).
fn match_name<'a>(word: &str, names: &'a [String]) -> Option<&'a String> {
    if let Some(n) = names.iter().find(|n| n.eq_ignore_ascii_case(word)) {
        return Some(n);
    }
    let mut ending = names.iter().filter(|n| !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()) && n.strip_suffix(word).is_some_and(|head| head.bytes().last().is_some_and(|b| !b.is_ascii_digit())));
    match (ending.next(), ending.next()) {
        (Some(n), None) => Some(n),
        _ => None,
    }
}

/// `1.5` -> "1.5", `2.0` -> "2".
pub fn fmt_num(v: f64) -> String {
    fmt_places(v, 2)
}

/// `v` to `places` decimals, without trailing zeros.
pub fn fmt_places(v: f64, places: usize) -> String {
    let s = format!("{v:.places$}");
    let s = if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.') } else { &s };
    s.to_string()
}

#[derive(Clone, Debug)]
pub struct Question {
    /// What kind of question it is, the same in every variant of a chapter and level
    /// (`order`, `turnaround`, ...): an LMS's question group.
    pub slot: &'static str,
    pub prompt: Message,
    pub answer: Answer,
    /// The worked answer, from the kernel's run.
    pub steps: Vec<Message>,
}

#[derive(Clone, Debug)]
pub struct Problem {
    pub chapter: &'static str,
    pub level: crate::Level,
    pub seed: u64,
    /// How many draws were refused before this one (their runs were ambiguous).
    pub attempt: u32,
    /// The kernel's command line and harts, and how much later than the table's its arrivals
    /// are (the kernel's scheduler starts that long after its workload's clock).
    pub args: String,
    pub lead_us: u64,
    pub harts: u32,
    pub setup: Vec<Message>,
    pub table: Table,
    pub rules: Vec<Message>,
    pub questions: Vec<Question>,
    /// The kernel's schedule, stint by stint (ns since the workload's start).
    pub schedule: Vec<(Stint, String)>,
    /// The run's trace on the same clock, for the worked solution's task lanes.
    pub events: Vec<Event>,
}

impl Problem {
    /// The schedule as sentences, for the worked answers.
    pub fn schedule_text(&self) -> Vec<Message> {
        self.schedule.iter().map(|(s, name)| msg!("stint", from = ms(s.from), to = ms(s.to), task = name, hart = s.hart, why = why(&s.why).english())).collect()
    }

    /// The kernel's command line, and how its arrivals (if it names any) differ from the
    /// table's.
    pub fn command_line(&self) -> Message {
        let (args, lead) = (format!("`{}`", self.args), ms(self.lead_us * 1000));
        if self.args.contains(crate::chapters::ARRIVALS) { msg!("command-line", args = args, lead = lead) } else { msg!("command-line-start", args = args, lead = lead) }
    }

    pub fn to_json(&self) -> Value {
        let msgs = |list: &[Message]| Value::Array(list.iter().map(Message::to_json).collect());
        let questions: Vec<Value> = self
            .questions
            .iter()
            .enumerate()
            .map(|(i, q)| {
                json!({"id": format!("q{}", i + 1), "slot": q.slot, "prompt": q.prompt.to_json(), "tolerance": q.answer.tolerance().to_json(),
                       "answer": q.answer.to_json(), "steps": msgs(&q.steps)})
            })
            .collect();
        let schedule: Vec<Value> = self.schedule.iter().map(|(s, name)| json!({"hart": s.hart, "tid": s.tid, "task": name, "from": s.from, "to": s.to, "why": s.why})).collect();
        json!({
            "chapter": self.chapter, "level": self.level.name(), "seed": self.seed, "attempt": self.attempt,
            "args": self.args, "leadUs": self.lead_us, "harts": self.harts,
            "setup": msgs(&self.setup),
            "table": {"head": msgs(&self.table.head), "rows": self.table.rows.iter().map(|r| r.iter().map(Cell::to_json).collect::<Vec<_>>()).collect::<Vec<_>>()},
            "rules": msgs(&self.rules),
            "questions": questions,
            "schedule": schedule,
            "scheduleText": msgs(&self.schedule_text()),
            "events": trace::page_json(&self.events),
            "commandLine": self.command_line().to_json(),
        })
    }
}

/// Why a stint ended, worded.
pub fn why(why: &str) -> Message {
    match why {
        "preempt" => msg!("why-preempt"),
        "yield" => msg!("why-yield"),
        "sleep" => msg!("why-sleep"),
        "block" => msg!("why-block"),
        _ => msg!("why-exit"),
    }
}

/// A list of questions' worth of cells: convenience for chapters' tables.
pub fn text_row(cells: &[&dyn core::fmt::Display]) -> Vec<Cell> {
    cells.iter().map(|c| Cell::Text(c.to_string())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_as_students_type_them() {
        let t = Answer::time(8_620_000, Tolerance { abs: 0.5, rel: 0.03 });
        for ok in ["8.62", "8,6", "8.3 ms", "≈ 8.9", "8.6毫秒"] {
            assert_eq!(t.check(ok), Ok(true), "{ok}");
        }
        assert_eq!(t.check("9.2"), Ok(false));
        assert_eq!(t.check("eight"), Err(Unreadable::NotANumber));
        assert_eq!(t.check("8.6.2"), Err(Unreadable::NotANumber));
        let names = vec!["job0".to_string(), "job1".into(), "job2".into()];
        let order = Answer::Order { value: vec!["job2".into(), "job0".into(), "job1".into()] };
        assert_eq!(order.check("job2, job0, job1"), Ok(true));
        assert_eq!(order.check("2 0 1"), Ok(true));
        assert_eq!(order.check("JOB2 > job0 > job1"), Ok(true));
        assert_eq!(order.check("job2，job0，job1"), Ok(true));
        assert_eq!(order.check("job0, job2, job1"), Ok(false));
        assert_eq!(order.check("job0, job2"), Err(Unreadable::WrongCount(3)));
        assert_eq!(order.check("job0, job9, job1"), Err(Unreadable::UnknownName));
        let choice = Answer::Choice { value: "job1".into(), choices: names };
        assert_eq!(choice.check(" job1 "), Ok(true));
        assert_eq!(choice.check("1"), Ok(true));
        assert_eq!(choice.check("job0"), Ok(false));
        assert_eq!(choice.check("nobody"), Err(Unreadable::UnknownName));
        let hart = Answer::Choice { value: "1".into(), choices: vec!["0".into(), "1".into()] };
        assert_eq!(hart.check("1"), Ok(true));
        assert_eq!(fmt_num(0.5), "0.5");
        assert_eq!(fmt_num(3.0), "3");
    }

    #[test]
    fn answers_come_back_from_their_json() {
        let answers = [
            Answer::time(8_620_000, Tolerance { abs: 0.5, rel: 0.03 }),
            Answer::Number { value: 2.0, decimals: 0, unit: Unit::Count, tol: Tolerance { abs: 0.0, rel: 0.0 } },
            Answer::Number { value: 32.7, decimals: 1, unit: Unit::Percent, tol: Tolerance { abs: 2.0, rel: 0.0 } },
            Answer::Choice { value: "job1".into(), choices: vec!["job0".into(), "job1".into()] },
            Answer::Order { value: vec!["job2".into(), "job0".into(), "job1".into()] },
        ];
        for a in answers {
            let json = a.to_json();
            assert_eq!(Answer::from_json(&json), Ok(a.clone()), "{json}");
            // Through text, as the page hands it over.
            let again: Value = serde_json::from_str(&json.to_string()).unwrap();
            assert_eq!(Answer::from_json(&again), Ok(a));
        }
        for (bad, why) in [
            (json!({"kind": "guess"}), "kind \"guess\""),
            (json!({"kind": "order", "value": "job1"}), "\"value\" is not a list"),
            (json!({"kind": "choice", "value": "job1", "choices": [1]}), "non-string"),
            (json!({"kind": "number", "value": 1, "decimals": 2, "unit": "s", "abs": 0, "rel": 0}), "unit \"s\""),
            (json!({"kind": "number", "value": 1, "decimals": 2, "unit": "ms", "rel": 0}), "no \"abs\""),
            (json!([]), "no \"kind\""),
        ] {
            let err = Answer::from_json(&bad).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }
}
