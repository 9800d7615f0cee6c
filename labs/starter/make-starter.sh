#!/usr/bin/env bash
# Writes a starter repository for one lab (docs/labs.md, "A starter repository"): the kernel's
# core, the scheduler API, the lab slot with the skeleton, the public tests, the grader, the
# lab's page as README.md, a CI workflow, a dev container. Nothing that answers the lab: no
# solution, mutants, hidden tests or grader fixtures, and the kernel's own policy that
# resembles the lab's answer replaced by a stub that says so.
# Usage: labs/starter/make-starter.sh LAB DEST   (run from the repository's root)
set -euo pipefail
lab="${1:-}" dest="${2:-}"
case "$lab" in
  sjf) type=Sjf ;;
  mlfq) type=Mlfq ;;
  bvt) type=Bvt ;;
  *) echo "make-starter: LAB must be sjf, mlfq or bvt (got '$lab')" >&2; exit 2 ;;
esac
[ -n "$dest" ] || { echo "make-starter: give DEST, the folder to write the repository to" >&2; exit 2; }
if [ -e "$dest" ] && [ -n "$(ls -A "$dest" 2>/dev/null)" ]; then
  echo "make-starter: $dest exists and is not empty" >&2; exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
rust="$(rustc --version | sed -E 's/^rustc ([0-9]+\.[0-9]+\.[0-9]+).*/\1/')"
mkdir -p "$dest"
dest="$(cd "$dest" && pwd)"

# What the grader and the kernel are built from (no tests, fixtures, claims or solutions).
parts=(
  Cargo.lock report/src report/Cargo.toml labs/grader/src labs/grader/Cargo.toml homework/src homework/Cargo.toml
  settings/src settings/Cargo.toml emulator/settings/src emulator/settings/Cargo.toml
  emulator/core/src emulator/core/Cargo.toml emulator/jit-native/src emulator/jit-native/Cargo.toml
  emulator/cli/src emulator/cli/Cargo.toml emulator/cli/build.rs emulator/cli/guests.rs
  emulator/guests/bench emulator/fdt
  kernel/src kernel/Cargo.toml kernel/Cargo.lock kernel/build.rs kernel/link.ld kernel/.cargo
  kernel/sched-api kernel/policies kernel/lab kernel/lab-abi kernel/lab-domain
  "labs/$lab/tests" "labs/$lab/skeleton.rs" mk/grade.mk scripts/setup-rust.sh
)
tar -C "$root" --exclude=target -cf - "${parts[@]}" | tar -C "$dest" -xf -

subst() { sed -e "s/@LAB@/$lab/g" -e "s/@TYPE@/$type/g" -e "s/@POLICY@/$lab/g" -e "s/@RUST@/$rust/g" "$1"; }
subst "$here/policy-stub.rs" > "$dest/kernel/policies/src/$lab.rs"
subst "$here/Makefile" > "$dest/Makefile"
subst "$here/rust-toolchain.toml" > "$dest/rust-toolchain.toml"
cp "$here/gitignore" "$dest/.gitignore"
mkdir -p "$dest/.github/workflows" "$dest/.devcontainer" "$dest/classroom50"
subst "$here/grade.yml" > "$dest/.github/workflows/grade.yml"
subst "$here/devcontainer.json" > "$dest/.devcontainer/devcontainer.json"
subst "$here/classroom50/autograder.py" > "$dest/classroom50/autograder.py"
subst "$here/classroom50/runtime.json" > "$dest/classroom50/runtime.json"
{ cat "$root/labs/$lab/README.md"; subst "$here/README.md"; } > "$dest/README.md"

# The host workspace without the browser's and the book's crates.
sed -E 's#^members = .*#members = ["settings", "emulator/settings", "emulator/fdt", "emulator/core", "emulator/jit-native", "emulator/cli", "report", "labs/grader", "homework"]#' \
  "$root/Cargo.toml" > "$dest/Cargo.toml"
# Cargo.lock keeps the versions this repository is tested with; cargo drops what no member uses.
# (With the toolchain this repository uses, which is the one rust-toolchain.toml pins.)
toolchain="$(cd "$root" && rustup show active-toolchain 2>/dev/null | cut -d' ' -f1)" || toolchain=""
(cd "$dest" && export ${toolchain:+RUSTUP_TOOLCHAIN="$toolchain"} && \
  { cargo metadata --offline --format-version 1 >/dev/null 2>&1 || cargo metadata --format-version 1 >/dev/null; })
echo "make-starter: the $lab lab's starter repository is in $dest"
