// The interpreter's fast paths against its reference mode: runs every chapter experiment
// (book/figures/experiments.json, the way the book's figures run them) with `--exec fast` and
// `--exec reference` (one instruction per block, none of the fast paths) and compares what each
// printed, its exit code, its RESULT JSON and its trace, byte for byte (as SHA-256 digests). It
// fails naming the first experiment, in the file's order, whose two runs differ.
//
// An experiment that passed with a CLI of the same inputs digest (`runqueue inputs`: the same
// kernel and emulator sources) and the same arguments passes again without running: the check
// keeps each pass in the run cache's determinism/ folder (scripts/run-cache.mjs); --no-cache
// runs them all.
//
//   node scripts/test-determinism.mjs [--cli PATH] [--only ID,ID...] [--jobs N] [--no-cache]
//
// The CLI is --cli, else $RUNQUEUE, else the release build (`make test-determinism` builds it).

import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseSpec, runArgv } from "../book/figures/spec.mjs";
import { cacheFolder, readEntry, runInputs, runKey, writeEntry } from "./run-cache.mjs";
import { runqueueCli } from "./target-dir.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MODES = ["fast", "reference"];

function option(name) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

// One run's outputs, each as a digest, so a difference says which output differs.
function runDigests(cli, exp, mode, dir) {
  const json = path.join(dir, `${exp.id}.${mode}.json`);
  const events = path.join(dir, `${exp.id}.${mode}.events`);
  const argv = [...runArgv(exp, json, events), "--exec", mode];
  return new Promise((resolve) => {
    execFile(cli, argv, { maxBuffer: 256 << 20, encoding: "buffer" }, (error, stdout, stderr) => {
      const file = (p) => (fs.existsSync(p) ? fs.readFileSync(p) : Buffer.from("(none)"));
      const digest = (bytes) => createHash("sha256").update(bytes).digest("hex");
      const outputs = {
        exit: digest(String(error ? error.code : 0)),
        console: digest(stdout),
        stderr: digest(stderr),
        json: digest(file(json)),
        trace: digest(file(events)),
      };
      fs.rmSync(json, { force: true });
      fs.rmSync(events, { force: true });
      resolve(outputs);
    });
  });
}

async function main() {
  const cli = path.resolve(ROOT, option("--cli") ?? runqueueCli());
  if (!fs.existsSync(cli)) throw new Error(`the runqueue CLI is not at ${cli}: run \`make build\` first`);
  const spec = parseSpec(fs.readFileSync(path.join(ROOT, "book/figures/experiments.json"), "utf8"));
  const only = option("--only")?.split(",");
  const experiments = only ? spec.experiments.filter((e) => only.includes(e.id)) : spec.experiments;
  if (only && experiments.length !== only.length) throw new Error(`no such experiment among: ${only.join(", ")}`);
  const jobs = Number(option("--jobs") ?? os.availableParallelism());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runqueue-determinism-"));
  const kept = cacheFolder("determinism");
  const inputs = runInputs(cli);
  const passed = (exp) => path.join(kept, runKey(inputs, ["determinism", ...runArgv(exp, "RESULT", "EVENTS")]));
  const reused = process.argv.includes("--no-cache") ? [] : experiments.filter((exp) => readEntry(passed(exp)) !== undefined);
  const toRun = experiments.filter((exp) => !reused.includes(exp));

  // Both modes of one experiment are queued together, so a difference shows up early.
  const tasks = toRun.flatMap((exp) => MODES.map((mode) => ({ exp, mode })));
  const results = new Map();
  const started = Date.now();
  let done = 0;
  const worker = async () => {
    for (let t = tasks.shift(); t; t = tasks.shift()) {
      results.set(`${t.exp.id} ${t.mode}`, await runDigests(cli, t.exp, t.mode, dir));
      done += 1;
      if (done % 40 === 0) console.log(`  ${done}/${toRun.length * MODES.length} runs, ${Math.round((Date.now() - started) / 1000)} s`);
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  fs.rmSync(dir, { recursive: true, force: true });

  const differing = toRun.filter((exp) => {
    const [fast, reference] = MODES.map((m) => results.get(`${exp.id} ${m}`));
    return Object.keys(fast).some((k) => fast[k] !== reference[k]);
  });
  for (const exp of toRun) if (!differing.includes(exp)) writeEntry(passed(exp), JSON.stringify(results.get(`${exp.id} fast`)));
  const seconds = Math.round((Date.now() - started) / 1000);
  const summary = `${toRun.length} experiments run, ${reused.length} unchanged since they passed (run cache)`;
  if (process.env.SUITE_NOTE) fs.writeFileSync(process.env.SUITE_NOTE, `${summary}\n`);
  if (differing.length) {
    const first = differing[0];
    const [fast, reference] = MODES.map((m) => results.get(`${first.id} ${m}`));
    const what = Object.keys(fast).filter((k) => fast[k] !== reference[k]);
    throw new Error(
      `${differing.length} of ${experiments.length} experiments run differently in the fast and the reference mode; ` +
        `the first is ${first.id} ("${first.args}"): its ${what.join(", ")} differ`,
    );
  }
  console.log(`determinism: all ${experiments.length} experiments identical in the fast and the reference mode (${summary}; ${seconds} s)`);
}

main().catch((e) => {
  console.error(`test-determinism: ${e.message}`);
  process.exit(1);
});
