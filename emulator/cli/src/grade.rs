//! `runqueue grade`: vets the student's file (`vet`), builds the kernel from the project's
//! core plus only that file in the lab slot, runs every test's workload under an instruction
//! budget, and scores the traces with `runqueue-grader` (`docs/labs.md`).

use crate::bounded::{self, Ended, Limits};
use crate::run::execute;
use crate::{Failure, read_file, write_file};
use clap::Args;
use runqueue_emu::MachineOptions;
use runqueue_grader::{Lab, Outcome, TestCase, TestResult, Visibility, grade_test, gradescope_json, markdown, parse_tests, table, zero_on_protection_fault};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

const TARGET: &str = "riscv64imac-unknown-none-elf";
/// What the grader copies of the tree: the kernel's core, the scheduler API, the kernel's own
/// policies, the lab crate, whose slot then gets the student's file, the lab's protection
/// domain and its ABI, and the settings and device-tree crates the kernel is built with. Nothing else (no
/// tests, no solutions) is in the folder the student's code is compiled in.
const KERNEL_PARTS: &[&str] = &[
    "kernel/src",
    "kernel/Cargo.toml",
    "kernel/Cargo.lock",
    "kernel/build.rs",
    "kernel/link.ld",
    "kernel/.cargo",
    "kernel/sched-api",
    "kernel/policies",
    "kernel/lab",
    "kernel/lab-abi",
    "kernel/lab-domain",
    "settings/Cargo.toml",
    "settings/src",
    "emulator/settings/Cargo.toml",
    "emulator/settings/src",
    "emulator/fdt/Cargo.toml",
    "emulator/fdt/src",
];

