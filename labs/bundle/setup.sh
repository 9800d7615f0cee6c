#!/usr/bin/env bash
# Gradescope runs this once when it builds the autograder image (Ubuntu): install the Rust
# toolchain and the kernel's target where any user can run them (the student's code is built
# by an unprivileged user, run_autograder), then build the kernel once (prebuild.sh) so each
# grade recompiles only the student's file.
set -euo pipefail
AUTOGRADER="${AUTOGRADER:-/autograder}"
apt-get update -q && apt-get install -y -q --no-install-recommends curl ca-certificates build-essential acl
if ! command -v cargo >/dev/null; then
  export RUSTUP_HOME=/usr/local/rustup CARGO_HOME=/usr/local/cargo
  curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal --no-modify-path
  ln -sf /usr/local/cargo/bin/* /usr/local/bin/
  printf 'export RUSTUP_HOME=/usr/local/rustup\n' > /etc/profile.d/rustup.sh
fi
rustup target add riscv64imac-unknown-none-elf
bash "$AUTOGRADER/prebuild.sh"
