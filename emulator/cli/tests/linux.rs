//! Linux 6.12, 6.1 and 6.12-rt on Runqueue's machine: every workload reaches its table and RESULT
//! line on each kernel, the same arguments give the same bytes (booted cold or from a snapshot),
//! Linux's own ftrace comes out, and the settings reach Linux through its real interfaces (nice,
//! cgroups, affinity, SCHED_DEADLINE).
//! They need the kernels `make linux` builds, so they are ignored unless asked for:
//! `make test-linux-native` runs them (`--ignored`, with RUNQUEUE_LINUX_DIR set).

use runqueue::linux::{NAMED, boot};
use runqueue::run::{Outcome, execute_in};
use runqueue::tier::ExecMode;
use runqueue_emu::{Machine, MachineOptions, Snapshot, Stop};
use runqueue_report::{RunResult, console, ftrace_raw, linux as ftrace_text, trace::Kind};

const BUDGET: u64 = 30_000_000_000;

fn run_in(exec: ExecMode, kernel: &str, smp: usize, append: &str) -> Outcome {
    let b = boot(kernel, None).unwrap_or_else(|e| panic!("{e}"));
    let options = MachineOptions::parse(&runqueue_emu::command_line(&b.kernel, append)).unwrap_or_else(|e| panic!("`{append}`: {e}")).with_harts(smp);
    execute_in(exec, &b.kernel, b.initrd.as_deref(), &options, BUDGET, |_| {}).unwrap_or_else(|e| panic!("{kernel} `{append}`: {e}"))
}

fn run(kernel: &str, smp: usize, append: &str) -> Outcome {
    run_in(ExecMode::Fast, kernel, smp, append)
}

fn result(out: &Outcome, what: &str) -> RunResult {
    assert_eq!(out.exit, Some(0), "{what}: exit; console:\n{}", out.console);
    let json = console::result_json(&out.console).unwrap_or_else(|| panic!("{what}: no RESULT line; console:\n{}", out.console));
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{what}: RESULT does not parse: {e}"))
}

/// The workloads the init offers, with how many tasks each makes at its defaults.
const WORKLOADS: &[(&str, usize)] = &[
    ("fairness-equal", 4),
    ("fairness-unequal", 4),
    ("yield-speed", 4),
    ("realtime", 5),
    ("occupy", 3),
    ("spin", 10),
    ("intr", 10),
    ("hackbench", 20),
    ("cyclictest", 9),
    ("deadline", 2),
    ("bursts", 3),
    ("arrivals", 40),
];

#[test]
#[ignore = "needs `make linux`"]
fn every_workload_prints_its_table_and_result_on_every_kernel() {
    for kernel in NAMED {
        for &(workload, tasks) in WORKLOADS {
            let what = format!("{kernel} {workload}");
            let out = run(kernel, 2, &format!("workload={workload}"));
            let r = result(&out, &what);
            assert_eq!((r.workload.as_str(), r.sched.as_str(), r.smp, r.tasks.len()), (workload, *kernel, 2, tasks), "{what}");
            assert!(out.console.contains(&format!("{workload} under {kernel} on 2 hart(s):")), "{what}: the table's title");
            for t in &r.tasks {
                assert!(t.cpu_ns > 0 && t.switches > 0 && t.finish_ns >= t.arrive_ns, "{what}: {t:?}");
                assert!(t.finish_ns <= r.time_ns, "{what}: {t:?} finishes after the run's end");
            }
            assert!(r.tasks.iter().any(|t| t.iterations > 0), "{what}: no work counted");
            let events = ftrace_text::parse(&out.trace).unwrap_or_else(|e| panic!("{what}: {e}"));
            for t in &r.tasks {
                assert!(events.iter().any(|e| e.kind == Kind::In && e.tid == t.tid), "{what}: task {} never switched in in the trace", t.tid);
            }
        }
    }
}

