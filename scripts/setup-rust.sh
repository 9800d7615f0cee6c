#!/usr/bin/env bash
# What building the kernel and grading a lab need, checked and installed, saying what it did:
# rustup (not installed for you: https://rustup.rs), Rust 1.85 or later (edition 2024), a C
# linker for the host tools, and the RISC-V target the kernel is built for (added with rustup).
# More targets may be named as arguments (the book adds wasm32-unknown-unknown).
# Usage: scripts/setup-rust.sh [TARGET...]
set -euo pipefail
targets=(riscv64imac-unknown-none-elf "$@")
say() { echo "setup-rust: $*"; }
fail() { say "$*" >&2; exit 1; }

command -v rustup >/dev/null || fail "rustup is not installed: install Rust from https://rustup.rs (Linux, macOS, WSL on Windows), then run this again; or open this repository in its dev container (.devcontainer/), where everything is installed."
# The first rustc call installs the toolchain a rust-toolchain.toml pins, if one does.
version="$(rustc --version 2>/dev/null)" || fail "rustc does not run: rustup show says $(rustup show active-toolchain 2>&1 | head -1)"
read -r major minor _ <<<"$(sed -E 's/^rustc ([0-9]+)\.([0-9]+)\.([0-9]+).*/\1 \2 \3/' <<<"$version")"
if (( major < 1 || (major == 1 && minor < 85) )); then
  fail "$version is too old: the kernel is Rust 2024, which needs 1.85 or later (rustup update)"
fi
say "$version: ok"
command -v cc >/dev/null || fail "no C linker (cc), which Rust needs for the host tools: on Debian, Ubuntu or WSL run 'sudo apt install build-essential'; on macOS 'xcode-select --install'"
say "C linker: $(command -v cc)"
installed="$(rustup target list --installed)"
for t in "${targets[@]}"; do
  if grep -qx "$t" <<<"$installed"; then
    say "target $t: already installed"
  else
    rustup target add "$t" >/dev/null
    say "target $t: added"
  fi
done
