//! The lab grader end to end: each lab's reference solution gets full marks, and each kept
//! mutant (a known wrong solution) fails the test that must catch it, with a first violation.

use runqueue::grade::{GradeArgs, grade};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Grades `solution` with the lab's public tests and its example hidden tests
/// (`labs/<lab>/hidden`, shown so their outputs can be checked) and returns Gradescope's
/// results.json as parsed JSON.
fn grade_file(lab: &str, solution: &Path) -> serde_json::Value {
    // The tests run in parallel and share each lab's cache and results.json: one grade at a time.
    static GRADING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one = GRADING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("grader").join(lab);
    std::fs::create_dir_all(&dir).unwrap();
    let results = dir.join("results.json");
    let _ = std::fs::remove_file(&results);
    let args = GradeArgs {
        lab: lab.into(),
        solution: solution.into(),
        results: Some(results.clone()),
        tests: Some(root().join("labs").join(lab).join("hidden")),
        hidden_visibility: "visible".into(),
        root: Some(root()),
        cache: Some(dir.join("cache")),
    };
    grade(&args).unwrap_or_else(|e| panic!("grading {} failed: {e}", solution.display()));
    serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap()
}

fn test<'a>(results: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    results["tests"].as_array().unwrap().iter().find(|t| t["name"] == name).unwrap_or_else(|| panic!("no test {name}"))
}

/// A kept mutant (`labs/<lab>/mutants/*.mutant`, format in `docs/labs.md`): the bug it
/// plants, the test that must catch it, what that test's output must say, and its edits.
#[derive(Debug)]
struct Mutant {
    bug: String,
    catches: String,
    says: Option<String>,
    edits: Vec<(String, String)>,
}

fn parse_mutant(text: &str) -> Result<Mutant, String> {
    let mut m = Mutant { bug: String::new(), catches: String::new(), says: None, edits: Vec::new() };
    let mut lines = text.lines();
    // The header, up to the first block.
    for line in lines.by_ref() {
        if line == "@@ find" {
            break;
        }
        match line.split_once(": ") {
            Some(("bug", v)) => m.bug = v.to_string(),
            Some(("catches", v)) => m.catches = v.to_string(),
            Some(("says", v)) => m.says = Some(v.to_string()),
            _ if line.is_empty() || line.starts_with('#') => {}
            _ => return Err(format!("unexpected header line {line:?} (bug:, catches:, says:)")),
        }
    }
    if m.bug.is_empty() || m.catches.is_empty() {
        return Err("the header needs `bug: ...` and `catches: <test>`".into());
    }
    // Blocks: `@@ find`, lines, `@@ replace`, lines, then `@@ find` again or `@@ end`.
    let (mut find, mut replace, mut in_find) = (Vec::new(), Vec::new(), true);
    for line in lines {
        match line {
            "@@ replace" if in_find => in_find = false,
            "@@ find" | "@@ end" if !in_find => {
                m.edits.push((find.join("\n"), replace.join("\n")));
                (find, replace, in_find) = (Vec::new(), Vec::new(), true);
                if line == "@@ end" {
                    return if m.edits.iter().any(|(f, _)| f.is_empty()) { Err("a block finds nothing".into()) } else { Ok(m) };
                }
            }
            l if l.starts_with("@@ ") => return Err(format!("{l:?} out of place (@@ find, @@ replace, @@ end)")),
            l if in_find => find.push(l),
            l => replace.push(l),
        }
    }
    Err("no `@@ end` after the last block (truncated?)".into())
}

/// The solution with the mutant's edits; each block must match exactly once.
fn apply(solution: &str, edits: &[(String, String)]) -> Result<String, String> {
    let mut text = solution.to_string();
    for (i, (find, replace)) in edits.iter().enumerate() {
        match text.matches(find.as_str()).count() {
            1 => text = text.replacen(find.as_str(), replace, 1),
            n => return Err(format!("block {} matches the solution {n} times, not once:\n{find}", i + 1)),
        }
    }
    Ok(text)
}

/// The reference solution passes everything, public and hidden tests; each kept mutant fails
/// the test its header names (public or hidden), the output names the first violation and
/// says what the header says.
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
fn a_mutant_block_that_does_not_match_is_an_error() {
    let text = "bug: b\ncatches: t\n@@ find\nfn a() {}\n@@ replace\nfn b() {}\n@@ end\n";
    let m = parse_mutant(text).unwrap();
    assert_eq!(apply("x\nfn a() {}\ny", &m.edits).unwrap(), "x\nfn b() {}\ny");
    assert!(apply("fn c() {}", &m.edits).unwrap_err().contains("0 times"));
    assert!(apply("fn a() {}\nfn a() {}", &m.edits).unwrap_err().contains("2 times"));
    assert!(parse_mutant(&text.replace("@@ end\n", "")).unwrap_err().contains("@@ end"));
    assert!(parse_mutant(&text.replace("catches: t\n", "")).unwrap_err().contains("catches"));
    assert!(parse_mutant(&text.replace("@@ replace", "@@ swap")).unwrap_err().contains("out of place"));
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
    };
    assert!(grade(&args).unwrap_err().to_string().contains("unknown lab"));
    args.lab = "sjf".into();
    args.hidden_visibility = "sometimes".into();
    assert!(grade(&args).unwrap_err().to_string().contains("visibility"));
    args.hidden_visibility = "hidden".into();
    args.solution = root().join("labs/sjf/no-such-file.rs");
    assert!(grade(&args).unwrap_err().to_string().contains("cannot read solution"));
}