#[derive(Args)]
pub struct GradeArgs {
    /// The lab: sjf, mlfq or bvt.
    #[arg(long)]
    pub lab: String,
    /// The student's policy file (the lab's `skeleton.rs`, filled in).
    pub solution: PathBuf,
    /// Also write Gradescope's results.json here (written even when the build fails).
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Also write the per-test points as a Markdown table here (a CI job's summary).
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
    /// An instructor's folder of hidden `*.tests` files, graded after the public tests; `-`
    /// reads them from standard input (so a grader running as a user who cannot read the
    /// instructor's folder can still be given its tests).
    #[arg(long, value_name = "DIR")]
    pub tests: Option<PathBuf>,
    /// Who sees the hidden tests: hidden (left out of the table), after_due_date,
    /// after_published or visible (named in the table, without details).
    #[arg(long, default_value = "hidden")]
    pub hidden_visibility: String,
    /// The Runqueue tree with `kernel/` and `labs/` (default: the one this binary was built in).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Where the kernel copy and its build are kept between grades (default: the user's
    /// cache folder, runqueue/grade/LAB: outside the tree that holds tests and solutions).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// Seconds the kernel build may take; a solution that keeps the compiler busy longer is
    /// stopped and fails every test.
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    pub build_timeout: u64,
    /// MiB of memory (address space) the build may use, the compiler's included; a solution
    /// that needs more is stopped and fails every test.
    #[arg(long, value_name = "MIB", default_value_t = 2048)]
    pub build_memory: u64,
    /// MiB the build may write to any one file; a solution whose build writes more (a huge
    /// static) is stopped and fails every test.
    #[arg(long, value_name = "MIB", default_value_t = 64)]
    pub build_file_size: u64,
    /// The test set's variant: any text (a student's id, a repository's owner) that chooses
    /// the values of the tests' `{...}` placeholders; the same text gives the same tests.
    #[arg(long, value_name = "TEXT", default_value = "")]
    pub variant: String,
}

impl GradeArgs {
    fn limits(&self) -> Limits {
        Limits { time: Duration::from_secs(self.build_timeout), memory: self.build_memory << 20, file_size: self.build_file_size << 20 }
    }
}

pub fn grade(args: &GradeArgs) -> Result<ExitCode, Failure> {
    let lab = Lab::parse(&args.lab).map_err(Failure::Input)?;
    let hidden = Visibility::parse(&args.hidden_visibility).map_err(Failure::Input)?;
    let root = args.root.clone().unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."));
    let tests = tests(lab, &root, args.tests.as_deref(), &args.variant)?;
    let solution = read_file(&args.solution, "solution")?;
    let cache = cache_folder(lab, args.cache.as_deref())?;
    let build = build(lab, &root, &cache, &solution, args.limits())?;
    let results = run_tests(lab, &tests, &build);
    if !args.variant.is_empty() {
        println!("test set of variant {:?}", args.variant);
    }
    print!("{}", table(lab.name(), &results, hidden));
    if let Some(path) = &args.results {
        write_file(path, gradescope_json(lab.name(), &results, hidden, &args.variant).as_bytes())?;
    }
    if let Some(path) = &args.summary {
        write_file(path, markdown(lab.name(), &results, hidden, &args.variant).as_bytes())?;
    }
    let full = results.iter().all(TestResult::passed);
    Ok(if full { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// The lab's public tests, then the instructor's hidden ones from `hidden` (a folder, or `-`
/// for standard input), their placeholders chosen for `variant`.
pub fn tests(lab: Lab, root: &Path, hidden: Option<&Path>, variant: &str) -> Result<Vec<TestCase>, Failure> {
    let mut tests = load_tests(&root.join("labs").join(lab.name()).join("tests"), false, variant)?;
    match hidden {
        Some(dir) if dir.as_os_str() == "-" => {
            let mut text = String::new();
            std::io::stdin().read_to_string(&mut text).map_err(|e| Failure::Input(format!("cannot read the hidden tests from standard input: {e}")))?;
            add_tests(&mut tests, &text, "hidden tests (standard input)", true, variant)?;
        }
        Some(dir) => {
            for t in load_tests(dir, true, variant)? {
                add_test(&mut tests, t, &dir.display().to_string())?;
            }
        }
        None => {}
    }
    Ok(tests)
}

/// Every test run on one build, a policy that left its protection domain zeroing them all.
pub fn run_tests(lab: Lab, tests: &[TestCase], build: &Build) -> Vec<TestResult> {
    let mut results: Vec<TestResult> = tests.iter().map(|t| run_test(lab, t, build)).collect();
    zero_on_protection_fault(&mut results);
    results
}

/// Every `*.tests` file in `dir`, in name order.
fn load_tests(dir: &Path, hidden: bool, variant: &str) -> Result<Vec<TestCase>, Failure> {
    let entries = std::fs::read_dir(dir).map_err(|e| Failure::Input(format!("cannot read the tests folder {}: {e}", dir.display())))?;
    let mut files: Vec<PathBuf> = entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "tests")).collect();
    files.sort();
    if files.is_empty() {
        return Err(Failure::Input(format!("{} holds no *.tests files", dir.display())));
    }
    let mut tests: Vec<TestCase> = Vec::new();
    for file in files {
        let text = String::from_utf8(read_file(&file, "test file")?).map_err(|_| Failure::Input(format!("{} is not UTF-8 text", file.display())))?;
        add_tests(&mut tests, &text, &file.display().to_string(), hidden, variant)?;
    }
    Ok(tests)
}

/// Parses a tests file's `text` into `tests`; `from` names it in messages.
fn add_tests(tests: &mut Vec<TestCase>, text: &str, from: &str, hidden: bool, variant: &str) -> Result<(), Failure> {
    for t in parse_tests(text, from, hidden, variant).map_err(Failure::Input)? {
        add_test(tests, t, from)?;
    }
    Ok(())
}

fn add_test(tests: &mut Vec<TestCase>, test: TestCase, from: &str) -> Result<(), Failure> {
    if tests.iter().any(|o| o.name == test.name) {
        return Err(Failure::Input(format!("two tests are called {} ({from})", test.name)));
    }
    tests.push(test);
    Ok(())
}

/// The folder a lab's builds are kept in: `cache`, made absolute (cargo runs inside the copy,
/// where a relative path would name another folder), or the user's default.
pub fn cache_folder(lab: Lab, cache: Option<&Path>) -> Result<PathBuf, Failure> {
    let cache = cache.map_or_else(|| default_cache(lab), Path::to_path_buf);
    std::path::absolute(&cache).map_err(|e| Failure::Input(format!("bad cache folder {}: {e}", cache.display())))
}

/// `$XDG_CACHE_HOME/runqueue/grade/LAB`, else `~/.cache/...`, else the temporary folder's.
fn default_cache(lab: Lab) -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("runqueue/grade").join(lab.name())
}

/// The built kernel, the compiler's complaint, or why the file was not built at all.
pub enum Build {
    Elf(Vec<u8>),
    Error(String),
    Refused(String),
}

/// Vets the solution, and builds the kernel with it if it passes.
pub fn build(lab: Lab, root: &Path, cache: &Path, solution: &[u8], limits: Limits) -> Result<Build, Failure> {
    match crate::vet::vet(&String::from_utf8_lossy(solution)) {
        Err(refusal) => Ok(Build::Refused(refusal.to_string())),
        Ok(()) => build_kernel(lab, root, cache, solution, limits),
    }
}

/// Refreshes the cached kernel copy (files whose bytes changed only, so cargo rebuilds
/// incrementally), puts the solution in the lab slot, and builds, showing cargo's progress on
/// stderr (the first build in a cache compiles the whole kernel).
fn build_kernel(lab: Lab, root: &Path, cache: &Path, solution: &[u8], limits: Limits) -> Result<Build, Failure> {
    let io = |what: &str, e: std::io::Error| Failure::Input(format!("{what}: {e}"));
    let kernel = cache.join("kernel");
    let slot = kernel.join("lab/src").join(format!("{}.rs", lab.name()));
    // The slot is left out of the copy: copying the tree's skeleton over the last solution and
    // then the solution back would make cargo rebuild the kernel for an unchanged file.
    for part in KERNEL_PARTS {
        sync(&root.join(part), &cache.join(part), &slot).map_err(|e| io(&format!("cannot copy the kernel to {}", kernel.display()), e))?;
    }
    write_if_changed(&slot, solution).map_err(|e| io("cannot place the solution", e))?;
    let mut cargo = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    // A clean environment, as build.rs does: the outer build's settings are for the host.
    for (key, _) in std::env::vars() {
        if (key.starts_with("CARGO") && key != "CARGO_HOME") || key.contains("RUSTFLAGS") || key == "RUSTC_WRAPPER" {
            cargo.env_remove(key);
        }
    }
    let target_dir = cache.join("target");
    // As build.rs builds the bundled kernel: files named from the copy's root, not from `/`.
    let root = cache.canonicalize().map_err(|e| io("cannot find the kernel copy", e))?;
    cargo
        .env("RUSTFLAGS", format!("--remap-path-prefix={}/=", root.display()))
        .current_dir(&kernel)
        .args(["build", "--release", "--message-format=short", "--target", TARGET, "--target-dir"])
        .arg(&target_dir);
    let first = !target_dir.exists();
    if first {
        eprintln!("runqueue grade: the first build of the kernel in {} (later builds take seconds):", cache.display());
    }
    let started = Instant::now();
    let progress = move |line: &str| {
        if first && line.trim_start().starts_with("Compiling") {
            eprintln!("  {}", line.trim());
        }
    };
    let ended = bounded::run(&mut cargo, limits, progress).map_err(|e| io("cannot run cargo to build the kernel", e))?;
    eprintln!("runqueue grade: built in {:.1} s", started.elapsed().as_secs_f64());
    match ended {
        Ended::Stopped(why) => return Ok(Build::Error(why)),
        Ended::Exited { ok: false, stderr } => return Ok(Build::Error(first_error(&stderr))),
        Ended::Exited { ok: true, .. } => {}
    }
    let elf = target_dir.join(TARGET).join("release/runqueue-kernel");
    Ok(Build::Elf(read_file(&elf, "built kernel")?))
}

/// The compiler's first error (short format: one line each), or its whole output.
fn first_error(stderr: &str) -> String {
    stderr.lines().find(|l| l.contains("error")).unwrap_or(stderr.trim()).to_string()
}

fn write_if_changed(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, bytes)
}

