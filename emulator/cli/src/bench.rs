//! `runqueue bench`: how fast the emulator runs the benchmark guest (`emulator/guests/bench`),
//! phase by phase, and how that compares with QEMU and TinyEMU running the very same ELF.
//!
//! The guest prints `#phase NAME INSTRET` as each phase starts, `#result NAME HEX` as it ends and
//! `#end INSTRET` at the close. Our emulator runs in short slices and the host timestamps the
//! markers as they appear; the INSTRET values (exact on our machine) give each phase's
//! instruction count, which peers are credited with too, since they run the same work. Peers run
//! as child processes: their stdout lines are timestamped the same way, and their whole-run CPU
//! time comes from the kernel's accounting of reaped children.

use crate::tier::{self, ExecMode};
use runqueue_emu::{Config, MachineOptions, Stop};
use serde_json::{Value, json};
use std::fmt;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The benchmark guest, built by the CLI's build script.
pub static BENCH_ELF: &[u8] = include_bytes!(env!("RUNQUEUE_BENCH_ELF"));

/// Instructions per slice: about a millisecond, fine enough to place the phase markers.
const SLICE: u64 = 250_000;
/// The full benchmark retires under a billion instructions; past this the guest is stuck.
const MAX_INSNS: u64 = 20_000_000_000;
/// A peer that takes longer than this is stuck (the full run takes seconds).
const PEER_TIMEOUT: Duration = Duration::from_secs(300);
/// The timer phase sleeps; its instruction rate means nothing.
const SLEEPING_PHASE: &str = "timer";
/// The phase whose work is trap round trips, and how many it does at full size.
const TRAP_PHASE: &str = "ecall";

pub struct BenchOptions {
    /// Also run `qemu-system-riscv64 -machine spike -bios none`.
    pub qemu: bool,
    /// Also run TinyEMU's `temu` at this path.
    pub tinyemu: Option<PathBuf>,
    /// One tenth of the work (boot argument `quick`).
    pub quick: bool,
    /// Machine settings for our emulator, as on a kernel command line: `cache.kb=32` gives it
    /// a data cache. Peers do not get them.
    pub machine: String,
    /// How our emulator runs the guest: the first mode is "ours", each further one is run
    /// after it and reported beside it like a peer (`runqueue-interp`), to compare the tiers.
    pub exec: Vec<ExecMode>,
}

/// One phase as one emulator ran it.
#[derive(Debug, Clone)]
pub struct Phase {
    pub name: String,
    /// Retired instructions, from our machine's exact count.
    pub instructions: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// CPU seconds of the emulating thread (ours only): steadier than wall time on a busy host.
    pub cpu_seconds: Option<f64>,
    /// The guest's checksum of the phase's work.
    pub checksum: String,
}

impl Phase {
    /// Millions of instructions per wall-clock second.
    pub fn mips(&self) -> Option<f64> {
        rate(&self.name, self.instructions, Some(self.seconds))
    }

    /// Millions of instructions per CPU second.
    pub fn cpu_mips(&self) -> Option<f64> {
        rate(&self.name, self.instructions, self.cpu_seconds)
    }
}

fn rate(phase: &str, instructions: u64, seconds: Option<f64>) -> Option<f64> {
    seconds.filter(|&s| phase != SLEEPING_PHASE && s > 0.0).map(|s| instructions as f64 / s / 1e6)
}

/// When a console line appeared: wall clock, and the emulating thread's CPU time if known.
#[derive(Clone, Copy)]
struct Stamp {
    at: Instant,
    cpu_ns: Option<u64>,
}

impl Stamp {
    fn now(with_cpu: bool) -> Stamp {
        Stamp { at: Instant::now(), cpu_ns: if with_cpu { thread_cpu_ns() } else { None } }
    }
}

/// One emulator's whole run.
#[derive(Debug)]
pub struct EmulatorRun {
    pub name: String,
    pub phases: Vec<Phase>,
    pub wall_seconds: f64,
    /// User + system CPU seconds, where the platform reports them.
    pub cpu_seconds: Option<f64>,
}

impl EmulatorRun {
    fn computing(&self) -> impl Iterator<Item = &Phase> {
        self.phases.iter().filter(|p| p.name != SLEEPING_PHASE)
    }

