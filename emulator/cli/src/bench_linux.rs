//! `runqueue bench --linux`: what Linux costs on the machine beside the teaching kernel. Each
//! figure is the host's wall and CPU time of a whole run (boot, workload, trace read-out,
//! power-off), the best of a few, so a loaded host's noise is trimmed. A Linux run is timed
//! twice: booted cold, and started from the snapshot of an earlier boot the same way (what
//! every Linux run after a process's or a page's first is).

use crate::linux::{NAMED, boot};
use crate::run::{execute_in, forget_snapshots};
use crate::tier::ExecMode;
use runqueue_emu::{MachineOptions, Snapshots, Started, Stop};
use std::fmt::Write;
use std::time::Instant;

/// A workload short enough that the run is the boot: one 1 ms job, no trace.
const BOOT_ONLY: &str = "workload=bursts wl.burst_ms=1 trace=off";
/// The experiment compared on both kernels.
const EXPERIMENT: &str = "workload=fairness-unequal";
const SMP: usize = 2;
const ROUNDS: usize = 3;

struct Figure {
    what: String,
    wall_s: f64,
    cpu_s: f64,
    emulated_ms: f64,
    insns: u64,
}

fn cpu_seconds() -> f64 {
    // getrusage(RUSAGE_SELF) through /proc: utime + stime in clock ticks.
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat.rsplit_once(')').map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
    let ticks = |i: usize| fields.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

/// How a Linux run starts.
#[derive(Clone, Copy, PartialEq)]
enum Start {
    Cold,
    FromSnapshot,
}

fn measure(what: String, kernel: Option<&str>, append: &str, start: Start) -> Result<Figure, String> {
    let (image, initrd) = match kernel {
        Some(k) => {
            let b = boot(k, None).map_err(|e| e.to_string())?;
            (b.kernel, b.initrd)
        }
        None => (crate::run::KERNEL.to_vec(), None),
    };
    let mut best: Option<Figure> = None;
    for _ in 0..ROUNDS {
        let options = MachineOptions::parse(&runqueue_emu::command_line(&image, append)).map_err(|e| e.to_string())?.with_harts(SMP);
        if start == Start::Cold {
            forget_snapshots();
        } else {
            execute_in(ExecMode::Fast, &image, initrd.as_deref(), &options, 20_000_000_000, |_| {}).map_err(|e| e.to_string())?;
        }
        let (start, cpu) = (Instant::now(), cpu_seconds());
        let out = execute_in(ExecMode::Fast, &image, initrd.as_deref(), &options, 20_000_000_000, |_| {}).map_err(|e| e.to_string())?;
        let (wall_s, cpu_s) = (start.elapsed().as_secs_f64(), cpu_seconds() - cpu);
        if out.exit != Some(0) {
            return Err(format!("{what}: the run did not finish cleanly:\n{}", out.console));
        }
        let f = Figure { what: what.clone(), wall_s, cpu_s, emulated_ms: out.time_ns as f64 / 1e6, insns: out.instret };
        if best.as_ref().is_none_or(|b| f.wall_s < b.wall_s) {
            best = Some(f);
        }
    }
    best.ok_or_else(|| "no round ran".into())
}

/// A cold boot up to the init's request for its words, where a snapshot is taken: Linux
/// booted to its init, the machine's building included.
fn boot_to_init(kernel: &str) -> Result<Figure, String> {
    let b = boot(kernel, None).map_err(|e| e.to_string())?;
    let options = MachineOptions::parse(&runqueue_emu::command_line(&b.kernel, BOOT_ONLY)).map_err(|e| e.to_string())?.with_harts(SMP);
    let mut best: Option<Figure> = None;
    for _ in 0..ROUNDS {
        let (start, cpu) = (Instant::now(), cpu_seconds());
        let mut started = Started::new(&b.kernel, b.initrd.as_deref(), &options, &mut Snapshots::new(1), |_, _| {}).map_err(|e| e.to_string())?;
        crate::tier::set_mode(ExecMode::Fast, &mut started);
        while !started.machine.is_parked() {
            if started.machine.instret() > 2_000_000_000 {
                return Err(format!("{kernel}: the init never asked for its words"));
            }
            if let stop @ (Stop::Exit(_) | Stop::Fault(_)) = started.machine.run(20_000_000) {
                return Err(format!("{kernel}: the boot stopped before the init asked for its words: {stop:?}"));
            }
        }
        let (wall_s, cpu_s) = (start.elapsed().as_secs_f64(), cpu_seconds() - cpu);
        let what = format!("{kernel}: boot to the init's first request, cold");
        let f = Figure { what, wall_s, cpu_s, emulated_ms: started.machine.time_ns() as f64 / 1e6, insns: started.machine.instret() };
        if best.as_ref().is_none_or(|b| f.wall_s < b.wall_s) {
            best = Some(f);
        }
    }
    best.ok_or_else(|| "no round ran".into())
}

/// The figures as a table: each Linux boot, then the experiment on each kernel beside ours.
pub fn run() -> Result<String, String> {
    let mut rows = Vec::new();
    let starts = [(Start::Cold, "cold"), (Start::FromSnapshot, "from a snapshot")];
    for k in NAMED {
        rows.push(boot_to_init(k)?);
        for (start, how) in starts {
            rows.push(measure(format!("{k}: boot, a 1 ms job, power-off, {how}"), Some(k), BOOT_ONLY, start)?);
        }
    }
    let ours = [("runqueue kernel, sched=eevdf eevdf.version=6.12", "sched=eevdf eevdf.version=6.12"), ("runqueue kernel, sched=cfs", "sched=cfs")];
    for (what, sched) in ours {
        rows.push(measure(format!("{what}: {EXPERIMENT}"), None, &format!("{sched} {EXPERIMENT}"), Start::Cold)?);
    }
    for k in NAMED {
        for (start, how) in starts {
            rows.push(measure(format!("{k}: {EXPERIMENT}, {how}"), Some(k), EXPERIMENT, start)?);
        }
    }
    let mut out = format!("Linux beside the teaching kernel, {SMP} harts, best of {ROUNDS} (wall and CPU time of the whole run)\n");
    for f in &rows {
        let _ = writeln!(
            out,
            "  {:<78} {:>7.3} s wall {:>7.3} s CPU {:>9.1} ms emulated {:>6.1} M instructions {:>6.0} MIPS by CPU",
            f.what,
            f.wall_s,
            f.cpu_s,
            f.emulated_ms,
            f.insns as f64 / 1e6,
            f.insns as f64 / f.cpu_s.max(1e-9) / 1e6
        );
    }
    let wall = |name: &str| rows.iter().find(|f| f.what.starts_with(name)).map_or(f64::NAN, |f| f.wall_s);
    for (_, how) in starts {
        let _ = writeln!(
            out,
            "  the experiment on Linux over ours, {how}: 6.12 / eevdf {:.2}x, 6.12-rt / eevdf {:.2}x, 6.1 / cfs {:.2}x (wall)",
            wall(&format!("linux-6.12: {EXPERIMENT}, {how}")) / wall("runqueue kernel, sched=eevdf"),
            wall(&format!("linux-6.12-rt: {EXPERIMENT}, {how}")) / wall("runqueue kernel, sched=eevdf"),
            wall(&format!("linux-6.1: {EXPERIMENT}, {how}")) / wall("runqueue kernel, sched=cfs")
        );
    }
    Ok(out)
}