#[test]
#[ignore = "needs `make linux`"]
fn the_same_arguments_give_the_same_bytes_in_every_execution_mode() {
    let append = "workload=hackbench wl.groups=1 wl.loops=20 seed=7";
    for kernel in NAMED {
        let fast = run(kernel, 2, append);
        let again = run(kernel, 2, append);
        let interp = run_in(ExecMode::Interp, kernel, 2, append);
        for other in [&again, &interp] {
            assert_eq!(fast.console, other.console, "{kernel}: console");
            assert_eq!(fast.trace, other.trace, "{kernel}: trace");
            assert_eq!(fast.time_ns, other.time_ns, "{kernel}: time");
        }
        assert!(ftrace_text::is_ftrace(&fast.trace) && fast.trace.contains("sched_switch"), "{kernel}: Linux's own ftrace");
    }
}

/// `kernel` booted cold with `append` and run to its end, parked at the init's request for its
/// words when `park` is given: the console and trace printed, and the machine's snapshot there.
fn machine_run(kernel: &str, append: &str, park: bool) -> (Vec<u8>, Vec<u8>, Option<Snapshot>) {
    let b = boot(kernel, None).unwrap_or_else(|e| panic!("{e}"));
    let options = MachineOptions::parse(&runqueue_emu::command_line(&b.kernel, append)).unwrap().with_harts(2);
    let mut m = Machine::boot(&b.kernel, b.initrd.as_deref(), &options).unwrap();
    let mut snapshot = None;
    if park {
        m.park_at_words();
    }
    let (mut console, mut trace) = (Vec::new(), Vec::new());
    loop {
        let stop = m.run(50_000_000);
        console.extend(m.take_console());
        trace.extend(m.take_trace());
        if m.is_parked() {
            snapshot = Some(m.snapshot(0, &console, &trace));
            m.unpark(&options.bootargs);
            continue;
        }
        assert!(m.instret() < BUDGET, "{kernel} `{append}`: no end");
        if stop != Stop::Budget {
            assert_eq!(stop, Stop::Exit(0), "{kernel} `{append}`: {}", String::from_utf8_lossy(&console));
            return (console, trace, snapshot);
        }
    }
}

/// The rest of a run resumed from `snapshot` with `append`.
fn resumed_run(kernel: &str, snapshot: &Snapshot, append: &str) -> (Vec<u8>, Vec<u8>) {
    let b = boot(kernel, None).unwrap();
    let options = MachineOptions::parse(&runqueue_emu::command_line(&b.kernel, append)).unwrap().with_harts(2);
    let mut m = Machine::resume(snapshot, &options.bootargs).unwrap();
    let (mut console, mut trace) = (Vec::new(), Vec::new());
    while m.run(50_000_000) == Stop::Budget {
        assert!(m.instret() < BUDGET, "{kernel} `{append}`: no end");
    }
    console.extend(m.take_console());
    trace.extend(m.take_trace());
    (console, trace)
}

/// A run started from a snapshot of another run's boot, parked where the init asks for its
/// words, is that run booted cold, to the byte: the boot does not depend on the init's words,
/// and the snapshot holds the whole machine. Words Linux itself reads change the boot, and so
/// the key of the snapshot it may start from.
#[test]
#[ignore = "needs `make linux`"]
fn a_run_from_a_snapshot_is_the_run_booted_cold() {
    for kernel in NAMED {
        let first = "workload=fairness-unequal wl.run_ms=200";
        let (_, _, snapshot) = machine_run(kernel, first, true);
        let snapshot = snapshot.unwrap_or_else(|| panic!("{kernel}: the init never asked for its words"));
        // The second resumes from the snapshot written to bytes and read back, as the page does.
        let from_bytes = Snapshot::from_bytes(&snapshot.to_bytes().unwrap()).unwrap();
        for (other, snapshot) in [("workload=hackbench wl.groups=1 wl.loops=20 trace=on", &snapshot), ("workload=intr wl.tasks=3 nice=0,5,10", &from_bytes)] {
            let (console, trace, _) = machine_run(kernel, other, false);
            let resumed = resumed_run(kernel, snapshot, other);
            assert_eq!(String::from_utf8_lossy(&console), String::from_utf8_lossy(&resumed.0), "{kernel} `{other}`: console");
            assert!(trace == resumed.1, "{kernel} `{other}`: trace differs");
            assert!(console.windows(6).any(|w| w == b"RESULT"), "{kernel} `{other}`: no RESULT");
        }
        let b = boot(kernel, None).unwrap();
        let key = |append: &str| {
            let options = MachineOptions::parse(&runqueue_emu::command_line(&b.kernel, append)).unwrap().with_harts(2);
            Machine::boot_key(&options.config(), &b.kernel, b.initrd.as_deref()).unwrap()
        };
        assert_eq!(key(first), key("workload=spin wl.tasks=3"), "{kernel}: the init's words are not the boot's");
        for linux_word in ["isolcpus=1", "seed=3", "threadirqs"] {
            assert_ne!(key(first), key(&format!("{first} {linux_word}")), "{kernel}: {linux_word} changes the boot");
        }
    }
}

