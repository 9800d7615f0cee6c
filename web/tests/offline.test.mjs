// Offline once visited (book/offline/sw.js): a reader opens a chapter, the server goes away,
// and the chapter reloads, another chapter opens and an experiment runs to the RESULT the build
// got, all from the service worker's cache. Opened from disk, the home page still
// says what to do. Needs a built site (`make book`).

import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { SITE, start } from "../browser.mjs";
import { finished, ready } from "../pages.mjs";
import { serve } from "../serve.mjs";

let site;
before(async () => { site = await start({ serviceWorkers: "allow" }); });
after(async () => site?.stop());

/** Waits until the page's service worker controls it: it has then kept every file (install precedes activation). */
const keptOffline = (page) => page.evaluate(() => new Promise((resolve, reject) => {
  const done = () => navigator.serviceWorker.controller && resolve();
  navigator.serviceWorker.addEventListener("controllerchange", done);
  done();
  setTimeout(() => reject(new Error("no service worker took the page within 120 s")), 120_000);
}));

for (const [edition, prefix] of [["en", ""], ["zh-CN", "zh-CN/"]]) {
  test(`${edition}: a chapter opened once reloads and runs an experiment with the server gone`, async () => {
    // A server of this test's own, so that it can be stopped.
    const server = await serve(SITE, 0);
    const base = `http://127.0.0.1:${server.address().port}/${prefix}`;
    const page = await site.context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${base}chapters/03-fifo-rr.html`);
    await ready(page);
    await keptOffline(page);
    await new Promise((r) => { server.closeAllConnections(); server.close(r); });
    await assert.rejects(page.request.get(`${base}index.html`), "the server is gone");

    await page.reload();
    await ready(page);
    // A chapter not opened before, with its experiment's settings in the address.
    await page.goto(`${base}chapters/04-sjf.html?e1=${encodeURIComponent("sched=sjf workload=fairness-unequal smp=1")}`);
    await ready(page);
    await page.locator(".rq-widget").first().locator(".rq-run").click();
    await finished(page, 0);
    const [p] = await page.evaluate(() => runqueue.experiments[0].panes.map((p) => ({ state: p.state, error: p.error, result: p.result })));
    assert.equal(p.error, null);
    const built = JSON.parse(readFileSync(join(SITE, "generated/results.json"), "utf8"));
    const result = JSON.parse(p.result);
    assert.deepEqual(result, built[result.args], "the offline run is the build's run");
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test("opened from disk, the home page still says how to serve the book", async () => {
  const page = await site.context.newPage();
  await page.goto(pathToFileURL(join(SITE, "index.html")).href);
  assert.match(await page.locator("main").innerText(), /python3 -m http\.server 8000/);
  await page.close();
});
