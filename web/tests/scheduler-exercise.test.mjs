// End-to-end tests of "you are the scheduler" (book/widget/scheduler-exercise.js) in the built
// book: each chapter's exercise is run in the page, then played. The kernel's picks the test
// makes come from the CLI's own run of the same command line (the page and the CLI give the
// same trace byte for byte), never from the page: picking them every time scores 100 %, and a
// wrong pick is marked wrong with the reason. Needs a built site.

import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { start } from "../browser.mjs";
import { axe, finished, open as openPage, ready } from "../pages.mjs";
import { runqueueCli } from "../../scripts/target-dir.mjs";
import { RECORDED, capture } from "../../book/widget/testdata/capture-exercise.mjs";
import { tempDir } from "../../scripts/temp-dir.mjs";

let site;
before(async () => { site = await start(); });
after(async () => site?.stop());

/** The trace of `args` from the CLI, each line's words. */
function cliTrace(args) {
  const file = join(tempDir("rq-exercise-"), "events.txt");
  execFileSync(runqueueCli(), ["run", "--append", args, "--events", file], { stdio: "ignore" });
  return readFileSync(file, "utf8").split("\n").map((l) => l.split(" "));
}

/** The kernel's switch-ins of `args` from the CLI: `{t, hart, tid}`. */
const switches = (args) => cliTrace(args).filter((w) => w[3] === "in").map((w) => ({ t: Number(w[1]), hart: Number(w[2]), tid: Number(w[4]) }));

/** Where the kernel put each arriving or waking task of `args`, from the CLI: `{t, tid, rq}`. */
const placements = (args) => cliTrace(args).filter((w) => ["new", "wake"].includes(w[3]) && w.some((x) => x.startsWith("rq=")))
  .map((w) => ({ t: Number(w[1]), tid: Number(w[4]), rq: Number(w.find((x) => x.startsWith("rq=")).slice(3)) }));

/** The index among the page's experiments of the first one in the section `#be-the-scheduler` (the `nth` after it). */
const exerciseIndex = (page, nth = 0) => page.evaluate((nth) => {
  const heading = document.getElementById("be-the-scheduler");
  const widgets = [...document.querySelectorAll(".rq-widget")];
  return widgets.findIndex((w) => heading.compareDocumentPosition(w) & Node.DOCUMENT_POSITION_FOLLOWING) + nth;
}, nth);

/** Runs the chapter's exercise experiment to its end and opens the exercise; returns its widget, index and command line. */
async function openExercise(page, nth, label) {
  await ready(page);
  const i = await exerciseIndex(page, nth);
  const w = page.locator(".rq-widget").nth(i);
  const exercise = w.locator(".rq-exercise-open");
  assert.equal(await exercise.isDisabled(), true, "nothing to replay before a run");
  await w.getByRole("button", { name: label.run, exact: true }).click();
  await finished(page, i);
  await exercise.click();
  const args = await page.evaluate((i) => runqueue.experiments[i].panes[0].bootargs, i);
  return { w, i, args };
}

/** The decision on screen: its moment and hart, its buttons' tasks, and what it says of itself. */
async function decision(w) {
  const prompt = w.locator(".rq-exercise-prompt");
  const [t, hart, kind, tid] = await Promise.all(["data-t", "data-hart", "data-kind", "data-tid"].map((a) => prompt.getAttribute(a)));
  const tids = await w.locator(".rq-exercise-choice").evaluateAll((bs) => bs.map((b) => Number(b.dataset.tid)));
  const harts = await w.locator(".rq-exercise-choice").evaluateAll((bs) => bs.map((b) => Number(b.dataset.hart)));
  return { kind: kind ?? "pick", t: Number(t), hart: Number(hart), tid: Number(tid), tids, harts, text: await prompt.innerText() };
}

/** Answers the placement on screen with the kernel's hart from the CLI's trace; it is marked right. */
async function placeRight(w, d, n, placed, args) {
  assert.match(d.text, new RegExp(`Decision ${n} of \\d+, at [\\d.]+ ms: \\S+ (arrives|wakes up)\\. Which hart's queue does it join\\?`));
  const p = placed.find((x) => x.t === d.t && x.tid === d.tid);
  assert.ok(p && d.harts.includes(p.rq) && d.harts.length >= 2, `${args}: the kernel placed task ${d.tid} at ${d.t} on one of ${d.harts}`);
  await w.locator(`.rq-exercise-choice[data-hart="${p.rq}"]`).click();
  assert.match(await w.locator(".rq-exercise-verdict").innerText(), /^Right: the kernel put \S+ on hart \d\.$/);
}

