// Runs every experiment in experiments.json with the native CLI and writes the figures the
// chapters include into book/src/generated/. The emulator is deterministic, so these are the
// numbers the reader's browser shows for the same settings.
//
//   node book/figures/generate.mjs [--cli PATH] [--linux "6.12 6.1"] [--only ID --out DIR]
//
// The CLI is --cli, else $RUNQUEUE, else the release build in cargo's target folder (which
// follows CARGO_TARGET_DIR); runs are kept in the run cache (scripts/run-cache.mjs, by the CLI's
// inputs digest and the command line). --only runs the one experiment ID and writes its figure
// into DIR, leaving the book's figures alone. Last, every claim of the book (claims.mjs) is
// checked on the new figures.

import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gunzipSync, gzipSync } from "node:zlib";
import { PENDING, anchored, catalogValues, compareTable, fieldValues, pendingValues, runValues, traceValues } from "./metrics.mjs";
import { bookPages, checkClaims } from "./claims.mjs";
import { checkIncludes, includedAnchors } from "./includes.mjs";
import { checkValues, parseSeeds, seedsMarkdown } from "./seeds.mjs";
import { parseSpec, runArgv } from "./spec.mjs";
import { canonical, livePanes, missingTwins } from "./twins.mjs";
import { kernelNames } from "../widget/kernels.js";
import { kernelCatalog } from "./kernel-catalog.mjs";
import { cacheFolder, readEntry, runInputs, runKey, writeEntry } from "../../scripts/run-cache.mjs";
import { targetDir } from "../../scripts/target-dir.mjs";
import { ZH_DIR, localizeFigure } from "../i18n/figures-zh.mjs";
import { writeHomework } from "./homework.mjs";

const run = promisify(execFile);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");
const OUT = path.join(ROOT, "book/src/generated");
// The run cache's folder for the figures (scripts/run-cache.mjs), opened by main.
let CACHE;
// How many runs this generation made (the others came from the run cache).
let ran = 0;
const CHAPTERS = path.join(ROOT, "book/src/chapters");
const JOBS = 2;

function option(name) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

function cliPath() {
  const p = option("--cli") ?? process.env.RUNQUEUE ?? path.join(targetDir(), "release/runqueue");
  const abs = path.resolve(ROOT, p);
  if (!fs.existsSync(abs)) throw new Error(`the runqueue CLI is not at ${abs}: run \`make build\` first`);
  return abs;
}

// A run's outputs as the CLI printed them: its exit code, its console when it failed, its
// RESULT, and its trace when the figure reads one. They are kept in the run cache
// (scripts/run-cache.mjs), keyed by the CLI's inputs digest and the command line, so a clone
// elsewhere or a rebuild of the same sources reuses them; what a figure shows is worked out from
// them every time (figureEntry), so a change to the figures' code needs no new run.
async function runOutputs(cli, inputs, exp) {
  const withEvents = Boolean(exp.events || exp.trace || exp.fields);
  const key = runKey(inputs, runArgv(exp, "RESULT", "EVENTS"));
  const file = path.join(CACHE, `${key}.json`);
  const eventsFile = path.join(CACHE, `${key}.events.gz`);
  const kept = readEntry(file);
  if (kept) {
    const outputs = JSON.parse(kept);
    if (!withEvents || outputs.exit !== 0) return outputs;
    const events = readEntry(eventsFile);
    if (events) return { ...outputs, events: gunzipSync(events).toString("utf8") };
  }
  ran += 1;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "runqueue-figure-"));
  const json = path.join(tmp, "result.json");
  const events = path.join(tmp, "events");
  let outputs;
  try {
    await run(cli, runArgv(exp, json, events), { maxBuffer: 64 << 20 });
    outputs = { exit: 0, result: JSON.parse(fs.readFileSync(json, "utf8")) };
    if (withEvents) outputs.events = fs.readFileSync(events, "utf8");
  } catch (e) {
    if (typeof e.code !== "number") throw new Error(`experiment ${exp.id} ("${exp.args}") did not run: ${e.message}`);
    outputs = { exit: e.code, stdout: `${e.stdout ?? ""}`, stderr: `${e.stderr ?? ""}` };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  if (outputs.events !== undefined) writeEntry(eventsFile, gzipSync(outputs.events));
  const { events: _trace, ...rest } = outputs;
  writeEntry(file, JSON.stringify(rest));
  return outputs;
}

