//! Bad input of every kind gets one clear message and a non-zero exit, never a panic or a hang.

use std::process::{Command, Output};

fn runqueue(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_runqueue")).args(args).output().expect("the runqueue binary runs")
}

fn temp_file(name: &str, bytes: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("runqueue-bad-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_string_lossy().into_owned()
}

/// Asserts a refusal: the exit code, a message mentioning `needle`, and no panic.
fn assert_refused(out: &Output, code: i32, needle: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "stderr: {stderr}");
    assert!(stderr.to_lowercase().contains(&needle.to_lowercase()), "expected {needle:?} in: {stderr}");
    assert!(!stderr.contains("panicked"), "panicked: {stderr}");
}

/// Asserts the kernel refused a command line: its exit code 2, `message` on its console, no panic.
fn assert_kernel_refused(append: &str, message: &str) {
    let out = runqueue(&["run", "--append", append]);
    assert_eq!(out.status.code(), Some(2), "{append}");
    let console = String::from_utf8_lossy(&out.stdout);
    assert!(console.contains(message), "{append}: expected {message:?} in: {console}");
    assert!(!console.contains("panic"), "{append}: {console}");
}

#[test]
fn files_that_are_not_kernels() {
    assert_refused(&runqueue(&["run", "/nonexistent/kernel.elf"]), 125, "cannot read ELF");
    assert_refused(&runqueue(&["run", &temp_file("text.elf", b"hello, not an elf")]), 125, "cannot boot");
    assert_refused(&runqueue(&["run", &temp_file("empty.elf", b"")]), 125, "cannot boot");
    let truncated = &runqueue::run::KERNEL[..100];
    assert_refused(&runqueue(&["run", &temp_file("truncated.elf", truncated)]), 125, "cannot boot");
    let mut wrong_machine = runqueue::run::KERNEL.to_vec();
    wrong_machine[18] = 0x3e; // EM_X86_64
    assert_refused(&runqueue(&["run", &temp_file("x86.elf", &wrong_machine)]), 125, "cannot boot");
}

#[test]
fn bad_flags_and_sizes() {
    assert_refused(&runqueue(&["run", "--smp", "0"]), 125, "hart");
    assert_refused(&runqueue(&["run", "--smp", "99"]), 125, "hart");
    assert_refused(&runqueue(&["run", "--mem", "0"]), 125, "cannot boot");
    assert_refused(&runqueue(&["run", "--append", "smp=lots"]), 125, "bad value 'lots' for smp");
    assert_refused(&runqueue(&["run", "--append", "cache.kb=32 cache.line=48"]), 125, "cache.line=48: the line size must be a power of two");
    assert_refused(&runqueue(&["run", "--append", "cache.kb=48"]), 125, "number of sets");
    assert_refused(&runqueue(&["bench", "--quick", "--machine", "cache.miss_ns=5"]), 125, "cache.miss_ns=5");
    assert_refused(&runqueue(&["run", "--append", "host=cloud"]), 125, "bad value 'cloud' for host: expected one of: bare, untuned, tuned");
    assert_refused(&runqueue(&["run", "--append", "host=bare host.hogs=2"]), 125, "host=bare has no host to set");
    // `--smp` comes after the command line was read: the machine checks the host's CPUs again.
    assert_refused(&runqueue(&["run", "--smp", "3", "--append", "host.cpus=2 host.pin=1"]), 125, "need host.cpus of at least 4");
    assert_refused(&runqueue(&["run", "--bogus"]), 2, "--bogus");
    assert_refused(&runqueue(&["run", "--max-insns", "ten"]), 2, "ten");
}

#[test]
fn a_guest_that_runs_too_long_is_stopped() {
    let out = runqueue(&["run", "--max-insns", "100000", "--append", "sched=cfs workload=spin"]);
    assert_refused(&out, 124, "did not shut down within 100000 instructions");
}

#[test]
fn a_kernel_argument_error_is_the_kernels_exit_code() {
    let out = runqueue(&["run", "--append", "sched=nonsense workload=spin"]);
    assert_eq!(out.status.code(), Some(2));
    let console = String::from_utf8_lossy(&out.stdout);
    assert!(console.contains("nonsense") && console.contains("cfs"), "the kernel names the bad value and the choices: {console}");
}

