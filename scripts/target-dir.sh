#!/usr/bin/env bash
# Prints where cargo builds for this repository: the `target_directory` cargo reports, which
# follows CARGO_TARGET_DIR and cargo's build.target-dir setting; target/ in the checkout when
# cargo cannot say. The shell scripts' counterpart of scripts/target-dir.mjs.
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$(cd "$root" && "${CARGO:-cargo}" metadata --format-version 1 --no-deps 2>/dev/null \
  | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
echo "${dir:-$root/target}"
