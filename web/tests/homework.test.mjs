// End-to-end tests of the chapters' homework fields (book/widget/homework.js): the key's answer
// (read from its fold) is checked right, a wrong one "not yet", garbage gets the message for an
// unreadable answer; the checker (homework/wasm) is fetched only when a field is first used;
// progress survives a reload, goes out as a file and comes back, and a broken or foreign file
// changes nothing; the Chinese page speaks Chinese. Needs a built site (`make book`).

import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SITE, start } from "../browser.mjs";
import { axe, open } from "../pages.mjs";
import { STRINGS } from "../../book/widget/strings.js";
import { wrong } from "./homework-answers.mjs";

const SJF = "chapters/04-sjf.html";
// The chapters of busy tasks, whose shares are answered in percent.
const BUSY = ["chapters/05a-lottery-stride.html", "chapters/06-cfs.html"];
const EN = STRINGS.en;
const ZH = STRINGS["zh-CN"];
const WASM = /runqueue_homework_wasm/;

let site;
before(async () => {
  for (const page of [SJF, `zh-CN/${SJF}`, ...BUSY]) {
    if (!existsSync(join(SITE, page))) throw new Error(`${page} is not in the built book: run make book`);
  }
  site = await start();
});
after(async () => site?.stop());

/** Opens `path` with its homework mounted; `fetched` lists the checker's requests as they come. */
async function openHomework(path) {
  const opened = await open(site, path);
  const fetched = [];
  opened.page.on("request", (r) => WASM.test(r.url()) && fetched.push(r.url()));
  await opened.page.waitForFunction(() => globalThis.runqueueHomework?.forms.length > 0, null, { timeout: 20_000 });
  return { ...opened, fetched };
}

/** Each question's answer JSON and the key's answer as the fold shows it. */
const questions = (page) => page.evaluate(() => [...document.querySelectorAll("form.rq-hw")].map((f) => ({
  id: f.dataset.question, answer: JSON.parse(f.dataset.answer), key: f.closest("li").querySelector("details strong").textContent,
})));


/** Types `text` into question `n`'s field (by its label), checks it with Enter, and returns the result line. */
async function answer(page, T, n, text, how = "enter") {
  const input = page.getByLabel(T.hwAnswerLabel(n), { exact: true });
  await input.fill(text);
  if (how === "enter") await input.press("Enter");
  else await page.locator("form.rq-hw").nth(n - 1).getByRole("button", { name: T.hwCheck }).click();
  const result = page.locator("form.rq-hw").nth(n - 1).locator(".rq-hw-result");
  await page.waitForFunction((el) => el.textContent && !el.textContent.includes("…"), await result.elementHandle());
  return result.textContent();
}

const results = (page) => page.locator("form.rq-hw .rq-hw-result").allTextContents();
const values = (page) => page.locator("form.rq-hw input").evaluateAll((inputs) => inputs.map((i) => i.value));
const stored = (page) => page.evaluate(() => Object.entries(localStorage).filter(([k]) => k.startsWith("runqueue-homework")));

