//! Links the benchmark at 0x8000_0000, where Runqueue, QEMU (`-bios none`) and TinyEMU enter
//! an M-mode program.

fn main() {
    // Read when the script runs (a tree that moved reuses the built script).
    let script = std::path::PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR")).join("link.ld");
    println!("cargo:rerun-if-changed={}", script.display());
    println!("cargo:rustc-link-arg=-T{}", script.display());
}
