//! The grader cannot be fooled: a file that reaches past the lab API is refused before it is
//! built, a policy that runs away (its stack, the compiler) fails with the reason, and nothing
//! of an instructor's hidden tests reaches what the student sees.

mod grading;

use grading::{args, grade_json, mutants, mutated, one_at_a_time, root, scratch, test_named};
use std::process::{Command, Stdio};

/// Each forbidden construct (`labs/grader/forbidden`, one fixture each) is refused with its
/// rule and line, gets zero on every test, and still leaves a results.json.
#[test]
fn a_file_that_reaches_past_the_api_is_refused_and_gets_zero() {
    let dir = scratch("forbidden");
    let fixtures = mutants(&root().join("labs/grader/forbidden"));
    assert!(fixtures.len() >= 17, "{} fixtures", fixtures.len());
    for (name, m) in fixtures {
        let solution = mutated("sjf", &name, &m, &dir);
        let results = grade_json(&args("sjf", &solution, &dir.join("results.json")));
        assert_eq!(results["score"], 0, "{name}: {results:#}");
        let says = m.says.as_deref().expect("a forbidden fixture says what the refusal says");
        for t in results["tests"].as_array().unwrap() {
            let output = t["output"].as_str().unwrap();
            assert!(output.starts_with("your solution was refused before it was built: line "), "{name}: {output}");
            assert!(output.contains(says) && output.contains("(rule: "), "{name}: {output}");
            assert_eq!(output.lines().count(), 1, "{name}: {output}");
        }
    }
}

/// A policy that breaks the kernel's rules at run time (overruns its stack, forges a core
/// trace field, picks a task that cannot run) stops the kernel with a clear reason, not a hang.
#[test]
fn a_policy_that_breaks_the_kernels_rules_fails_with_the_reason() {
    let dir = scratch("runaway-policy");
    let fixtures: Vec<_> = mutants(&root().join("labs/grader/runaway")).into_iter().filter(|(n, _)| n != "compile_loop").collect();
    assert_eq!(fixtures.len(), 4);
    for (name, m) in fixtures {
        let solution = mutated("sjf", &name, &m, &dir);
        let results = grade_json(&args("sjf", &solution, &dir.join("results.json")));
        let output = test_named(&results, &m.catches)["output"].as_str().unwrap();
        assert!(output.contains(m.says.as_deref().unwrap()), "{name}: {output}");
    }
}

/// A file that keeps the compiler busy is stopped at the build timeout, and every test says so.
#[test]
fn a_file_that_makes_the_compiler_loop_is_stopped() {
    let dir = scratch("runaway-compiler");
    let (name, m) = mutants(&root().join("labs/grader/runaway")).into_iter().find(|(n, _)| n == "compile_loop").unwrap();
    let solution = mutated("sjf", &name, &m, &dir);
    let mut a = args("sjf", &solution, &dir.join("results.json"));
    a.cache = Some(dir.join("cache"));
    a.build_timeout = 20;
    let started = std::time::Instant::now();
    let results = grade_json(&a);
    assert!(started.elapsed().as_secs() < 120, "the build was not stopped in time");
    assert_eq!(results["score"], 0);
    for t in results["tests"].as_array().unwrap() {
        assert!(t["output"].as_str().unwrap().contains("the build did not finish within 20 s"), "{t}");
    }
}

/// A secret in an instructor's hidden tests (in a comment, and as a parameter the student's
/// policy prints when it panics) never reaches the table, stdout, stderr or results.json,
/// whatever the student tries and whichever way the tests are passed in.
#[test]
fn the_hidden_tests_never_reach_what_the_student_sees() {
    let dir = scratch("leak");
    let hidden = dir.join("hidden");
    std::fs::create_dir_all(&hidden).unwrap();
    let secret_word = "RQ-SECRET-6c1f9d";
    let secret_number = "7319411";
    let tests = format!(
        "# {secret_word}: the instructor's note\n[h-order]\npoints = 5\nargs = workload=fairness-unequal wl.tasks=3 wl.run_ms=40 lab.sjf.tau0_ns={secret_number}\nchecks = sjf.order\n"
    );
    std::fs::write(hidden.join("secret.tests"), &tests).unwrap();
    let solution = std::fs::read_to_string(root().join("labs/sjf/solution.rs")).unwrap();
    let build = "    build: |s: &Settings, _: &Run| {\n";
    assert!(solution.contains(build));
    let students = [
        // Reads the hidden file at compile time.
        ("reads", solution.replacen(build, &format!("{build}        let _ = include_str!({:?});\n", hidden.join("secret.tests")), 1)),
        // Prints what it was given, hoping the output shows the hidden parameters.
        ("prints", solution.replacen(build, &format!("{build}        panic!(\"my tau0 is {{}} ns\", s.get(&TAU0));\n"), 1)),
    ];
    for (who, source) in students {
        let file = dir.join(format!("{who}.rs"));
        std::fs::write(&file, source).unwrap();
        for (visibility, from_stdin) in [("hidden", false), ("after_due_date", true), ("after_published", false)] {
            let results = dir.join("results.json");
            let _ = std::fs::remove_file(&results);
            let cache = args("sjf", &file, &results).cache.unwrap();
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_runqueue"));
            cmd.args(["grade", "--lab", "sjf", "--hidden-visibility", visibility, "--root"])
                .arg(root())
                .arg("--cache")
                .arg(&cache)
                .arg("--results")
                .arg(&results)
                .arg("--tests")
                .arg(if from_stdin { "-".into() } else { hidden.clone() })
                .arg(&file)
                .stdin(if from_stdin { Stdio::piped() } else { Stdio::null() })
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            let one = one_at_a_time();
            let mut child = cmd.spawn().unwrap();
            if from_stdin {
                use std::io::Write;
                child.stdin.take().unwrap().write_all(tests.as_bytes()).unwrap();
            }
            let out = child.wait_with_output().unwrap();
            drop(one);
            let json = std::fs::read_to_string(&results).unwrap();
            let seen = [String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned(), json.clone()];
            for (what, text) in ["stdout", "stderr", "results.json"].iter().zip(&seen) {
                for secret in [secret_word, secret_number] {
                    assert!(!text.contains(secret), "{who}/{visibility}: {secret} reached {what}:\n{text}");
                }
            }
            // The grade did happen: the student's own message shows on the public tests.
            let expected = if who == "reads" { "refused before it was built" } else { "my tau0 is 5000000 ns" };
            assert!(json.contains(expected), "{who}/{visibility}: {json}");
            let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(test_named(&parsed, "h-order")["output"], "failed (a hidden test: no details)");
        }
    }
    // The control: shown to the student on purpose, the hidden test's details do carry it.
    let file = dir.join("prints.rs");
    let mut a = args("sjf", &file, &dir.join("results.json"));
    a.tests = Some(hidden);
    a.hidden_visibility = "visible".into();
    let results = grade_json(&a);
    assert!(test_named(&results, "h-order")["output"].as_str().unwrap().contains(secret_number));
}
