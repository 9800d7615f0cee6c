//! Links every program at 0x8020_0000, where both Runqueue and OpenSBI enter an S-mode payload.

fn main() {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("link.ld");
    println!("cargo:rerun-if-changed={}", script.display());
    println!("cargo:rustc-link-arg=-T{}", script.display());
}