/// Linux's trace read out in its binary form and printed on the host is Linux's own text of the
/// same buffer, to the byte, header included: `ftrace.read=both` hands over the `trace` file's
/// text (which leaves the buffer as it is) and then the ring buffer's pages.
#[test]
#[ignore = "needs `make linux`"]
fn the_raw_trace_printed_on_the_host_is_linuxs_own_text() {
    for kernel in NAMED {
        for workload in ["hackbench", "cyclictest", "intr", "deadline"] {
            let what = format!("{kernel} workload={workload}");
            let (_, trace, _) = machine_run(kernel, &format!("workload={workload} ftrace.read=both"), false);
            let at = trace.windows(ftrace_raw::MAGIC.len()).position(|w| w == ftrace_raw::MAGIC.as_bytes()).unwrap_or_else(|| panic!("{what}: no raw container"));
            let (text, raw) = (String::from_utf8(trace[..at].to_vec()).unwrap(), &trace[at..]);
            let printed = ftrace_raw::to_text(raw).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(text.lines().count() > 200 && text.contains("tracing_mark_write"), "{what}: Linux's text is too short to compare");
            if printed != text {
                let (n, (ours, linux)) = printed.lines().zip(text.lines()).enumerate().find(|(_, (a, b))| a != b).unwrap_or((0, ("", "")));
                panic!("{what}: the printed trace differs from Linux's at line {}:\n ours:  {ours:?}\n Linux: {linux:?}\n({} against {} lines)", n + 1, printed.lines().count(), text.lines().count());
            }
        }
    }
}

#[test]
#[ignore = "needs `make linux`"]
fn bad_words_are_refused_with_a_reason_and_exit_code_2() {
    for (append, says) in [
        ("workload=nope", "unknown workload 'nope'; accepted on Linux: fairness-equal"),
        ("workload=spin wl.bogus=1", "unknown argument 'wl.bogus'"),
        ("workload=spin wl.tasks=0", "bad value '0' for wl.tasks: expected an integer in 1..=32"),
        ("workload=spin rq=perhart", "'rq' is the teaching kernel's"),
        ("workload=spin cfs.latency_ns=4000000", "Linux 6.12 has EEVDF"),
        ("workload=spin mitigations=off nosmt", "argument 'nosmt' is neither the init's nor one of Linux's parameters"),
    ] {
        let out = run("linux-6.12", 1, append);
        assert_eq!(out.exit, Some(2), "`{append}`: {}", out.console);
        assert!(out.console.contains(says), "`{append}`: wanted '{says}' in:\n{}", out.console);
    }
    let out = run("linux-6.1", 1, "workload=spin eevdf.base_slice_ns=3000000");
    assert!(out.exit == Some(2) && out.console.contains("Linux 6.1 has CFS"), "{}", out.console);
}

/// The boot's cuts of `linux/config/` reach Linux: its built-in words follow the machine's
/// (`CONFIG_CMDLINE_EXTEND`), it skips the two initcalls they name, and 6.12 (and 6.12-rt)
/// alone allocates the trace's ring buffer at boot (`ftrace=nop`), which 6.1 leaves to the run.
#[test]
#[ignore = "needs `make linux`"]
fn the_kernels_boot_without_what_nothing_here_reads() {
    for kernel in NAMED {
        let out = run(kernel, 1, "workload=fairness-unequal wl.run_ms=1 trace=off loglevel=8");
        let ring_at_boot = if *kernel == "linux-6.1" { "" } else { " ftrace=nop trace_buf_size=8M" };
        let line = format!("Kernel command line: console=hvc0 quiet loglevel=8 initcall_blacklist=blake2s_mod_init,trace_eval_init{ring_at_boot}");
        assert!(out.console.lines().any(|l| l.trim_end() == line), "{kernel}: wanted `{line}` in:\n{}", out.console);
        for initcall in ["blake2s_mod_init", "trace_eval_init"] {
            assert!(out.console.contains(&format!("initcall {initcall} blacklisted")), "{kernel}: {initcall} ran");
        }
        assert_eq!(out.console.contains("Starting tracer 'nop'"), !ring_at_boot.is_empty(), "{kernel}: the ring buffer at boot");
    }
}