    /// Millions of instructions per wall-clock second over the computing phases.
    pub fn overall_mips(&self) -> Option<f64> {
        let instructions = self.computing().map(|p| p.instructions).sum();
        rate("", instructions, Some(self.computing().map(|p| p.seconds).sum()))
    }

    /// Millions of instructions per CPU second over the computing phases.
    pub fn overall_cpu_mips(&self) -> Option<f64> {
        let instructions = self.computing().map(|p| p.instructions).sum();
        rate("", instructions, self.computing().map(|p| p.cpu_seconds).sum())
    }

    /// Microseconds per trap round trip: the ecall phase's CPU time (else wall time) over its
    /// ecall count.
    pub fn trap_round_trip_us(&self) -> Option<f64> {
        let phase = self.phase(TRAP_PHASE)?;
        let trips = u64::from_str_radix(&phase.checksum, 16).ok().filter(|&n| n > 0)?;
        Some(phase.cpu_seconds.unwrap_or(phase.seconds) / trips as f64 * 1e6)
    }

    fn phase(&self, name: &str) -> Option<&Phase> {
        self.phases.iter().find(|p| p.name == name)
    }

    fn total_instructions(&self) -> u64 {
        self.phases.iter().map(|p| p.instructions).sum()
    }
}

pub struct BenchReport {
    pub quick: bool,
    /// Our machine's settings (`BenchOptions::machine`).
    pub machine: String,
    pub ours: EmulatorRun,
    pub peers: Vec<EmulatorRun>,
}

/// Runs the benchmark on our emulator, then on each peer asked for.
pub fn run(opts: &BenchOptions) -> Result<BenchReport, String> {
    let bootargs = if opts.quick { "quick" } else { "" };
    let machine = format!("{bootargs} {}", opts.machine);
    let (first, others) = opts.exec.split_first().ok_or("no execution mode to measure")?;
    let ours = run_ours(&machine, *first)?;
    let (mut peers, mut scratch) = (Vec::new(), Scratch(Vec::new()));
    for &mode in others {
        peers.push(EmulatorRun { name: format!("runqueue-{}", mode.name()), ..run_ours(&machine, mode)? });
    }
    if opts.qemu {
        let mut qemu = Command::new("qemu-system-riscv64");
        let elf = scratch.write("bench.elf", BENCH_ELF)?;
        qemu.args(["-machine", "spike", "-bios", "none", "-nographic", "-monitor", "none", "-kernel"]).arg(&elf);
        if opts.quick {
            qemu.args(["-append", bootargs]);
        }
        peers.push(run_peer("qemu", &mut qemu, &ours)?);
    }
    if let Some(temu) = &opts.tinyemu {
        // TinyEMU loads a flat image at 0x8000_0000 as its "bios" from a JSON-ish config file.
        let image = scratch.write("bench.bin", &flat_image(BENCH_ELF)?)?;
        let config = format!(
            "{{ version: 1, machine: \"riscv64\", memory_size: 256, bios: \"{}\", cmdline: \"{bootargs}\" }}\n",
            image.display()
        );
        let config = scratch.write("bench-tinyemu.cfg", config.as_bytes())?;
        peers.push(run_peer("tinyemu", Command::new(temu).arg(&config), &ours)?);
    }
    Ok(BenchReport { quick: opts.quick, machine: opts.machine.trim().into(), ours, peers })
}

/// A guest console line that matters to the benchmark.
enum Marker {
    Phase { name: String, instret: u64 },
    Result { name: String, checksum: String },
    End { instret: u64 },
}

fn parse_marker(line: &str) -> Option<Marker> {
    let mut words = line.split_whitespace();
    let (kind, first, second) = (words.next()?, words.next(), words.next());
    match (kind, first, second) {
        ("#phase", Some(name), Some(n)) => Some(Marker::Phase { name: name.into(), instret: n.parse().ok()? }),
        ("#result", Some(name), Some(hex)) => Some(Marker::Result { name: name.into(), checksum: hex.into() }),
        ("#end", Some(n), None) => Some(Marker::End { instret: n.parse().ok()? }),
        _ => None,
    }
}

