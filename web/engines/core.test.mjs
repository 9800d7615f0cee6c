// The browser suite's core in the engine RQ_ENGINE names (firefox or webkit; drivers.mjs):
// every chapter's first experiment to its RESULT, byte for byte the native CLI's; the compiled
// tier's console and trace against the CLI's; Linux booted in the page, against the CLI's;
// grading in the page; the homework fields' checks; the downloads. Chromium runs
// the whole suite (web/tests/); this keeps the page honest in Firefox and in Safari's engine
// family. Needs a built site (`make book`); `make test-engines` runs it in both.

import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT, SITE } from "../browser.mjs";
import { gradeNatively, nativeRun, sameBytes } from "../native.mjs";
import { serve } from "../serve.mjs";
import { launch } from "./drivers.mjs";
import { BACK_MATTER, hasExperiment } from "../site-pages.mjs";

const ENGINE = process.env.RQ_ENGINE ?? "firefox";
const chapters = readdirSync(join(SITE, "chapters")).filter((f) => f.endsWith(".html")).sort();

let browser;
let server;
let base;
before(async () => {
  server = await serve(SITE, 0);
  base = `http://127.0.0.1:${server.address().port}/`;
  browser = await launch(ENGINE);
  console.log(`# ${browser.name}`);
});
after(async () => {
  await browser?.close();
  await new Promise((r) => server?.close(r));
});

// In-page functions: each is sent to the page as source text, so it holds all it needs.

/** Waits for the widgets, presses Run on experiment `i` and waits for every pane to stop. */
async function runExperiment(i) {
  const until = async (ok, ms, what) => {
    for (const t0 = Date.now(); !ok(); await new Promise((r) => setTimeout(r, 100))) {
      if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    }
  };
  await until(() => globalThis.runqueue?.ready, 30_000, "the widgets");
  const x = runqueue.experiments[i];
  x.runBtn.click();
  await until(() => x.panes.every((p) => ["done", "error"].includes(p.state)), 240_000, "the run's end");
  return { budget: x.budget, panes: x.panes.map((p, i) => ({ state: p.state, error: p.error, result: p.result, bootargs: p.bootargs, kernel: x.kernels()[i] })) };
}

/** Clicks the button `selector` and returns what the page offered to save: [{name, text}]. */
async function downloads(selector) {
  const offered = [];
  // The widget saves through a temporary <a download>: its blob is read here, not saved.
  const grab = (e) => {
    const a = e.target.closest?.("a[download]");
    if (!a) return;
    e.preventDefault();
    offered.push(fetch(a.href).then((r) => r.text()).then((text) => ({ name: a.download, text })));
  };
  document.addEventListener("click", grab, true);
  try {
    document.querySelector(selector).click();
    for (const t0 = Date.now(); !offered.length; await new Promise((r) => setTimeout(r, 50))) {
      if (Date.now() - t0 > 30_000) throw new Error(`${selector} offered nothing to save`);
    }
    return await Promise.all(offered);
  } finally {
    document.removeEventListener("click", grab, true);
  }
}

/** The bench page's result: {instret, exitCode, compiledRegions, console, trace}. */
async function benchResult() {
  for (const t0 = Date.now(); !globalThis.benchResult; await new Promise((r) => setTimeout(r, 100))) {
    if (Date.now() - t0 > 240_000) throw new Error("the bench page did not finish");
  }
  return globalThis.benchResult;
}

/**
 * Checks each homework field of the page with the key's answer (read from its fold), then with
 * `wrong(answer)`'s: [{key, wrong}] of the fields' verdicts (`data-verdict`).
 */
async function checkHomework() {
  const until = async (ok, what) => {
    for (const t0 = Date.now(); !ok(); await new Promise((r) => setTimeout(r, 50))) {
      if (Date.now() - t0 > 30_000) throw new Error(`timed out waiting for ${what}`);
    }
  };
  await until(() => globalThis.runqueueHomework?.forms.length > 0, "the homework fields");
  const wrong = (a) => (a.kind === "number" ? String(a.value + 10 * Math.max(a.abs, 1) + 10 * Math.abs(a.value))
    : a.kind === "choice" ? a.choices.find((c) => c !== a.value) : [...a.value].reverse().join(", "));
  const check = async (form, text) => {
    form.dataset.verdict = "";
    form.querySelector("input").value = text;
    form.requestSubmit();
    await until(() => form.dataset.verdict, "a verdict");
    return form.dataset.verdict;
  };
  const verdicts = [];
  for (const form of runqueueHomework.forms) {
    const key = form.closest("li").querySelector("details strong").textContent;
    verdicts.push({ key: await check(form, key), wrong: await check(form, wrong(JSON.parse(form.dataset.answer))) });
  }
  return verdicts;
}

