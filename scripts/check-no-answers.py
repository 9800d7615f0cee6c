"""Fails if a folder or a .tar.gz handed to students holds an answer to a lab: a file where the
repository keeps answers (solutions, mutants, hidden tests, the grader's fixtures built from the
solutions), or any file with a reference solution's own lines in it, whatever its name.

Usage: python3 scripts/check-no-answers.py FOLDER|ARCHIVE.tar.gz
"""

import fnmatch
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LABS = ["sjf", "mlfq", "bvt"]
# Where answers live, as paths inside a tree (an archive's first folder taken off).
ANSWER_PATHS = [
    "labs/*/solution.rs",
    "labs/*/mutants/*",
    "labs/*/hidden/*",
    "labs/grader/forbidden/*",
    "labs/grader/runaway/*",
    "labs/grader/attacks/*",
]
# A file holding this many of a solution's own lines (ones its skeleton lacks) holds its answer.
ENOUGH = 3


def own_lines(lab):
    """The reference solution's lines that are not the skeleton's: long enough to be code that
    answers something, not a brace or a shared declaration."""
    solution = (ROOT / "labs" / lab / "solution.rs").read_text().splitlines()
    skeleton = set(line.strip() for line in (ROOT / "kernel/lab/src" / f"{lab}.rs").read_text().splitlines())
    return {line.strip() for line in solution if len(line.strip()) >= 30 and line.strip() not in skeleton and not line.strip().startswith("//")}


def files(target):
    """(path inside the tree, text) for every regular file in a folder or a .tar.gz."""
    if target.is_dir():
        for path in sorted(p for p in target.rglob("*") if p.is_file() and ".git" not in p.parts and "target" not in p.parts):
            yield str(path.relative_to(target)), path.read_bytes()
        return
    with tarfile.open(target) as tar:
        for member in tar.getmembers():
            if member.isfile():
                name = member.name.split("/", 1)[1] if "/" in member.name else member.name
                yield name, tar.extractfile(member).read()


def answers(target):
    """Each answer found: the path, and why it is one."""
    lines = {lab: own_lines(lab) for lab in LABS}
    found = []
    for name, data in files(target):
        if any(fnmatch.fnmatch(name, pattern) for pattern in ANSWER_PATHS):
            found.append((name, "a file where the repository keeps answers"))
            continue
        text = set(line.strip() for line in data.decode("utf-8", "replace").splitlines())
        for lab in LABS:
            shared = len(text & lines[lab])
            if shared >= ENOUGH:
                found.append((name, f"{shared} lines of labs/{lab}/solution.rs"))
    return found


if __name__ == "__main__":
    target = Path(sys.argv[1])
    found = answers(target)
    for name, why in found:
        print(f"check-no-answers: {target}: {name}: {why}", file=sys.stderr)
    if found:
        sys.exit(1)
    print(f"check-no-answers: {target}: no answer to a lab")
