// A student's own problem, drawn in the page (book/widget/homework.js, homework-worker.js): for a
// few names and every chapter with a generator, the problem the page makes, running the kernel in its emulator, is
// byte for byte what `runqueue homework --student NAME --answers` (and `--json`) prints; its
// fields check the kernel's answer as right and another as not yet, and keep their progress
// under the student's seed, apart from the build's problem; the worked solution opens on
// request and draws the kernel's run as task lanes, stint for stint the problem's schedule, as
// the build's own problem does; the Chinese page words the same problem in Chinese. Needs a
// built site (`make book`).

import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { SITE, start } from "../browser.mjs";
import { axe, open } from "../pages.mjs";
import { STRINGS } from "../../book/widget/strings.js";
import { runqueueCli } from "../../scripts/target-dir.mjs";
import { wrong } from "./homework-answers.mjs";

// Every chapter with a generator (book/figures/homework.mjs).
const PAGES = {
  "fifo-rr": "chapters/03-fifo-rr.html", sjf: "chapters/04-sjf.html", mlfq: "chapters/05-mlfq.html",
  "lottery-stride": "chapters/05a-lottery-stride.html", cfs: "chapters/06-cfs.html", eevdf: "chapters/08-eevdf.html",
  rt: "chapters/09-realtime.html", deadline: "chapters/10-deadline.html",
  "many-cores": "chapters/11-many-cores.html",
};
const STUDENTS = ["Ada Lovelace", "s2026-0417", "李雷"];
const LEVEL = "medium";
const EN = STRINGS.en;
const ZH = STRINGS["zh-CN"];

let site;
before(async () => {
  for (const page of Object.values(PAGES)) {
    if (!existsSync(join(SITE, page))) throw new Error(`${page} is not in the built book: run make book`);
  }
  site = await start();
});
after(async () => site?.stop());

/** The stints the task lanes in `host` (a selector) drew, as the problem's schedule lists them. */
async function lanesStints(page, host) {
  await page.waitForFunction((sel) => document.querySelector(sel)?.lanes, host, { timeout: 20_000 });
  return page.evaluate((sel) => {
    const { model } = document.querySelector(sel).lanes;
    const named = new Map([...model.tasks.values()].map((t) => [t.tid, t.name]));
    return [...model.harts.entries()].flatMap(([hart, stints]) => stints.map((s) => ({ hart, tid: s.tid, task: named.get(s.tid), from: s.s, to: s.e })))
      .sort((a, b) => a.from - b.from || a.hart - b.hart);
  }, host);
}

const cli = (chapter, student, how) => execFileSync(runqueueCli(), ["homework", "--chapter", chapter, "--level", LEVEL, "--student", student, how], { encoding: "utf8" });

/** Asks the page for `student`'s problem of the chapter and waits for it: what the page keeps. */
async function makeProblem(page, T, chapter, student) {
  const block = page.locator(".rq-hw-student");
  await block.getByLabel(T.hwStudentName, { exact: true }).fill(student);
  await block.getByLabel(T.hwStudentLevel, { exact: true }).selectOption(LEVEL);
  const before = await page.evaluate((c) => globalThis.runqueueHomework?.mine[c]?.json ?? null, chapter);
  const clicked = Date.now();
  await block.getByRole("button", { name: T.hwStudentMake }).click();
  await page.waitForFunction(([c, s, old]) => {
    const mine = globalThis.runqueueHomework?.mine[c];
    return mine?.student === s && mine.json !== old;
  }, [chapter, student, before], { timeout: 120_000 });
  return { ...(await page.evaluate((c) => globalThis.runqueueHomework.mine[c], chapter)), wall: Date.now() - clicked };
}

/** Types `text` into the student's question `n` and returns the result line. */
async function answerMine(page, n, text) {
  const form = page.locator(".rq-hw-mine form.rq-hw").nth(n - 1);
  await form.locator("input").fill(text);
  await form.locator("input").press("Enter");
  const result = form.locator(".rq-hw-result");
  await page.waitForFunction((el) => el.textContent && !el.textContent.includes("…"), await result.elementHandle());
  return result.textContent();
}

