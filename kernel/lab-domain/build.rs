//! Links the domain at its own addresses (`runqueue_lab_abi::BASE`), in segments the kernel
//! maps with their own permissions.
fn main() {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("link.ld");
    println!("cargo:rerun-if-changed={}", script.display());
    println!("cargo:rustc-link-arg-bins=-T{}", script.display());
}
