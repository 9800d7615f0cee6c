#!/usr/bin/env bash
# Cross-checks the conformance programs on QEMU's `spike` machine (HTIF tohost exit codes), so
# a failure on Runqueue's emulator can be told apart from a wrong test. Usage: ./run-qemu.sh [TEST...]
set -u
cd "$(dirname "$0")"
# The same place the test runner (emulator/core/tests/isa.rs) builds them.
target_dir="$(../../../scripts/target-dir.sh)/tmp/isa-guests"
cargo build --release -q --target-dir "$target_dir" || exit 1
bin=$target_dir/riscv64imac-unknown-none-elf/release
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=($(ls src/bin | sed 's/\.rs$//'))
status=0
for t in "${tests[@]}"; do
  extra=()
  # Counters that count instructions rather than the host's clock.
  [ "$t" = counter_writes ] && extra=(-icount shift=0)
  timeout 20 qemu-system-riscv64 -machine spike -cpu rv64,f=false,d=false -m 128M -bios none -nographic "${extra[@]}" -kernel "$bin/$t" </dev/null
  code=$?
  # Where QEMU 7.2 departs from the spec, the program's last checks (from the one named here)
  # say so in a comment, and QEMU must stop exactly there.
  case $t in
    selftest_fails) want=3 ;;       # must fail with its documented check number
    atomics_misaligned) want=1 ;;   # QEMU 7.2 reports misaligned AMOs as load faults (cause 4)
    zicsr) want=90 ;;               # QEMU 7.2 lets csrrs with a zero-valued rs1 write mhartid
    traps) want=90 ;;               # QEMU 7.2 reports AMO access faults as load faults
    counters) want=90 ;;            # QEMU 7.2: instret from host ticks, no time CSR on spike
    counter_writes) want=89 ;;      # QEMU 7.2: a written counter reads back one higher; no time CSR
    pmp) want=90 ;;                 # QEMU 7.2: sub-page fetch checks, TOR top 0, WARL bits, entries 16..63
    *) want=0 ;;
  esac
  if [ $code -eq $want ]; then echo "ok    $t"; else echo "FAIL  $t: exit $code (want $want)"; status=1; fi
done
exit $status
