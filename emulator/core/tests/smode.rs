//! The S-mode programs of `emulator/guests/smode` on the machine: SBI, devices, the FDT, time,
//! determinism across slicing, and byte-for-byte equivalence with QEMU.
//!
//! The programs are built here (cargo decides what is stale) into this test's own target dir.

use runqueue_emu::{Config, Machine, MachineOptions, Stop};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const TARGET: &str = "riscv64imac-unknown-none-elf";
/// Far more than any program needs: hitting it means a hang.
const BUDGET: u64 = 300_000_000;

fn build() -> Result<PathBuf, String> {
    let project = Path::new(env!("CARGO_MANIFEST_DIR")).join("../guests/smode");
    let target_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("smode-guests");
    let mut cmd = Command::new(option_env!("CARGO").unwrap_or("cargo"));
    // The outer build's settings are for the host; the guests must not inherit them.
    for (key, _) in std::env::vars() {
        let host_only = (key.starts_with("CARGO") && key != "CARGO_HOME")
            || key.contains("RUSTFLAGS")
            || matches!(key.as_str(), "RUSTC" | "RUSTDOC" | "RUSTC_WRAPPER");
        if host_only {
            cmd.env_remove(key);
        }
    }
    let out = cmd
        .current_dir(&project)
        .args(["build", "--release", "--target", TARGET, "--target-dir"])
        .arg(&target_dir)
        .output()
        .map_err(|e| format!("cannot run cargo for {}: {e}", project.display()))?;
    if !out.status.success() {
        return Err(format!("building {} failed:\n{}", project.display(), String::from_utf8_lossy(&out.stderr)));
    }
    Ok(target_dir.join(TARGET).join("release"))
}

fn elf_path(name: &str) -> PathBuf {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BUILT.get_or_init(build).as_ref().unwrap_or_else(|e| panic!("{e}")).join(name)
}