test("the page's problem for a student is the CLI's, byte for byte, and its fields check the kernel's answers", async () => {
  const times = [];
  for (const [chapter, path] of Object.entries(PAGES)) {
    const { page, errors } = await open(site, path);
    await page.waitForFunction(() => globalThis.runqueueHomework?.forms.length > 0, null, { timeout: 20_000 });
    for (const student of STUDENTS) {
      const mine = await makeProblem(page, EN, chapter, student);
      times.push(`${(mine.ms / 1000).toFixed(2)} (${(mine.wall / 1000).toFixed(2)} from the click)`);
      const what = `${chapter}, ${student}`;
      assert.equal(`[${mine.json}]\n`, cli(chapter, student, "--json"), `${what}: the problem's JSON`);
      const key = cli(chapter, student, "--answers");
      const [heading] = key.split("\n");
      assert.ok(heading.endsWith(`: answer key for ${student}`), heading);
      assert.equal(`${heading}\n\n${mine.markdown}\n`, key, `${what}: the answer key`);

      const problem = JSON.parse(mine.json);
      assert.equal(mine.key, `${chapter}:${problem.seed}:${LEVEL}`);
      assert.equal(await page.locator(".rq-hw-mine form.rq-hw").count(), problem.questions.length, what);
      const q = problem.questions[0];
      assert.equal(await answerMine(page, 1, q.answer.text), EN.hwRight, `${what}: the kernel's ${q.answer.text}`);
      assert.equal(await answerMine(page, 1, wrong(q)), EN.hwNotYet, `${what}: ${wrong(q)} against ${q.answer.text}`);
      const last = problem.questions.at(-1);
      assert.equal(await answerMine(page, problem.questions.length, last.answer.text), EN.hwRight, `${what}: the last question`);
    }
    // The last student's answers are kept under their seed; the build's problem has none.
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("runqueue-homework-progress/en")));
    const mine = await page.evaluate((c) => globalThis.runqueueHomework.mine[c], chapter);
    assert.ok(stored[mine.key].q1, `progress under ${mine.key}`);
    assert.equal(stored[`${chapter}:1:${LEVEL}`], undefined, "the build's problem is untouched");
    // The worked solution is folded until asked for, and then shows the kernel's schedule.
    const solution = page.locator(".rq-hw-mine details.rq-hw-solution");
    assert.equal(await solution.evaluate((d) => d.open), false);
    await solution.getByText(EN.hwStudentSolution).click();
    const problem = JSON.parse(mine.json);
    assert.ok((await solution.innerText()).includes(problem.questions[0].answer.text));
    const schedule = problem.schedule.map(({ hart, tid, task, from, to }) => ({ hart, tid, task, from, to }));
    assert.deepEqual(await lanesStints(page, ".rq-hw-mine .rq-hw-lanes"), schedule, `${chapter}: the solution's lanes are the kernel's schedule`);
    // The build's problem draws its lanes too, when its schedule is opened.
    const built = page.locator("details", { has: page.locator(".rq-hw-lanes[data-events]") });
    await built.locator("summary").click();
    const listed = await built.locator("li").count();
    assert.equal((await lanesStints(page, ".rq-hw-lanes[data-events]")).length, listed, `${chapter}: the build's lanes, one stint a listed line`);
    assert.deepEqual(await axe(page), []);
    assert.deepEqual(errors, []);
    await page.close();
  }
  console.log(`page: a student's problem in ${times.join(", ")} s`);
});

test("the Chinese page draws the same problem for the same student, worded in Chinese", async () => {
  const { page, errors } = await open(site, `zh-CN/${PAGES.sjf}`);
  await page.waitForFunction(() => globalThis.runqueueHomework?.forms.length > 0, null, { timeout: 20_000 });
  const mine = await makeProblem(page, ZH, "sjf", STUDENTS[0]);
  assert.equal(`[${mine.json}]\n`, cli("sjf", STUDENTS[0], "--json"));
  const shown = await page.locator(".rq-hw-mine").innerText();
  assert.ok(shown.includes("规则") && shown.includes(ZH.hwStudentHeading(JSON.parse(mine.json).seed, "中等")), shown.slice(0, 200));
  assert.equal(await answerMine(page, 1, JSON.parse(mine.json).questions[0].answer.text), ZH.hwRight);
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});