/** Plays every decision with the kernel's pick from the CLI's trace; returns the harts that decided and the prompts. */
async function playRight(page, w, args) {
  const kernel = switches(args);
  const placed = placements(args);
  const harts = new Set();
  const prompts = [];
  let places = 0;
  for (let n = 1; ; n++) {
    const d = await decision(w);
    if (d.kind === "place") {
      await placeRight(w, d, n, placed, args);
      places++;
      const last = (await w.locator(".rq-exercise-next").innerText()) === "See the score";
      await page.keyboard.press("Enter");
      if (last) break;
      continue;
    }
    assert.match(d.text, new RegExp(`Decision ${n} of \\d+, at [\\d.]+ ms: which task does hart ${d.hart} run next\\?`));
    const pick = kernel.find((s) => s.t === d.t && s.hart === d.hart);
    assert.ok(pick, `${args}: the kernel switched a task in on hart ${d.hart} at ${d.t}`);
    assert.ok(d.tids.length >= 2 && d.tids.includes(pick.tid), `${args}: the choices ${d.tids} hold the kernel's pick ${pick.tid}`);
    harts.add(d.hart);
    prompts.push(d.text);
    await w.locator(`.rq-exercise-choice[data-tid="${pick.tid}"]`).click();
    assert.match(await w.locator(".rq-exercise-verdict").innerText(), /^Right: the kernel ran /);
    const next = w.locator(".rq-exercise-next");
    assert.equal(await next.evaluate((b) => b === document.activeElement), true, "the focus goes to the way on");
    const last = (await next.innerText()) === "See the score";
    await page.keyboard.press("Enter");
    if (last) break;
  }
  assert.match(await w.locator(".rq-exercise-score").innerText(), /^You picked as the kernel did (\d+) times out of \1 \(100 %\)\.$/);
  return { harts: harts.size, prompts, places };
}

