// What the native `runqueue` CLI gives for the same input, for the tests that hold the page to
// it byte for byte: a run's RESULT JSON, console, traces; a lab's grading.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./browser.mjs";
import { runqueueCli, targetDir } from "../scripts/target-dir.mjs";
import { tempDir } from "../scripts/temp-dir.mjs";

const RUNQUEUE = runqueueCli();
// One kernel copy for every grading build: each grade rebuilds only the slot's crate.
export const GRADE_CACHE = join(targetDir(), "web-grade");
const BUILT = join(GRADE_CACHE, "target/riscv64imac-unknown-none-elf/release/runqueue-kernel");

/**
 * `runqueue run --append ARGS` with the budget `max` (on Linux `kernel`, `linux-6.12`, when
 * given): {console, json, chrome, ftrace} (files as text).
 */
export function nativeRun(args, max = 3e9, kernel = null) {
  const dir = mkdtempSync(join(tmpdir(), "rq-native-"));
  try {
    const file = (name) => join(dir, name);
    const console = execFileSync(RUNQUEUE, ["run", ...(kernel ? ["--kernel", kernel] : []), "--append", args, "--max-insns", String(max), "--json", file("r.json"),
      "--trace", file("t.json"), "--ftrace", file("t.txt")], { encoding: "utf8", maxBuffer: 64 << 20 });
    return { console, json: readFileSync(file("r.json"), "utf8"), chrome: readFileSync(file("t.json"), "utf8"), ftrace: readFileSync(file("t.txt"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Asserts the page's text `a` is the CLI's `b`, byte for byte; a failure says where they part
 * (assert.equal's diff of megabytes would bury it).
 */
export function sameBytes(a, b, what) {
  let i = 0;
  while (i < Math.min(a.length, b.length) && a[i] === b[i]) i++;
  assert.ok(a.length === b.length && i === a.length,
    `${what} differs from byte ${i} (page ${a.length} bytes, native ${b.length}): page ${JSON.stringify(a.slice(i, i + 80))}, native ${JSON.stringify(b.slice(i, i + 80))}`);
}

/** Grades `solution` with the CLI; returns its table, results.json and the kernel it built. */
export function gradeNatively(lab, solution) {
  const results = join(tempDir("rq-grade-"), "results.json");
  let table;
  try {
    table = execFileSync(RUNQUEUE, ["grade", "--lab", lab, solution, "--root", ROOT, "--cache", GRADE_CACHE, "--results", results], { encoding: "utf8" });
  } catch (e) {
    table = e.stdout; // not full marks: exit code 1, the table is still printed
  }
  return { table, results: readFileSync(results, "utf8"), elf: readFileSync(BUILT) };
}
