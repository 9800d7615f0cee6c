//! The labs, and grading one test of a lab from the run's outcome.

use crate::message::{self, Message};
use crate::spec::TestCase;
use crate::{bvt, mlfq, sjf, stall};
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use runqueue_report::props::{self, Violation};
use runqueue_report::{console, trace};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lab {
    Sjf,
    Mlfq,
    Bvt,
}

impl Lab {
    pub const ALL: [Lab; 3] = [Lab::Sjf, Lab::Mlfq, Lab::Bvt];

    pub fn parse(name: &str) -> Result<Lab, String> {
        Lab::ALL.into_iter().find(|l| l.name() == name).ok_or_else(|| {
            let names: Vec<&str> = Lab::ALL.iter().map(|l| l.name()).collect();
            format!("unknown lab {name:?}; the labs are: {}", names.join(", "))
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Lab::Sjf => "sjf",
            Lab::Mlfq => "mlfq",
            Lab::Bvt => "bvt",
        }
    }

    /// The scheduler the lab's slot registers in the kernel.
    pub fn sched(self) -> &'static str {
        match self {
            Lab::Sjf => "lab-sjf",
            Lab::Mlfq => "lab-mlfq",
            Lab::Bvt => "lab-bvt",
        }
    }

    /// The checks a test of this lab may name, each with what it verifies.
    pub fn checks(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Lab::Sjf => sjf::CHECKS,
            Lab::Mlfq => mlfq::CHECKS,
            Lab::Bvt => bvt::CHECKS,
        }
    }

    fn model(self, args: &str, events: &[trace::Event]) -> Result<Findings, String> {
        match self {
            Lab::Sjf => sjf::check(args, events),
            Lab::Mlfq => mlfq::check(args, events),
            Lab::Bvt => bvt::check(args, events),
        }
    }
}

