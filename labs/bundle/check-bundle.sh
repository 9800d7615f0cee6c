#!/usr/bin/env bash
# Runs a Gradescope bundle as Gradescope would (as root, in a fresh folder laid out like
# /autograder) on the reference solution, and checks what a lecturer relies on:
# - results.json is valid and gives full marks, hidden tests included and marked hidden;
# - the student's code was built by the unprivileged build user;
# - that user cannot read the instructor's hidden tests;
# - the hidden tests are the variant of the student in submission_metadata.json;
# and says how long a grade takes with an empty build cache, and with the one prebuild.sh
# leaves in the image (as every submission on Gradescope finds it).
# Usage: check-bundle.sh LAB BUNDLE_ZIP SOLUTION
set -euo pipefail
lab="$1" zip="$2" solution="$3"
here="$(cd "$(dirname "$0")" && pwd)"
d="$(mktemp -d)"
trap 'rm -rf "$d"' EXIT
chmod 755 "$d"
mkdir -p "$d/submission"
cp "$solution" "$d/submission/$lab.rs"
printf '{"id": 1, "users": [{"email": "s@example.org", "id": 4711, "name": "S"}]}\n' > "$d/submission_metadata.json"
unzip -q "$zip" -d "$d"
[ -d "$d/source/hidden" ] || { echo "check-bundle: the bundle has no hidden tests to check with" >&2; exit 1; }
grade() {
  local started; started=$(date +%s.%N)
  AUTOGRADER="$d" bash "$d/run_autograder" > "$d/log" 2>&1 || { cat "$d/log" >&2; exit 1; }
  python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f} s')" "$started" "$(date +%s.%N)"
}
cold="$(grade)"
rm -rf "$d/cache"
AUTOGRADER="$d" bash "$d/prebuild.sh"
warm="$(grade)"
python3 "$here/check_results.py" "$d/results/results.json"
python3 - "$d/results/results.json" <<'PY'
import json, sys
tests = json.load(open(sys.argv[1]))["tests"]
hidden = [t for t in tests if t.get("visibility") != "visible"]
assert hidden, "no hidden test was graded"
assert all(t["output"].endswith("(a hidden test: no details)") for t in hidden), hidden
assert json.load(open(sys.argv[1]))["output"].endswith('(the test set of variant "4711")'), "not the student's variant"
PY
user="${RUNQUEUE_BUILD_USER:-runqueue-student}"
owner="$(stat -c %U "$d/cache/target")"
[ "$owner" = "$user" ] || { echo "check-bundle: the kernel was built by $owner, not $user" >&2; exit 1; }
if runuser -u "$user" -- cat "$d"/source/hidden/*.tests >/dev/null 2>&1; then
  echo "check-bundle: $user can read the hidden tests" >&2; exit 1
fi
echo "ok   gradescope bundle: $lab graded in a clean directory as $user, who cannot read source/hidden; results.json valid, full marks, the student's variant; a grade took $cold with an empty build cache, $warm with the image's"
