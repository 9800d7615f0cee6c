//! Links the kernel at 0x8020_0000, where both OpenSBI and Runqueue's emulator enter it, and
//! builds the lab policy's protection domain (`lab-domain`: the lab slot linked on its own, to
//! run in U-mode), whose image the kernel carries (`src/domain.rs`).

use std::process::Command;

const TARGET: &str = "riscv64imac-unknown-none-elf";

fn main() {
    // The folder as cargo names it when the script runs, not when it was compiled: cargo reuses
    // a built script for a tree that moved (a starter repository generated afresh beside the
    // same target folder), where a compiled-in path would name a folder that is gone.
    let manifest_dir = std::path::PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest_dir.as_path();
    let script = root.join("link.ld");
    println!("cargo:rerun-if-changed={}", script.display());
    println!("cargo:rustc-link-arg-bins=-T{}", script.display());
    for watched in ["lab", "lab-abi", "lab-domain/src", "lab-domain/Cargo.toml", "lab-domain/Cargo.lock", "lab-domain/build.rs", "lab-domain/link.ld", "sched-api", "../settings"] {
        println!("cargo:rerun-if-changed={}", root.join(watched).display());
    }
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut cargo = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    // A clean environment: the outer build's settings (its jobserver, its flags) are not the
    // domain's.
    for (key, _) in std::env::vars() {
        if (key.starts_with("CARGO") && key != "CARGO_HOME") || key.contains("RUSTFLAGS") || key == "RUSTC_WRAPPER" {
            cargo.env_remove(key);
        }
    }
    // Panic locations as the kernel's own read (`lab/src/sjf.rs:47:9`, and the settings crate
    // from the tree's root, `settings/src/parse.rs`), wherever the tree is: the last prefix
    // that matches wins.
    let tree = root.parent().expect("the kernel is a folder of the tree");
    cargo.env("CARGO_ENCODED_RUSTFLAGS", format!("--remap-path-prefix={}/=\x1f--remap-path-prefix={}/=", tree.display(), root.display()));
    let target_dir = out.join("lab-domain");
    let status = cargo
        .current_dir(root.join("lab-domain"))
        // By the folder's name as cargo gave it (emulator/cli/build.rs's stable tree), not as
        // the operating system resolves the working folder.
        .args(["build", "--release", "--quiet", "--message-format=short", "--target", TARGET, "--manifest-path"])
        .arg(root.join("lab-domain/Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir)
        .status()
        .unwrap_or_else(|e| panic!("cannot run cargo to build the lab's protection domain: {e}"));
    if !status.success() {
        // The compiler's own messages came first; this only says where.
        eprintln!("error: building the lab's protection domain (kernel/lab-domain: the lab slot, linked on its own) failed");
        std::process::exit(1);
    }
    let elf = target_dir.join(TARGET).join("release/runqueue-lab-domain");
    std::fs::copy(&elf, out.join("lab-domain.elf")).unwrap_or_else(|e| panic!("cannot copy {}: {e}", elf.display()));
}
