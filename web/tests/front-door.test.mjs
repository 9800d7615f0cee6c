// End-to-end tests of what a reader who has only the website needs (issue #15): a home page
// that speaks to students and lecturers in both editions, and lab pages that lead to the
// sources and grade in the page's language. Needs a built site.

import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { SITE, start } from "../browser.mjs";
import { open as openPage } from "../pages.mjs";

let site;
before(async () => { site = await start(); });
after(async () => site?.stop());

test("the home page says what the book is, where to start, how to use it offline and how to teach with it", async () => {
  for (const [path, headings, start] of [
    ["index.html", ["Start here", "Use it offline", "Teach with it"], "How to use this book"],
    ["zh-CN/index.html", ["从这里开始", "离线使用", "用于教学"], "如何使用本书"],
  ]) {
    const { page, errors } = await openPage(site, path);
    const main = page.locator("main");
    assert.deepEqual(await main.locator("h2").allInnerTexts(), headings);
    await main.getByRole("link", { name: start }).first().click();
    await page.waitForURL(/chapters\/01-using-this-book\.html/);
    await page.goBack();
    const text = await main.innerText();
    assert.match(text, /python3 -m http\.server 8000/);
    // The developers' material stays in the repository's README.
    assert.doesNotMatch(text, /make test|MIPS|wasm-bindgen/);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test("a lab page leads a student with only the website to the sources and the setup steps", async () => {
  const { page, errors } = await openPage(site, "labs/sjf.html");
  await page.getByRole("link", { name: "Get the sources and build your kernel" }).click();
  await page.waitForURL(/13-labs\.html#get-the-sources-and-build-your-kernel/);
  const archive = page.getByRole("link", { name: "runqueue-src.tar.gz" });
  const response = await page.request.get(new URL(await archive.getAttribute("href"), page.url()).href);
  assert.equal(response.status(), 200);
  const listing = execFileSync("tar", ["tzf", "-"], { input: await response.body(), encoding: "utf8", maxBuffer: 1 << 26 });
  for (const file of ["runqueue/Makefile", "runqueue/kernel/lab/src/sjf.rs", "runqueue/labs/sjf/README.md"]) {
    assert.ok(listing.split("\n").includes(file), `the archive holds ${file}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("the grading widget speaks the Chinese edition's language", async () => {
  const { page, errors } = await openPage(site, "zh-CN/labs/sjf.html");
  await page.waitForSelector(".rq-grade-zone");
  const zone = await page.locator(".rq-grade-zone").innerText();
  assert.match(zone, /选择你构建的内核/);
  assert.doesNotMatch(zone, /Choose your built kernel|Build the kernel/);
  await page.locator(".rq-grade input[type=file]").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a kernel\n") });
  await page.waitForFunction(() => runqueueGrade.widgets[0].state === "error");
  assert.match(await page.locator(".rq-grade .rq-status").innerText(), /^未评分：/);
  assert.deepEqual(errors, []);
  await page.close();
});