/// Turns timestamped console lines into phases. `instret_of(phase, start, end)` gives a phase's
/// instruction count from the guest's counts at its two boundaries (ours) or otherwise (peers).
fn phases_from(lines: &[(Stamp, String)], instret_of: impl Fn(&str, u64, u64) -> u64) -> Result<Vec<Phase>, String> {
    let (mut phases, mut results) = (Vec::new(), Vec::new());
    let mut open: Option<(String, u64, Stamp)> = None;
    let mut ended = false;
    for (at, line) in lines {
        let (boundary, next) = match parse_marker(line) {
            Some(Marker::Result { name, checksum }) => {
                results.push((name, checksum));
                continue;
            }
            Some(Marker::Phase { name, instret }) => (instret, Some(name)),
            Some(Marker::End { instret }) => (instret, None),
            None => continue,
        };
        if let Some((name, start, since)) = open.take() {
            let instructions = instret_of(&name, start, boundary);
            let seconds = at.at.duration_since(since.at).as_secs_f64();
            let cpu_seconds = at.cpu_ns.zip(since.cpu_ns).map(|(b, a)| b.saturating_sub(a) as f64 / 1e9);
            phases.push(Phase { name, instructions, seconds, cpu_seconds, checksum: String::new() });
        }
        ended = next.is_none();
        open = next.map(|name| (name, boundary, *at));
    }
    if !ended || phases.is_empty() {
        return Err("the benchmark guest's output has no complete set of phases".into());
    }
    for phase in &mut phases {
        let checksum = results.iter().find(|(name, _)| *name == phase.name);
        phase.checksum = checksum.map(|(_, c)| c.clone()).unwrap_or_default();
    }
    Ok(phases)
}

fn run_ours(bootargs: &str, exec: ExecMode) -> Result<EmulatorRun, String> {
    let options = MachineOptions::parse(bootargs).map_err(|e| e.to_string())?;
    let config = Config { bootargs: bootargs.trim().into(), cache: options.cache, host: options.host, ..Config::default() };
    let mut machine = tier::machine(exec, config, BENCH_ELF, None).map_err(|e| format!("cannot boot the benchmark guest: {e}"))?;
    let cpu_before = cpu_seconds(Who::Myself);
    let start = Instant::now();
    let (mut lines, mut partial) = (Vec::new(), Vec::new());
    loop {
        let stop = machine.run(SLICE);
        let now = Stamp::now(true);
        partial.extend(machine.take_console());
        while let Some(end) = partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = partial.drain(..=end).collect();
            lines.push((now, String::from_utf8_lossy(&line).trim_end().to_string()));
        }
        match stop {
            Stop::Exit(0) => break,
            Stop::Exit(code) => return Err(format!("the benchmark guest failed (exit {code}):\n{}", joined(&lines))),
            Stop::Fault(fault) => return Err(format!("the benchmark guest faulted: {fault}\n{}", joined(&lines))),
            Stop::Budget if machine.instret() > MAX_INSNS => {
                return Err(format!("the benchmark guest ran {MAX_INSNS} instructions without finishing"));
            }
            Stop::Budget => {}
        }
    }
    let wall_seconds = start.elapsed().as_secs_f64();
    let cpu = cpu_before.zip(cpu_seconds(Who::Myself)).map(|(a, b)| b - a);
    let phases = phases_from(&lines, |_, start, end| end.saturating_sub(start))?;
    Ok(EmulatorRun { name: "runqueue".into(), phases, wall_seconds, cpu_seconds: cpu })
}

fn joined(lines: &[(Stamp, String)]) -> String {
    lines.iter().map(|(_, l)| l.as_str()).collect::<Vec<_>>().join("\n")
}

fn run_peer(name: &str, cmd: &mut Command, ours: &EmulatorRun) -> Result<EmulatorRun, String> {
    let program = cmd.get_program().to_string_lossy().into_owned();
    let cpu_before = cpu_seconds(Who::Children);
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {name} ({program}): {e}"))?;
    let stdout = child.stdout.take().ok_or("no stdout pipe")?;
    let reader = std::thread::spawn(move || {
        let mut lines = Vec::new();
        for line in BufReader::new(stdout).split(b'\n').map_while(Result::ok) {
            lines.push((Stamp::now(false), String::from_utf8_lossy(&line).trim_end().to_string()));
        }
        lines
    });
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| format!("waiting for {name}: {e}"))? {
            break status;
        }
        if start.elapsed() > PEER_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("{name} did not finish within {PEER_TIMEOUT:?}"));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let wall_seconds = start.elapsed().as_secs_f64();
    let cpu = cpu_before.zip(cpu_seconds(Who::Children)).map(|(a, b)| b - a);
    let lines = reader.join().map_err(|_| format!("reading {name}'s output failed"))?;
    if !status.success() {
        return Err(format!("{name} exited with {status}:\n{}", joined(&lines)));
    }
    // Peers' instret may count host cycles (QEMU): credit each phase with our exact count.
    let phases = phases_from(&lines, |phase, _, _| ours.phase(phase).map_or(0, |p| p.instructions))
        .map_err(|e| format!("{name}: {e}:\n{}", joined(&lines)))?;
    Ok(EmulatorRun { name: name.into(), phases, wall_seconds, cpu_seconds: cpu })
}

