//! Runs an ELF on the emulator and reports the stop reason and speed:
//! `cargo run --release -p runqueue-emu --example run_elf -- FILE [--smp N] [--append ARGS] [--max N]`

use runqueue_emu::{Config, Machine, Stop};
use std::io::Write;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut path = None;
    let mut config = Config::default();
    let mut max = 10_000_000_000u64;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--smp" => config.harts = args.next().and_then(|v| v.parse().ok()).unwrap_or(1),
            "--append" => config.bootargs = args.next().unwrap_or_default(),
            "--max" => max = args.next().and_then(|v| v.parse().ok()).unwrap_or(max),
            _ => path = Some(a),
        }
    }
    let Some(path) = path else {
        eprintln!("usage: run_elf FILE [--smp N] [--append ARGS] [--max N]");
        std::process::exit(2);
    };
    let elf = std::fs::read(&path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    let mut m = Machine::new(config, &elf).unwrap_or_else(|e| {
        eprintln!("cannot boot: {e}");
        std::process::exit(2)
    });
    let start = Instant::now();
    let (mut mark_time, mut mark_insns) = (0.0, 0);
    let stop = loop {
        let stop = m.run(1_000_000);
        let out = m.take_console();
        // Bench guests print "#phase NAME" lines: report the speed of the phase that ended.
        if out.windows(6).any(|w| w == b"#phase") || out.windows(4).any(|w| w == b"#end") {
            let now = start.elapsed().as_secs_f64();
            let n = m.instret() - mark_insns;
            eprintln!("  [{n} insns in {:.3} s = {:.0} MIPS]", now - mark_time, n as f64 / (now - mark_time) / 1e6);
            (mark_time, mark_insns) = (now, m.instret());
        }
        std::io::stdout().write_all(&out).ok();
        if stop != Stop::Budget || m.instret() >= max {
            break stop;
        }
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "stop: {stop:?}; {} instructions in {secs:.3} s = {:.0} MIPS; emulated {} us; trace {} bytes",
        m.instret(),
        m.instret() as f64 / secs / 1e6,
        m.time_ns() / 1000,
        m.take_trace().len()
    );
}
