#!/usr/bin/env bash
# Boots the kernel on QEMU (the reference machine) with every scheduler and workload on 1 and
# 4 harts, and with bad arguments. Checks exit codes and output shape, not timing: QEMU's
# clock is the host's, so the seeds' quantitative claims are tested on Runqueue's emulator.
# usage: kernel/tests/check.sh [KERNEL_ELF]   (builds the kernel when no ELF is given)
set -uo pipefail
cd "$(dirname "$0")/.."
elf=${1:-}
if [ -z "$elf" ]; then
  # Where `make kernel` builds it.
  target_dir="$(../scripts/target-dir.sh)/riscv"
  cargo build --release -q --target-dir "$target_dir" || exit 1
  elf=$target_dir/riscv64imac-unknown-none-elf/release/runqueue-kernel
fi

boot() { # smp, append
  timeout 120 qemu-system-riscv64 -machine virt -bios default -nographic -monitor none \
    -smp "$1" -kernel "$elf" -append "$2" </dev/null | tr -d '\r'
  return "${PIPESTATUS[0]}"
}

fail=0 count=0
expect() { # name, wanted exit code, output, actual exit code, extended regexes the output must match...
  local name=$1 want=$2 out=$3 rc=$4 re
  shift 4
  count=$((count + 1))
  for re in "$@"; do
    if ! grep -qE -- "$re" <<<"$out"; then rc="$rc, no /$re/"; fi
  done
  if [ "$rc" != "$want" ]; then
    echo "FAIL $name: exit $rc (wanted $want)"; tail -n 5 <<<"$out"; fail=1
  fi
}

# Small sizes: this checks that everything runs to a result, not the schedules themselves.
declare -A small=(
  [fairness-equal]="wl.units=10" [fairness-unequal]="wl.run_ms=50" [yield-speed]="wl.units=200"
  [realtime]="wl.short_units=50,10,20,50 wl.long_units=2" [occupy]="wl.short_units=300 wl.long_units=3"
  [spin]="wl.run_ms=50" [intr]="wl.run_ms=50"
  [hackbench]="wl.loops=10" [cyclictest]="wl.loops=50" [deadline]="wl.run_ms=50"
  [cyclictest-hackbench]="wl.loops=50 wl.load_type=hackbench wl.load=4 wl.hold_us=100"
  [inversion]="wl.periods=3 wl.nest=1"
)
for smp in 1 4; do
  for sched in fifo rr cfs sjf mlfq bvt eevdf lottery stride o1; do
    for wl in "${!small[@]}"; do
      # A key `workload-variant` runs `workload` with the variant's arguments.
      args="sched=$sched workload=${wl%%-hackbench} smp=$smp trace=off ${small[$wl]}"
      out=$(boot "$smp" "$args"); rc=$?
      expect "$args" 0 "$out" "$rc" '^RESULT \{"version":1,"workload":"'"${wl%%-hackbench}"'","sched":"'"$sched"'","smp":'"$smp"','
    done
  done
  # The trace reaches the UART with '@', every task leaves with why=exit, policy state shows.
  out=$(boot "$smp" "sched=mlfq workload=realtime smp=$smp wl.short_units=50,10,20,50 wl.long_units=2"); rc=$?
  expect "trace on $smp hart(s)" 0 "$out" "$rc" '^@T [0-9]+ 0 new 1 name=short0 class=fair lvl=0$' \
    "^@T [0-9]+ [0-$((smp - 1))] out 5 why=exit ran=[0-9]+$" '^@T [0-9]+ [0-9] state 5 lvl=[1-7]$' '^RESULT \{'
done

# Bad input: a message naming the problem and the accepted values, exit code 2.
bad() { # append, regex the message must match
  local out rc
  out=$(boot 1 "$1"); rc=$?
  expect "refuses '$1'" 2 "$out" "$rc" "$2"
}
bad "sched=nope" "unknown scheduler 'nope'; accepted: fifo, rr, cfs, sjf, mlfq"
bad "workload=nope" "unknown workload 'nope'; accepted: fairness-equal, .*intr"
bad "cfs.latency_ns=12ms" "bad value '12ms' for cfs.latency_ns: expected an integer in 100000..=1000000000 ns"
bad "cfs.features=NO_SPEED" "from: START_DEBIT, FAIR_SLEEPERS, GENTLE_FAIR_SLEEPERS, WAKEUP_PREEMPT"
bad "sched=mlfq mlfq.levels=3 mlfq.quantum_ms=1,2" "mlfq.quantum_ms: .*exactly mlfq.levels values"
bad "sjf.alpha=2/1" "bad value '2/1' for sjf.alpha"
bad "workload=spin wl.units=3" "unknown argument 'wl.units'.*spin's: wl.tasks, wl.run_ms"
bad "smp=2" "smp=2 but the machine has 1 hart"
bad "seed=1 seed=2" "argument 'seed' given twice"
bad "sched=cfs verbose" "argument 'verbose' is not NAME=VALUE"
bad "workload=deadline wl.runtime_us=3000,3850" "total bandwidth .* exceeds"
bad "workload=cyclictest wl.isolate=1" "wl.isolate: .*needs smp=2"
bad "workload=inversion wl.cs_us=15000" "wl.period_us: must exceed"
bad "workload=spin affinity=2" "a task may run on no hart"
bad "workload=spin isolcpus=1" "names a hart this run does not have"

# The catalog: one line, every scheduler and workload, exit 0.
out=$(boot 1 "catalog"); rc=$?
expect "catalog" 0 "$out" "$rc" '^CATALOG \{"version":1,' '"name":"mlfq.boost_ms","type":"int","default":1000,"min":0,"max":100000' \
  '"name":"cfs.features","type":"features","default":"START_DEBIT,FAIR_SLEEPERS,GENTLE_FAIR_SLEEPERS,WAKEUP_PREEMPT"' \
  '"workloads":\[\{"name":"fairness-equal"'

[ "$fail" = 0 ] && echo "kernel/tests/check.sh: $count checks passed"
exit $fail