/// Mirrors `from` (a file or a folder) to `to`, following symlinks, rewriting only files whose
/// bytes differ and removing files `from` no longer has; `keep`, a file under `to`, is left as
/// it is.
fn sync(from: &Path, to: &Path, keep: &Path) -> std::io::Result<()> {
    if to == keep {
        return Ok(());
    }
    if !from.is_dir() {
        return write_if_changed(to, &std::fs::read(from)?);
    }
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(to)?.flatten() {
        if !from.join(entry.file_name()).exists() && entry.path() != keep {
            let path = entry.path();
            if path.is_dir() { std::fs::remove_dir_all(path)? } else { std::fs::remove_file(path)? }
        }
    }
    for entry in std::fs::read_dir(from)?.flatten() {
        sync(&entry.path(), &to.join(entry.file_name()), keep)?;
    }
    Ok(())
}

fn run_test(lab: Lab, test: &TestCase, build: &Build) -> TestResult {
    let elf = match build {
        Build::Elf(elf) => elf,
        Build::Error(error) => return grade_test(lab, test, &Outcome::NotBuilt(error)),
        Build::Refused(why) => return grade_test(lab, test, &Outcome::Refused(why)),
    };
    let bootargs = format!("sched={} {}", lab.sched(), test.args);
    // The machine the test's arguments ask for, as everywhere (the page grades the same way).
    let options = match MachineOptions::parse(&bootargs) {
        Ok(options) => options,
        Err(e) => return grade_test(lab, test, &Outcome::Aborted(&e.to_string())),
    };
    match execute(elf, &options, test.max_insns, |_| {}) {
        Ok(out) => match out.exit {
            Some(exit_code) => grade_test(lab, test, &Outcome::Finished { exit_code, console: &out.console, trace: &out.trace }),
            None => grade_test(lab, test, &Outcome::OutOfBudget { trace: &out.trace, end_ns: out.time_ns }),
        },
        Err(Failure::Input(why) | Failure::Budget(why)) => grade_test(lab, test, &Outcome::Aborted(&why)),
    }
}

#[cfg(test)]
mod tests {
    use super::sync;

    #[test]
    fn sync_mirrors_the_tree_but_leaves_the_slot_alone() {
        let dir = std::env::temp_dir().join(format!("runqueue-sync-{}", std::process::id()));
        let (from, to) = (dir.join("from"), dir.join("to"));
        for (path, text) in [(from.join("src/sjf.rs"), "skeleton"), (from.join("src/lib.rs"), "new"), (to.join("src/sjf.rs"), "solution"), (to.join("src/lib.rs"), "old"), (to.join("src/gone.rs"), "stale")] {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        sync(&from, &to, &to.join("src/sjf.rs")).unwrap();
        let read = |name: &str| std::fs::read_to_string(to.join("src").join(name)).ok();
        assert_eq!((read("sjf.rs").as_deref(), read("lib.rs").as_deref(), read("gone.rs")), (Some("solution"), Some("new"), None));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
