//! The labs' test sets per student (issue #32): each lab's reference solution gets full marks
//! on the public and example hidden tests under 20 variants, and each kept mutant (a known wrong
//! solution, one per rule the handout states) fails under each of 5 variants, under the
//! default one the test its header names, with a first violation that says what the header
//! says. Each solution is built once and run under every variant. Slow (every mutant is built):
//! `make test-labs-course` runs it (`cargo test --release -p runqueue --test grader_variants
//! -- --ignored`).

mod grading;

use grading::{mutants, mutated, root, scratch};
use runqueue::bounded::Limits;
use runqueue::grade::{Build, build, cache_folder, run_tests, tests};
use runqueue_grader::{Lab, TestResult};
use std::time::Duration;

const LIMITS: Limits = Limits { time: Duration::from_secs(300), memory: 2048 << 20, file_size: 64 << 20 };

/// The variants graded: the default (no variant) first.
fn variants(n: usize) -> Vec<String> {
    (0..n).map(|i| if i == 0 { String::new() } else { format!("student-{i}") }).collect()
}

/// Builds `solution` once, in the lab's own cache (each lab's test runs beside the others).
fn built(lab: Lab, solution: &std::path::Path) -> Build {
    let cache = cache_folder(lab, Some(&std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("variants-cache").join(lab.name()))).unwrap();
    build(lab, &root(), &cache, &std::fs::read(solution).unwrap(), LIMITS).unwrap()
}

/// The results of every public and example hidden test under `variant`.
fn graded(lab: Lab, build: &Build, variant: &str) -> Vec<TestResult> {
    let hidden = root().join("labs").join(lab.name()).join("hidden");
    run_tests(lab, &tests(lab, &root(), Some(&hidden), variant).unwrap(), build)
}

fn score(results: &[TestResult]) -> (u32, u32) {
    results.iter().fold((0, 0), |(s, m), r| (s + r.score, m + r.max_score))
}

fn check_lab(name: &str, expected_mutants: usize) {
    let lab = Lab::parse(name).unwrap();
    let dir = scratch(&format!("variants-{name}"));
    let reference = built(lab, &root().join("labs").join(name).join("solution.rs"));
    for variant in variants(20) {
        let results = graded(lab, &reference, &variant);
        let (got, max) = score(&results);
        let failed: Vec<_> = results.iter().filter(|r| !r.passed()).map(|r| format!("{}: {}", r.name, r.output)).collect();
        assert_eq!(got, max, "{name}'s reference under variant {variant:?}:\n{}", failed.join("\n"));
    }
    let kept = mutants(&root().join("labs").join(name).join("mutants"));
    assert_eq!(kept.len(), expected_mutants, "{name}'s mutants: {:?}", kept.iter().map(|(n, _)| n).collect::<Vec<_>>());
    for (mutant, m) in kept {
        let build = built(lab, &mutated(name, &mutant, &m, &dir));
        for variant in variants(5) {
            let results = graded(lab, &build, &variant);
            let (got, max) = score(&results);
            assert!(got < max, "{name}/{mutant} ({}) passes every test under variant {variant:?}", m.bug);
            if !variant.is_empty() {
                continue;
            }
            let t = results.iter().find(|r| r.name == m.catches).unwrap_or_else(|| panic!("{name}/{mutant}: no test {}", m.catches));
            assert!(!t.passed(), "{name}/{mutant} ({}) should fail {}: {}", m.bug, m.catches, t.output);
            assert!(t.output.contains("VIOLATION") || t.output.contains("did not finish"), "{name}/{mutant}: {}", t.output);
            if let Some(says) = &m.says {
                assert!(t.output.contains(says.as_str()), "{name}/{mutant}: the output should say {says:?}: {}", t.output);
            }
        }
    }
}

#[test]
#[ignore = "slow: make test-labs-course runs it"]
fn sjf_reference_passes_every_variant_and_mutants_fail_each() {
    check_lab("sjf", 13);
}

#[test]
#[ignore = "slow: make test-labs-course runs it"]
fn mlfq_reference_passes_every_variant_and_mutants_fail_each() {
    check_lab("mlfq", 17);
}

#[test]
#[ignore = "slow: make test-labs-course runs it"]
fn bvt_reference_passes_every_variant_and_mutants_fail_each() {
    check_lab("bvt", 14);
}
