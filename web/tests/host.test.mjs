// The modelled host in the page: a run with host= words gives the same RESULT and the same
// Perfetto trace (with its steal slices) as `runqueue run`, byte for byte, and the widget
// groups the host's controls and draws the steal on its timeline.

import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { start } from "../browser.mjs";
import { finished, open as openPage, ready } from "../pages.mjs";
import { runqueueCli } from "../../scripts/target-dir.mjs";
import { tempDir } from "../../scripts/temp-dir.mjs";

const CHAPTER = "experiments.html";
const ARGS = "sched=cfs workload=cyclictest wl.loops=300 host=untuned host.hogs=2";

let site;
before(async () => (site = await start()));
after(async () => site?.stop());

test("a run on a modelled host is byte-identical in the page and natively", async () => {
  const { page, errors } = await openPage(site, `${CHAPTER}?e2=${encodeURIComponent(ARGS)}`);
  await ready(page);
  const w = page.locator(".rq-widget").nth(1);
  await w.getByText("Tunables", { exact: true }).click();
  // The fields are made when the box opens (the toggle event): wait for them, then look.
  const vcpu = w.locator("fieldset.rq-host").getByLabel("host.vcpu", { exact: true });
  await vcpu.waitFor({ state: "visible", timeout: 5000 }).catch(() => {});
  assert.ok(await vcpu.isVisible(), "the host's knobs sit in their own group");
  await w.getByRole("button", { name: "Run", exact: true }).click();
  await finished(page, 1);
  const p = await page.evaluate(() => {
    const pane = runqueue.experiments[1].panes[0];
    return { state: pane.state, error: pane.error, result: pane.result, bootargs: pane.bootargs, steals: pane.model.steals.length };
  });
  assert.equal(p.state, "done", p.error ?? "");
  assert.ok(p.steals > 0, "the timeline has the host's steal");
  const dir = tempDir("rq-host-");
  execFileSync(runqueueCli(), ["run", "--append", p.bootargs, "--json", join(dir, "r.json"), "--trace", join(dir, "t.json")], { stdio: "ignore" });
  assert.equal(`${p.result}\n`, readFileSync(join(dir, "r.json"), "utf8"));
  const download = page.waitForEvent("download");
  await w.getByRole("button", { name: "Download Perfetto trace" }).click();
  const trace = readFileSync(await (await download).path(), "utf8");
  assert.equal(trace.trim(), readFileSync(join(dir, "t.json"), "utf8").trim());
  assert.ok(JSON.parse(trace).traceEvents.some((e) => e.ph === "X" && e.tid >= 1000), "steal slices on the vCPU tracks");
  assert.deepEqual(errors, []);
  await page.close();
});
