// Captures the real kernel's runs that exercise-decisions.test.mjs replays: per run its command
// line, the queue views the kernel's catalog gives its scheduler, and its trace events (the
// `iter` marks left out: they decide nothing). web/tests/scheduler-exercise.test.mjs checks that
// the recorded runs are still the kernel's; after a change to the kernel's policies, rerun
//   RUNQUEUE=target/release/runqueue node book/widget/testdata/capture-exercise.mjs

import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { normalizeCatalog, queueViews } from "../catalog.js";
import { rawCatalog } from "../../figures/kernel-catalog.mjs";
import { runqueueCli } from "../../../scripts/target-dir.mjs";
import { RUNS, parseEvents } from "./exercise-runs.mjs";
import { tempDir } from "../../../scripts/temp-dir.mjs";

export const RECORDED = new URL("./exercise-traces.json", import.meta.url);

/** The runs of RUNS on the kernel inside `cli`, as exercise-traces.json holds them. */
export function capture(cli) {
  const catalog = normalizeCatalog(rawCatalog(cli), "en");
  const out = {};
  for (const [name, args] of Object.entries(RUNS)) {
    const file = join(tempDir("rq-exercise-"), "events.txt");
    execFileSync(cli, ["run", "--append", args, "--events", file], { stdio: "ignore" });
    const lines = readFileSync(file, "utf8").split("\n").filter((l) => l && !/ mark \d+ iter=/.test(l));
    parseEvents(lines.join("\n")); // fails here, not in the test, on a line it cannot read
    out[name] = { args, views: queueViews(catalog, /sched=(\S+)/.exec(args)[1]), trace: lines };
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(RECORDED, `${JSON.stringify(capture(runqueueCli()), null, 1)}\n`);
