"""Classroom 50's autograder for a Runqueue lab (docs: the book's "For instructors" page).

Put this file at <classroom>/autograders/<assignment>/autograder.py in the classroom's config
repository, and runtime.json's settings in the assignment's runtime. On each submission it
grades kernel/lab/src/@LAB@.rs in the student's checkout with `make grade`, the tests' variant
chosen by the student's login, and turns the grader's results.json (Gradescope's format) into
Classroom 50's result.json. Tests put in a folder `tests/` beside this file are graded too:
Classroom 50 publishes this folder with the config repository's Pages site, so only tests as
public as that site belong there.
"""

import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

LAB = "@LAB@"
HERE = Path(__file__).resolve().parent


def grade():
    """Runs the grader; its results.json, or None if it wrote none."""
    args = ["make", "grade", "RESULTS=runqueue-results.json", f"VARIANT={os.environ.get('OWNER', '')}"]
    if (HERE / "tests").is_dir():
        args.append(f"TESTS={HERE / 'tests'}")
    subprocess.run(args, check=False)
    path = Path("runqueue-results.json")
    return json.loads(path.read_text()) if path.is_file() else None


def result(graded):
    """Classroom 50's result.json (schema classroom50/result/v1) for the grader's results."""
    tests = [
        {"test-name": t["name"], "passed": t["status"] == "passed", "score": t["score"], "max-score": t["max_score"]}
        for t in (graded or {}).get("tests", [])
    ]
    return {
        "schema": "classroom50/result/v1",
        "classroom": os.environ["CLASSROOM"],
        "assignment": os.environ["ASSIGNMENT"],
        "submission": os.environ["SUBMISSION_TAG"],
        "commit": os.environ["COMMIT_URL"],
        "release": os.environ["RELEASE_URL"],
        "review": os.environ.get("REVIEW_URL") or os.environ["COMMIT_URL"],
        "datetime": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "score": sum(t["score"] for t in tests),
        "max-score": sum(t["max-score"] for t in tests),
        "tests": tests,
    }


if __name__ == "__main__":
    graded = grade()
    Path("result.json").write_text(json.dumps(result(graded), indent=2))
    # A grader that wrote nothing is an infrastructure error for Classroom 50, not a zero.
    sys.exit(0 if graded is not None else 1)
