//! What the grader shows: a table for the terminal and the page, and Gradescope's
//! `results.json` (fields per gradescope-autograders.readthedocs.io, "specs").

use crate::lab::TestResult;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde_json::{Map, Value, json};

/// Who sees an instructor's hidden test, in Gradescope's words. In the table, `Hidden`
/// tests are left out (they still count in the total) and the others show their name only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visibility {
    Hidden,
    AfterDueDate,
    AfterPublished,
    Visible,
}

impl Visibility {
    pub fn parse(text: &str) -> Result<Visibility, String> {
        Ok(match text {
            "hidden" => Visibility::Hidden,
            "after_due_date" => Visibility::AfterDueDate,
            "after_published" => Visibility::AfterPublished,
            "visible" => Visibility::Visible,
            _ => return Err(format!("unknown visibility {text:?}: hidden, after_due_date, after_published or visible")),
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Visibility::Hidden => "hidden",
            Visibility::AfterDueDate => "after_due_date",
            Visibility::AfterPublished => "after_published",
            Visibility::Visible => "visible",
        }
    }
}

fn totals(results: &[TestResult]) -> (u32, u32) {
    results.iter().fold((0, 0), |(s, m), r| (s + r.score, m + r.max_score))
}

/// The per-test table, then each failed visible test's explanation.
pub fn table(lab: &str, results: &[TestResult], hidden: Visibility) -> String {
    let shown: Vec<&TestResult> = results.iter().filter(|r| !r.hidden || hidden != Visibility::Hidden).collect();
    let width = shown.iter().map(|r| r.name.len()).max().unwrap_or(4).max(4);
    let mut out = format!("lab {lab}\n{:<width$}  result  points\n", "test");
    for r in &shown {
        let verdict = if r.passed() { "pass" } else { "FAIL" };
        let mut line = format!("{:<width$}  {verdict:<6}  {:>2}/{:<2}", r.name, r.score, r.max_score);
        // A hidden test shows only whether it passed: a time would tell a policy that chose
        // when to break a rule the test's parameters.
        if let Some(at) = r.violation_ns.filter(|_| !r.hidden) {
            line.push_str(&format!("  first violation at {} ms", format_ms(at)));
        }
        if r.hidden {
            line.push_str("  (hidden test)");
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let (score, max) = totals(results);
    out.push_str(&format!("total: {score}/{max}\n"));
    for r in shown.iter().filter(|r| !r.passed() && !r.hidden) {
        out.push_str(&format!("\n--- {} ---\n{}\n", r.name, r.output.trim_end()));
    }
    out
}

/// The per-test points as a Markdown table (a CI job's summary page): hidden tests as the
/// table shows them (left out, or their verdict only), no explanations.
pub fn markdown(lab: &str, results: &[TestResult], hidden: Visibility, variant: &str) -> String {
    let (score, max) = totals(results);
    let set = if variant.is_empty() { String::new() } else { format!(" (variant `{variant}`)") };
    let mut out = format!("### Runqueue lab {lab}: {score}/{max} points{set}\n\n| test | result | points |\n| --- | --- | --- |\n");
    for r in results.iter().filter(|r| !r.hidden || hidden != Visibility::Hidden) {
        let verdict = if r.passed() { "pass" } else { "**FAIL**" };
        let name = if r.hidden { format!("{} (hidden)", r.name) } else { r.name.clone() };
        out.push_str(&format!("| {name} | {verdict} | {}/{} |\n", r.score, r.max_score));
    }
    out
}

fn hidden_output(r: &TestResult) -> String {
    String::from(if r.passed() { "passed (a hidden test: no details)" } else { "failed (a hidden test: no details)" })
}

fn format_ms(ns: u64) -> String {
    format!("{}.{:03}", ns / 1_000_000, ns / 1_000 % 1_000)
}

/// Gradescope's `results.json`. Hidden tests carry the instructor's visibility, and unless it
/// is `visible` their output says only whether they passed: the file is the student's to
/// read once results are released, and a hidden test's details (its parameters, the
/// schedule it expected, the student's own messages under those parameters) would give the
/// test away.
pub fn gradescope_json(lab: &str, results: &[TestResult], hidden: Visibility, variant: &str) -> String {
    let (score, max) = totals(results);
    let tests: Vec<Value> = results
        .iter()
        .map(|r| {
            let visibility = if r.hidden { hidden } else { Visibility::Visible };
            json!({
                "name": r.name,
                "score": r.score,
                "max_score": r.max_score,
                "status": if r.passed() { "passed" } else { "failed" },
                "output": if r.hidden && hidden != Visibility::Visible { hidden_output(r) } else { r.output.clone() },
                "visibility": visibility.as_str(),
            })
        })
        .collect();
    let mut top = Map::new();
    top.insert("score".to_string(), json!(score));
    let set = if variant.is_empty() { String::new() } else { format!(" (the test set of variant {variant:?})") };
    top.insert("output".to_string(), json!(format!("Runqueue lab {lab}: {score}/{max} points{set}")));
    top.insert("visibility".to_string(), json!("visible"));
    top.insert("tests".to_string(), Value::Array(tests));
    let mut text = Value::Object(top).to_string();
    text.push('\n');
    text
}

/// The results as data for the page, which words them in its reader's language
/// (`book/widget/grade-text.js`): per test its name, points, first violation and messages.
/// Hidden tests are left out, as in the table.
pub fn report_json(lab: &str, results: &[TestResult]) -> String {
    let tests: Vec<Value> = results
        .iter()
        .filter(|r| !r.hidden)
        .map(|r| {
            json!({
                "name": r.name,
                "score": r.score,
                "max_score": r.max_score,
                "violation_ns": r.violation_ns,
                "messages": r.messages.iter().map(|m| m.to_json()).collect::<Vec<_>>(),
            })
        })
        .collect();
    let (score, max) = totals(results);
    json!({ "lab": lab, "score": score, "max_score": max, "tests": tests }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(name: &str, score: u32, hidden: bool) -> TestResult {
        TestResult { name: name.to_string(), score, max_score: 2, hidden, output: format!("why {name}"), messages: Vec::new(), violation_ns: (score == 0).then_some(1_500_000) }
    }

    #[test]
    fn table_hides_what_the_instructor_hides() {
        let results = [result("a", 2, false), result("b", 0, false), result("secret", 0, true)];
        let t = table("sjf", &results, Visibility::Hidden);
        assert!(t.contains("total: 2/6"), "{t}");
        assert!(t.contains("first violation at 1.500 ms"), "{t}");
        assert!(t.contains("why b") && !t.contains("secret"), "{t}");
        let t = table("sjf", &results, Visibility::AfterPublished);
        assert!(t.contains("secret") && !t.contains("why secret"), "{t}");
        // Named, but with its verdict only: no time of its first violation.
        let line = t.lines().find(|l| l.starts_with("secret")).unwrap();
        assert_eq!(line, "secret  FAIL     0/2   (hidden test)");
    }

    #[test]
    fn markdown_shows_points_and_hides_what_the_table_hides() {
        let results = [result("a", 2, false), result("b", 0, false), result("secret", 0, true)];
        let md = markdown("sjf", &results, Visibility::Hidden, "");
        assert_eq!(md, "### Runqueue lab sjf: 2/6 points\n\n| test | result | points |\n| --- | --- | --- |\n| a | pass | 2/2 |\n| b | **FAIL** | 0/2 |\n");
        let md = markdown("sjf", &results, Visibility::AfterDueDate, "octocat");
        assert!(md.starts_with("### Runqueue lab sjf: 2/6 points (variant `octocat`)"), "{md}");
        assert!(md.ends_with("| secret (hidden) | **FAIL** | 0/2 |\n") && !md.contains("why"), "{md}");
    }

    #[test]
    fn gradescope_fields() {
        let results = [result("a", 2, false), result("h", 0, true)];
        let v: Value = serde_json::from_str(&gradescope_json("mlfq", &results, Visibility::AfterDueDate, "")).unwrap();
        assert_eq!(v["output"], "Runqueue lab mlfq: 2/4 points");
        assert_eq!(v["score"], 2);
        assert_eq!(v["tests"][0]["status"], "passed");
        assert_eq!(v["tests"][1]["visibility"], "after_due_date");
        assert_eq!(v["tests"][1]["output"], "failed (a hidden test: no details)");
        assert_eq!(v["tests"][0]["output"], "why a");
        let v: Value = serde_json::from_str(&gradescope_json("mlfq", &results, Visibility::Visible, "4711")).unwrap();
        assert_eq!(v["output"], "Runqueue lab mlfq: 2/4 points (the test set of variant \"4711\")");
        assert_eq!(v["tests"][1]["output"], "why h");
        assert_eq!(v["tests"][1]["max_score"], 2);
        assert!(Visibility::parse("sometimes").is_err());
    }
}
