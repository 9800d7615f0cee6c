//! What the grader's end-to-end tests share: the tree, a grade of a file as results.json,
//! and solutions made from the reference solution by a kept edit (`runqueue::mutant`).
#![allow(dead_code)]

use runqueue::grade::{GradeArgs, grade};
use runqueue::mutant::{Mutant, apply, parse_mutant};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A folder of this test run's own, emptied.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The arguments of a grade of `solution` whose build is cached per lab.
pub fn args(lab: &str, solution: &Path, results: &Path) -> GradeArgs {
    GradeArgs {
        lab: lab.into(),
        solution: solution.into(),
        results: Some(results.into()),
        summary: None,
        tests: None,
        hidden_visibility: "hidden".into(),
        root: Some(root()),
        cache: Some(Path::new(env!("CARGO_TARGET_TMPDIR")).join("grade-cache").join(lab)),
        build_timeout: 300,
        build_memory: 2048,
        build_file_size: 64,
        variant: String::new(),
    }
}

/// Tests run in parallel and share each lab's cache (its slot file, its build): a grade
/// holds this while it runs.
pub fn one_at_a_time() -> MutexGuard<'static, ()> {
    static GRADING: Mutex<()> = Mutex::new(());
    GRADING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Grades with `args` and returns Gradescope's results.json as parsed JSON.
pub fn grade_json(args: &GradeArgs) -> serde_json::Value {
    let _one = one_at_a_time();
    let results = args.results.clone().unwrap();
    let _ = std::fs::remove_file(&results);
    grade(args).unwrap_or_else(|e| panic!("grading {} failed: {e}", args.solution.display()));
    serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap()
}

pub fn test_named<'a>(results: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    results["tests"].as_array().unwrap().iter().find(|t| t["name"] == name).unwrap_or_else(|| panic!("no test {name}"))
}

/// Every `*.mutant` in `dir`, in name order, parsed.
pub fn mutants(dir: &Path) -> Vec<(String, Mutant)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
        .into_iter()
        .map(|file| {
            assert!(file.extension().is_some_and(|e| e == "mutant"), "{}: not a .mutant file", file.display());
            let name = file.file_stem().unwrap().to_string_lossy().to_string();
            let m = parse_mutant(&std::fs::read_to_string(&file).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            (name, m)
        })
        .collect()
}

/// `lab`'s reference solution with `m`'s edits (on top of its twin's, if it names one),
/// written into `dir` as `name.rs`.
pub fn mutated(lab: &str, name: &str, m: &Mutant, dir: &Path) -> PathBuf {
    let mut solution = std::fs::read_to_string(root().join("labs").join(lab).join("solution.rs")).unwrap();
    if let Some(twin) = &m.twin {
        let t = twin_of(m).unwrap_or_else(|| panic!("{name}: no twin {twin}"));
        solution = apply(&solution, &t.edits).unwrap_or_else(|e| panic!("{twin} no longer applies to {lab}'s solution.rs: {e}"));
    }
    let source = apply(&solution, &m.edits).unwrap_or_else(|e| panic!("{name} no longer applies to {lab}'s solution.rs: {e}"));
    let path = dir.join(format!("{name}.rs"));
    std::fs::write(&path, source).unwrap();
    path
}

/// The honest twin an attack names (`twin: sjf/mutants/fifo`), parsed.
pub fn twin_of(m: &Mutant) -> Option<Mutant> {
    let twin = m.twin.as_ref()?;
    let text = std::fs::read_to_string(root().join("labs").join(format!("{twin}.mutant"))).ok()?;
    Some(parse_mutant(&text).unwrap_or_else(|e| panic!("{twin}: {e}")))
}
