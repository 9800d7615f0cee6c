//! Links the domain at its own addresses (`runqueue_lab_abi::BASE`), in segments the kernel
//! maps with their own permissions.
fn main() {
    // Read when the script runs (a tree that moved reuses the built script).
    let script = std::path::PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR")).join("link.ld");
    println!("cargo:rerun-if-changed={}", script.display());
    println!("cargo:rustc-link-arg-bins=-T{}", script.display());
}
