//! The machine's identity for the comparison suite's cache of Linux runs (`src/linux.rs`): a
//! hash of the emulator's sources, so that a change to the machine, which may change what Linux
//! does on it, runs Linux again.

use std::path::Path;

const MACHINE: &[&str] = &["emulator/core/src", "emulator/jit-native/src", "emulator/cli/src"];

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for dir in MACHINE {
        let dir = root.join(dir);
        println!("cargo:rerun-if-changed={}", dir.display());
        let mut files = Vec::new();
        collect(&dir, &mut files);
        files.sort();
        for file in files {
            let bytes = std::fs::read(&file).unwrap_or_default();
            for b in file.strip_prefix(&root).unwrap_or(&file).to_string_lossy().bytes().chain(bytes) {
                hash = (hash ^ b as u64).wrapping_mul(0x100_0000_01b3);
            }
        }
    }
    println!("cargo:rustc-env=RUNQUEUE_MACHINE_ID={hash:016x}");
}

fn collect(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() { collect(&path, out) } else { out.push(path) }
    }
}
