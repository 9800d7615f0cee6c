// Determinism across the two builds: chapter experiments run in the page's Worker (the wasm
// emulator, sliced as the widget slices it) and natively with `runqueue run` give the same
// console and the same trace, byte for byte. One hart, two harts, a modelled host, and the
// seed-scale replay's arguments over a shorter run. The page runs its compiled tier (hot guest
// code compiled to WebAssembly, `emulator/wasm/src/tier.rs`), natively everything is
// interpreted: each run is long enough for regions to be compiled, and the test checks some were.

import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { start } from "../browser.mjs";
import { sameBytes } from "../native.mjs";
import { workerRun } from "../pages.mjs";
import { replay } from "../replay.mjs";
import { runqueueCli } from "../../scripts/target-dir.mjs";

const REPLAY_MS = 1500;
const short = replay(REPLAY_MS);
const RUNS = [
  { name: "one hart (the demo chapter's CFS run)", args: "sched=cfs workload=fairness-unequal" },
  // Eager: a region is compiled at the first jump to its entry, about a thousand per run, so
  // these short runs put most of the page's op kinds through compiled code.
  { name: "two harts, compiling eagerly", args: "sched=rr workload=fairness-equal smp=2", tier: "eager" },
  { name: "a modelled host, compiling eagerly", args: "sched=cfs workload=cyclictest wl.loops=300 host=untuned host.hogs=2", tier: "eager" },
  { name: `seed 004's replay over ${REPLAY_MS} ms`, args: short.args, max: short.maxInsns },
];

let site;
let page;
before(async () => {
  site = await start();
  page = await site.context.newPage();
});
after(async () => site?.stop());

/** Console (stdout) and Chrome trace of `runqueue run` on `args`. */
function native(args, max) {
  const dir = mkdtempSync(join(tmpdir(), "rq-det-"));
  try {
    const stdout = execFileSync(runqueueCli(), ["run", "--append", args, "--max-insns", String(max), "--trace", join(dir, "t.json")], { encoding: "utf8", maxBuffer: 64 << 20 });
    return { console: stdout, trace: readFileSync(join(dir, "t.json"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const { name, args, max = 5e9, tier = "on" } of RUNS) {
  test(`${name}: console and trace are byte-identical in the page and natively`, async () => {
    const harts = Number(/\bsmp=(\d+)/.exec(args)?.[1] ?? 1);
    const inPage = await workerRun(page, site, { args, harts, max, trace: "chrome", tier });
    const cli = native(args, max);
    assert.equal(inPage.exitCode, 0);
    assert.ok(inPage.console.includes("RESULT {"), "the run printed its RESULT line");
    assert.ok(JSON.parse(inPage.trace).traceEvents.length > 0, "the run has a trace");
    const least = tier === "eager" ? 500 : 1;
    assert.ok(inPage.compiledRegions >= least, `the compiled tier compiled ${inPage.compiledRegions} regions, fewer than ${least}`);
    for (const what of ["console", "trace"]) sameBytes(inPage[what], cli[what], what);
  });
}
