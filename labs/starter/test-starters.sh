#!/usr/bin/env bash
# Each lab's starter repository as a course hands it out (make test-labs-course): generated
# into a clean folder, no answer in it, and graded by the commands of its own CI workflow:
# below full marks with the skeleton, full marks with the reference solution; Classroom 50's
# autograder gives the same points; the kernel's stubbed policy says it is not there.
#
# The starters are generated one after the other into the same folder, so cargo reuses the
# host crates between them and rebuilds only the kernel and the tool that carries it (the
# copied sources keep their times; the folder's name is the same on every run). The tool's
# build (registry crates and all) and the kernel builds `make grade` keeps are kept between
# runs in ~/.cache/runqueue/starter-target and starter-grade; a lock keeps two checkouts'
# runs from sharing them at once. The pinned
# toolchain is the one installed here (make-starter pins the version in use), named as rustup
# knows it.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
caches="$HOME/.cache/runqueue"
mkdir -p "$caches"
exec 9> "$caches/starter.lock"
flock 9
work="$caches/starter-work"
rm -rf "$work" && mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
export CARGO_TARGET_DIR="${STARTER_TARGET_DIR:-$caches/starter-target}"
export XDG_CACHE_HOME="$caches/starter-grade"
RUSTUP_TOOLCHAIN="$(cd "$root" && rustup show active-toolchain | cut -d' ' -f1)"
export RUSTUP_TOOLCHAIN
owner=ci-student
repo="$work/repo"

fail() { echo "test-starters: $lab: $*" >&2; exit 1; }

# The `run:` command of the workflow step named $2, with the owner filled in.
step() {
  python3 - "$1" "$2" "$owner" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
at = next(i for i, l in enumerate(lines) if l.strip() == f"- name: {sys.argv[2]}")
run = next(l for l in lines[at + 1:] if l.strip().startswith("run: "))
print(run.strip()[len("run: "):].replace("${{ github.repository_owner }}", sys.argv[3]))
PY
}

# Points of results.json as "score max".
points() {
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["score"], sum(t["max_score"] for t in r["tests"]))' "$1"
}

for lab in sjf mlfq bvt; do
  started=$(date +%s)
  rm -rf "$repo"
  "$root/labs/starter/make-starter.sh" "$lab" "$repo" >/dev/null
  python3 "$root/scripts/check-no-answers.py" "$repo"
  cd "$repo"
  workflow=.github/workflows/grade.yml
  build="$(step "$workflow" "Build the grader")"
  grade="$(step "$workflow" "Grade")"
  python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); assert c["postCreateCommand"] == "make setup-rust && make build", c' .devcontainer/devcontainer.json
  bash -c "$build" > "$work/build.log" 2>&1 || { tail -30 "$work/build.log"; fail "the workflow's build failed"; }

  # The skeleton: a grade below full marks, and the step fails.
  if bash -c "$grade" > "$work/grade.log" 2>&1; then fail "the skeleton got full marks"; fi
  read -r score max < <(points results.json)
  (( max > 0 && score < max )) || fail "the skeleton scored $score/$max"
  grep -q "^| $(sed -n 's/^\[\(.*\)\]$/\1/p' "labs/$lab/tests/public.tests" | head -1) | \*\*FAIL\*\* |" summary.md || fail "summary.md lacks the failed test: $(cat summary.md)"

  # The reference solution: full marks, and the step passes.
  cp "$root/labs/$lab/solution.rs" "kernel/lab/src/$lab.rs"
  bash -c "$grade" > "$work/grade.log" 2>&1 || { cat "$work/grade.log"; fail "the reference solution did not get full marks"; }
  read -r score max < <(points results.json)
  (( score == max )) || fail "the reference scored $score/$max"

  # Classroom 50's autograder on the same checkout: the same points, its own schema.
  CLASSROOM=c ASSIGNMENT="$lab" SUBMISSION_TAG=submit/t COMMIT_URL=u RELEASE_URL=r OWNER="$owner" \
    python3 classroom50/autograder.py > "$work/c50.log" 2>&1 || { cat "$work/c50.log"; fail "the Classroom 50 autograder failed"; }
  python3 - "$score" <<'PY' || fail "Classroom 50's result.json is wrong: $(cat result.json)"
import json, sys
r = json.load(open("result.json"))
assert r["schema"] == "classroom50/result/v1" and r["score"] == r["max-score"] == int(sys.argv[1]), r
assert all(t["passed"] and t["score"] == t["max-score"] for t in r["tests"]) and r["tests"], r
PY

  # The kernel's own policy like the lab's answer is a stub that says so.
  runqueue="$CARGO_TARGET_DIR/release/runqueue"
  if "$runqueue" run --append "sched=$lab workload=spin" > "$work/stub.log" 2>&1; then fail "sched=$lab still runs"; fi
  grep -q "sched=$lab is not in this starter repository" "$work/stub.log" || fail "the stub does not say so: $(cat "$work/stub.log")"
  cd "$root"
  echo "ok   starter $lab: no answer in it; its workflow grades the skeleton below full marks and the reference to $score/$max; Classroom 50's autograder agrees; sched=$lab is a stub ($(( $(date +%s) - started )) s)"
done
