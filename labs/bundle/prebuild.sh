#!/usr/bin/env bash
# Builds the kernel once with the lab's skeleton into the cache every grade then builds in
# ($AUTOGRADER/cache, the path run_autograder gives the grader): Gradescope runs each
# submission in a fresh container of the image setup.sh made, so every grade starts from this
# build and recompiles only the student's file, not the whole kernel.
set -euo pipefail
AUTOGRADER="${AUTOGRADER:-/autograder}"
cd "$AUTOGRADER/source"
LAB="$(cat LAB)"
./runqueue grade --lab "$LAB" --root . --cache "$AUTOGRADER/cache" "labs/$LAB/skeleton.rs" >/dev/null 2>&1 || true
[ -x "$AUTOGRADER/cache/target/riscv64imac-unknown-none-elf/release/runqueue-kernel" ] || { echo "prebuild: the kernel did not build" >&2; exit 1; }
