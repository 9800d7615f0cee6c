#!/usr/bin/env bash
# The table `make test` ends with: scripts/suite-table.sh DIR SUITE...
# One row per suite, in the order given, from what scripts/suite.sh recorded in DIR: passed,
# failed, or did not run; its wall time; its note. Then, for each suite that failed, the lines of
# its log (DIR/NAME.log) that say what failed, so they are in the last screen of CI's output even
# when the suite printed thousands of lines. Exits 1 unless every suite passed.
set -uo pipefail
dir=$1
shift
duration() { # milliseconds -> "12m 05s" / "41.2s"
  local ms=$1
  if [ "$ms" -ge 60000 ]; then printf '%dm %02ds' $((ms / 60000)) $((ms / 1000 % 60)); else printf '%d.%ds' $((ms / 1000)) $((ms / 100 % 10)); fi
}
failed=0
failures=()
echo
printf '%-14s %-8s %10s  %s\n' suite result "wall time" note
for suite in "$@"; do
  note=$(cat "$dir/$suite.note" 2>/dev/null)
  if [ -f "$dir/$suite" ]; then
    read -r status ms <"$dir/$suite"
    result=ok
    [ "$status" = 0 ] || { result=FAILED; failed=1; failures+=("$suite"); }
    printf '%-14s %-8s %10s  %s\n' "$suite" "$result" "$(duration "$ms")" "$note"
  else
    printf '%-14s %-8s %10s  %s\n' "$suite" "not run" - "$note"
    failed=1
  fi
done
if [ -f "$dir/started" ]; then
  read -r started <"$dir/started"
  printf '%-14s %-8s %10s  %s\n' total "" "$(duration $((($(date +%s%N) - started) / 1000000)))" "wall time of make test, suites side by side"
fi
# What failed: TAP's `not ok` (node --test) with the error beneath it, cargo's failed tests and
# panics, the scripts' FAIL lines, make's errors.
for suite in "${failures[@]}"; do
  echo
  echo "== $suite: what failed (all of it in $dir/$suite.log)"
  grep -E -A 12 '^\s*not ok |^test .* FAILED$|panicked at|^FAIL|^---- .* stdout ----$|\*\*\* \[' "$dir/$suite.log" 2>/dev/null | head -n 80
done
exit "$failed"
