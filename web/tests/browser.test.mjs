// End-to-end tests of the book in Debian's Chromium: the demo chapter, the widget running the
// real kernel in a Worker, the charts, the controls, bad input, accessibility. Needs a built
// site (`make book`) and the `runqueue` CLI (for the byte-identity check).

import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SITE, start } from "../browser.mjs";
import { axe, finished, open as openPage, ready } from "../pages.mjs";
import { runqueueCli, targetDir } from "../../scripts/target-dir.mjs";
import { tempDir } from "../../scripts/temp-dir.mjs";

const CHAPTER = "experiments.html";
const SHOTS = join(targetDir(), "screenshots");
const RUNQUEUE = runqueueCli();

let site;
before(async () => {
  if (!existsSync(join(SITE, CHAPTER))) {
    throw new Error(`${CHAPTER} is not in the built book: run make book, with experiments.md listed in book/src/SUMMARY.md`);
  }
  site = await start();
  mkdirSync(SHOTS, { recursive: true });
});
after(async () => site?.stop());

const open = (path, theme) => openPage(site, path, theme);
const widget = (page, i) => page.locator(".rq-widget").nth(i);
const panes = (page, i) => page.evaluate((i) => runqueue.experiments[i].panes.map((p) => ({
  state: p.state, error: p.error, result: p.result, bootargs: p.bootargs, console: p.consoleText,
  instret: p.instret, labels: p.charts.completion.data.labels, firstOutputMs: p.firstOutputMs,
})), i);

