//! A short deterministic fuzz of the ELF loader and of execution (a few seconds), plus the
//! checks that keep the fuzzer honest: its seed inputs are valid, its cases reproduce, and the
//! budget bounds runs that never stop by themselves. The long run is `examples/fuzz.rs`.

mod fuzz_engine;

use fuzz_engine::{BUDGET, FUZZ_RAM, Kind, generate, valid_elf};
use runqueue_emu::{Config, Machine, Stop};
use std::time::Duration;

fn small_config() -> Config {
    Config {
        ram_bytes: FUZZ_RAM,
        ..Config::default()
    }
}

#[test]
fn short_fuzz_finds_no_crash() {
    let summary = fuzz_engine::fuzz(0x5eed, 3000, Duration::from_secs(60), |_| {});
    assert!(summary.hang.is_none(), "a case hung: {:?}", summary.hang);
    assert!(
        summary.crashes.is_empty(),
        "crashes (reproduce with `--replay SEED`): {:#?}",
        summary.crashes
    );
    assert_eq!(summary.cases, 3000);
    // The generator must reach both sides: rejected inputs and machines that ran.
    assert!(summary.rejected > 0, "no input was rejected: {summary:?}");
    assert!(
        summary.budget + summary.exit + summary.fault > 1000,
        "too few inputs ran: {summary:?}"
    );
}

#[test]
fn seed_elves_boot_and_exit_zero() {
    for machine_mode in [true, false] {
        for data in [None, Some(vec![0xa5; 64])] {
            let elf = valid_elf(machine_mode, data);
            let mut machine =
                Machine::new(small_config(), &elf).unwrap_or_else(|e| panic!("rejected: {e}"));
            assert!(
                matches!(machine.run(BUDGET), Stop::Exit(0)),
                "M-mode {machine_mode}: no clean exit"
            );
        }
    }
}

#[test]
fn cases_are_reproducible_from_their_seed() {
    for seed in [2, 3, 1000, 1001, u64::MAX] {
        let (a, b) = (generate(seed), generate(seed));
        assert_eq!((a.elf, a.regs, a.harts), (b.elf, b.regs, b.harts));
        assert_eq!(
            a.kind,
            if seed % 2 == 0 {
                Kind::Loader
            } else {
                Kind::Execution
            }
        );
    }
    assert_ne!(generate(5).elf, generate(7).elf);
}

#[test]
fn bad_configs_are_errors() {
    let elf = valid_elf(true, None);
    for (harts, ram_bytes) in [
        (0, FUZZ_RAM),
        (9, FUZZ_RAM),
        (1, 0),
        (1, 4096),
        (1, 1 << 50),
        (1, FUZZ_RAM + 1),
    ] {
        let config = Config {
            harts,
            ram_bytes,
            ..Config::default()
        };
        match Machine::new(config, &elf) {
            Ok(_) if ram_bytes == FUZZ_RAM + 1 => {} // an odd RAM size may be accepted
            Ok(_) => panic!("{harts} harts with {ram_bytes} bytes of RAM accepted"),
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
}

/// Runs `words` as an M-mode program and returns how it stopped and how many instructions ran.
fn run_words(words: &[u32], budget: u64) -> (Stop, u64) {
    let mut text: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    text.resize(0x1000, 0);
    let segment = fuzz_engine::Segment {
        vaddr: fuzz_engine::RAM_BASE,
        data: text,
        memsz: 0x1000,
        flags: 5,
    };
    let elf = fuzz_engine::build_elf(fuzz_engine::RAM_BASE, &[segment], None);
    let mut machine = Machine::new(small_config(), &elf).expect("a valid program");
    let stop = machine.run(budget);
    (stop, machine.instret())
}

#[test]
fn budget_bounds_an_endless_loop() {
    let (stop, ran) = run_words(&[0x0000_006f], 100_000); // j .
    assert!(matches!(stop, Stop::Budget));
    assert!((100_000..=104_096).contains(&ran), "ran {ran}");
}

#[test]
fn budget_or_a_fault_bounds_a_trap_storm() {
    // mtvec = 0 (no memory there), then an illegal instruction: every trap faults again.
    let (stop, ran) = run_words(&[0x3050_1073, 0x0000_0000], 100_000); // csrw mtvec, zero; illegal
    assert!(
        matches!(stop, Stop::Budget | Stop::Fault(_)),
        "stopped with {stop:?}"
    );
    assert!(ran <= 104_096, "ran {ran}");
}
