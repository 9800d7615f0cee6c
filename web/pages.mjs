// What the end-to-end tests do with a page of the built book: open it with its console errors
// recorded, wait for its widgets, wait for runs to end, and check it with axe-core.

import { join } from "node:path";
import { ROOT } from "./browser.mjs";

const AXE = join(ROOT, "web/node_modules/axe-core/axe.min.js");
export const RUN_TIMEOUT = 120_000;

/** Opens `path` (in mdBook theme `theme`) and records every console error and uncaught exception on it. */
export async function open(site, path, theme = "light") {
  const page = await site.context.newPage();
  await page.addInitScript((t) => localStorage.setItem("mdbook-theme", t), theme);
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(site.base + path);
  return { page, errors };
}

export const ready = (page) => page.waitForFunction(() => globalThis.runqueue?.ready, null, { timeout: 20_000 });

/** Waits for the page's widgets, if it has live ones (the print page has notes); says whether it has. */
export async function settle(page) {
  const live = await page.evaluate(() => Boolean(document.querySelector(".rq-experiment"))
    && !document.querySelector('meta[name="robots"][content="noindex"]'));
  if (live) await ready(page);
  return live;
}

/** Waits until every pane of the page's `i`-th experiment has finished or failed. */
export const finished = (page, i, timeout = RUN_TIMEOUT) => page.waitForFunction(
  (i) => runqueue.experiments[i].panes.every((p) => ["done", "error"].includes(p.state)), i, { timeout, polling: 200 });

// The rules the book is held to: WCAG 2.0 and 2.1, levels A and AA, and axe's best practices.
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

/** axe-core's violations inside `scope` under AXE_TAGS: [{id, impact, targets}]. */
export async function axeViolations(page, scope = "html") {
  if (!(await page.evaluate(() => Boolean(globalThis.axe)))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async ([scope, tags]) => {
    const r = await axe.run(scope, { runOnly: { type: "tag", values: tags } });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(" ")) }));
  }, [scope, AXE_TAGS]);
}

/** The same violations, one line each (an empty list passes). */
export async function axe(page, scope = "html") {
  return (await axeViolations(page, scope)).map((v) => `${v.id}: ${v.targets.join(", ")}`);
}

/**
 * Runs `elf` (a file in the site's runqueue/ folder), or the Linux `kernel` (`linux-6.12`) with
 * the init's initramfs, to its end in the widget's Worker on
 * runqueue/widget/bench.html and returns the page's {instret, seconds, mips, exitCode,
 * compiledRegions, console}, plus `trace` in the format `trace` names ("ftrace" or "chrome")
 * when given. `tier: "off"` runs with the compiled tier off, `"eager"` compiles every region at the first
 * jump to its entry.
 */
export async function workerRun(page, site, { elf = "kernel.elf", kernel = null, args = "", max = 20e9, trace = null, tier = "on", snapshot = false }) {
  const q = new URLSearchParams({ elf, args, max: String(max), tier });
  if (kernel) q.set("kernel", kernel);
  if (snapshot) q.set("snapshot", "1");
  if (trace) q.set("trace", trace);
  await page.goto(`${site.base}runqueue/widget/bench.html?${q}`);
  await page.waitForFunction(() => globalThis.benchResult, null, { timeout: 600_000, polling: 200 });
  const r = await page.evaluate(() => globalThis.benchResult);
  if (r.error) throw new Error(`bench page (${args}): ${r.error}`);
  return r;
}
