//! The labs' test sets per student (issue #32): each lab's reference solution gets full marks
//! on the public and example hidden tests under 300 variants (a property of the variant
//! generator: every check of every test has something to judge in every variant), and each
//! kept mutant (a known wrong solution, one per rule the handout states) fails some test under
//! each of 5 variants, under the default one the test its header names, with a first
//! violation that says what the header says. Each solution is built once, in its lab's one
//! cache (a mutant rebuilds only the lab slot and what links it), and run under every variant;
//! a mutant's tests stop at its first failure. Slow (every mutant is built): `make
//! test-labs-course` runs it (`cargo test --release -p runqueue --test grader_variants --
//! --ignored`).

mod grading;

use grading::{mutants, mutated, root, scratch};
use runqueue::bounded::Limits;
use runqueue::grade::{Build, build, cache_folder, run_tests, tests};
use runqueue_grader::{Lab, TestCase, TestResult};
use std::time::Duration;

const LIMITS: Limits = Limits { time: Duration::from_secs(300), memory: 2048 << 20, file_size: 64 << 20 };

/// The variants the reference is graded under: the generator's property (every check judges
/// something in every variant's run), over as many seeds as cost little (runs, not builds).
const REFERENCE_VARIANTS: usize = 300;

/// The variants graded: the default (no variant) first.
fn variants(n: usize) -> Vec<String> {
    (0..n).map(|i| if i == 0 { String::new() } else { format!("student-{i}") }).collect()
}

/// Builds `solution` once, in the lab's own cache (each lab's test runs beside the others).
fn built(lab: Lab, solution: &std::path::Path) -> Build {
    let cache = cache_folder(lab, Some(&std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("variants-cache").join(lab.name()))).unwrap();
    build(lab, &root(), &cache, &std::fs::read(solution).unwrap(), LIMITS).unwrap()
}

/// Every public and example hidden test under `variant`.
fn test_set(lab: Lab, variant: &str) -> Vec<TestCase> {
    let hidden = root().join("labs").join(lab.name()).join("hidden");
    tests(lab, &root(), Some(&hidden), variant).unwrap()
}

/// The first test `build` fails under `variant`, trying the test named `first` before the
/// others (a mutant fails the one its header names, and one failure is all this asks).
fn first_failure(lab: Lab, build: &Build, variant: &str, first: &str) -> Option<TestResult> {
    let mut set = test_set(lab, variant);
    set.sort_by_key(|t| t.name != first);
    set.iter().map(|t| run_tests(lab, std::slice::from_ref(t), build).remove(0)).find(|r| !r.passed())
}

fn score(results: &[TestResult]) -> (u32, u32) {
    results.iter().fold((0, 0), |(s, m), r| (s + r.score, m + r.max_score))
}

fn check_lab(name: &str, expected_mutants: usize) {
    let lab = Lab::parse(name).unwrap();
    let dir = scratch(&format!("variants-{name}"));
    let reference = built(lab, &root().join("labs").join(name).join("solution.rs"));
    let default = test_set(lab, "");
    for variant in variants(REFERENCE_VARIANTS) {
        // A test whose arguments are the default variant's is the same run: judged once.
        let set: Vec<TestCase> = test_set(lab, &variant).into_iter().filter(|t| variant.is_empty() || !default.contains(t)).collect();
        let results = run_tests(lab, &set, &reference);
        let (got, max) = score(&results);
        let failed: Vec<_> = results.iter().filter(|r| !r.passed()).map(|r| format!("{}: {}", r.name, r.output)).collect();
        assert_eq!(got, max, "{name}'s reference under variant {variant:?}:\n{}", failed.join("\n"));
    }
    let kept = mutants(&root().join("labs").join(name).join("mutants"));
    assert_eq!(kept.len(), expected_mutants, "{name}'s mutants: {:?}", kept.iter().map(|(n, _)| n).collect::<Vec<_>>());
    for (mutant, m) in kept {
        let build = built(lab, &mutated(name, &mutant, &m, &dir));
        for variant in variants(5) {
            let failed = first_failure(lab, &build, &variant, &m.catches)
                .unwrap_or_else(|| panic!("{name}/{mutant} ({}) passes every test under variant {variant:?}", m.bug));
            if !variant.is_empty() {
                continue;
            }
            assert_eq!(failed.name, m.catches, "{name}/{mutant} ({}) should fail {}, fails {}: {}", m.bug, m.catches, failed.name, failed.output);
            assert!(failed.output.contains("VIOLATION") || failed.output.contains("did not finish"), "{name}/{mutant}: {}", failed.output);
            if let Some(says) = &m.says {
                assert!(failed.output.contains(says.as_str()), "{name}/{mutant}: the output should say {says:?}: {}", failed.output);
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