/// Files written for the peers in the system's temporary directory, removed when dropped.
struct Scratch(Vec<PathBuf>);

impl Scratch {
    fn write(&mut self, name: &str, bytes: &[u8]) -> Result<PathBuf, String> {
        let path = std::env::temp_dir().join(format!("runqueue-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        self.0.push(path.clone());
        Ok(path)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        for path in &self.0 {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// The ELF's loadable segments laid out from the lowest one's address, as a raw image.
fn flat_image(elf: &[u8]) -> Result<Vec<u8>, String> {
    let bad = || "the bundled benchmark ELF is malformed".to_string();
    let u64_at = |at: usize| elf.get(at..at + 8).map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default()));
    let u16_at = |at: usize| elf.get(at..at + 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
    let (phoff, phentsize, phnum) = (u64_at(0x20).ok_or_else(bad)?, u16_at(0x36).ok_or_else(bad)?, u16_at(0x38).ok_or_else(bad)?);
    let mut segments = Vec::new();
    for i in 0..phnum as usize {
        let ph = phoff as usize + i * phentsize as usize;
        let kind = elf.get(ph..ph + 4).ok_or_else(bad)?;
        if kind != [1, 0, 0, 0] {
            continue; // not PT_LOAD
        }
        let (offset, paddr, filesz) = (u64_at(ph + 8), u64_at(ph + 0x18), u64_at(ph + 0x20));
        let (offset, paddr, filesz) = (offset.ok_or_else(bad)?, paddr.ok_or_else(bad)?, filesz.ok_or_else(bad)?);
        let data = elf.get(offset as usize..(offset + filesz) as usize).ok_or_else(bad)?;
        segments.push((paddr, data));
    }
    let base = segments.iter().map(|s| s.0).min().ok_or_else(bad)?;
    let end = segments.iter().map(|(a, d)| a + d.len() as u64).max().ok_or_else(bad)?;
    let mut image = vec![0u8; (end - base) as usize];
    for (addr, data) in segments {
        let at = (addr - base) as usize;
        image[at..at + data.len()].copy_from_slice(data);
    }
    Ok(image)
}

/// CPU time of the calling thread in nanoseconds, from /proc (Linux); `None` elsewhere.
fn thread_cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

enum Who {
    Myself,
    Children,
}

/// CPU seconds (user + system) of this process or of its reaped children, from /proc (Linux);
/// `None` elsewhere.
fn cpu_seconds(who: Who) -> Option<f64> {
    const TICKS_PER_SECOND: f64 = 100.0; // USER_HZ, fixed at 100 in the Linux ABI
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name: utime is the 12th, then stime, cutime, cstime.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let first = match who {
        Who::Myself => 11,
        Who::Children => 13,
    };
    let ticks: f64 = fields.get(first..first + 2)?.iter().map(|f| f.parse::<f64>().ok()).sum::<Option<f64>>()?;
    Some(ticks / TICKS_PER_SECOND)
}

fn ratio(ours: Option<f64>, peer: Option<f64>) -> Option<f64> {
    ours.zip(peer).filter(|(_, p)| *p > 0.0).map(|(o, p)| o / p)
}

fn num(value: Option<f64>, decimals: usize) -> String {
    value.map_or("-".into(), |v| format!("{v:.decimals$}"))
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = if self.quick { "quick: one tenth of the work" } else { "full size" };
        let machine = if self.machine.is_empty() { String::new() } else { format!("; our machine: {}", self.machine) };
        writeln!(f, "runqueue bench ({size}{machine})")?;
        write!(f, "{:<8} {:>13} {:>9} {:>9} {:>9}", "phase", "instructions", "ours s", "MIPS", "CPU MIPS")?;
        for peer in &self.peers {
            write!(f, " {:>10} {:>10}", format!("{} s", peer.name), format!("ours/{}", peer.name))?;
        }
        writeln!(f)?;
        for phase in &self.ours.phases {
            let (mips, cpu_mips) = (num(phase.mips(), 1), num(phase.cpu_mips(), 1));
            write!(f, "{:<8} {:>13} {:>9.4} {mips:>9} {cpu_mips:>9}", phase.name, phase.instructions, phase.seconds)?;
            for peer in &self.peers {
                let theirs = peer.phase(&phase.name);
                let speedup = theirs.and_then(|t| ratio(Some(t.seconds), Some(phase.seconds)));
                let speedup = if phase.name == SLEEPING_PHASE { None } else { speedup };
                write!(f, " {:>10.4} {:>10}", theirs.map_or(f64::NAN, |t| t.seconds), num(speedup, 2))?;
            }
            writeln!(f)?;
        }
        let ours = &self.ours;
        writeln!(
            f,
            "overall (computing phases): {} MIPS by wall clock, {} MIPS by CPU",
            num(ours.overall_mips(), 1),
            num(ours.overall_cpu_mips(), 1)
        )?;
        writeln!(f, "trap round trip (ecall -> handler -> mret): {} us", num(ours.trap_round_trip_us(), 3))?;
        let ours_cpu_mips = ours.cpu_seconds.filter(|&s| s > 0.0).map(|s| ours.total_instructions() as f64 / s / 1e6);
        writeln!(
            f,
            "whole run: {} instructions, {:.3} s wall, {} s CPU ({} MIPS by CPU)",
            ours.total_instructions(),
            ours.wall_seconds,
            num(ours.cpu_seconds, 2),
            num(ours_cpu_mips, 1)
        )?;
        for peer in &self.peers {
            let agree = checksum_mismatches(ours, peer);
            writeln!(
                f,
                "{}: {} MIPS over the computing phases, trap round trip {} us, whole run {:.3} s wall, {} s CPU; \
                 ours/{} by CPU {}; checksums {}",
                peer.name,
                num(peer.overall_mips(), 1),
                num(peer.trap_round_trip_us(), 3),
                peer.wall_seconds,
                num(peer.cpu_seconds, 2),
                peer.name,
                num(ratio(peer.cpu_seconds, ours.cpu_seconds), 2),
                if agree.is_empty() { "agree".to_string() } else { format!("DIFFER in {}", agree.join(", ")) }
            )?;
        }
        Ok(())
    }
}

/// Phases whose checksum differs between our run and a peer's.
fn checksum_mismatches(ours: &EmulatorRun, peer: &EmulatorRun) -> Vec<String> {
    let differs = |p: &&Phase| peer.phase(&p.name).is_none_or(|q| q.checksum != p.checksum);
    ours.phases.iter().filter(differs).map(|p| p.name.clone()).collect()
}

impl BenchReport {
    /// The report as JSON (ratios are ours/peer speed: above 1 means we are faster).
    pub fn to_json(&self) -> String {
        let run_json = |run: &EmulatorRun| {
            let phases: Vec<Value> = run
                .phases
                .iter()
                .map(|p| {
                    json!({"name": p.name, "instructions": p.instructions, "seconds": p.seconds,
                           "cpu_seconds": p.cpu_seconds, "mips": p.mips(), "cpu_mips": p.cpu_mips(),
                           "checksum": p.checksum})
                })
                .collect();
            json!({"name": run.name, "phases": phases, "overall_mips": run.overall_mips(),
                   "overall_cpu_mips": run.overall_cpu_mips(),
                   "trap_round_trip_us": run.trap_round_trip_us(), "wall_seconds": run.wall_seconds,
                   "cpu_seconds": run.cpu_seconds, "instructions": run.total_instructions()})
        };
        let peers: Vec<Value> = self
            .peers
            .iter()
            .map(|peer| {
                let mut value = run_json(peer);
                value["speed_ratio_by_cpu"] = json!(ratio(peer.cpu_seconds, self.ours.cpu_seconds));
                value["speed_ratio_computing"] = json!(ratio(self.ours.overall_mips(), peer.overall_mips()));
                value["checksum_mismatches"] = json!(checksum_mismatches(&self.ours, peer));
                value
            })
            .collect();
        json!({"quick": self.quick, "machine": self.machine, "ours": run_json(&self.ours), "peers": peers}).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Console lines at the given milliseconds, CPU time running at half the wall clock.
    fn lines(spec: &[(u64, &str)]) -> Vec<(Stamp, String)> {
        let zero = Instant::now();
        let stamp = |ms: u64| Stamp { at: zero + Duration::from_millis(ms), cpu_ns: Some(ms * 500_000) };
        spec.iter().map(|&(ms, l)| (stamp(ms), l.to_string())).collect()
    }

    #[test]
    fn phases_come_from_markers() {
        let console = lines(&[
            (0, "runqueue bench guest"),
            (0, "#phase alu 100"),
            (500, "#result alu 00ff"),
            (500, "#phase ecall 1100"),
            (750, "#result ecall 000000000000000a"),
            (1000, "#end 1600"),
        ]);
        let phases = phases_from(&console, |_, a, b| b - a).unwrap();
        let got: Vec<_> =
            phases.iter().map(|p| (p.name.as_str(), p.instructions, p.seconds, p.cpu_seconds, p.checksum.as_str())).collect();
        assert_eq!(got, [("alu", 1000, 0.5, Some(0.25), "00ff"), ("ecall", 500, 0.5, Some(0.25), "000000000000000a")]);
        let run = EmulatorRun { name: "x".into(), phases, wall_seconds: 1.0, cpu_seconds: None };
        assert_eq!(run.overall_mips(), Some(1500.0 / 1.0 / 1e6));
        assert_eq!(run.overall_cpu_mips(), Some(1500.0 / 0.5 / 1e6));
        assert_eq!(run.trap_round_trip_us(), Some(0.25 / 10.0 * 1e6));
    }

    #[test]
    fn incomplete_output_is_an_error() {
        assert!(phases_from(&lines(&[(0, "#phase alu 1"), (5, "#result alu 1")]), |_, a, b| b - a).is_err());
        assert!(phases_from(&lines(&[(0, "hello")]), |_, a, b| b - a).is_err());
    }

    #[test]
    fn flat_image_places_segments_at_their_addresses() {
        let image = flat_image(BENCH_ELF).unwrap();
        // The guest starts at 0x8000_0000 with its entry code; the ELF's first loadable bytes.
        let entry_offset = BENCH_ELF.windows(16).position(|w| w == &image[..16]);
        assert!(entry_offset.is_some());
        assert!(flat_image(b"\x7fELF").is_err());
    }

    /// A quick run on our emulator alone, compiled tier, with these machine settings.
    fn quick(machine: &str) -> BenchOptions {
        BenchOptions { qemu: false, tinyemu: None, quick: true, machine: machine.into(), exec: vec![ExecMode::Fast] }
    }

    #[test]
    fn quick_run_on_ours_has_every_phase() {
        let report = run(&quick("")).unwrap();
        let names: Vec<_> = report.ours.phases.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["alu", "mem", "crc", "sieve", "ecall", "timer", "mixed"]);
        assert_eq!(report.ours.phase("ecall").map(|p| p.checksum.as_str()), Some("0000000000004e20"));
        assert!(report.ours.phase("alu").is_some_and(|p| p.instructions >= 50_000_000));
        let json: Value = serde_json::from_str(&report.to_json()).unwrap();
        assert_eq!(json["ours"]["phases"].as_array().map(Vec::len), Some(7));
    }

    /// The data cache changes the guest's time, never its results: the same checksums, and
    /// the same instructions in phases that do not count timer interrupts.
    #[test]
    fn the_data_cache_changes_no_results() {
        let bare = run(&quick("")).unwrap();
        let cached = run(&quick("cache.kb=32")).unwrap();
        let work = |r: &BenchReport| {
            let timed = |p: &&Phase| p.name == SLEEPING_PHASE || p.name == "mixed";
            r.ours.phases.iter().map(|p| (p.checksum.clone(), if timed(&p) { 0 } else { p.instructions })).collect::<Vec<_>>()
        };
        assert_eq!(work(&cached), work(&bare));
        assert!(cached.to_string().contains("our machine: cache.kb=32"));
        let bad = run(&quick("cache.line=48"));
        assert!(bad.err().is_some_and(|e| e.contains("cache.line=48")));
    }
}
