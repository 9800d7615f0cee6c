//! Links each program with `link.ld`, except `suite_layout*`, which check that the loader takes
//! programs laid out as standard M-mode test suites lay them out; each has its own script,
//! `<program>.ld`.

use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    println!("cargo:rerun-if-changed={}", dir.join("src/bin").display());
    for entry in std::fs::read_dir(dir.join("src/bin")).expect("src/bin is readable") {
        let path = entry.expect("src/bin is readable").path();
        let Some(name) = path.file_stem().and_then(|s| s.to_str()) else { continue };
        let script = if name.starts_with("suite_layout") { format!("{name}.ld") } else { "link.ld".into() };
        let script = dir.join(script);
        println!("cargo:rerun-if-changed={}", script.display());
        println!("cargo:rustc-link-arg-bin={name}=-T{}", script.display());
    }
}