/// Each task's share of the CPU time the tasks got.
fn shares(r: &RunResult) -> Vec<f64> {
    let total: u64 = r.tasks.iter().map(|t| t.cpu_ns).sum();
    r.tasks.iter().map(|t| t.cpu_ns as f64 / total as f64).collect()
}

#[test]
#[ignore = "needs `make linux`"]
fn nice_and_cgroup_settings_reach_linux() {
    for kernel in NAMED {
        // nice 0 against nice 5 on one CPU: weights 1024 and 335, a 75:25 split.
        let r = result(&run(kernel, 1, "workload=spin wl.tasks=2 wl.run_ms=400 nice=0,5"), kernel);
        let s = shares(&r);
        assert!((s[0] - 1024.0 / 1359.0).abs() < 0.04, "{kernel} nice 0 vs 5: {s:?}");
        // cpu.weight 100 against 300: 25:75.
        let r = result(&run(kernel, 1, "workload=spin wl.tasks=2 wl.run_ms=400 cgroup=a,b cpu.weight=a:100,b:300"), kernel);
        let s = shares(&r);
        assert!((s[1] - 0.75).abs() < 0.04, "{kernel} cpu.weight 100:300: {s:?}");
        // cpu.max caps a lone group at a fifth of the CPU.
        let r = result(&run(kernel, 1, "workload=spin wl.tasks=1 wl.run_ms=500 cgroup=a cpu.max=a:20000/100000"), kernel);
        let t = &r.tasks[0];
        let ratio = t.cpu_ns as f64 / t.finish_ns as f64;
        assert!((ratio - 0.2).abs() < 0.04, "{kernel} cpu.max 20%: {ratio} ({t:?})");
    }
}

#[test]
#[ignore = "needs `make linux`"]
fn affinity_and_deadline_reach_linux() {
    for kernel in NAMED {
        // Two spinners pinned to CPU 1 share it; CPU 0 runs neither.
        let out = run(kernel, 2, "workload=spin wl.tasks=2 wl.run_ms=200 affinity=2,2");
        let r = result(&out, kernel);
        let events = ftrace_text::parse(&out.trace).unwrap();
        for t in &r.tasks {
            assert!(events.iter().filter(|e| e.kind == Kind::In && e.tid == t.tid).all(|e| e.hart == 1), "{kernel}: {} ran off CPU 1", t.name);
        }
        // SCHED_DEADLINE at a utilisation of 0.73 on one CPU, each job 80% of its reservation:
        // every job meets its deadline.
        let out = run(kernel, 1, "workload=deadline wl.runtime_us=1500,3000 wl.work_pct=80 wl.run_ms=300");
        let r = result(&out, kernel);
        let misses = ftrace_text::parse(&out.trace).unwrap().iter().filter(|e| e.kind == Kind::Mark && e.get("miss").is_some()).count();
        assert_eq!(misses, 0, "{kernel}: EDF missed deadlines: {:?}", r.tasks);
        let jobs: u64 = r.tasks.iter().map(|t| t.iterations).sum();
        assert!(jobs >= 300 / 5 + 300 / 7 - 2, "{kernel}: {jobs} jobs done in 300 ms");
        // 0.95 on one CPU: 6.1 admits it (sched_rt_runtime_us allows 95%); 6.12's fair server
        // holds 5% of the same budget (with PREEMPT_RT too), so its admission control refuses
        // the second task.
        let out = run(kernel, 1, "workload=deadline wl.run_ms=50");
        if kernel.starts_with("linux-6.12") {
            assert!(out.exit == Some(2) && out.console.contains("admission control refused"), "{}", out.console);
        } else {
            result(&out, kernel);
        }
    }
}