test("the key's answers are right, others not yet, garbage unreadable, and the checker waits for a field's first use", async () => {
  const { page, errors, fetched } = await openHomework(SJF);
  const qs = await questions(page);
  assert.ok(qs.length >= 3, `${qs.length} questions`);
  await page.waitForTimeout(500);
  assert.deepEqual(fetched, [], "the checker is not fetched with the page");
  assert.deepEqual(await axe(page), []);
  for (const [i, q] of qs.entries()) {
    assert.equal(await answer(page, EN, i + 1, q.key, i % 2 ? "enter" : "button"), EN.hwRight, `${q.id}: the key's ${q.key}`);
    assert.equal(await answer(page, EN, i + 1, wrong(q)), EN.hwNotYet, `${q.id}: ${wrong(q)} against ${q.key}`);
    const garbage = await answer(page, EN, i + 1, "zzz");
    assert.equal(garbage, q.answer.kind === "number" ? EN.hwNotANumber : EN.hwUnknownName, q.id);
    if (q.answer.kind === "order") assert.equal(await answer(page, EN, i + 1, q.answer.value[0]), EN.hwWrongCount(q.answer.value.length));
  }
  assert.ok(fetched.length > 0, "the checker came with the first check");
  assert.equal(await answer(page, EN, 1, ""), EN.hwEmpty);
  // The last answers stand: question 1 right, the others whatever was typed last.
  await answer(page, EN, 1, qs[0].key);
  await answer(page, EN, 2, wrong(qs[1]));
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test("progress comes back on reload, goes out as a file, and comes back from it; bad files change nothing", async () => {
  const { page, errors } = await openHomework(SJF);
  const qs = await questions(page);
  const typed = await values(page);
  assert.equal(typed[0], qs[0].key, "question 1's answer is restored");
  assert.equal(typed[1], wrong(qs[1]));
  const lines = await results(page);
  assert.equal(lines[0], EN.hwRight);
  assert.equal(lines[1], EN.hwNotYet);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: EN.hwExport }).click()]);
  const file = readFileSync(await download.path(), "utf8");
  const exported = JSON.parse(file);
  assert.equal(exported.edition, "en");
  assert.deepEqual(exported.problems["sjf:1:medium"].q1, { text: qs[0].key, right: true });

  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.waitForFunction(() => globalThis.runqueueHomework?.forms.length > 0);
  assert.deepEqual((await values(page)).filter(Boolean), [], "a cleared browser has no progress");
  const importFile = page.locator(".rq-hw-import-file");
  const status = page.locator(".rq-hw-progress-status");
  await importFile.setInputFiles({ name: "progress.json", mimeType: "application/json", buffer: Buffer.from(file) });
  await page.waitForFunction((el) => el.textContent, await status.elementHandle());
  assert.equal(await status.textContent(), EN.hwImported(Object.keys(exported.problems["sjf:1:medium"]).length));
  assert.deepEqual(await values(page), typed);
  assert.deepEqual((await results(page)).slice(0, 2), [EN.hwRight, EN.hwNotYet]);
  const before = await stored(page);

  for (const [bad, says] of [
    ["{ not json", EN.hwBroken("not JSON")],
    [JSON.stringify({ format: "runqueue-homework-progress", version: 1, edition: "en", problems: { "sjf:1:medium": { q1: { text: 7 } } } }),
      EN.hwBroken("sjf:1:medium q1 is not a checked answer")],
    [JSON.stringify({ results: [] }), EN.hwForeign],
    [JSON.stringify({ ...exported, edition: "zh-CN" }), EN.hwForeign],
  ]) {
    await importFile.setInputFiles({ name: "bad.json", mimeType: "application/json", buffer: Buffer.from(bad) });
    await page.waitForFunction(([el, says]) => el.textContent === says, [await status.elementHandle(), says]);
    assert.deepEqual(await stored(page), before, `${bad} changed nothing`);
    assert.deepEqual(await values(page), typed);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("the busy tasks' chapters check every key's answer as right and another as not yet, a share typed with its % too", async () => {
  for (const path of BUSY) {
    const { page, errors } = await openHomework(path);
    const qs = await questions(page);
    assert.ok(qs.length >= 4, `${path}: ${qs.length} questions`);
    const share = qs.findIndex((q) => q.answer.unit === "%") + 1;
    assert.ok(share > 0, `${path}: a share in percent`);
    for (const [i, q] of qs.entries()) {
      assert.equal(await answer(page, EN, i + 1, q.key), EN.hwRight, `${path} ${q.id}: the key's ${q.key}`);
      assert.equal(await answer(page, EN, i + 1, wrong(q)), EN.hwNotYet, `${path} ${q.id}: ${wrong(q)} against ${q.key}`);
    }
    assert.equal(await answer(page, EN, share, `${qs[share - 1].key} %`), EN.hwRight, `${path}: the share with its %`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test("the Chinese page checks in Chinese, with progress of its own", async () => {
  const { page, errors } = await openHomework(`zh-CN/${SJF}`);
  const qs = await questions(page);
  assert.deepEqual((await values(page)).filter(Boolean), [], "the English edition's progress is not the Chinese one's");
  assert.equal(await page.getByRole("button", { name: ZH.hwExport }).count(), 1);
  const n = qs.findIndex((q) => q.answer.kind === "number") + 1;
  assert.ok(n > 0, "a question with a number");
  assert.equal(await answer(page, ZH, 1, qs[0].key), ZH.hwRight);
  assert.equal(await answer(page, ZH, n, "很多"), ZH.hwNotANumber);
  assert.equal(await answer(page, ZH, n, wrong(qs[n - 1])), ZH.hwNotYet);
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});
