//! Grading a lab in the page: the Worker boots the student's kernel once per test with the
//! arguments given here, and hands each run's console and trace back; the scoring, the table
//! and results.json come from `runqueue-grader`, the code `runqueue grade` uses, so the page
//! shows what the CLI prints for the same kernel.

use runqueue_grader::{Lab, Outcome, TestCase, TestResult, Visibility, grade_test, gradescope_json, parse_tests, report_json, table, zero_on_protection_fault};
use runqueue_report::console;
use wasm_bindgen::prelude::*;

/// The public tests of one lab and the results recorded so far.
#[wasm_bindgen]
pub struct Grading {
    lab: Lab,
    tests: Vec<TestCase>,
    results: Vec<Option<TestResult>>,
}

#[wasm_bindgen]
impl Grading {
    /// `tests_text` is the lab's `public.tests` file (`labs/grader/src/spec.rs`).
    #[wasm_bindgen(constructor)]
    pub fn new(lab: &str, tests_text: &str) -> Result<Grading, JsError> {
        let lab = Lab::parse(lab).map_err(|e| JsError::new(&e))?;
        let tests = parse_tests(tests_text, &format!("{}.tests", lab.name()), false, "").map_err(|e| JsError::new(&e))?;
        if tests.is_empty() {
            return Err(JsError::new(&format!("the {} lab's test file holds no tests", lab.name())));
        }
        let results = vec![None; tests.len()];
        Ok(Grading { lab, tests, results })
    }

    pub fn count(&self) -> usize {
        self.tests.len()
    }

    pub fn name(&self, test: usize) -> Option<String> {
        self.tests.get(test).map(|t| t.name.clone())
    }

    /// The kernel command line of `test`, as `runqueue grade` boots it.
    pub fn bootargs(&self, test: usize) -> Option<String> {
        self.tests.get(test).map(|t| format!("sched={} {}", self.lab.sched(), t.args))
    }

    /// The test's instruction budget (exact below 2^53).
    pub fn max_insns(&self, test: usize) -> Option<f64> {
        self.tests.get(test).map(|t| t.max_insns as f64)
    }

    /// The kernel shut down: grade its console (trace lines prefixed `@` included) and trace.
    pub fn finished(&mut self, test: usize, exit_code: i32, console_text: &str, trace_text: &str) -> Result<(), JsError> {
        let split = console::split(console_text);
        let trace = format!("{trace_text}{}", split.trace);
        self.record(test, &Outcome::Finished { exit_code, console: &split.console, trace: &trace })
    }

    /// The machine stopped on a fault (`why`) before the kernel shut down.
    pub fn faulted(&mut self, test: usize, why: &str) -> Result<(), JsError> {
        self.record(test, &Outcome::Aborted(&format!("the guest stopped the machine: {why}")))
    }

    /// The run used up the test's instruction budget at emulated time `end_ns`, having
    /// written `trace_text`.
    pub fn out_of_budget(&mut self, test: usize, trace_text: &str, end_ns: f64) -> Result<(), JsError> {
        self.record(test, &Outcome::OutOfBudget { trace: trace_text, end_ns: end_ns as u64 })
    }

    /// The table `runqueue grade` prints, over the tests recorded so far.
    pub fn table(&self) -> String {
        table(self.lab.name(), &self.recorded(), Visibility::Hidden)
    }

    /// The results as data (`runqueue_grader::report_json`), for a page that words them in
    /// another language than the table's English.
    pub fn report_json(&self) -> String {
        report_json(self.lab.name(), &self.recorded())
    }

    /// Gradescope's results.json, as `runqueue grade --results` writes it.
    pub fn results_json(&self) -> String {
        gradescope_json(self.lab.name(), &self.recorded(), Visibility::Hidden, "")
    }
}

impl Grading {
    fn record(&mut self, test: usize, outcome: &Outcome) -> Result<(), JsError> {
        let case = self.tests.get(test).ok_or_else(|| JsError::new(&format!("no test number {test}")))?;
        self.results[test] = Some(grade_test(self.lab, case, outcome));
        Ok(())
    }

    fn recorded(&self) -> Vec<TestResult> {
        let mut results: Vec<TestResult> = self.results.iter().flatten().cloned().collect();
        zero_on_protection_fault(&mut results);
        results
    }
}
