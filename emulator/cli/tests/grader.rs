//! The lab grader end to end: each lab's reference solution gets full marks on its public and
//! example hidden tests; a file that does not compile, the skeletons and bad arguments fail
//! clearly. (The mutants, under several variants: `grader_variants.rs`.)

mod grading;

use grading::{args, grade_json, root, scratch, test_named};
use runqueue::grade::{GradeArgs, grade};

/// Each lab's reference solution gets full marks on its public and example hidden tests (the
/// mutants, and every variant of the hidden tests: `grader_variants.rs`).
#[test]
fn the_references_pass() {
    let dir = scratch("references");
    for lab in ["sjf", "mlfq", "bvt"] {
        let mut a = args(lab, &root().join("labs").join(lab).join("solution.rs"), &dir.join("results.json"));
        a.tests = Some(root().join("labs").join(lab).join("hidden"));
        a.hidden_visibility = "visible".into();
        let results = grade_json(&a);
        let max: u64 = results["tests"].as_array().unwrap().iter().map(|t| t["max_score"].as_u64().unwrap()).sum();
        assert!(max > 0);
        assert_eq!(results["score"].as_u64(), Some(max), "reference solution of {lab}: {results:#}");
    }
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
