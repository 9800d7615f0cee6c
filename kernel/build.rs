//! Links the kernel at 0x8020_0000, where both OpenSBI and Runqueue's emulator enter it.
fn main() {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("link.ld");
    println!("cargo:rerun-if-changed={}", script.display());
    println!("cargo:rustc-link-arg-bins=-T{}", script.display());
}