test("the chapter loads its widgets without errors and passes axe", async () => {
  const { page, errors } = await open(CHAPTER);
  await ready(page);
  assert.equal(await page.locator(".rq-widget").count(), 2);
  assert.equal(await page.locator(".rq-widget .rq-pane").count(), 3, "compare mode has two panes");
  assert.deepEqual(await page.evaluate(() => runqueue.experiments.flatMap((e) => e.panes.map((p) => p.state))),
    ["idle", "idle", "idle"], "nothing boots before Run");
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

// The kernel's command-line parser, a wasm of its own (settings/wasm): every widget reads its
// settings when it is made.
const READER = "runqueue_settings_wasm_bg.wasm";

test("a page loads its terminal and chart libraries when a widget comes into view, and builds charts only for a run", async () => {
  // Chapter 9's eleven experiments all start below the first screen.
  const { page, errors } = await open("chapters/09-realtime.html");
  const fetched = [];
  page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
  await page.reload();
  await ready(page);
  await page.waitForTimeout(1000); // the page idles
  const heavy = () => fetched.filter((p) => /xterm|chart\.umd|\.wasm|kernel\.elf/.test(p) && !p.endsWith(READER));
  assert.deepEqual(heavy(), [], "no terminal, chart library, emulator or kernel for a page read from its top");
  assert.ok(fetched.includes(`/runqueue/pkg/${READER}`), "only the settings reader's small wasm");
  assert.equal(await page.locator(".xterm, canvas").count(), 0, "no terminal or chart");
  await widget(page, 0).scrollIntoViewIfNeeded();
  await page.waitForFunction(() => globalThis.Chart, null, { timeout: 20_000 });
  assert.deepEqual(heavy().sort(), ["/runqueue/vendor/chart.umd.min.js", "/runqueue/vendor/xterm.css", "/runqueue/vendor/xterm.mjs"], "a widget in view loads the libraries");
  assert.equal(await page.locator(".xterm, canvas").count(), 0, "but builds nothing yet");
  await widget(page, 0).getByRole("button", { name: "Run", exact: true }).click();
  await finished(page, 0);
  assert.equal(await widget(page, 0).locator(".xterm").count(), 1, "the run's pane got its terminal");
  const others = await page.evaluate(() => [...document.querySelectorAll(".rq-widget")].slice(1).filter((w) => w.querySelector(".xterm, canvas")).length);
  assert.equal(others, 0, "the experiments nobody ran have none");
  assert.ok(heavy().includes("/runqueue/kernel.elf"));
  assert.deepEqual(errors, []);
  await page.close();
});

test("Run boots the kernel; FIFO and CFS differ on realtime as the kernel's tests expect", async () => {
  const { page, errors } = await open(CHAPTER);
  await ready(page);
  await widget(page, 0).getByRole("button", { name: "Run", exact: true }).click();
  await page.waitForFunction(() => runqueue.experiments[0].panes.every((p) => p.consoleText.length > 0), null, { timeout: 20_000 });
  await page.screenshot({ path: join(SHOTS, "running.png"), fullPage: true });
  await finished(page, 0);
  await page.waitForTimeout(300); // one more frame for the charts
  await widget(page, 0).screenshot({ path: join(SHOTS, "compare-finished.png") });
  const [fifo, cfs] = await panes(page, 0);
  for (const p of [fifo, cfs]) {
    assert.equal(p.state, "done", p.error ?? "");
    assert.equal(p.error, null);
    const result = JSON.parse(p.result);
    assert.deepEqual(p.labels, result.tasks.map((t) => t.name), "every task appears in the completion chart");
    const text = await page.locator(".rq-terminal").first().innerText();
    assert.ok(text.trim().length > 0, "the terminal shows the console");
  }
  assert.match(fifo.bootargs, /^sched=fifo workload=realtime smp=1/);
  assert.match(cfs.bootargs, /^sched=cfs workload=realtime smp=1/);
  // The long task is the one that needs the most CPU; the others are the short ones.
  const split = (p) => {
    const tasks = JSON.parse(p.result).tasks;
    const long = tasks.reduce((a, b) => (b.cpu_ns > a.cpu_ns ? b : a));
    const short = tasks.filter((t) => t !== long);
    return { long, short, mean: short.reduce((n, t) => n + t.finish_ns, 0) / short.length };
  };
  const [f, c] = [split(fifo), split(cfs)];
  assert.ok(c.short.every((t) => t.finish_ns < c.long.finish_ns), "under CFS the short tasks finish before the long one");
  assert.ok(c.mean < f.mean, `short tasks finish sooner under CFS (${c.mean} ns) than under FIFO (${f.mean} ns)`);
  assert.ok(fifo.firstOutputMs < 5000, `first output after ${fifo.firstOutputMs} ms`);
  console.log(`# first kernel output ${fifo.firstOutputMs.toFixed(0)} ms after Run`);
  assert.deepEqual(await axe(page), [], "no axe violations with terminals and charts drawn");
  assert.deepEqual(errors, []);
  await page.close();
});

test("the RESULT line in the browser is byte-identical to runqueue run's", async () => {
  const { page, errors } = await open(`${CHAPTER}?e2=${encodeURIComponent("sched=rr workload=fairness-equal smp=2")}`);
  await ready(page);
  await widget(page, 1).getByRole("button", { name: "Run", exact: true }).click();
  await finished(page, 1);
  const [p] = await panes(page, 1);
  assert.equal(p.state, "done", p.error ?? "");
  const dir = tempDir("rq-json-");
  execFileSync(RUNQUEUE, ["run", "--append", p.bootargs, "--json", join(dir, "r.json")], { stdio: "ignore" });
  assert.equal(`${p.result}\n`, readFileSync(join(dir, "r.json"), "utf8"));
  const download = page.waitForEvent("download");
  await widget(page, 1).getByRole("button", { name: "Download RESULT JSON" }).click();
  const file = await (await download).path();
  assert.equal(readFileSync(file, "utf8"), `${p.result}\n`);
  const traceDownload = page.waitForEvent("download");
  await widget(page, 1).getByRole("button", { name: "Download Perfetto trace" }).click();
  const trace = JSON.parse(readFileSync(await (await traceDownload).path(), "utf8"));
  assert.ok(trace.traceEvents.some((e) => e.ph === "B"), "the trace holds task stints");
  assert.deepEqual(errors, []);
  await page.close();
});

test("the widget passes axe in a dark theme too, with its tunables open", async () => {
  const { page, errors } = await open(CHAPTER, "navy");
  await ready(page);
  assert.ok(await page.evaluate(() => document.documentElement.classList.contains("navy")));
  await widget(page, 1).getByText("Tunables", { exact: true }).click();
  await widget(page, 1).getByLabel(/^cfs\.latency_ns/).waitFor(); // made when the fold opens
  // Only the widgets: mdBook's own navy sidebar fails colour contrast (its active link).
  assert.deepEqual(await axe(page, ".rq-widget"), []);
  await widget(page, 1).screenshot({ path: join(SHOTS, "dark.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("Pause stops progress and Resume continues it", async () => {
  const { page, errors } = await open(CHAPTER);
  await ready(page);
  const w = widget(page, 1);
  await w.getByLabel("Speed").selectOption("1000000");
  await w.getByRole("button", { name: "Run", exact: true }).click();
  const progress = () => page.evaluate(() => runqueue.experiments[1].panes[0].instret);
  await page.waitForFunction(() => runqueue.experiments[1].panes[0].instret > 0, null, { timeout: 20_000 });
  await w.getByRole("button", { name: "Pause" }).click();
  await page.waitForFunction(() => runqueue.experiments[1].panes[0].state === "paused");
  const paused = await progress();
  await page.waitForTimeout(700);
  assert.equal(await progress(), paused, "no progress while paused");
  await w.getByRole("button", { name: "Resume", exact: true }).click();
  await page.waitForFunction((n) => runqueue.experiments[1].panes[0].instret > n, paused, { timeout: 10_000 });
  assert.ok(await w.getByRole("button", { name: "Step 1 ms" }).isDisabled(), "Step waits while running");
  await w.screenshot({ path: join(SHOTS, "resumed.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("bad link parameters, a file that is not a kernel and an endless run give clear messages", async () => {
  const bad = encodeURIComponent("sched=nope smp=99");
  const { page } = await open(`${CHAPTER}?e1=${bad}&e2.max=300000`);
  await ready(page);
  const alert0 = widget(page, 0).locator(".rq-alert");
  assert.match(await alert0.innerText(), /sched=nope is unknown; choose one of .*fifo/);
  assert.match(await alert0.innerText(), /smp=99 must be a number of harts/);

  await widget(page, 0).getByLabel("Boot your own kernel (ELF)").setInputFiles({
    name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("this is not a kernel\n"),
  });
  await widget(page, 0).getByRole("button", { name: "Run", exact: true }).click();
  await page.waitForFunction(() => runqueue.experiments[0].panes.every((p) => p.state === "error"), null, { timeout: 20_000 });
  assert.match(await alert0.innerText(), /cannot boot this file/);

  await widget(page, 1).getByRole("button", { name: "Run", exact: true }).click();
  await finished(page, 1);
  assert.match(await widget(page, 1).locator(".rq-alert").innerText(), /did not shut down within 300,000 instructions/);
  await page.screenshot({ path: join(SHOTS, "errors.png"), fullPage: true });
  await page.close();
});

test("the print page shows notes instead of starting emulators", async () => {
  const { page, errors } = await open("print.html");
  await page.waitForSelector(".rq-print-note");
  // One note per placeholder of every chapter, as the built page holds them.
  const placeholders = readFileSync(join(SITE, "print.html"), "utf8").match(/class="rq-experiment"/g)?.length ?? 0;
  assert.ok(placeholders >= 2, `print.html holds ${placeholders} experiments`);
  assert.equal(await page.locator(".rq-print-note").count(), placeholders);
  assert.equal(await page.locator(".xterm").count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});