/// The command line end to end: `--kernel` finds the built kernel, `--ftrace` writes Linux's
/// own text as it is, `--trace` the same Chrome trace as the teaching kernel's, `--json` the
/// RESULT; the exit code is the guest's.
#[test]
#[ignore = "needs `make linux`"]
fn the_cli_writes_linuxs_trace_and_results() {
    let dir = std::env::temp_dir().join(format!("runqueue-linux-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_runqueue"))
        .args(["run", "--kernel", "linux-6.1", "--smp", "2", "--append", "workload=spin wl.tasks=3 wl.run_ms=100"])
        .args(["--ftrace", &path("trace.txt"), "--trace", &path("trace.json"), "--json", &path("result.json")])
        .output()
        .unwrap();
    let console = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{console}{}", String::from_utf8_lossy(&out.stderr));
    assert!(console.contains("spin under linux-6.1 on 2 hart(s)"), "{console}");
    let ftrace = std::fs::read_to_string(path("trace.txt")).unwrap();
    assert!(ftrace.starts_with("# tracer: nop\n") && ftrace.contains("#P:2"), "Linux's own header");
    assert!(ftrace.contains(": sched_switch: prev_comm=") && ftrace.contains(": tracing_mark_write: iter=1"));
    let chrome: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path("trace.json")).unwrap()).unwrap();
    let events = chrome.as_array().or_else(|| chrome["traceEvents"].as_array()).expect("a list of trace events");
    for name in ["spin0", "spin1", "spin2"] {
        assert!(events.iter().any(|e| e["ph"] == "B" && e["name"] == name), "no slice of {name} in the Chrome trace");
    }
    let r: RunResult = serde_json::from_str(&std::fs::read_to_string(path("result.json")).unwrap()).unwrap();
    assert_eq!((r.sched.as_str(), r.tasks.len()), ("linux-6.1", 3));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Linux 6.12 with PREEMPT_RT beside the voluntary 6.12, on the chapter "Where latency comes
/// from"'s cyclictest with a hackbench load, over eight seeds: the RT kernel names itself, its
/// sleeping locks make the pairs switch far more often (two to three times), its RCU
/// callbacks and softirqs run in threads, and with every seed its average latency is higher,
/// while the voluntary kernel never makes a wakeup wait long (under 0.3 ms: a fifth of a
/// period, no long section for RT to bound). Which of the two has the worse single worst case
/// depends on the seed and on the boot's length.
#[test]
#[ignore = "needs `make linux`"]
fn preempt_rt_here_costs_the_average_and_switches_more() {
    for seed in 0..8 {
        let append = format!("workload=cyclictest wl.load_type=hackbench wl.load=8 seed={seed}");
        let (voluntary, rt) = (run("linux-6.12", 1, &append), run("linux-6.12-rt", 1, &append));
        let (v, r) = (result(&voluntary, "6.12"), result(&rt, "6.12-rt"));
        assert_eq!((v.sched.as_str(), r.sched.as_str()), ("linux-6.12", "linux-6.12-rt"));
        let switches = |out: &Outcome| out.trace.matches("sched_switch:").count();
        assert!(10 * switches(&rt) > 19 * switches(&voluntary), "seed {seed}: switches: RT {} against {}", switches(&rt), switches(&voluntary));
        // RCU's callbacks run in a thread of their own on RT alone; the softirqs, which the
        // voluntary kernel runs on the way out of an interrupt, run in ksoftirqd there.
        let runs = |out: &Outcome, thread: &str| out.trace.matches(&format!("next_comm={thread} ")).count();
        assert!(runs(&rt, "rcuc/0") > 0 && runs(&voluntary, "rcuc/0") == 0, "seed {seed}: rcuc/0 runs on RT alone");
        let (soft_rt, soft_v) = (runs(&rt, "ksoftirqd/0"), runs(&voluntary, "ksoftirqd/0"));
        assert!(soft_rt > 10 * soft_v.max(1), "seed {seed}: ksoftirqd/0 ran {soft_rt} times on RT against {soft_v}");
        let lat = |r: &RunResult| r.tasks[0].lat.clone().expect("cyclic's latencies");
        let (lv, lr) = (lat(&v), lat(&r));
        assert!(lr.avg_ns > lv.avg_ns, "seed {seed}: average: RT {} against {} ns", lr.avg_ns, lv.avg_ns);
        assert!(lv.max_ns < 300_000, "seed {seed}: the voluntary kernel's worst wakeup took {} ns", lv.max_ns);
    }
}