/// What each check of a lab found over one run: how many decisions it checked, and the
/// first that broke its rule.
#[derive(Default, Debug)]
pub struct Findings(pub BTreeMap<&'static str, (u32, Option<Violation>)>);

impl Findings {
    pub fn checked(&mut self, check: &'static str) {
        self.0.entry(check).or_default().0 += 1;
    }

    /// Records a violation of `check`; only the earliest one is kept (a check that judges a
    /// stint when it ends may find a violation dated before one it found already).
    pub fn broke(&mut self, check: &'static str, time_ns: u64, rule: &'static str, detail: String) {
        let entry = self.0.entry(check).or_default();
        entry.0 += 1;
        if entry.1.as_ref().is_none_or(|v| time_ns < v.time_ns) {
            entry.1 = Some(Violation { time_ns, rule, detail });
        }
    }
}

/// How a test's run ended, as the caller (CLI or page) saw it.
pub enum Outcome<'a> {
    /// The solution was refused before it was built (it reaches past the lab API): why.
    Refused(&'a str),
    /// The solution did not compile: the compiler's first error.
    NotBuilt(&'a str),
    /// The machine stopped before the kernel shut down (an emulator fault).
    Aborted(&'a str),
    /// The test's instruction budget ran out at emulated time `end_ns`; the trace until then.
    OutOfBudget { trace: &'a str, end_ns: u64 },
    Finished { exit_code: i32, console: &'a str, trace: &'a str },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestResult {
    pub name: String,
    pub score: u32,
    pub max_score: u32,
    pub hidden: bool,
    /// What the student reads: the verdict, expected against actual, the first violation
    /// (`messages` in English, cut to `MAX_OUTPUT`).
    pub output: String,
    /// The same, as messages the page words in its reader's language.
    pub messages: Vec<Message>,
    /// The time of the first violation, when the schedule broke a rule.
    pub violation_ns: Option<u64>,
}

impl TestResult {
    pub fn passed(&self) -> bool {
        self.score == self.max_score
    }
}

/// Grades one test: the run must finish cleanly with a well-formed trace in which no task is
/// lost, and every check the test names must hold throughout.
pub fn grade_test(lab: Lab, test: &TestCase, outcome: &Outcome) -> TestResult {
    let verdict = judge(lab, test, outcome);
    let (score, messages, violation_ns) = match verdict {
        Ok(summary) => (test.points, summary, None),
        Err((why, at)) => (0, alloc::vec![why], at),
    };
    let mut output = message::english(&messages);
    if output.len() > MAX_OUTPUT {
        // A long panic message, say: the start says what went wrong, and results.json stays small.
        let cut = (0..=MAX_OUTPUT).rev().find(|&i| output.is_char_boundary(i)).unwrap_or(0);
        output.truncate(cut);
        output.push_str("\n[the rest of this output, past 8 KiB, is not shown]");
    }
    TestResult { name: test.name.clone(), score, max_score: test.points, hidden: test.hidden, output, messages, violation_ns }
}

/// How the kernel reports a lab policy's access outside its protection domain
/// (`kernel/src/domain.rs`).
const PROTECTION_FAULT: &str = "kernel panic: protection fault:";

/// A policy that reached outside its protection domain in any test did what only an exploit of
/// the compiler's soundness holes can do: every test of the grade scores zero, the others
/// saying where it happened. Both graders (the CLI's, the page's) apply it to the whole grade.
pub fn zero_on_protection_fault(results: &mut [TestResult]) {
    let Some(at) = results.iter().find(|r| r.messages.iter().any(|m| m.key == "protection-fault")).map(|r| r.name.clone()) else {
        return;
    };
    for r in results.iter_mut().filter(|r| r.name != at) {
        r.score = 0;
        r.messages = alloc::vec![Message::new("graded-zero", &[("test", &at)])];
        r.output = message::english(&r.messages);
        r.violation_ns = None;
    }
}

/// The longest output a test shows (its message may quote the kernel's console).
pub const MAX_OUTPUT: usize = 8 * 1024;

type Verdict = Result<Vec<Message>, (Message, Option<u64>)>;

fn judge(lab: Lab, test: &TestCase, outcome: &Outcome) -> Verdict {
    let fail = |key, parts: &[(&'static str, &dyn ToString)]| Err((Message::new(key, parts), None));
    if let Some(unknown) = test.checks.iter().find(|c| !lab.checks().iter().any(|(n, _)| n == c)) {
        return fail("unknown-check", &[("check", &format!("{unknown:?}"))]);
    }
    let (console_text, trace_text) = match outcome {
        Outcome::Refused(why) => return fail("refused", &[("why", why)]),
        Outcome::NotBuilt(error) => return fail("not-built", &[("error", error)]),
        Outcome::Aborted(why) => return fail("not-finished", &[("why", why)]),
        Outcome::OutOfBudget { trace, end_ns } => {
            return fail("not-finished", &[("why", &stall::diagnose(trace, test.max_insns, *end_ns))]);
        }
        Outcome::Finished { exit_code, console, trace } => {
            let lines: Vec<&str> = console.lines().collect();
            if let Some(at) = lines.iter().position(|l| l.starts_with("kernel panic:") || l.starts_with("kernel bug:")) {
                // A panic's message follows its location on the next line.
                let message = lines[at..].iter().take(2).map(|l| l.trim()).collect::<Vec<_>>().join(" ");
                let key = if lines[at].starts_with(PROTECTION_FAULT) { "protection-fault" } else { "panicked" };
                return fail(key, &[("message", &message)]);
            }
            if *exit_code != 0 {
                let last = console.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("(no output)");
                return fail("exit-code", &[("code", exit_code), ("last", &last)]);
            }
            (*console, *trace)
        }
    };
    if console::result_json(console_text).is_none() {
        return fail("no-result", &[]);
    }
    let events = match trace::parse(trace_text) {
        Ok(events) => events,
        Err(e) => return fail("garbled", &[("error", &e)]),
    };
    if let Err(v) = props::consistent(&events) {
        return Err((Message::new("inconsistent", &[("violation", &v)]), Some(v.time_ns)));
    }
    let findings = lab.model(&test.args, &events).map_err(|e| (Message::new("bad-parameters", &[("error", &e)]), None))?;
    // The earliest violation of the test's checks is the first thing that went wrong (later
    // ones often follow from it); at the same time, the check the test names first.
    let first = test
        .checks
        .iter()
        .enumerate()
        .filter_map(|(i, c)| findings.0.get(c.as_str()).and_then(|(_, v)| v.clone()).map(|v| (v.time_ns, i, c, v)))
        .min_by_key(|&(t, i, _, _)| (t, i));
    if let Some((_, _, check, v)) = first {
        let what = lab.checks().iter().find(|(n, _)| n == check).map_or("", |(_, w)| w);
        return Err((Message::new("check-failed", &[("check", check), ("what", &what), ("violation", &v)]), Some(v.time_ns)));
    }
    let mut lines = Vec::new();
    for check in &test.checks {
        let (count, _) = findings.0.get(check.as_str()).cloned().unwrap_or((0, None));
        if count == 0 {
            return fail("nothing-checked", &[("check", check)]);
        }
        lines.push(Message::new("checked", &[("check", check), ("count", &count)]));
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Task 2 goes first although task 1 has the lower tid (a tie, at 10 ns); after its 1 ms
    /// burst task 1 is picked although task 2 now predicts less (at 1 ms).
    const TRACE: &str = "T 0 0 new 1 pred=4000000
T 0 0 new 2 pred=4000000
T 10 0 in 2 pred=4000000
T 1000010 0 out 2 why=yield ran=1000000
T 1000010 0 state 2 pred=2500000
T 1000020 0 in 1 pred=4000000
T 2000020 0 out 1 why=exit ran=1000000
T 2000020 0 exit 1
T 2000030 0 in 2 pred=2500000
T 3000030 0 out 2 why=exit ran=1000000
T 3000030 0 exit 2";

    fn grade(checks: &str) -> TestResult {
        let test = TestCase {
            name: "t".to_string(),
            points: 1,
            args: "lab.sjf.tau0_ns=4000000".to_string(),
            checks: checks.split(' ').map(str::to_string).collect(),
            max_insns: 1,
            hidden: false,
        };
        grade_test(Lab::Sjf, &test, &Outcome::Finished { exit_code: 0, console: "RESULT {}\n", trace: TRACE })
    }

    #[test]
    fn the_earliest_violation_of_the_tests_checks_is_shown() {
        for checks in ["sjf.order sjf.tie", "sjf.tie sjf.order"] {
            let r = grade(checks);
            assert_eq!(r.violation_ns, Some(10), "{checks}: {}", r.output);
            assert!(r.output.contains("check sjf.tie") && r.output.contains("expected the lower tid, task 1, got task 2"), "{}", r.output);
        }
        let r = grade("sjf.order");
        assert_eq!(r.violation_ns, Some(1000020), "{}", r.output);
        assert!(grade("sjf.pred").passed());
    }

    /// A kernel that panics with a long message (a student's, say) gives an output of at most
    /// 8 KiB plus a note, cut where a character starts.
    /// A protection fault in one test zeroes every test, and each says where it happened.
    #[test]
    fn a_protection_fault_in_one_test_zeroes_them_all() {
        let passed = grade("sjf.pred");
        assert!(passed.passed());
        let test = TestCase { name: "bad".to_string(), points: 2, args: "x=1".to_string(), checks: Vec::new(), max_insns: 1, hidden: false };
        let console = "kernel panic: protection fault: lab-sjf tried to write to address 0x10200000 (at pc 0x40000010), outside its protection domain\n";
        let faulted = grade_test(Lab::Sjf, &test, &Outcome::Finished { exit_code: 3, console, trace: "" });
        assert!(faulted.output.starts_with("your policy reached outside its protection domain"), "{}", faulted.output);
        let mut results = [passed.clone(), faulted];
        zero_on_protection_fault(&mut results);
        assert_eq!(results.iter().map(|r| r.score).sum::<u32>(), 0);
        assert_eq!(results[0].output, "graded zero: your policy reached outside its protection domain in test bad");
        // An ordinary panic zeroes nothing else.
        let panicked = grade_test(Lab::Sjf, &test, &Outcome::Finished { exit_code: 3, console: "kernel panic: panicked at a.rs:1:1:\nboom\n", trace: "" });
        let mut results = [passed, panicked];
        zero_on_protection_fault(&mut results);
        assert!(results[0].passed());
    }

    #[test]
    fn a_long_output_is_cut_at_a_char_boundary() {
        let test = TestCase { name: "t".to_string(), points: 1, args: "x=1".to_string(), checks: Vec::new(), max_insns: 1, hidden: false };
        let console = format!("kernel panic: panicked at a.rs:1:1:\n{}\n", "调度".repeat(5000));
        let r = grade_test(Lab::Sjf, &test, &Outcome::Finished { exit_code: 3, console: &console, trace: "" });
        assert!(!r.passed());
        assert!(r.output.starts_with("the kernel stopped: kernel panic:"), "{}", &r.output[..80]);
        assert!(r.output.ends_with("[the rest of this output, past 8 KiB, is not shown]"));
        assert!(r.output.len() <= MAX_OUTPUT + 60, "{}", r.output.len());
    }
}