/// The per-hart settings are checked against the run's harts before any task exists.
#[test]
fn isolcpus_and_nohz_full_name_real_harts_and_leave_one_for_housekeeping() {
    for (append, message) in [
        ("sched=cfs workload=spin smp=2 isolcpus=3", "names a hart this run does not have"),
        ("sched=cfs workload=spin smp=2 isolcpus=0,1", "at least one hart must stay for housekeeping"),
        ("sched=cfs workload=spin smp=2 nohz_full=0,1", "at least one hart must stay for housekeeping"),
        ("sched=cfs workload=spin smp=2 affinity=8", "a task may run on no hart"),
    ] {
        assert_kernel_refused(append, message);
    }
}

/// The cgroup settings: each mistake is refused before any task exists, naming the word at fault.
#[test]
fn cgroup_settings_name_real_groups_and_values_in_range() {
    for (append, message) in [
        ("sched=cfs workload=spin cgroup=a cpu.weight=zz:100", "cpu.weight: 'zz': no such group"),
        ("sched=cfs workload=spin cgroup=a cpu.max=zz:20000", "cpu.max: 'zz': no such group"),
        ("sched=cfs workload=spin cgroup=a cpu.weight=a:0", "'a:0': a weight is an integer in 1..=10000"),
        ("sched=cfs workload=spin cgroup=a cpu.weight=a:10001", "'a:10001': a weight is an integer in 1..=10000"),
        ("sched=cfs workload=spin cgroup=a cpu.weight=a", "'a': entries are GROUP:VALUE"),
        ("sched=cfs workload=spin cgroup=a cpu.max=a:0/100000", "'a:0/100000': a quota of 0 would never let the group run"),
        ("sched=cfs workload=spin cgroup=a cpu.max=a:20000/0", "the period must be 1000..=1000000 us"),
        ("sched=cfs workload=spin cgroup=a,,b", "cgroup: '': an empty group name"),
        ("sched=cfs workload=spin cgroup=a//x", "cgroup: 'a//x': an empty group name"),
        ("sched=cfs workload=spin cgroup=a*0", "NAME*N needs a count N of at least 1"),
        ("sched=rr workload=spin cgroup=a", "cgroup: 'rr': this policy schedules tasks only"),
        ("sched=bvt workload=spin cgroup=a bvt.group_warp_us=a:1000", "group warps are seed 002's BVT: use sched=bvt bvt.rules=patch"),
        ("sched=cfs workload=spin cgroup=a bvt.group_warp_us=a:1000", "group warps are seed 002's BVT"),
    ] {
        assert_kernel_refused(append, message);
    }
}

/// `--kernel` and `--initrd`: an unknown name, a kernel not built yet (with the command that
/// builds it), files that are not kernels, an initrd too big for RAM.
#[test]
fn bad_linux_kernels_and_initrds() {
    assert_refused(&runqueue(&["run", "--kernel", "linux-9.9"]), 125, "no kernel named 'linux-9.9': the named kernels are linux-6.12, linux-6.1, linux-6.12-rt");
    let empty = std::env::temp_dir().join(format!("runqueue-no-linux-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_runqueue"))
        .args(["run", "--kernel", "linux-6.12"])
        .env("RUNQUEUE_LINUX_DIR", &empty)
        .output()
        .unwrap();
    assert_refused(&out, 125, "Linux 6.12 is not built");
    assert!(String::from_utf8_lossy(&out.stderr).contains("run `make linux`"));
    assert_refused(&runqueue(&["run", "--kernel", &temp_file("junk.img", b"not a kernel at all")]), 125, "cannot boot");
    let mut image = vec![0u8; 64];
    image[16..24].copy_from_slice(&(1u64 << 40).to_le_bytes());
    image[56..60].copy_from_slice(b"RSC\x05");
    assert_refused(&runqueue(&["run", "--kernel", &temp_file("huge.img", &image)]), 125, "cannot boot the Linux kernel image");
    let big = temp_file("big.cpio", &vec![0u8; 130 << 20]);
    assert_refused(&runqueue(&["run", "--initrd", &big]), 125, "cannot load the initrd");
    assert_refused(&runqueue(&["run", "--initrd", "/nonexistent.cpio"]), 125, "cannot read initrd");
    assert_refused(&runqueue(&["run", "--kernel", "linux-6.1", "some.elf"]), 2, "cannot be used with");
}

/// A reader that closes the pipe before the output comes (`runqueue ... | head -0`): the
/// command ends without a panic message.
#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    use std::process::Stdio;
    for args in [&["run", "--append", "sched=rr workload=spin"][..], &["homework", "--chapter", "sjf", "--seed", "1", "--count", "3", "--answers"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_runqueue")).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
