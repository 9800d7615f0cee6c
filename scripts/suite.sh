#!/usr/bin/env bash
# One suite of `make test`: scripts/suite.sh DIR NAME COMMAND...
# Runs COMMAND with each line it prints prefixed by NAME (suites run side by side), keeps what it
# printed in DIR/NAME.log, and records in DIR/NAME its result and wall time, for
# scripts/suite-table.sh. COMMAND may write one line
# about itself to $SUITE_NOTE (what it reused from the cache, say); the table shows it.
set -uo pipefail
dir=$1 name=$2
shift 2
mkdir -p "$dir"
export SUITE_NOTE="$dir/$name.note"
rm -f "$SUITE_NOTE"
start=$(date +%s%N)
"$@" 2>&1 | tee "$dir/$name.log" | sed -u "s/^/$name | /"
status=${PIPESTATUS[0]}
ms=$((($(date +%s%N) - start) / 1000000))
echo "$status $ms" >"$dir/$name"
exit "$status"