/** Plays again, picking wrong at the first decision: it is marked wrong and the reason matches `why`. */
async function playWrong(page, w, args, why) {
  await w.locator(".rq-exercise-again").click();
  const placed = placements(args);
  let d = await decision(w);
  for (let n = 1; d.kind === "place"; n++) {
    await placeRight(w, d, n, placed, args);
    await page.keyboard.press("Enter");
    d = await decision(w);
  }
  const pick = switches(args).find((s) => s.t === d.t && s.hart === d.hart);
  const wrong = d.tids.find((tid) => tid !== pick.tid);
  await w.locator(`.rq-exercise-choice[data-tid="${wrong}"]`).click();
  const verdict = await w.locator(".rq-exercise-verdict").innerText();
  assert.match(verdict, /^Not this one: the kernel ran \S+\. /);
  assert.match(verdict, why, `${args}: ${verdict}`);
  assert.match(await w.locator(`.rq-exercise-choice[data-tid="${wrong}"]`).innerText(), /\(your pick\)/);
  assert.match(await w.locator(`.rq-exercise-choice[data-tid="${pick.tid}"]`).innerText(), /\(the kernel's pick\)/);
  assert.equal(await w.locator(".rq-exercise-said").innerText(), verdict, "the verdict is said");
}

const EN = { run: "Run" };
const CASES = [
  ["FIFO", "chapters/03-fifo-rr.html", 0, /joined the queue first/],
  // Round Robin on one hart: the chapter's two-hart exercise with smp=1 in the link.
  ["RR", "chapters/03-fifo-rr.html?e4=smp%3D1", 1, /joined the queue first/],
  ["SJF/STCF", "chapters/04-sjf.html", 0, /has the lower predicted burst: pred=\d+ against pred=\d+/],
  ["MLFQ", "chapters/05-mlfq.html", 0, /has the lower level \(0 is the top queue\): lvl=\d against lvl=\d|joined the queue first/],
  ["CFS", "chapters/06-cfs.html", 0, /has the lower vruntime: vr=\d+ against vr=\d+/],
  ["EEVDF", "chapters/08-eevdf.html", 0, /is not eligible|has the lower virtual deadline|has the lower vruntime|joined the queue first/],
];

for (const [policy, path, nth, why] of CASES) {
  test(`${policy}: the kernel's picks score 100 %, a wrong one is marked wrong with the reason`, async () => {
    const { page, errors } = await openPage(site, path);
    const { w, args } = await openExercise(page, nth, EN);
    assert.match(args, /smp=1/);
    const played = await playRight(page, w, args);
    assert.equal(played.harts, 1, "one hart");
    assert.equal(played.places, 0, "one hart: nothing to place");
    await playWrong(page, w, args, why);
    assert.deepEqual(await axe(page, ".rq-exercise"), []);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test("Round Robin on two harts: both harts decide, the other hart's task is named, and hiding the figures hides them", async () => {
  const { page, errors } = await openPage(site, "chapters/03-fifo-rr.html");
  const { w, args } = await openExercise(page, 1, EN);
  assert.match(args, /sched=rr .*smp=2/);
  const { harts, prompts, places } = await playRight(page, w, args);
  assert.equal(harts, 2, "both harts decide");
  assert.ok(places > 0, "the arrivals and wakeups are placed");
  assert.ok(prompts.some((p) => /hart 1 run next\? Meanwhile hart 0 runs \S+\.$/.test(p)), prompts.join("\n"));
  await playWrong(page, w, args, /joined the queue first/);
  // At that first pick: hiding the figures hides them, and the queue view that would give the order away.
  const first = await decision(w);
  await w.getByLabel(/Show the policy's figures/).uncheck();
  assert.doesNotMatch(await w.locator(".rq-exercise-choice").first().innerText(), /queued at/);
  assert.equal(await w.locator(".rq-exercise .rq-queue-view").isHidden(), true, "the lanes' queue view would give the order away");
  await w.getByLabel(/Show the policy's figures/).check();
  assert.match(await w.locator(".rq-exercise-choice").first().innerText(), /queued at [\d.]+ ms/);
  assert.deepEqual((await decision(w)).tids, first.tids);
  // A wrong hart is marked wrong, with what the kernel knew (the exercise opened afresh).
  await w.locator(".rq-exercise-open").click();
  const d = await decision(w);
  assert.equal(d.kind, "place", "the first decision on two harts places an arriving task");
  const kernel = placements(args).find((x) => x.t === d.t && x.tid === d.tid);
  await w.locator(`.rq-exercise-choice[data-hart="${d.harts.find((h) => h !== kernel.rq)}"]`).click();
  assert.match(await w.locator(".rq-exercise-verdict").innerText(), new RegExp(`^Not this one: the kernel put \\S+ on hart ${kernel.rq}\\. (It is new; its creation|It last ran on hart \\d; its wakeup) ran on hart \\d\\.`));
  assert.match(await w.locator(`.rq-exercise-choice[data-hart="${kernel.rq}"]`).innerText(), /\(the kernel's pick\)/);
  assert.deepEqual(await axe(page, ".rq-exercise"), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the Chinese edition plays in Chinese", async () => {
  const { page, errors } = await openPage(site, "zh-CN/chapters/06-cfs.html");
  const { w, args } = await openExercise(page, 0, { run: "运行" });
  assert.equal(await w.locator(".rq-exercise-open").innerText(), "当一回调度器");
  const d = await decision(w);
  assert.match(d.text, /^第 1 个决策（共 \d+ 个），[\d.]+ ms：硬件线程 0 接下来运行哪个任务？/);
  const pick = switches(args).find((s) => s.t === d.t && s.hart === d.hart);
  await w.locator(`.rq-exercise-choice[data-tid="${d.tids.find((t) => t !== pick.tid)}"]`).click();
  assert.match(await w.locator(".rq-exercise-verdict").innerText(), /^不是这个：内核运行了 \S+。.*的虚拟运行时间更小：vr=\d+，而 \S+ 的是 vr=\d+/);
  assert.deepEqual(await axe(page, ".rq-exercise"), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the runs the exercise's unit tests replay are the kernel's runs today", () => {
  assert.deepEqual(capture(runqueueCli()), JSON.parse(readFileSync(RECORDED, "utf8")),
    "rerun book/widget/testdata/capture-exercise.mjs after a change to the kernel's policies");
});