// What the figure of `exp` shows, from its run's outputs.
function figureEntry(exp, outputs) {
  if (outputs.exit !== 0) {
    // A refused run shows the reader the kernel's `error:` line; the book quotes that line.
    const error = outputs.stdout.split("\n").find((l) => l.startsWith("error: "));
    if (!exp.refused || !error) {
      throw new Error(`experiment ${exp.id} ("${exp.args}") failed with exit code ${outputs.exit}:\n${outputs.stdout}${outputs.stderr}`);
    }
    return { error };
  }
  if (exp.refused) throw new Error(`experiment ${exp.id} ("${exp.args}") should be refused by the kernel, but it ran`);
  const entry = { result: outputs.result };
  if (exp.events) entry.events = outputs.events.trimEnd().split("\n").slice(0, exp.events).join("\n");
  if (exp.fields) entry.fields = fieldValues(outputs.events, outputs.result, exp.fields);
  if (exp.trace) entry.trace = traceValues(outputs.events, outputs.result, exp);
  return entry;
}

async function runOne(cli, inputs, exp) {
  return figureEntry(exp, await runOutputs(cli, inputs, exp));
}

// The figure file of one experiment: its values, each between anchors the chapters include.
function figure(exp, { result, events, fields, error, trace }) {
  const values = error ? { error } : { ...runValues(result), ...trace, ...fields };
  values.args = `\`${exp.args}\``;
  if (events !== undefined) values.events = "```text\n" + events + "\n```";
  return anchored(values);
}

