//! `runqueue inputs` covers every crate the CLI is built from: the list in src/inputs.rs is the
//! CLI's path dependencies, followed through their own Cargo.toml files.

use runqueue::inputs::INPUT_CRATES;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The folders of the path dependencies in `krate`'s Cargo.toml (any section but dev-dependencies).
fn path_dependencies(root: &Path, krate: &str) -> Vec<String> {
    let manifest = std::fs::read_to_string(root.join(krate).join("Cargo.toml")).unwrap();
    let mut section = String::new();
    let mut found = Vec::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line.to_string();
        } else if !section.contains("dev-dependencies")
            && let Some(at) = line.find("path = \"")
        {
            let rest = &line[at + 8..];
            let relative = &rest[..rest.find('"').unwrap()];
            let dir: PathBuf = root.join(krate).join(relative).canonicalize().unwrap();
            found.push(dir.strip_prefix(root).unwrap().to_string_lossy().into_owned());
        }
    }
    found
}

#[test]
fn the_inputs_are_every_crate_the_cli_is_built_from() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap();
    let mut reached = BTreeSet::from(["emulator/cli".to_string()]);
    let mut todo = vec!["emulator/cli".to_string()];
    while let Some(krate) = todo.pop() {
        for dep in path_dependencies(&root, &krate) {
            if reached.insert(dep.clone()) {
                todo.push(dep);
            }
        }
    }
    let listed: BTreeSet<String> = INPUT_CRATES.iter().map(|s| s.to_string()).collect();
    assert_eq!(listed, reached, "src/inputs.rs's INPUT_CRATES is not the crates the CLI is built from");
}

#[test]
fn the_cli_prints_its_inputs_digest() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_runqueue")).arg("inputs").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.trim().len() == 32 && text.trim().bytes().all(|b| b.is_ascii_hexdigit()), "{text:?}");
}
