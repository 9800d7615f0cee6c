//! The fuzzer's execution cases (random instruction bytes and random valid encodings, trap
//! vectors pointing into them, random CSR state, M- and S-mode) run with the compiled tier and
//! without it, compared at stops a random number of instructions apart. Random code reaches
//! what generated loops do not: trap handlers growing hot, regions that end at any kind, odd
//! registers and immediates. The long run: `FUZZ_CASES=N cargo test --release -p runqueue-jit
//! --test fuzz -- --nocapture`.

#[path = "../../core/tests/fuzz_engine/mod.rs"]
mod fuzz_engine;
mod common;

use fuzz_engine::{case_seed, generate, Kind, Rng, BUDGET};

const SEED: u64 = 0x7173;
/// Cases tried by default (about half are execution cases, the rest fuzz the loader).
const CASES: u64 = 2000;

#[test]
fn random_code_runs_the_same_compiled() {
    let cases = std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(CASES);
    let (mut ran, mut compiled, mut failures) = (0, 0, Vec::new());
    for index in 0..cases {
        let case = generate(case_seed(SEED, index));
        if case.kind != Kind::Execution {
            continue;
        }
        let mut rng = Rng::new(case.seed);
        // The first page holds the case's code and data: compared too.
        match common::lockstep(&case.elf, &case.regs, &[(fuzz_engine::RAM_BASE, 0x1000)], || 1 + rng.below(300), BUDGET) {
            Ok(n) => compiled += n,
            Err(e) => failures.push(format!("case seed {:#x}: {e}", case.seed)),
        }
        ran += 1;
    }
    println!("{ran} execution cases, {compiled} regions compiled");
    assert!(failures.is_empty(), "{} of {ran} cases differ:\n{}", failures.len(), failures.join("\n"));
    // Random code does grow hot (trap handlers, short loops): the cases test compiled code.
    assert!(compiled >= ran / 10, "only {compiled} regions compiled in {ran} cases");
}
