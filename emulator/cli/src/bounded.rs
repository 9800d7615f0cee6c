//! Running the build of a student's file within limits: the compiler runs code the student
//! wrote (constant evaluation, macros), so the grading machine gives it a bounded share of
//! itself. Cargo and every compiler it starts run in a process group of their own, with at most
//! `memory` bytes of address space and `file_size` bytes per file written (rlimits, inherited),
//! for at most `time`; a build past a limit is stopped and says which limit it met.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub time: Duration,
    pub memory: u64,
    pub file_size: u64,
}

/// How a bounded build ended.
pub enum Ended {
    /// It ran to the end: whether it succeeded, and what it printed on stderr.
    Exited { ok: bool, stderr: String },
    /// It met a limit and was stopped: why, as a sentence for the student.
    Stopped(String),
}

/// Runs `command` (cargo) within `limits`, stdout discarded and stderr kept; `each_line` sees
/// every line of stderr as it comes (to show progress).
pub fn run(command: &mut Command, limits: Limits, mut each_line: impl FnMut(&str) + Send + 'static) -> std::io::Result<Ended> {
    use std::os::unix::process::CommandExt;
    let (memory, file_size) = (limits.memory, limits.file_size);
    // Only async-signal-safe calls between fork and exec: two setrlimit calls.
    let set_limits = move || {
        for (resource, bytes) in [(libc::RLIMIT_AS, memory), (libc::RLIMIT_FSIZE, file_size)] {
            let limit = libc::rlimit { rlim_cur: bytes as libc::rlim_t, rlim_max: bytes as libc::rlim_t };
            // SAFETY: a plain system call on a valid struct.
            if unsafe { libc::setrlimit(resource, &limit) } != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
        Ok(())
    };
    // SAFETY: the closure only calls setrlimit, which is async-signal-safe.
    unsafe { command.pre_exec(set_limits) };
    let mut child = command.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped()).process_group(0).spawn()?;
    // Drained on its own thread, so a chatty compiler cannot fill the pipe and stall.
    let pipe = child.stderr.take().expect("stderr is piped");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        for line in BufReader::new(pipe).split(b'\n').map_while(Result::ok) {
            let line = String::from_utf8_lossy(&line);
            each_line(&line);
            text.push_str(&line);
            text.push('\n');
        }
        text
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if start.elapsed() >= limits.time {
            // The whole group: cargo and the compilers it started.
            let _ = Command::new("kill").args(["-KILL", "--", &format!("-{}", child.id())]).status();
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let stderr = reader.join().unwrap_or_default();
    Ok(match status {
        None => Ended::Stopped(format!(
            "the build did not finish within {} s and was stopped: does a constant, a macro or a type in your file make the compiler loop?",
            limits.time.as_secs()
        )),
        Some(status) => match limit_met(&stderr, limits) {
            Some(why) if !status.success() => Ended::Stopped(why),
            _ => Ended::Exited { ok: status.success(), stderr },
        },
    })
}

/// The limit a failed build met, from what cargo says of the compiler that died: a file too
/// large kills the writer with SIGXFSZ (25); memory that cannot be had makes it abort, or (the
/// kernel's out-of-memory killer) kills it.
fn limit_met(stderr: &str, limits: Limits) -> Option<String> {
    let mib = |bytes: u64| bytes >> 20;
    if stderr.contains("(signal: 25") || stderr.contains("SIGXFSZ") {
        return Some(format!(
            "the build tried to write a file larger than {} MiB and was stopped: a huge static or constant in your file?",
            mib(limits.file_size)
        ));
    }
    let memory = ["memory allocation of", "(signal: 6", "SIGABRT", "(signal: 9", "SIGKILL", "out of memory"];
    if memory.iter().any(|m| stderr.contains(m)) {
        return Some(format!(
            "the build needed more than the {} MiB of memory it may use and was stopped: a huge static, constant or type in your file?",
            mib(limits.memory)
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits { time: Duration::from_secs(20), memory: 256 << 20, file_size: 1 << 20 };

    fn sh(script: &str, limits: Limits) -> Ended {
        run(Command::new("sh").args(["-c", script]), limits, |_| {}).unwrap()
    }

    #[test]
    fn a_file_over_the_limit_stops_the_writer_and_says_so() {
        // dd dies of SIGXFSZ; what cargo would print of it is what the message is made from.
        let script = "dd if=/dev/zero of=\"$0\" bs=1M count=4 2>/dev/null; s=$?; echo \"(signal: $((s - 128)))\" >&2; exit 1";
        let dir = std::env::temp_dir().join(format!("runqueue-bounded-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("big");
        let ended = run(Command::new("sh").args(["-c", script]).arg(&file), LIMITS, |_| {}).unwrap();
        let size = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(size <= 1 << 20, "{size} bytes written");
        match ended {
            Ended::Stopped(why) => assert!(why.contains("larger than 1 MiB"), "{why}"),
            Ended::Exited { stderr, .. } => panic!("not stopped: {stderr}"),
        }
    }

    #[test]
    fn memory_past_the_limit_cannot_be_had() {
        // A shell that asks for 512 MiB at once fails under a 256 MiB address space.
        let script = "head -c 536870912 /dev/zero | tr '\\0' x | (v=$(cat); echo ${#v}) || { echo 'memory allocation of 536870912 bytes failed' >&2; exit 1; }";
        match sh(script, LIMITS) {
            Ended::Stopped(why) => assert!(why.contains("more than the 256 MiB of memory"), "{why}"),
            Ended::Exited { ok, stderr } => panic!("not stopped ({ok}): {stderr}"),
        }
    }

    #[test]
    fn a_build_past_its_time_is_stopped_with_its_whole_group() {
        let limits = Limits { time: Duration::from_secs(1), ..LIMITS };
        let start = Instant::now();
        match sh("sleep 30 & sleep 30; wait", limits) {
            Ended::Stopped(why) => assert!(why.contains("did not finish within 1 s"), "{why}"),
            Ended::Exited { .. } => panic!("not stopped"),
        }
        assert!(start.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn a_failed_build_within_the_limits_keeps_its_output() {
        match sh("echo 'error: expected one of' >&2; exit 101", LIMITS) {
            Ended::Exited { ok, stderr } => assert!(!ok && stderr.contains("expected one of")),
            Ended::Stopped(why) => panic!("{why}"),
        }
    }
}
