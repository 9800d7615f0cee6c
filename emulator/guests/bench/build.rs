//! Links the benchmark at 0x8000_0000, where Runqueue, QEMU (`-bios none`) and TinyEMU enter
//! an M-mode program.

fn main() {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("link.ld");
    println!("cargo:rerun-if-changed={}", script.display());
    println!("cargo:rustc-link-arg=-T{}", script.display());
}
