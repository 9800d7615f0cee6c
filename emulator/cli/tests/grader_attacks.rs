//! The grader against a determined student (issue #30): each attack in `labs/grader/attacks`
//! gains nothing. One with an honest twin (the same policy without the trick) scores no more
//! than the twin; one without fails every test with its reason (refused, stopped at a build
//! limit, stopped by the protection domain) or, for `catches: hidden`, leaves nothing of a
//! hidden test but its verdict. The CLI's output never carries a control character.

mod grading;

use grading::{args, mutants, mutated, one_at_a_time, root, scratch, test_named, twin_of};
use std::path::Path;
use std::process::Command;

/// Grades `solution` with the CLI (public and the lab's example hidden tests, shown as
/// `visibility`): its stdout and results.json.
fn grade(solution: &Path, visibility: &str, dir: &Path) -> (String, serde_json::Value) {
    let results = dir.join("results.json");
    let _ = std::fs::remove_file(&results);
    let cache = args("sjf", solution, &results).cache.unwrap();
    let _one = one_at_a_time();
    let out = Command::new(env!("CARGO_BIN_EXE_runqueue"))
        .args(["grade", "--lab", "sjf", "--hidden-visibility", visibility, "--root"])
        .arg(root())
        .arg("--cache")
        .arg(cache)
        .arg("--results")
        .arg(&results)
        .arg("--tests")
        .arg(root().join("labs/sjf/hidden"))
        .arg(solution)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let json = serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    (stdout, json)
}

fn score(results: &serde_json::Value) -> u64 {
    results["score"].as_u64().unwrap()
}

#[test]
fn every_attack_gains_nothing() {
    let dir = scratch("attacks");
    let attacks = mutants(&root().join("labs/grader/attacks"));
    assert!(attacks.len() >= 9, "{} attacks", attacks.len());
    for (name, m) in attacks {
        let says = m.says.as_deref().unwrap_or_else(|| panic!("{name}: no `says:`"));
        let solution = mutated("sjf", &name, &m, &dir);
        let visibility = if m.catches == "hidden" { "after_published" } else { "visible" };
        let started = std::time::Instant::now();
        let (stdout, results) = grade(&solution, visibility, &dir);
        assert!(started.elapsed().as_secs() < 120, "{name}: the grade took {:?}", started.elapsed());
        // No control character reaches the terminal, whatever the policy printed.
        assert!(!stdout.chars().any(|c| c.is_control() && c != '\n'), "{name}: a control character in the table:\n{stdout:?}");
        let tests = results["tests"].as_array().unwrap();
        match m.catches.as_str() {
            "hidden" => {
                let hidden: Vec<_> = tests.iter().filter(|t| t["visibility"] != "visible").collect();
                assert!(hidden.iter().any(|t| t["status"] == "failed"), "{name}: it must fail a hidden test for there to be something to hide");
                for t in hidden {
                    let line = stdout.lines().find(|l| l.starts_with(t["name"].as_str().unwrap())).unwrap();
                    assert!(!line.contains(says), "{name}: {line}");
                    assert!(t["output"].as_str().unwrap().ends_with("(a hidden test: no details)"), "{name}: {t}");
                }
            }
            "vet" | "build" | "every" => {
                assert_eq!(score(&results), 0, "{name}: {results:#}");
                for t in tests {
                    assert!(t["output"].as_str().unwrap().contains(says), "{name}: {t}");
                }
            }
            test => {
                let twin = twin_of(&m).unwrap_or_else(|| panic!("{name}: `catches: {test}` needs a twin"));
                let twin_solution = mutated("sjf", &format!("{name}.twin"), &twin, &dir);
                let (_, twin_results) = grade(&twin_solution, visibility, &dir);
                assert!(score(&results) <= score(&twin_results), "{name} scores {} where its honest twin scores {}", score(&results), score(&twin_results));
                let output = test_named(&results, test)["output"].as_str().unwrap();
                assert!(output.contains(says), "{name}: {test} should say {says:?}: {output}");
            }
        }
    }
}
