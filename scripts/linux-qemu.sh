#!/usr/bin/env bash
# Boots Runqueue's Linux kernels and initramfs (make linux) on QEMU `virt` with OpenSBI, the
# reference machine, and checks that every workload reaches its RESULT line and exits 0 there
# too, that a bad argument is refused with exit code 2, and that the console shows Linux's
# banner. QEMU's time is the host's, so only the outcome is compared, not the figures. One TCG
# thread runs all the vCPUs: with a thread each, a loaded host can starve the second one past
# the time Linux waits for it to come online.
set -uo pipefail
dir=${1:?usage: linux-qemu.sh LINUX_DIR (make linux makes it)}
command -v qemu-system-riscv64 >/dev/null || { echo "linux-qemu: qemu-system-riscv64 is missing (make setup-linux installs it)" >&2; exit 1; }

# Linux's words before the run's, read from where the Runqueue machine keeps them (MACHINE_WORDS
# in emulator/core/src/linux.rs, which says why), so both machines boot Linux alike.
machine_words=$(sed -n 's/^const MACHINE_WORDS: &str = "\(.*\)";$/\1/p' "$(dirname "$0")/../emulator/core/src/linux.rs")
[ -n "$machine_words" ] || { echo "linux-qemu: MACHINE_WORDS not found in emulator/core/src/linux.rs" >&2; exit 1; }
boot() { # kernel, smp, append
  timeout 300 qemu-system-riscv64 -machine virt -accel tcg,thread=single -bios default -nographic -monitor none -m 256 \
    -smp "$2" -kernel "$dir/$1/Image" -initrd "$dir/initramfs/initramfs.cpio" \
    -append "$machine_words $3 smp=$2" </dev/null
}

fail=0
check() { # kernel, what, expected exit code, pattern, smp, append
  local out rc
  out=$(boot "$1" "$5" "$6" 2>&1); rc=$?
  if [ "$rc" -eq "$3" ] && grep -qE -- "$4" <<<"$out"; then
    echo "ok   qemu $1: $2"
  else
    echo "FAIL qemu $1: $2 (exit $rc, wanted $3 and /$4/)"; tail -n 30 <<<"$out"; fail=1
  fi
}

# The workloads of linux/init/workloads.c, each at its defaults, as the book runs them.
workloads="fairness-equal fairness-unequal yield-speed realtime occupy spin intr hackbench cyclictest deadline bursts arrivals"
for k in linux-6.12 linux-6.1 linux-6.12-rt; do
  for w in $workloads; do
    check "$k" "$w, 2 harts" 0 '^RESULT \{"version":1,"workload":"'"$w"'"' 2 "workload=$w"
  done
  check "$k" "nice, cgroup weights and a cap, 1 hart" 0 '^RESULT \{' 1 \
    "workload=spin wl.tasks=3 wl.run_ms=300 nice=0,5 cgroup=a,b,b cpu.weight=a:100,b:300 cpu.max=b:50000/100000"
  check "$k" "unknown workload refused" 2 "unknown workload 'nope'" 1 "workload=nope"
done
check linux-6.12 "the banner names the version" 0 'Linux version 6\.12\.' 1 "workload=bursts wl.burst_ms=1 loglevel=7"
exit $fail
