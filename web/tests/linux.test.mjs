// Real Linux in the page (issue #26): Linux 6.12 and 6.1, as the site serves them gzipped beside
// the book's kernel (scripts/linux-site.sh), boot in the widget's Worker and give the console,
// RESULT and trace that `runqueue run --kernel` gives, byte for byte; the widget's kernel choice
// and its compare view run the same workload on the book's kernel and on Linux side by side.
// Needs a built site with Linux (`make book`, which runs `make linux`).

import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SITE, start } from "../browser.mjs";
import { nativeRun, sameBytes } from "../native.mjs";
import { finished, open as openPage, ready, workerRun } from "../pages.mjs";

const CH6 = "chapters/06-cfs.html";
const manifest = JSON.parse(readFileSync(join(SITE, "runqueue/linux/kernels.json"), "utf8"));

let site;
before(async () => { site = await start(); });
after(async () => site?.stop());

for (const kernel of ["linux-6.12", "linux-6.1"]) {
  test(`${kernel} boots in the page's Worker and prints what it prints natively, byte for byte`, async () => {
    const args = "workload=fairness-unequal smp=2 seed=7";
    const page = await site.context.newPage();
    const inPage = await workerRun(page, site, { kernel, args, max: 5e9, trace: "ftrace" });
    const cli = nativeRun(args, 5e9, kernel);
    assert.equal(inPage.exitCode, 0, inPage.console.slice(-400));
    assert.match(inPage.console, new RegExp(`RESULT \\{[^\\n]*"sched":"${kernel}"`), "Linux's init printed its RESULT line");
    assert.match(inPage.trace, /sched_switch: prev_comm=/, "the trace is Linux's own ftrace");
    sameBytes(inPage.console, cli.console, "console");
    sameBytes(inPage.trace, cli.ftrace, "ftrace");
    await page.close();
  });
}

test("the compare view runs the chapter's workload on the book's kernel and on Linux side by side", async () => {
  // tick_us= is the book kernel's own: Linux's pane runs without it and its title says so.
  const args = encodeURIComponent("sched=cfs workload=fairness-unequal smp=2 tick_us=2000");
  const { page, errors } = await openPage(site, `${CH6}?e1=${args}&e1.vs=${encodeURIComponent("kernel=linux-6.1")}`);
  await ready(page);
  const w = page.locator(".rq-widget").first();
  assert.equal(await w.getByLabel("Compare with").inputValue(), "kernel=linux-6.1");
  await w.getByRole("button", { name: "Run", exact: true }).click();
  await finished(page, 0);
  const panes = await page.evaluate(() => runqueue.experiments[0].panes.map((p) => ({ state: p.state, error: p.error, title: p.heading.textContent, bootargs: p.bootargs, result: p.result })));
  assert.deepEqual(panes.map((p) => [p.state, p.error]), [["done", null], ["done", null]]);
  assert.equal(panes[0].title, "Scheduler: cfs");
  assert.equal(panes[1].title, "Linux 6.1, its own scheduler (without the book kernel's tick_us=2000)");
  assert.equal(panes[1].bootargs, "workload=fairness-unequal smp=2");
  assert.equal(JSON.parse(panes[0].result).sched, "cfs");
  const cli = nativeRun(panes[1].bootargs, 5e9, "linux-6.1");
  assert.equal(`${panes[1].result}\n`, cli.json, "Linux's RESULT is the CLI's");
  assert.equal(await page.evaluate(() => runqueue.experiments[0].panes[1].resumed), false, "the page's first Linux run boots Linux");
  // Run again: Linux's pane starts from the snapshot its first Worker left where the init asked
  // for its words, and gives the same bytes.
  await w.getByRole("button", { name: "Run", exact: true }).click();
  await page.waitForFunction(() => runqueue.experiments[0].panes.some((p) => p.state !== "done"), null, { timeout: 10_000, polling: 20 }).catch(() => {});
  await finished(page, 0);
  const again = await page.evaluate(() => runqueue.experiments[0].panes.map((p) => ({ state: p.state, resumed: p.resumed, result: p.result, console: p.consoleText })));
  assert.deepEqual(again.map((p) => p.state), ["done", "done"]);
  assert.equal(again[1].resumed, true, "the second Linux run starts from the snapshot");
  assert.equal(`${again[1].result}\n`, cli.json, "and gives the CLI's RESULT");
  sameBytes(again[1].console, cli.console, "console of the run from the snapshot");
  assert.deepEqual(errors, []);
  await page.close();
});

test("the kernel control offers the site's Linux kernels, keeps the choice in the link and refuses an unknown one", async () => {
  const { page, errors } = await openPage(site, `${CH6}?e1.kernel=linux-9`);
  await ready(page);
  const w = page.locator(".rq-widget").first();
  await page.waitForFunction(() => document.querySelector(".rq-alert:not([hidden])"));
  assert.match(await w.locator(".rq-alert").textContent(), /e1\.kernel: kernel=linux-9 is not a kernel of this site; choose one of runqueue, linux-6\.12, linux-6\.1/);
  const kernel = w.getByLabel("Kernel", { exact: true });
  assert.deepEqual(await kernel.locator("option").allTextContents(), ["Runqueue kernel (the book's)", ...manifest.kernels.map((k) => k.label)]);
  await kernel.selectOption("linux-6.12");
  assert.match(page.url(), /e1\.kernel=linux-6\.12/);
  assert.ok(await w.getByLabel("Scheduler", { exact: true }).isDisabled(), "Linux schedules with its own classes");
  const options = await w.getByLabel("Compare with").locator("option").evaluateAll((os) => os.map((o) => o.value));
  assert.ok(options.includes("kernel=runqueue") && options.includes("kernel=linux-6.1") && !options.includes("kernel=linux-6.12"), options.join(" "));
  await w.getByRole("button", { name: "Run", exact: true }).click();
  await finished(page, 0);
  const pane = await page.evaluate(() => { const p = runqueue.experiments[0].panes[0]; return { state: p.state, result: p.result }; });
  assert.equal(pane.state, "done");
  assert.equal(JSON.parse(pane.result).sched, "linux-6.12");
  assert.deepEqual(errors, []);
  await page.close();
});