async function main() {
  const spec = parseSpec(fs.readFileSync(path.join(HERE, "experiments.json"), "utf8"));
  const seeds = parseSeeds(fs.readFileSync(path.join(HERE, "seeds.json"), "utf8"));
  const wrong = checkValues(seeds);
  if (wrong.length) throw new Error(`seeds.json has figures that are not what their source says:\n  ${wrong.join("\n  ")}`);
  const cli = cliPath();
  const catalog = kernelCatalog(cli);
  // A run that needs a setting this kernel does not know yet is skipped (spec.mjs, `needs`).
  const pending = spec.experiments.filter((e) => e.needs !== undefined && !catalog.tunables.has(e.needs));
  for (const exp of spec.experiments) if (!pending.includes(exp)) exp.args = canonical(exp.args, catalog);
  const only = option("--only");
  if (only !== undefined) return generateOne(cli, spec, pending, only, option("--out"));
  // The Linux kernels the site will serve beside ours (`make linux`'s LINUX_VERSIONS), which
  // an experiment may compare with: their runs are Linux's, not figures of the book.
  catalog.kernels = kernelNames({ kernels: (option("--linux") ?? "").split(/\s+/).filter(Boolean).map((v) => ({ name: `linux-${v}` })) });
  const missing = missingTwins(livePanes(CHAPTERS, catalog), spec.experiments.map((e) => e.args));
  if (missing.length) throw new Error(`live experiments whose figures the build did not make:\n  ${missing.join("\n  ")}`);
  const inputs = runInputs(cli);
  CACHE = cacheFolder("runs");

  const entries = new Map(pending.map((e) => [e.id, { pending: e.needs }]));
  const queue = spec.experiments.filter((e) => !pending.includes(e));
  const worker = async () => {
    for (let exp = queue.shift(); exp; exp = queue.shift()) entries.set(exp.id, await runOne(cli, inputs, exp));
  };
  await Promise.all(Array.from({ length: JOBS }, worker));

  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  const quoted = includedAnchors(CHAPTERS);
  for (const exp of spec.experiments) {
    const entry = entries.get(exp.id);
    const text = entry.pending
      ? anchored({ ...pendingValues([...(quoted.get(`${exp.id}.md`) ?? [])], entry.pending), args: `\`${exp.args}\`` })
      : figure(exp, entry);
    fs.writeFileSync(path.join(OUT, `${exp.id}.md`), text);
  }
  const results = new Map([...entries].filter(([, e]) => e.result).map(([id, e]) => [id, e.result]));
  // What each command line printed, for the browser tests to compare with the page's own run.
  // A run on a machine the page does not build (another `quantum`) is no twin of the page's.
  const byArgs = Object.fromEntries(spec.experiments.filter((e) => results.has(e.id) && !e.quantum).map((e) => [e.args, results.get(e.id)]));
  fs.writeFileSync(path.join(OUT, "results.json"), JSON.stringify(byArgs));
  const withPending = new Map([...results, ...pending.map((e) => [e.id, PENDING])]);
  const tables = Object.fromEntries(spec.tables.map((t) => [t.id, compareTable(t, withPending)]));
  fs.writeFileSync(path.join(OUT, "tables.md"), anchored(tables));
  // The seed reports' figures the chapters quote, one anchor each (book/figures/seeds.json).
  fs.writeFileSync(path.join(OUT, "seeds.md"), seedsMarkdown(seeds));
  fs.writeFileSync(path.join(OUT, "catalog.md"), anchored(catalogValues(catalog)));
  // The Chinese edition's copies, tables in Chinese (book/i18n/figures-zh.mjs).
  fs.mkdirSync(path.join(OUT, ZH_DIR));
  for (const file of fs.readdirSync(OUT).filter((f) => f.endsWith(".md"))) {
    fs.writeFileSync(path.join(OUT, ZH_DIR, file), localizeFigure(fs.readFileSync(path.join(OUT, file), "utf8")));
  }
  // Each chapter's generated problem, answered by the kernel, in both languages (homework.mjs).
  await writeHomework(cli, OUT, ZH_DIR);

  const problems = checkIncludes(CHAPTERS, OUT);
  if (problems.length) throw new Error(`chapters include figures that were not generated:\n  ${problems.join("\n  ")}`);
  const reused = `${ran} runs made, ${spec.experiments.length - pending.length - ran} reused from the run cache`;
  console.log(`figures: ${spec.experiments.length} experiments, ${spec.tables.length} tables, ${seeds.figures.length} seed figures in ${path.relative(ROOT, OUT)} (${reused})`);
  if (process.env.SUITE_NOTE && !fs.existsSync(process.env.SUITE_NOTE)) fs.writeFileSync(process.env.SUITE_NOTE, `figures: ${reused}\n`);
  // The sentences that compare these figures, checked on them (claims.mjs).
  const claims = checkClaims(bookPages(), OUT);
  if (claims.problems.length) throw new Error(`${claims.problems.length} claims of the book do not hold:\n  ${claims.problems.join("\n  ")}`);
  console.log(`claims: ${claims.checked} checked${claims.pending ? `, ${claims.pending} waiting for pending figures` : ""}`);
  if (pending.length) {
    console.warn(`figures: ${pending.length} experiments pending, their figures say so: ${pending.map((e) => `${e.id} (needs ${e.needs}=)`).join(", ")}`);
  }
}

// One experiment's figure, into `out` (the book's own figures and chapters are not touched).
async function generateOne(cli, spec, pending, id, out) {
  const exp = spec.experiments.find((e) => e.id === id);
  if (!exp) throw new Error(`no experiment ${id} in experiments.json`);
  if (pending.includes(exp)) throw new Error(`experiment ${id} needs ${exp.needs}=, which this kernel's catalog does not list yet`);
  if (!out) throw new Error("--only needs --out DIR");
  CACHE = cacheFolder("runs");
  const entry = await runOne(cli, runInputs(cli), exp);
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, `${exp.id}.md`), figure(exp, entry));
  console.log(`figures: ${exp.id} in ${out}`);
}

main().catch((e) => {
  console.error(`figures: ${e.message}`);
  process.exit(1);
});
