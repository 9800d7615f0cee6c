//! Builds the riscv64 guests the CLI carries inside it (the teaching kernel, the benchmark
//! program), so `runqueue run` works with no separate build step.
//!
//! Each guest is its own cargo project for a bare-metal target, built (guests.rs) into `riscv/`
//! in the outer build's target folder (`target/riscv` unless CARGO_TARGET_DIR or cargo's
//! configuration moved it; `make kernel` builds there too), shared by every host profile so the
//! kernel is built once.

use std::path::{Path, PathBuf};
use std::process::Command;

#[allow(dead_code)]
mod inputs {
    include!("src/inputs.rs");
}

mod guests {
    include!("guests.rs");
}
use guests::StableTree;

struct Guest {
    /// Environment variable the CLI's source reads the ELF path from.
    env: &'static str,
    /// Project folder, relative to the repository root.
    dir: &'static str,
    /// Binary name inside that project.
    bin: &'static str,
    /// Other folders (relative to the root) the guest's build depends on.
    extra_watch: &'static [&'static str],
}

const GUESTS: &[Guest] = &[
    Guest {
        env: "RUNQUEUE_KERNEL_ELF",
        dir: "kernel",
        bin: "runqueue-kernel",
        extra_watch: &["kernel/sched-api", "kernel/policies", "kernel/lab", "kernel/lab-abi", "kernel/lab-domain/src", "kernel/lab-domain/Cargo.toml", "kernel/lab-domain/link.ld", "settings", "emulator/settings", "emulator/fdt"],
    },
    Guest {
        env: "RUNQUEUE_BENCH_ELF",
        dir: "emulator/guests/bench",
        bin: "runqueue-bench",
        extra_watch: &["emulator/fdt"],
    },
];

fn main() {
    // Read when the script runs, not compiled in: cargo reuses a built script for a tree that
    // moved (with the same target folder), where a compiled-in path names a folder that is gone.
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap();
    let target_dir = outer_target_dir().join("riscv");
    for var in StableTree::ENV {
        println!("cargo:rerun-if-env-changed={var}");
    }
    let tree = StableTree::enter(&root).unwrap_or_else(|e| {
        println!("cargo:warning={}", StableTree::why_not(&root, &e));
        StableTree::here(&root)
    });
    println!("cargo:rerun-if-changed={}", root.join("emulator/cli/guests.rs").display());
    let mut digest = inputs::Digest::new();
    for guest in GUESTS {
        let dir = root.join(guest.dir);
        // Only paths that exist: cargo reruns the script, and so rebuilds the CLI, on every
        // build while a watched path is missing.
        for watched in ["src", "Cargo.toml", "Cargo.lock", "build.rs", "link.ld", ".cargo"] {
            let path = dir.join(watched);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
        for extra in guest.extra_watch {
            println!("cargo:rerun-if-changed={}", root.join(extra).display());
        }
        let elf = guests::build(&tree, guest.dir, &target_dir, guest.bin);
        println!("cargo:rustc-env={}={}", guest.env, elf.display());
        digest.part(guest.bin, &std::fs::read(&elf).expect("the guest was just built"));
    }
    println!("cargo:rustc-env=RUNQUEUE_INPUTS={}", run_inputs(&root, digest));
}

/// The digest of what a run depends on besides its arguments (src/inputs.rs): the guests
/// (already in `digest`), the sources of the crates the CLI is built from, and the compiler.
fn run_inputs(root: &Path, mut digest: inputs::Digest) -> String {
    let mut files = Vec::new();
    for krate in inputs::INPUT_CRATES {
        for part in inputs::CRATE_PARTS {
            let path = root.join(krate).join(part);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
                collect(&path, &mut files);
            }
        }
    }
    for file in inputs::INPUT_FILES {
        let path = root.join(file);
        println!("cargo:rerun-if-changed={}", path.display());
        files.push(path);
    }
    files.sort();
    for file in &files {
        let name = file.strip_prefix(root).expect("under the root").to_string_lossy();
        digest.part(&name, &std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display())));
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc).arg("-vV").output().expect("rustc runs").stdout;
    digest.part("rustc -vV", &version);
    digest.hex()
}

fn collect(path: &Path, files: &mut Vec<PathBuf>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())) {
            collect(&entry.expect("a folder entry").path(), files);
        }
    } else {
        files.push(path.to_path_buf());
    }
}

/// The target folder of the build running this script, wherever it is: OUT_DIR is
/// `<target folder>[/<target triple>]/<profile>/build/<package>-<hash>/out`.
fn outer_target_dir() -> PathBuf {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let profile = out.ancestors().nth(3).expect("OUT_DIR lies in a target folder");
    let mut dir = profile.parent().expect("OUT_DIR lies in a target folder");
    if let (Some(name), Ok(triple)) = (dir.file_name(), std::env::var("TARGET"))
        && name == triple.as_str()
    {
        dir = dir.parent().expect("OUT_DIR lies in a target folder");
    }
    dir.to_path_buf()
}

