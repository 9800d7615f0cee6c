//! The lab grader end to end: each lab's reference solution gets full marks, and each kept
//! mutant (a known wrong solution) fails the test that must catch it, with a first violation.

use runqueue::grade::{GradeArgs, grade};
use runqueue::mutant::{apply, parse_mutant};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Grades `solution` and returns Gradescope's results.json as parsed JSON.
fn grade_file(lab: &str, solution: &Path) -> serde_json::Value {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("grader").join(lab);
    std::fs::create_dir_all(&dir).unwrap();
    let results = dir.join("results.json");
    let _ = std::fs::remove_file(&results);
    let args = GradeArgs {
        lab: lab.into(),
        solution: solution.into(),
        results: Some(results.clone()),
        tests: None,
        hidden_visibility: "hidden".into(),
        root: Some(root()),
        cache: Some(dir.join("cache")),
        build_timeout: 300,
    };
    grade(&args).unwrap_or_else(|e| panic!("grading {} failed: {e}", solution.display()));
    serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap()
}

fn test<'a>(results: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    results["tests"].as_array().unwrap().iter().find(|t| t["name"] == name).unwrap_or_else(|| panic!("no test {name}"))
}

/// The reference solution passes everything; each kept mutant fails the test its header
/// names, the output names the first violation and says what the header says.
fn check_lab(lab: &str, expected_mutants: usize) {
    let dir = root().join("labs").join(lab);
    let reference = grade_file(lab, &dir.join("solution.rs"));
    let max: u64 = reference["tests"].as_array().unwrap().iter().map(|t| t["max_score"].as_u64().unwrap()).sum();
    assert!(max > 0);
    assert_eq!(reference["score"].as_u64(), Some(max), "reference solution of {lab}: {reference:#}");
    let solution = std::fs::read_to_string(dir.join("solution.rs")).unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("mutants")).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), expected_mutants, "{lab}'s mutants: {files:?}");
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mutants").join(lab);
    std::fs::create_dir_all(&out_dir).unwrap();
    for file in files {
        let name = file.file_stem().unwrap().to_string_lossy().to_string();
        assert!(file.extension().is_some_and(|e| e == "mutant"), "{}: not a .mutant file", file.display());
        let m = parse_mutant(&std::fs::read_to_string(&file).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let source = apply(&solution, &m.edits).unwrap_or_else(|e| panic!("{} no longer applies to solution.rs: {e}", file.display()));
        let mutated = out_dir.join(format!("{name}.rs"));
        std::fs::write(&mutated, source).unwrap();
        let results = grade_file(lab, &mutated);
        let t = test(&results, &m.catches);
        assert_eq!(t["status"], "failed", "{lab}/{name} ({}) should fail {}: {results:#}", m.bug, m.catches);
        let output = t["output"].as_str().unwrap();
        assert!(output.contains("VIOLATION") || output.contains("did not finish"), "{lab}/{name}: {output}");
        if let Some(says) = &m.says {
            assert!(output.contains(says.as_str()), "{lab}/{name}: the output should say {says:?}: {output}");
        }
        assert!(results["score"].as_u64().unwrap() < max);
    }
}

#[test]
fn sjf_reference_passes_and_mutants_fail() {
    check_lab("sjf", 4);
}

#[test]
fn mlfq_reference_passes_and_mutants_fail() {
    check_lab("mlfq", 3);
}

#[test]
fn bvt_reference_passes_and_mutants_fail() {
    check_lab("bvt", 2);
}

#[test]
fn a_solution_that_does_not_compile_fails_every_test_and_still_writes_results() {
    let bad = Path::new(env!("CARGO_TARGET_TMPDIR")).join("not_rust.rs");
    std::fs::write(&bad, "this is not Rust\n").unwrap();
    let results = grade_file("sjf", &bad);
    assert_eq!(results["score"], 0);
    for t in results["tests"].as_array().unwrap() {
        assert!(t["output"].as_str().unwrap().contains("does not compile"), "{t}");
    }
}

#[test]
fn the_skeleton_fails_clearly() {
    let results = grade_file("mlfq", &root().join("labs/mlfq/skeleton.rs"));
    let out = test(&results, "mlfq-allotment")["output"].as_str().unwrap().to_string();
    assert!(out.contains("is not written yet"), "{out}");
    let results = grade_file("bvt", &root().join("labs/bvt/skeleton.rs"));
    let out = test(&results, "bvt-placement")["output"].as_str().unwrap().to_string();
    assert!(out.contains("lab-bvt: place() is not written yet"), "{out}");
    // The skeleton runs with warp ignored, and the grader says so.
    let out = test(&results, "bvt-share")["output"].as_str().unwrap().to_string();
    assert!(out.contains("- warp 2000000) was ready"), "{out}");
}

#[test]
fn bad_arguments_are_clear_errors() {
    let mut args = GradeArgs {
        lab: "lottery".into(),
        solution: root().join("labs/sjf/solution.rs"),
        results: None,
        tests: None,
        hidden_visibility: "hidden".into(),
        root: Some(root()),
        cache: None,
        build_timeout: 300,
    };
    assert!(grade(&args).unwrap_err().to_string().contains("unknown lab"));
    args.lab = "sjf".into();
    args.hidden_visibility = "sometimes".into();
    assert!(grade(&args).unwrap_err().to_string().contains("visibility"));
    args.hidden_visibility = "hidden".into();
    args.solution = root().join("labs/sjf/no-such-file.rs");
    assert!(grade(&args).unwrap_err().to_string().contains("cannot read solution"));
}
