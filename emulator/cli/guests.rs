// Builds a riscv64 guest (the teaching kernel, the benchmark program) so that its ELF does not
// depend on where the repository was cloned. The CLI's build script `include!`s this file; `make
// kernel` compiles it alone with rustc (its `main`), so both build the same bytes with one cargo
// fingerprint.
//
// Why it matters: the kernel's layout sets the data cache's figures (`cache.*`), and `runqueue
// inputs` hashes the ELF, so two checkouts of one commit must build the same bytes to share the
// run cache. Two things would carry the checkout's folder in:
// - panic locations: `remap_flags` names files from the root instead;
// - cargo's name for each crate outside the guest's workspace (`settings/`, `emulator/settings/`,
//   `emulator/fdt/`): its absolute folder, which reaches the symbol hashes that order the
//   functions. So guests are built through one path per machine, `StableTree`.

use std::path::{Path, PathBuf};
use std::process::Command;

pub const TARGET: &str = "riscv64imac-unknown-none-elf";

/// `guests ROOT DIR BIN TARGET_DIR`: builds the binary BIN of the guest in ROOT/DIR into
/// TARGET_DIR (`make kernel`), showing cargo's progress.
#[allow(dead_code)]
pub fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [root, dir, bin, target_dir] = args.as_slice() else {
        eprintln!("usage: guests ROOT DIR BIN TARGET_DIR");
        std::process::exit(2);
    };
    let root = Path::new(root).canonicalize().unwrap_or_else(|e| panic!("{root}: {e}"));
    let tree = StableTree::enter(&root).unwrap_or_else(|e| {
        eprintln!("warning: {}", StableTree::why_not(&root, &e));
        StableTree::here(&root)
    });
    build(&tree, dir, Path::new(target_dir), bin);
}

/// The checkout as the guests' builds name it: `tree`, a link in the run cache's folder (found as
/// scripts/run-cache.mjs finds it) pointed at this checkout while `tree.lock` is held, so a build
/// of another checkout waits rather than build through the link into this one.
pub struct StableTree {
    root: PathBuf,
    path: PathBuf,
    _lock: Option<std::fs::File>,
}

impl StableTree {
    /// The environment variables `enter` reads.
    pub const ENV: [&str; 3] = ["RUNQUEUE_CACHE", "XDG_CACHE_HOME", "HOME"];

    #[cfg(unix)]
    pub fn enter(root: &Path) -> std::io::Result<StableTree> {
        let env = |var| std::env::var_os(var).filter(|v| !v.is_empty()).map(PathBuf::from);
        let dir = env("RUNQUEUE_CACHE")
            .or_else(|| env("XDG_CACHE_HOME").map(|d| d.join("runqueue")))
            .or_else(|| env("HOME").map(|d| d.join(".cache/runqueue")))
            .ok_or_else(|| std::io::Error::other("neither RUNQUEUE_CACHE nor HOME is set"))?;
        std::fs::create_dir_all(&dir)?;
        let lock = std::fs::File::create(dir.join("tree.lock"))?;
        lock.lock()?;
        let path = dir.join("tree");
        // A new link renamed over the old one: the link is never missing.
        let fresh = dir.join(format!("tree.{}", std::process::id()));
        let _ = std::fs::remove_file(&fresh);
        std::os::unix::fs::symlink(root, &fresh)?;
        std::fs::rename(&fresh, &path)?;
        Ok(StableTree { root: root.to_path_buf(), path, _lock: Some(lock) })
    }

    #[cfg(not(unix))]
    pub fn enter(_root: &Path) -> std::io::Result<StableTree> {
        Err(std::io::Error::other("no symbolic links here"))
    }

    /// The checkout under its own name: the fallback when `enter` fails.
    pub fn here(root: &Path) -> StableTree {
        StableTree { root: root.to_path_buf(), path: root.to_path_buf(), _lock: None }
    }

    pub fn why_not(root: &Path, e: &std::io::Error) -> String {
        format!("the guests are built from {} ({e}): their ELF depends on where the checkout is", root.display())
    }
}

/// RUSTFLAGS naming the files under `root` from `root` (`settings/src/parse.rs`), not from `/`.
fn remap_flags(root: &Path) -> String {
    format!("--remap-path-prefix={}/=", root.display())
}

/// Builds the binary `bin` of the guest in the folder `dir` of the tree into `target_dir`, with a
/// clean environment (the outer build's CARGO_*/RUSTFLAGS settings are for the host, not for it),
/// and returns the ELF's path. Cargo reads the guest's configuration (`.cargo/`) from the
/// checkout's folder and its manifest through the stable tree.
pub fn build(tree: &StableTree, dir: &str, target_dir: &Path, bin: &str) -> PathBuf {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    for (key, _) in std::env::vars() {
        if (key.starts_with("CARGO") && key != "CARGO_HOME") || key.contains("RUSTFLAGS") || key == "RUSTC_WRAPPER" {
            cmd.env_remove(key);
        }
    }
    let status = cmd
        .env("RUSTFLAGS", remap_flags(&tree.path))
        .current_dir(tree.root.join(dir))
        .args(["build", "--release", "--target", TARGET, "--bin", bin, "--manifest-path"])
        .arg(tree.path.join(dir).join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target_dir)
        .status()
        .unwrap_or_else(|e| panic!("cannot run cargo to build {dir}: {e}"));
    if !status.success() {
        panic!("building the guest in {dir} failed (is the target installed? `make setup` or `rustup target add {TARGET}`)");
    }
    target_dir.join(TARGET).join("release").join(bin)
}
