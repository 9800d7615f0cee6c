#!/usr/bin/env python3
"""Import cycles between the modules of one Rust crate, from its `crate::`/`super::` paths.

    scripts/module-cycles.py kernel/src            # every cycle, largest first
    scripts/module-cycles.py kernel/src --max 0    # exit 1 if any module is in a cycle

A module is a file (`a/b.rs` or `a/b/mod.rs` is `a::b`). An arrow goes from a file to each
module a path in it names (`crate::a::b::Item` names `a::b`), a module's own submodules
excepted (declaring a child is not depending on it). Reading paths as text can miss a
macro-built path; it never invents one.
"""
import argparse
import pathlib
import re
import sys

PATH = re.compile(r"\b(crate|super)((?:::[A-Za-z_][A-Za-z0-9_]*)+|::\{)")
COMMENT = re.compile(r"//[^\n]*")


def modules(src: pathlib.Path) -> dict[tuple, pathlib.Path]:
    found = {}
    for file in sorted(src.rglob("*.rs")):
        parts = list(file.relative_to(src).with_suffix("").parts)
        if parts[-1] == "mod" or (len(parts) == 1 and parts[0] in ("lib", "main")):
            parts = parts[:-1]
        found[tuple(parts)] = file
    return found


def group_heads(text: str, start: int) -> list[list[str]]:
    """The first path segments inside `{...}` starting at `start` (nested groups flattened)."""
    depth, token, heads, end = 0, "", [], start
    for end, ch in enumerate(text[start:], start):
        if ch == "{":
            depth += 1
            if depth == 1:
                token = ""
                continue
        if ch == "}":
            depth -= 1
            if depth == 0:
                break
        if depth == 1 and ch == ",":
            heads.append(token)
            token = ""
        elif depth >= 1:
            token += ch
    heads.append(token)
    paths = []
    for head in heads:
        names = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", head.split("{")[0])
        if names:
            paths.append(names)
    return paths


def resolve(base: tuple, names: list[str], known: dict) -> tuple | None:
    """The longest module `base::names...` that exists."""
    best = None
    path = list(base)
    for name in names:
        if name == "super":
            path = path[:-1]
            continue
        path.append(name)
        if tuple(path) in known:
            best = tuple(path)
    return best


def arrows(known: dict) -> dict[tuple, set]:
    graph = {m: set() for m in known}
    for module, file in known.items():
        text = COMMENT.sub("", file.read_text())
        for m in PATH.finditer(text):
            base = () if m.group(1) == "crate" else module[:-1]
            if m.group(2) == "::{":
                targets = [resolve(base, names, known) for names in group_heads(text, m.end() - 1)]
            else:
                targets = [resolve(base, m.group(2).split("::")[1:], known)]
            for target in targets:
                if target is not None and target != module and target[: len(module)] != module:
                    graph[module].add(target)
    return graph


def cycles(graph: dict) -> list[list]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return sorted(out, key=len, reverse=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("src", type=pathlib.Path, help="the crate's src folder")
    parser.add_argument("--max", type=int, help="fail if more modules than this are in cycles")
    args = parser.parse_args()
    known = modules(args.src)
    graph = arrows(known)
    found = cycles(graph)
    in_cycles = sum(len(c) for c in found)
    print(f"{args.src}: {len(known)} modules, {sum(len(t) for t in graph.values())} arrows, "
          f"{len(found)} cycles, {in_cycles} modules in them")
    for component in found:
        print(f"  cycle of {len(component)}: " + ", ".join("::".join(m) or "crate" for m in component))
    return 1 if args.max is not None and in_cycles > args.max else 0


if __name__ == "__main__":
    sys.exit(main())
