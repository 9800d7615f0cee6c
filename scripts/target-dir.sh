#!/usr/bin/env bash
# Prints where cargo builds for this repository: the `target_directory` cargo reports, which
# follows CARGO_TARGET_DIR and cargo's build.target-dir setting; target/ in the checkout when
# cargo cannot say. The one place that works it out: the Makefile and the node scripts
# (scripts/target-dir.mjs) ask it; the CLI's build script reads the same answer from cargo
# (its OUT_DIR lies in that folder).
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$(cd "$root" && "${CARGO:-cargo}" metadata --format-version 1 --no-deps 2>/dev/null \
  | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
echo "${dir:-$root/target}"
