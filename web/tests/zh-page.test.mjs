// The Chinese edition in Chromium, as a reader uses it: a chapter whose link carries a bad
// setting, a tunable given a value the kernel would refuse, an experiment run to its end; a lab
// page given a file that is not a kernel, then the site's own kernel (its lab slot holds the
// skeleton, so every test fails with the grader's explanation). Every text the page then shows
// (text and the labels screen readers read), outside code, the terminal and what the kernel
// printed, is Chinese: no English sentence (web/zh-text.mjs). Needs a built book (`make book`).

import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { start } from "../browser.mjs";
import { finished, open, ready } from "../pages.mjs";
import { STRINGS } from "../../book/widget/strings.js";
import { englishSentences } from "../zh-text.mjs";

const T = STRINGS["zh-CN"];
const GRADE_TIMEOUT = 180_000;

let site;
before(async () => {
  site = await start();
});
after(async () => site?.stop());

/**
 * Every text a reader can see or hear on the page, outside code, preformatted text (the
 * grading table is checked on its own), the terminal and the charts' canvases, with the
 * labels of the page's own controls.
 */
const readerTexts = (page, scope = "body") => page.evaluate((scope) => {
  const skip = "code, kbd, samp, pre, script, style, svg, canvas, .xterm, [hidden]";
  const texts = [];
  const root = document.querySelector(scope);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.parentElement.closest(skip) && n.textContent.trim()) texts.push(n.textContent.trim());
  }
  for (const e of root.querySelectorAll("[aria-label], [title], [placeholder]")) {
    if (e.closest(".xterm")) continue;
    for (const a of ["aria-label", "title", "placeholder"]) if (e.getAttribute(a)) texts.push(e.getAttribute(a));
  }
  return texts;
}, scope);

/** The English sentences among `texts`, each with the text it was found in. */
const english = (texts) => texts.flatMap((t) => englishSentences(t).map((s) => `"${s}" in "${t.slice(0, 100)}"`));

test("a Chinese chapter: a bad link setting, a refused value and a run, all in Chinese", async () => {
  const bad = encodeURIComponent("sched=fifo smp=9");
  const { page, errors } = await open(site, `zh-CN/chapters/03-fifo-rr.html?e1=${bad}`);
  await ready(page);
  const w = page.locator(".rq-widget").first();
  const alert = w.locator(".rq-alert");
  assert.match(await alert.innerText(), new RegExp(T.argHarts("smp=9", "\\d+")));

  await w.getByText(T.tunables, { exact: true }).click();
  const box = w.getByLabel(/^tick_us/);
  await box.fill("5");
  await box.press("Tab");
  const note = w.locator('.rq-field:has([data-tunable="tick_us"]) .rq-invalid');
  assert.match(await note.innerText(), /tick_us=5 超出范围 100\.\.100000；本次运行使用 1000/);

  await w.getByRole("button", { name: T.run, exact: true }).click();
  await finished(page, 0);
  assert.equal(await page.evaluate(() => runqueue.experiments[0].panes[0].state), "done");
  assert.equal(await w.locator(".xterm-helper-textarea").first().getAttribute("aria-label"), T.terminalInput);
  assert.deepEqual(english(await readerTexts(page)), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a Chinese lab page: a file that is not a kernel, then a kernel that fails every test, explained in Chinese", async () => {
  const { page, errors } = await open(site, "zh-CN/labs/sjf.html");
  await page.waitForFunction(() => globalThis.runqueueGrade?.widgets.length === 1, null, { timeout: 20_000 });
  const settled = () => page.waitForFunction(() => ["done", "error"].includes(runqueueGrade.widgets[0].state), null,
    { timeout: GRADE_TIMEOUT, polling: 200 });
  const widget = ".rq-grade-widget";

  await page.getByLabel(T.gradeChoose("sjf")).setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a kernel\n") });
  await settled();
  const status = page.locator(`${widget} [role=status]`);
  assert.match(await status.innerText(), /^未评分：这个文件不是评分程序能够启动的内核（cannot boot this file/);
  assert.deepEqual(english(await readerTexts(page, widget)), []);

  // The site's kernel carries the labs' skeletons, whose TODOs stop the kernel.
  await page.evaluate(async () => {
    const bytes = await (await fetch("../runqueue/kernel.elf")).arrayBuffer();
    const data = new DataTransfer();
    data.items.add(new File([bytes], "runqueue-kernel"));
    document.querySelector(".rq-grade-zone").dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await settled();
  assert.equal(await page.evaluate(() => runqueueGrade.widgets[0].state), "done");
  const table = page.locator(`${widget} pre`);
  const shown = await table.innerText();
  assert.match(shown, /^编程实验 sjf\n测试 +结果 +得分\n/);
  assert.match(shown, /sjf-order +未通过 +0\/\d+/);
  assert.match(shown, /总分：0\/\d+/);
  assert.match(shown, /内核停止了：kernel panic/);
  // The table's own words, without the parts it quotes (as code): Chinese.
  const own = await table.evaluate((pre) => [...pre.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join(""));
  assert.deepEqual(englishSentences(own), []);
  assert.deepEqual(english(await readerTexts(page, widget)), []);
  assert.deepEqual(errors, []);
  await page.close();
});
