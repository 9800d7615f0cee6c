// End-to-end tests of both editions in Chromium: every chapter page, in English and in Chinese,
// runs its first experiment to the RESULT line the build got for the same command line (the
// figures the prose quotes; a pane on Linux, the CLI's run of it), with no console errors and no axe violations (the back matter,
// which runs nothing, only the latter two);
// the language switcher keeps the chapter; the Chinese search finds a chapter 6 term and
// leads there. Needs a built site (`make book`).

import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SITE, start } from "../browser.mjs";
import { nativeRun, sameBytes } from "../native.mjs";
import { axe, finished, open, ready } from "../pages.mjs";
import { STRINGS } from "../../book/widget/strings.js";
import { targetDir } from "../../scripts/target-dir.mjs";
import { BACK_MATTER, EDITIONS, hasExperiment, ZH } from "../site-pages.mjs";

const SHOTS = join(targetDir(), "screenshots");
// Chapter 6's word for vruntime, as the Chinese edition writes it.
const CFS_TERM = "虚拟运行时间";

let site;
let chapters;
// The pages of the book that hold no experiment; every other chapter page runs one.
// The RESULT of every experiment the build ran, by command line (book/figures/generate.mjs).
let built;
before(async () => {
  built = JSON.parse(readFileSync(join(SITE, "generated/results.json"), "utf8"));
  if (!existsSync(join(SITE, ZH, "chapters"))) throw new Error("the Chinese edition is not in the built book: run make book");
  chapters = readdirSync(join(SITE, "chapters")).filter((f) => f.endsWith(".html")).sort();
  site = await start();
  mkdirSync(SHOTS, { recursive: true });
});
after(async () => site?.stop());

test("both editions have the same chapter pages", () => {
  assert.ok(chapters.length >= 13, `only ${chapters.length} chapter pages`);
  assert.deepEqual(readdirSync(join(SITE, ZH, "chapters")).filter((f) => f.endsWith(".html")).sort(), chapters);
});

for (const { lang, prefix } of EDITIONS) {
  test(`every ${lang} chapter runs its first experiment to a RESULT, error-free and axe-clean`, async (t) => {
    const T = STRINGS[lang];
    for (const chapter of chapters) {
      await t.test(chapter, async () => {
        const { page, errors } = await open(site, `${prefix}chapters/${chapter}`);
        assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
        if (!hasExperiment(prefix, chapter)) {
          // The back matter (glossary, bibliography, index, the appendix's opening) runs nothing.
          assert.ok(BACK_MATTER.has(chapter), `${chapter} has no experiment`);
          assert.deepEqual(await axe(page), []);
          assert.deepEqual(errors, []);
          return page.close();
        }
        await ready(page);
        const first = page.locator(".rq-widget").first();
        await first.getByRole("button", { name: T.run, exact: true }).click();
        await finished(page, 0);
        const panes = await page.evaluate(() => {
          const x = runqueue.experiments[0];
          return x.panes.map((p, i) => ({ state: p.state, error: p.error, result: p.result, bootargs: p.bootargs, kernel: x.kernels()[i] }));
        });
        for (const p of panes) {
          assert.equal(p.error, null);
          assert.equal(p.state, "done");
          const result = JSON.parse(p.result);
          if (p.kernel !== "runqueue") {
            // A pane on Linux: the CLI's run of Linux on the same words.
            sameBytes(`${p.result}\n`, nativeRun(p.bootargs, 5e9, p.kernel).json, `${p.kernel}'s RESULT of ${p.bootargs}`);
            continue;
          }
          // The prose quotes the build's run of this very command line: the page must agree.
          assert.deepEqual(result, built[result.args], `the page's run of "${result.args}" differs from the build's`);
        }
        if (lang === ZH) assert.ok(!(await page.locator("summary", { hasText: "Answer" }).count()), "an English 'Answer' label");
        await page.waitForTimeout(200); // one more frame for the charts
        if (chapter.startsWith("06-")) await first.screenshot({ path: join(SHOTS, `cfs-${lang}.png`) });
        assert.match(await first.locator(".rq-status").innerText(), new RegExp(T.done(0, "").slice(0, 8)));
        assert.deepEqual(await axe(page), []);
        assert.deepEqual(errors, []);
        await page.close();
      });
    }
  });
}

test("the language switcher leads to the same chapter in the other edition and back", async () => {
  const { page, errors } = await open(site, "chapters/06-cfs.html?e1=sched%3Dcfs");
  await page.getByRole("link", { name: "Read this page in Chinese" }).click();
  await page.waitForURL(`${site.base}${ZH}/chapters/06-cfs.html?e1=sched%3Dcfs`);
  assert.equal(await page.evaluate(() => document.documentElement.lang), ZH);
  await page.getByRole("link", { name: "阅读本页的英文版" }).click();
  await page.waitForURL(`${site.base}chapters/06-cfs.html?e1=sched%3Dcfs`);
  assert.equal(await page.locator(".rq-lang [lang]").innerText(), "中文");
  assert.deepEqual(errors, []);
  await page.close();
});

test("the Chinese search finds a chapter 6 term and leads to chapter 6", async () => {
  const { page, errors } = await open(site, `${ZH}/index.html`);
  await page.getByRole("button", { name: "搜索本书" }).click();
  await page.getByRole("searchbox", { name: "搜索本书" }).fill(CFS_TERM);
  // The term is chapter 6's, though other chapters use it too (stride's pass is a vruntime).
  const first = page.locator('.rq-search-results a[href*="06-cfs"]').first();
  await first.waitFor();
  assert.match(await page.locator(".rq-search-teaser").first().innerText(), new RegExp(CFS_TERM));
  await page.screenshot({ path: join(SHOTS, "search-zh.png") });
  assert.deepEqual(await axe(page), []);
  await first.click();
  await page.waitForURL(`${site.base}${ZH}/chapters/06-cfs.html`);
  assert.match(await page.locator("main").innerText(), new RegExp(CFS_TERM));
  assert.deepEqual(errors, []);
  await page.close();
});
