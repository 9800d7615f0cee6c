#!/usr/bin/env python3
"""Checks a results.json against the fields Gradescope reads, and that it gave full marks.

Usage: check_results.py RESULTS_JSON
"""
import json
import sys

VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}


def problems(results):
    if not isinstance(results.get("score"), (int, float)):
        yield "score is missing or not a number"
    tests = results.get("tests")
    if not isinstance(tests, list) or not tests:
        yield "tests is missing or empty"
        return
    for i, t in enumerate(tests):
        for key, kind in (("name", str), ("score", (int, float)), ("max_score", (int, float)), ("output", str)):
            if not isinstance(t.get(key), kind):
                yield f"tests[{i}].{key} is missing or of the wrong type"
        if t.get("visibility", "visible") not in VISIBILITY:
            yield f"tests[{i}].visibility {t.get('visibility')!r} is not one of {sorted(VISIBILITY)}"
    total = sum(t.get("max_score", 0) for t in tests)
    if results.get("score") != total:
        yield f"score {results.get('score')} is not full marks ({total})"


def main():
    with open(sys.argv[1]) as f:
        found = list(problems(json.load(f)))
    for p in found:
        print(f"results.json: {p}", file=sys.stderr)
    sys.exit(1 if found else 0)


main()