/** Drops a file with `base64` bytes on the grading widget and waits for its verdict. */
async function dropAndGrade(name, base64) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  for (const t0 = Date.now(); !globalThis.runqueueGrade?.widgets.length; await new Promise((r) => setTimeout(r, 100))) {
    if (Date.now() - t0 > 30_000) throw new Error("no grading widget");
  }
  const data = new DataTransfer();
  data.items.add(new File([bytes], name));
  document.querySelector(".rq-grade-zone").dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  const w = runqueueGrade.widgets[0];
  for (const t0 = Date.now(); !["done", "error"].includes(w.state); await new Promise((r) => setTimeout(r, 200))) {
    if (Date.now() - t0 > 240_000) throw new Error("grading did not finish");
  }
  return { state: w.state, error: w.error, table: w.table, shown: w.output.textContent, status: w.status.textContent, results: w.results };
}

test(`${ENGINE}: every chapter's first experiment reaches the RESULT the native CLI prints, byte for byte`, async (t) => {
  assert.ok(chapters.length >= 13, `only ${chapters.length} chapters`);
  for (const chapter of chapters) {
    await t.test(chapter, async () => {
      if (!hasExperiment("", chapter)) return assert.ok(BACK_MATTER.has(chapter), `${chapter} has no experiment`);
      await browser.goto(`${base}chapters/${chapter}`);
      const { budget, panes } = await browser.call(runExperiment, 0);
      for (const p of panes) {
        assert.equal(p.error, null, `${p.bootargs}: ${p.error}`);
        assert.equal(p.state, "done");
        // A pane on Linux (a chapter's Linux pair) against the CLI's run of that Linux.
        const linux = p.kernel === "runqueue" ? null : p.kernel;
        sameBytes(`${p.result}\n`, nativeRun(p.bootargs, budget, linux).json, `RESULT of ${p.bootargs}${linux ? ` on ${linux}` : ""}`);
      }
    });
  }
});

test(`${ENGINE}: the compiled tier gives the native console and trace, byte for byte`, async () => {
  const args = "sched=rr workload=fairness-equal smp=2";
  const q = new URLSearchParams({ elf: "kernel.elf", args, harts: "2", max: "3000000000", tier: "eager", trace: "chrome" });
  await browser.goto(`${base}runqueue/widget/bench.html?${q}`);
  const r = await browser.call(benchResult);
  assert.equal(r.error, undefined, r.error);
  assert.equal(r.exitCode, 0);
  assert.ok(r.compiledRegions >= 500, `${r.compiledRegions} regions compiled`);
  const native = nativeRun(args);
  sameBytes(r.console, native.console, "console");
  sameBytes(r.trace, native.chrome, "Chrome trace");
});

test(`${ENGINE}: Linux 6.12 boots in the page and prints the CLI's console and ftrace, byte for byte`, async () => {
  const args = "workload=fairness-unequal smp=2";
  await browser.goto(`${base}runqueue/widget/bench.html?${new URLSearchParams({ kernel: "linux-6.12", args, max: "5000000000", trace: "ftrace" })}`);
  const r = await browser.call(benchResult);
  assert.equal(r.error, undefined, r.error);
  assert.equal(r.exitCode, 0);
  const native = nativeRun(args, 5e9, "linux-6.12");
  sameBytes(r.console, native.console, "console");
  sameBytes(r.trace, native.ftrace, "ftrace");
});

test(`${ENGINE}: the homework fields check the key's answers as right and others as not yet`, async () => {
  await browser.goto(`${base}chapters/04-sjf.html`);
  const verdicts = await browser.call(checkHomework);
  assert.ok(verdicts.length >= 3, `${verdicts.length} fields`);
  assert.deepEqual(verdicts, verdicts.map(() => ({ key: "right", wrong: "not-yet" })));
});

test(`${ENGINE}: grading in the page gives the CLI's table and results.json`, async () => {
  const native = gradeNatively("bvt", join(ROOT, "labs/bvt/solution.rs"));
  assert.match(native.table, /total: 10\/10/);
  await browser.goto(`${base}labs/bvt.html`);
  const page = await browser.call(dropAndGrade, "runqueue-kernel", native.elf.toString("base64"));
  assert.equal(page.state, "done", page.error ?? "");
  assert.equal(page.shown, native.table, "the page shows the CLI's table");
  assert.match(page.status, /10\/10 points/);
  assert.deepEqual(page.results, JSON.parse(native.results));
});

test(`${ENGINE}: the downloads hold the CLI's RESULT JSON and ftrace text and a Perfetto trace`, async () => {
  const args = "sched=cfs workload=fairness-unequal smp=2";
  await browser.goto(`${base}chapters/03-fifo-rr.html?e1=${encodeURIComponent(args)}&e1.vs=`);
  const { panes: [p] } = await browser.call(runExperiment, 0);
  assert.equal(p.state, "done", p.error ?? "");
  const native = nativeRun(p.bootargs);
  const [result] = await browser.call(downloads, ".rq-widget .rq-dl-result");
  assert.match(result.name, /^runqueue-sched=cfs_workload=fairness-unequal.*\.json$/);
  sameBytes(result.text, native.json, "the RESULT download");
  const [ftrace] = await browser.call(downloads, ".rq-widget .rq-dl-ftrace");
  sameBytes(ftrace.text, native.ftrace, "the ftrace download");
  const [trace] = await browser.call(downloads, ".rq-widget .rq-dl-trace");
  assert.ok(JSON.parse(trace.text).traceEvents.some((e) => e.ph === "B"), "the Perfetto trace holds task stints");
});
