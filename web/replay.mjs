// The seed-scale replay: seed 004's 60 s `intr` experiment (twenty 8 ms/1 ms tasks on two
// harts, chapter 6 on CFS), read from the book's experiment list so the benchmark and
// the determinism test run exactly what the book's figure runs.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./browser.mjs";

export const REPLAY_ID = "cfs.seed004.intr";

/** The replay's {args, maxInsns}; `runMs` replaces its `wl.run_ms=` for a shorter run. */
export function replay(runMs = null) {
  const { experiments } = JSON.parse(readFileSync(join(ROOT, "book/figures/experiments.json"), "utf8"));
  const exp = experiments.find((e) => e.id === REPLAY_ID);
  if (!exp) throw new Error(`no experiment ${REPLAY_ID} in book/figures/experiments.json`);
  const word = (name) => exp.args.split(/\s+/).find((w) => w.startsWith(`${name}=`))?.slice(name.length + 1);
  if (!word("wl.run_ms") || !word("smp")) throw new Error(`${REPLAY_ID} lost its wl.run_ms= or smp= word: "${exp.args}"`);
  const args = runMs === null ? exp.args : exp.args.replace(/\bwl\.run_ms=\d+/, `wl.run_ms=${runMs}`);
  return { args, maxInsns: exp.max_insns ?? 5e9 };
}
