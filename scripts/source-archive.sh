#!/usr/bin/env bash
# The sources the site serves (the labs' pages link them): this repository without what
# answers a lab (.gitattributes, export-ignore), as runqueue/ in a .tar.gz; the committed tree
# from git, or this folder without what builds make when it is not a git checkout. Then
# checks that no answer is in it.
# Usage: scripts/source-archive.sh OUT.tar.gz
set -euo pipefail
out="$1"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git archive --format=tar.gz --prefix=runqueue/ -o "$out" HEAD
else
  excludes=()
  while read -r path attr; do
    [ "$attr" = export-ignore ] && excludes+=("--exclude=./$path")
  done < <(grep -v '^#' .gitattributes)
  tar -czf "$out" --transform 's,^\.,runqueue,' --exclude=./target --exclude=./book/build \
    --exclude=./web/node_modules --exclude=./.git "${excludes[@]}" .
fi
python3 scripts/check-no-answers.py "$out"
