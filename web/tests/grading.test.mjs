// End-to-end tests of grading in the page (book/widget/grade.js): a kernel built with a lab
// solution gets the very table and results.json `runqueue grade` gives; the skeleton, a file
// that is not a kernel and a kernel that spins each get a clear verdict. Needs a built site
// (`make book`) and the `runqueue` CLI, which builds the kernels the tests drop.

import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, SITE, start } from "../browser.mjs";
import { gradeNatively } from "../native.mjs";
import { axe as axeIn } from "../pages.mjs";
import { targetDir } from "../../scripts/target-dir.mjs";
import { tempDir } from "../../scripts/temp-dir.mjs";

const GRADE_TIMEOUT = 120_000;
const SHOTS = join(targetDir(), "screenshots");

let site;
before(async () => {
  if (!existsSync(join(SITE, "labs/bvt.html")) || !existsSync(join(SITE, "runqueue/labs/bvt.tests"))) {
    throw new Error("the labs' pages or tests are not in the built book: run make book");
  }
  site = await start();
  mkdirSync(SHOTS, { recursive: true });
});
after(async () => site?.stop());

async function open(lab) {
  const page = await site.context.newPage();
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${site.base}labs/${lab}.html`);
  await page.waitForFunction(() => globalThis.runqueueGrade?.widgets.length === 1, null, { timeout: 20_000 });
  return { page, errors };
}

const settled = (page) => page.waitForFunction(() => ["done", "error"].includes(runqueueGrade.widgets[0].state), null,
  { timeout: GRADE_TIMEOUT, polling: 200 });
const widgetState = (page) => page.evaluate(() => {
  const w = runqueueGrade.widgets[0];
  return { state: w.state, table: w.table, error: w.error, status: w.status.textContent, shown: w.output.textContent };
});

const axe = (page) => axeIn(page, ".rq-grade-widget");

test("a BVT solution's kernel gets the table and results.json runqueue grade gives", async () => {
  const native = gradeNatively("bvt", join(ROOT, "labs/bvt/solution.rs"));
  assert.match(native.table, /total: 10\/10/);
  const { page, errors } = await open("bvt");
  assert.deepEqual(await axe(page), []);
  const started = Date.now();
  await page.getByLabel("Choose your built kernel to grade the bvt lab").setInputFiles({
    name: "runqueue-kernel", mimeType: "application/octet-stream", buffer: native.elf,
  });
  await settled(page);
  const s = await widgetState(page);
  assert.equal(s.state, "done", s.error ?? "");
  assert.equal(s.shown, native.table, "the page shows the CLI's table");
  assert.match(s.status, /10\/10 points/);
  console.log(`# BVT graded in the page in ${Date.now() - started} ms`);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download results.json" }).click();
  assert.equal(readFileSync(await (await download).path(), "utf8"), native.results);
  assert.deepEqual(await axe(page), [], "no axe violations with the table shown");
  await page.locator(".rq-grade-widget").screenshot({ path: join(SHOTS, "grade-bvt.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("the skeleton kernel dropped on the SJF lab fails its tests with the skeleton's message", async () => {
  const { page, errors } = await open("sjf");
  // The site's kernel.elf is built with the labs' skeletons in their slots. Drop it.
  await page.evaluate(async () => {
    const bytes = await (await fetch("../runqueue/kernel.elf")).arrayBuffer();
    const data = new DataTransfer();
    data.items.add(new File([bytes], "runqueue-kernel"));
    document.querySelector(".rq-grade-zone").dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await settled(page);
  const s = await widgetState(page);
  assert.equal(s.state, "done", s.error ?? "");
  assert.match(s.table, /^lab sjf\n/);
  assert.match(s.table, /sjf-order +FAIL/);
  assert.match(s.table, /total: 0\/12/);
  assert.match(s.table, /lab-sjf: finish_burst\(\) is not written yet/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a file that is not a kernel, and a kernel that spins, get clear messages", async () => {
  const { page, errors } = await open("bvt");
  const input = page.getByLabel("Choose your built kernel to grade the bvt lab");
  await input.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a kernel\n") });
  await settled(page);
  let s = await widgetState(page);
  assert.equal(s.state, "error");
  assert.match(s.status, /Not graded: this file is not a kernel the grader can boot \(cannot boot this file/);
  assert.match(await page.locator(".rq-grade-widget [role=status]").innerText(), /make kernel/);

  // A placement that never returns: every test with a wakeup runs out of its budget.
  const dir = tempDir("rq-spin-");
  const source = readFileSync(join(ROOT, "labs/bvt/solution.rs"), "utf8");
  const spinning = source.replace("        avt.max(self.svt)\n", "        let _ = avt;\n        loop {}\n");
  assert.notEqual(spinning, source, "the solution's placement line moved: update this test");
  writeFileSync(join(dir, "spin.rs"), spinning);
  const native = gradeNatively("bvt", join(dir, "spin.rs"));
  await input.setInputFiles({ name: "spin-kernel", mimeType: "application/octet-stream", buffer: native.elf });
  await settled(page);
  s = await widgetState(page);
  assert.equal(s.state, "done", s.error ?? "");
  assert.equal(s.shown, native.table);
  assert.match(s.table, /bvt-placement +FAIL/);
  // The page tells the spin from a lost task by the trace, as the CLI does (same table above).
  assert.match(s.table, /did not shut down within the test's 100000000 instructions \(\d+ ms\): the kernel went silent/);
  await page.locator(".rq-grade-widget").screenshot({ path: join(SHOTS, "grade-spin.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("the print page shows a note for each lab's grading widget instead of a drop zone", async () => {
  const page = await site.context.newPage();
  await page.goto(`${site.base}print.html`);
  const notes = page.getByText(/^Grading widget for the (sjf|mlfq|bvt) lab: open this chapter in a browser/);
  await notes.first().waitFor();
  assert.equal(await notes.count(), 3);
  assert.equal(await page.locator(".rq-grade-zone").count(), 0);
  await page.close();
});
