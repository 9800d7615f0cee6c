#!/usr/bin/env bash
# Cross-checks the conformance programs on QEMU's `spike` machine (HTIF tohost exit codes), so
# a failure on Runqueue's emulator can be told apart from a wrong test. Usage: ./run-qemu.sh [TEST...]
set -u
cd "$(dirname "$0")"
cargo build --release -q || exit 1
bin=target/riscv64imac-unknown-none-elf/release
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=($(ls src/bin | sed 's/\.rs$//'))
status=0
for t in "${tests[@]}"; do
  timeout 20 qemu-system-riscv64 -machine spike -cpu rv64,f=false,d=false -m 128M -bios none -nographic -kernel "$bin/$t" </dev/null
  code=$?
  case $t in
    selftest_fails) want=3 ;;       # must fail with its documented check number
    atomics_misaligned) want=1 ;;   # QEMU 7.2 reports misaligned AMOs as load faults (cause 4)
    zicsr) want=90 ;;
    traps) want=90 ;;
    counters) want=90 ;;            # QEMU 7.2: instret from host ticks, no time CSR on spike               # QEMU 7.2 reports AMO access faults as load faults               # QEMU 7.2 lets csrrs with a zero-valued rs1 write mhartid
    *) want=0 ;;
  esac
  if [ $code -eq $want ]; then echo "ok    $t"; else echo "FAIL  $t: exit $code (want $want)"; status=1; fi
done
exit $status
