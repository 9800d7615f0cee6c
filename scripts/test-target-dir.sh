#!/usr/bin/env bash
# `make test-target-dir`: with CARGO_TARGET_DIR set to a fresh folder outside the checkout, the
# build's own commands put everything there and find it there:
#   make build             the CLI, with the kernel and the bench guest it embeds (build.rs)
#   make kernel            the kernel ELF, in <target>/riscv, where the CLI's build put it: the
#                          same bytes (the same builder, so cargo builds nothing)
#   a checkout elsewhere   with this one's files, its guests built by the same builder into the
#                          same folder, emptied first: the same kernel and bench guest to the byte
#                          (`runqueue inputs` hashes them beside sources named from the root, so
#                          clones share the run cache; the kernel's layout sets the data cache's
#                          figures); no path of either checkout in the kernel
#   runqueue run ELF       the CLI boots that ELF to its RESULT line
#   generate.mjs --only    one book figure, with the CLI found in the target folder by itself,
#                          its run kept in the run cache (RUNQUEUE_CACHE, here in the folder)
#   make gradescope-bundle the lab bundle, in <target>/gradescope
# The folder starts empty, so everything is compiled once, and the guests again for the checkout
# elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
t="$(mktemp -d)"
trap 'rm -rf "$t"' EXIT
export CARGO_TARGET_DIR="$t" RUNQUEUE_CACHE="$t/cache"
fail() {
  echo "FAIL test-target-dir: $*" >&2
  exit 1
}

[ "$(scripts/target-dir.sh)" = "$t" ] || fail "scripts/target-dir.sh does not report $t"
make -s build
cli="$t/release/runqueue"
elf="$t/riscv/riscv64imac-unknown-none-elf/release/runqueue-kernel"
[ -x "$cli" ] || fail "make build left no CLI at $cli"
[ -f "$elf" ] || fail "make build left no kernel at $elf"
embedded="$(sha256sum <"$elf")"
make -s kernel
[ "$(sha256sum <"$elf")" = "$embedded" ] || fail "make kernel built another kernel than the one the CLI embeds"
guests() { sha256sum "$elf" "$t/riscv/riscv64imac-unknown-none-elf/release/runqueue-bench" | cut -d' ' -f1; }
built="$(guests)"
elsewhere="$t/elsewhere/runqueue"
mkdir -p "$elsewhere"
git ls-files -z --cached --others --exclude-standard | tar --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -xf - -C "$elsewhere"
rm -rf "$t/riscv"
"$t/guest-builder" "$elsewhere" kernel runqueue-kernel "$t/riscv" >/dev/null 2>&1 || fail "the guest builder could not build the kernel in $elsewhere"
"$t/guest-builder" "$elsewhere" emulator/guests/bench runqueue-bench "$t/riscv" >/dev/null 2>&1 || fail "the guest builder could not build the bench guest in $elsewhere"
[ "$(guests)" = "$built" ] || fail "a checkout at $elsewhere built other guests than this one"
for checkout in "$(pwd -P)" "$elsewhere"; do
  ! grep -qF "$checkout" "$elf" || fail "the kernel ELF holds the path of a checkout, $checkout"
done
out="$("$cli" run "$elf" --append "sched=rr workload=fairness-equal")" || fail "the CLI could not run $elf"
grep -q '^RESULT {' <<<"$out" || fail "the kernel printed no RESULT line"

figure=rr.fairness-equal
env -u RUNQUEUE node book/figures/generate.mjs --only "$figure" --out "$t/figure-out" >/dev/null \
  || fail "generate.mjs could not make figure $figure"
[ -s "$t/figure-out/$figure.md" ] || fail "no figure $figure"
compgen -G "$t/cache/runs/*.json" >/dev/null || fail "generate.mjs kept nothing in the run cache, $t/cache/runs"

make -s gradescope-bundle LAB=sjf >/dev/null
[ -s "$t/gradescope/sjf.zip" ] || fail "make gradescope-bundle left no $t/gradescope/sjf.zip"
unzip -l "$t/gradescope/sjf.zip" | grep -q ' source/runqueue$' || fail "the bundle has no CLI"

echo "ok   test-target-dir: build, kernel, CLI run, figure and bundle in $t ($((SECONDS - start)) s)"
