//! The lab grader end to end: each lab's reference solution gets full marks on its public and
//! example hidden tests, and each kept mutant (a known wrong solution, one per rule the
//! handout states) fails the test that must catch it, with a first violation.

mod grading;

use grading::{args, grade_json, mutants, mutated, root, scratch, test_named};
use runqueue::grade::{GradeArgs, grade};
use std::path::Path;

/// Grades `solution` with the lab's public tests and its example hidden tests
/// (`labs/<lab>/hidden`, shown so their outputs can be checked).
fn grade_file(lab: &str, solution: &Path, results: &Path) -> serde_json::Value {
    let mut a = args(lab, solution, results);
    a.tests = Some(root().join("labs").join(lab).join("hidden"));
    a.hidden_visibility = "visible".into();
    grade_json(&a)
}

/// The reference solution passes everything, public and hidden tests; each kept mutant fails
/// the test its header names (public or hidden), the output names the first violation and
/// says what the header says.
fn check_lab(lab: &str, expected_mutants: usize) {
    let dir = scratch(&format!("mutants-{lab}"));
    let results = dir.join("results.json");
    let reference = grade_file(lab, &root().join("labs").join(lab).join("solution.rs"), &results);
    let max: u64 = reference["tests"].as_array().unwrap().iter().map(|t| t["max_score"].as_u64().unwrap()).sum();
    assert!(max > 0);
    assert_eq!(reference["score"].as_u64(), Some(max), "reference solution of {lab}: {reference:#}");
    let kept = mutants(&root().join("labs").join(lab).join("mutants"));
    assert_eq!(kept.len(), expected_mutants, "{lab}'s mutants: {:?}", kept.iter().map(|(n, _)| n).collect::<Vec<_>>());
    for (name, m) in kept {
        let graded = grade_file(lab, &mutated(lab, &name, &m, &dir), &results);
        let t = test_named(&graded, &m.catches);
        assert_eq!(t["status"], "failed", "{lab}/{name} ({}) should fail {}: {graded:#}", m.bug, m.catches);
        let output = t["output"].as_str().unwrap();
        assert!(output.contains("VIOLATION") || output.contains("did not finish"), "{lab}/{name}: {output}");
        if let Some(says) = &m.says {
            assert!(output.contains(says.as_str()), "{lab}/{name}: the output should say {says:?}: {output}");
        }
        assert!(graded["score"].as_u64().unwrap() < max);
    }
}

#[test]
fn sjf_reference_passes_and_mutants_fail() {
    check_lab("sjf", 13);
}

#[test]
fn mlfq_reference_passes_and_mutants_fail() {
    check_lab("mlfq", 17);
}

#[test]
fn bvt_reference_passes_and_mutants_fail() {
    check_lab("bvt", 14);
}

#[test]
fn a_solution_that_does_not_compile_fails_every_test_and_still_writes_results() {
    let dir = scratch("not-rust");
    let bad = dir.join("not_rust.rs");
    std::fs::write(&bad, "this is not Rust\n").unwrap();
    let results = grade_json(&args("sjf", &bad, &dir.join("results.json")));
    assert_eq!(results["score"], 0);
    for t in results["tests"].as_array().unwrap() {
        assert!(t["output"].as_str().unwrap().contains("does not compile"), "{t}");
    }
}

#[test]
fn the_skeleton_fails_clearly() {
    let dir = scratch("skeletons");
    let results = grade_json(&args("mlfq", &root().join("labs/mlfq/skeleton.rs"), &dir.join("mlfq.json")));
    let out = test_named(&results, "mlfq-allotment")["output"].as_str().unwrap().to_string();
    assert!(out.contains("is not written yet"), "{out}");
    let results = grade_json(&args("bvt", &root().join("labs/bvt/skeleton.rs"), &dir.join("bvt.json")));
    let out = test_named(&results, "bvt-placement")["output"].as_str().unwrap().to_string();
    assert!(out.contains("lab-bvt: place() is not written yet"), "{out}");
    // The skeleton runs with warp ignored, and the grader says so.
    let out = test_named(&results, "bvt-share")["output"].as_str().unwrap().to_string();
    assert!(out.contains("- warp 2000000) was ready"), "{out}");
}

#[test]
fn bad_arguments_are_clear_errors() {
    let dir = scratch("bad-arguments");
    let mut a: GradeArgs = args("lottery", &root().join("labs/sjf/solution.rs"), &dir.join("results.json"));
    assert!(grade(&a).unwrap_err().to_string().contains("unknown lab"));
    a.lab = "sjf".into();
    a.hidden_visibility = "sometimes".into();
    assert!(grade(&a).unwrap_err().to_string().contains("visibility"));
    a.hidden_visibility = "hidden".into();
    a.tests = Some(dir.join("no-such-folder"));
    assert!(grade(&a).unwrap_err().to_string().contains("cannot read the tests folder"));
    a.tests = None;
    a.solution = root().join("labs/sjf/no-such-file.rs");
    assert!(grade(&a).unwrap_err().to_string().contains("cannot read solution"));
}