/// Boots `name` on `harts` harts; the boot arguments' machine words (`cache.*=`) shape the
/// machine, as they do for `runqueue run`.
fn boot(name: &str, harts: usize, bootargs: &str) -> Machine {
    let elf = std::fs::read(elf_path(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let cache = MachineOptions::parse(bootargs).unwrap_or_else(|e| panic!("{name}: {e}")).cache;
    let config = Config { harts, bootargs: bootargs.into(), cache, ..Config::default() };
    Machine::new(config, &elf).unwrap_or_else(|e| panic!("{name}: cannot boot: {e}"))
}

/// What a run to shutdown produced.
#[derive(Debug, PartialEq)]
struct Outcome {
    console: String,
    trace: Vec<u8>,
    exit: i32,
    instret: u64,
    time_ns: u64,
}

/// Runs in slices of `slice` instructions until the guest exits.
fn finish(machine: &mut Machine, slice: u64) -> Outcome {
    let (mut console, mut trace) = (Vec::new(), Vec::new());
    let exit = loop {
        let stop = machine.run(slice);
        console.extend(machine.take_console());
        trace.extend(machine.take_trace());
        match stop {
            Stop::Exit(code) => break code,
            Stop::Fault(fault) => panic!("fault: {fault}\nconsole so far:\n{}", String::from_utf8_lossy(&console)),
            Stop::Budget if machine.instret() > BUDGET => {
                panic!("no exit after {BUDGET} instructions; console:\n{}", String::from_utf8_lossy(&console))
            }
            Stop::Budget => {}
        }
    };
    let console = String::from_utf8(console).expect("console output is UTF-8");
    Outcome { console, trace, exit, instret: machine.instret(), time_ns: machine.time_ns() }
}

fn run(name: &str, harts: usize, bootargs: &str) -> Outcome {
    finish(&mut boot(name, harts, bootargs), 1_000_000)
}

/// Runs and checks the console and a zero exit code.
fn expect(name: &str, harts: usize, bootargs: &str, console: &str) {
    let out = run(name, harts, bootargs);
    assert_eq!(out.console, console, "{name}: console differs");
    assert_eq!(out.exit, 0, "{name}: exit code");
}

#[test]
fn sbi_base_reports_version_extensions_and_errors() {
    expect(
        "sbi_base",
        1,
        "",
        "spec 2.0\nprobe base yes\nprobe time yes\nprobe ipi yes\nprobe rfence yes\nprobe hsm yes\n\
         probe srst yes\nprobe dbcn yes\nprobe legacy-set-timer yes\nprobe legacy-putchar yes\n\
         probe legacy-getchar yes\nprobe legacy-shutdown yes\nprobe pmu no\n\
         unknown extension: error -2\nunknown base function: error -2\n",
    );
}

#[test]
fn set_timer_delivers_supervisor_timer_interrupts_and_sleep_is_idle() {
    expect(
        "timer",
        1,
        "",
        "timer 0: on time true, slept true\ntimer 1: on time true, slept true\n\
         timer 2: on time true, slept true\nlegacy timer: on time true\nstip after clearing: false\n",
    );
}

#[test]
fn ipi_raises_supervisor_software_interrupts_and_rfence_is_accepted() {
    expect(
        "ipi",
        2,
        "",
        "self ipi: error 0\nhart 0 took its own ipi\nipi to hart 1: error 0\n\
         hart 1 took the ipi; hart 0 took 1\nremote fence.i: error 0\nremote sfence.vma: error 0\n",
    );
}

#[test]
fn hsm_starts_stops_restarts_and_reports_status() {
    expect(
        "hsm",
        4,
        "",
        "hart 0 status 0 (started is 0)\nhello from hart 1\nhart 1 stopped\nhello from hart 2\n\
         hart 2 stopped\nhello from hart 3\nhart 3 stopped\nhello from hart 1\nhart 1 stopped\n\
         start the running hart 0: error -6\nstatus of absent hart 9: error -3\n\
         start absent hart 9: error -3\n",
    );
}

#[test]
fn shutdown_paths_give_their_exit_codes() {
    let cases = [
        ("srst:0", 0),
        ("srst:1", 1),
        ("legacy", 0),
        ("finisher:7", 7),
        ("finisher:255", 255),
        ("finisher-pass", 0),
        ("finisher-reset", 0),
    ];
    for (how, code) in cases {
        let out = run("exit", 1, &format!("exit={how}"));
        assert_eq!((out.console.as_str(), out.exit), (format!("exit via {how}\n").as_str(), code), "exit={how}");
    }
}

#[test]
fn dbcn_and_legacy_putchar_write_the_console() {
    expect("dbcn", 1, "", "dbcn write\nwrote 11 error 0\nbyte\nlegacy putchar\n");
}

#[test]
fn console_input_through_uart_registers_and_legacy_getchar() {
    let mut machine = boot("console_in", 1, "");
    machine.push_input(b"ab");
    let mut console = Vec::new();
    while !console.ends_with(b"waiting\n") {
        assert!(matches!(machine.run(10_000), Stop::Budget), "stopped before waiting for input");
        console.extend(machine.take_console());
        assert!(machine.instret() < BUDGET, "never asked for input: {}", String::from_utf8_lossy(&console));
    }
    machine.push_input(b"xyz\n");
    let rest = finish(&mut machine, 1_000_000);
    console.extend(rest.console.bytes());
    assert_eq!(
        String::from_utf8_lossy(&console),
        "scratch 5a\nlsr thre true dr true\nread ab\nlsr thre true dr false\ngetchar with nothing: -1\n\
         waiting\nline xyz\n"
    );
    assert_eq!(rest.exit, 0);
}

#[test]
fn fdt_carries_bootargs_cpus_and_devices() {
    expect(
        "fdt_info",
        3,
        "sched=rr  rr.slice_ms=4 seed=9",
        "bootargs sched=rr  rr.slice_ms=4 seed=9\ncpus 3\ntimebase Some(10000000)\n\
         ns16550a: serial@10000000\nsifive,clint0: clint@2000000\nsifive,test0: test@100000\n\
         runqueue,trace: trace@10200000\n",
    );
}

#[test]
fn trace_device_takes_bulk_lines_and_single_bytes() {
    let out = run("trace", 1, "");
    assert_eq!((out.console.as_str(), out.exit), ("traced\n", 0));
    assert_eq!(String::from_utf8_lossy(&out.trace), "T 100 0 mark 1 iter=1\nT 200 0 mark 1 iter=2\n");
}

#[test]
fn rdtime_is_one_tick_per_ten_instructions() {
    expect(
        "rdtime",
        1,
        "",
        "loop instructions within 2 of 200000: true\nticks x 10 within 20 of the instructions: true\n",
    );
}

/// How two runs differ: the first differing console or trace line, or the final figures.
fn difference(got: &Outcome, want: &Outcome) -> Option<String> {
    for (name, a, b) in [("console", got.console.as_bytes(), want.console.as_bytes()), ("trace", &got.trace, &want.trace)] {
        if a == b {
            continue;
        }
        let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
        let lines = a.lines().count().max(b.lines().count()) + 1;
        let padded = |s: &str| s.lines().chain(std::iter::repeat("<end>")).take(lines).map(String::from).collect::<Vec<_>>();
        let (a, b) = (padded(&a), padded(&b));
        match a.iter().zip(&b).position(|(x, y)| x != y) {
            Some(n) => return Some(format!("{name} line {} differs\n  got:  {}\n  want: {}", n + 1, a[n], b[n])),
            None => return Some(format!("{name} differs in line endings")),
        }
    }
    let figures = |o: &Outcome| (o.exit, o.instret, o.time_ns);
    (figures(got) != figures(want))
        .then(|| format!("(exit, instret, time_ns) differ: got {:?}, want {:?}", figures(got), figures(want)))
}

fn assert_same(got: &Outcome, want: &Outcome, what: &str) {
    if let Some(diff) = difference(got, want) {
        panic!("{what}: {diff}");
    }
}

/// The determinism program's reference run, in slices of a million instructions.
fn determinism_reference() -> Outcome {
    let reference = run("determinism", 4, "");
    assert_eq!(reference.exit, 0, "console:\n{}", reference.console);
    assert!(reference.console.contains("hart 3 tick 12"), "every hart ticked: {}", reference.console);
    assert_eq!(reference.trace.iter().filter(|&&b| b == b'\n').count(), 4 * 12);
    reference
}

/// Runs the determinism program with boot arguments `args` in each slice size and lists how
/// each differs from `reference`.
fn slicing_differences(reference: &Outcome, args: &str, slices: &[u64]) -> Vec<String> {
    let differs = |&slice: &u64| {
        let again = finish(&mut boot("determinism", 4, args), slice);
        difference(&again, reference).map(|diff| format!("slices of {slice}: {diff}"))
    };
    slices.iter().filter_map(differs).collect()
}

#[test]
fn determinism_across_runs_and_slice_sizes() {
    let reference = determinism_reference();
    assert_same(&run("determinism", 4, ""), &reference, "a second run");
    let failures = slicing_differences(&reference, "", &[10_000_000, 123_457, 12_345]);
    assert!(failures.is_empty(), "runs in other slices differ:\n{}", failures.join("\n"));
}

/// Slices of a quantum (1000 instructions) or less: where a slice ends must not change when
/// an interrupt lands, even when it splits a quantum or a block.
#[test]
fn determinism_across_slices_shorter_than_a_quantum() {
    let reference = determinism_reference();
    let failures = slicing_differences(&reference, "", &[1000, 997, 7]);
    assert!(failures.is_empty(), "runs in short slices differ:\n{}", failures.join("\n"));
}

/// With a small data cache whose misses (200 instructions' time each) often run a hart past
/// the end of its quantum, runs still agree whatever the slicing.
#[test]
fn determinism_with_a_data_cache() {
    let args = "cache.kb=1 cache.line=16 cache.ways=2 cache.miss_ns=2000";
    let reference = run("determinism", 4, args);
    assert_eq!(reference.exit, 0, "console:\n{}", reference.console);
    assert!(reference.time_ns > determinism_reference().time_ns, "the misses took time");
    let failures = slicing_differences(&reference, args, &[10_000_000, 12_345, 997, 7]);
    assert!(failures.is_empty(), "runs in other slices differ:\n{}", failures.join("\n"));
}

/// Runs `cmd` with a deadline, returning its stdout and exit status.
fn run_with_deadline(cmd: &mut Command, limit: Duration) -> Result<(Vec<u8>, Option<i32>), String> {
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::null()).stdin(Stdio::null()).spawn().map_err(|e| e.to_string())?;
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout.read_to_end(&mut bytes);
        bytes
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {limit:?}"));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Ok((reader.join().unwrap_or_default(), status.code()))
}

/// The part of a console from the line `START` on.
fn from_start(console: &[u8]) -> &[u8] {
    let at = console.windows(6).position(|w| w == b"START\n").unwrap_or_else(|| {
        panic!("no START line in:\n{}", String::from_utf8_lossy(console));
    });
    &console[at..]
}

#[test]
fn hello_prints_the_same_bytes_as_on_qemu() {
    const QEMU: &str = "qemu-system-riscv64";
    const ARGS: &str = "sched=cfs workload=mix seed=42";
    let ours = run("hello", 1, ARGS);
    assert_eq!(ours.exit, 0);
    assert!(ours.console.contains(&format!("bootargs {ARGS}\n")), "{}", ours.console);
    if Command::new(QEMU).arg("--version").output().is_err() {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{QEMU} is required in CI (apt-get install qemu-system-misc)");
        }
        eprintln!("NOTICE: {QEMU} not found; skipping the QEMU equivalence check");
        return;
    }
    let mut qemu = Command::new(QEMU);
    qemu.args(["-machine", "virt", "-bios", "default", "-nographic", "-monitor", "none", "-kernel"])
        .arg(elf_path("hello"))
        .args(["-append", ARGS]);
    let (stdout, code) = run_with_deadline(&mut qemu, Duration::from_secs(60)).unwrap_or_else(|e| panic!("{QEMU}: {e}"));
    assert_eq!(code, Some(0), "QEMU exit status; output:\n{}", String::from_utf8_lossy(&stdout));
    assert_eq!(
        String::from_utf8_lossy(from_start(&stdout)),
        String::from_utf8_lossy(from_start(ours.console.as_bytes())),
        "console from START on, QEMU (left) vs Runqueue (right)"
    );
}

/// The data cache seen from a guest: stalls are cycles that are not instructions, a buffer
/// that fits misses once, and a line another hart wrote misses again. Without `cache.kb=`
/// nothing stalls; with it, two runs are still identical.
#[test]
fn data_cache_stalls_follow_the_data_between_harts() {
    let expected = |big, small| {
        format!(
            "hart 0 reads 64 KiB: stalled {big} cycles, then {big}\n\
             hart 0 reads 16 KiB: stalled {small} cycles, then 0\n\
             hart 1 reads the 16 KiB hart 0 read: stalled {small} cycles, then 0\n\
             hart 0 reads it again: stalled 0 cycles\n\
             hart 1 writes it: stalled 0 cycles\n\
             hart 0 reads what hart 1 wrote: stalled {small} cycles\n"
        )
    };
    // 32 KiB of 64-byte lines, 100 ns (10 instructions) a miss.
    expect("cache", 2, "cache.kb=32", &expected(1024 * 10, 256 * 10));
    expect("cache", 2, "", &expected(0, 0));
    assert_eq!(run("cache", 2, "cache.kb=32 cache.miss_ns=50"), run("cache", 2, "cache.kb=32 cache.miss_ns=50"));
}
