// Accessibility of the built book in Chromium (docs/web.md, "Accessibility"): axe-core's WCAG
// 2.0/2.1 A and AA rules and its best practices on every page of both editions; the keyboard
// (a skip link first, focus that shows, the lanes as a slider); what a screen reader gets,
// read from Chromium's own accessibility tree; the charts' text alternatives, patterns and
// contrast; live charts that pause; reflow at 320 px and at 200 % zoom; reduced motion.
// Needs a built site (`make book`). After a run, axe is also run by editions.test.mjs (every
// chapter of both editions) and browser.test.mjs.

import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { start } from "../browser.mjs";
import { axe, axeViolations, finished, open as openPage, ready, settle } from "../pages.mjs";
import { EDITIONS, sitePages } from "../site-pages.mjs";

let site;
before(async () => { site = await start(); });
after(async () => site?.stop());

const CH3 = "chapters/03-fifo-rr.html";
const CH4 = "chapters/04-sjf.html";
const CH6 = "chapters/06-cfs.html";

async function runFirst(page) {
  await page.locator(".rq-widget").first().locator(".rq-run").click();
  await finished(page, 0);
  await page.waitForTimeout(400); // the last redraw
}

/** Chromium's accessibility tree of the page, as a screen reader gets it: [{role, name, description, value, props}]. */
async function accessibilityTree(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50)))); // the tree follows the DOM
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Accessibility.enable");
  const { nodes } = await cdp.send("Accessibility.getFullAXTree");
  await cdp.detach();
  return nodes.filter((n) => !n.ignored).map((n) => ({
    role: n.role?.value, name: n.name?.value ?? "", description: n.description?.value ?? "", value: n.value?.value,
    props: Object.fromEntries((n.properties ?? []).map((p) => [p.name, p.value.value])),
  }));
}

for (const { lang, prefix } of EDITIONS) {
  test(`every ${lang} page passes axe (WCAG 2.0/2.1 A and AA, best practices) before any run`, async (t) => {
    const pages = sitePages(prefix);
    assert.ok(pages.length >= 25, `${pages.length} pages`);
    for (const path of pages) {
      await t.test(path, async () => {
        const { page, errors } = await openPage(site, path);
        await settle(page);
        assert.deepEqual(await axe(page), []);
        assert.deepEqual(errors, []);
        await page.close();
      });
    }
  });
}

test("after a run, with every fold, data table and the lanes' cursor open, the page still passes axe", async () => {
  const { page, errors } = await openPage(site, CH6);
  await ready(page);
  await runFirst(page);
  const w = page.locator(".rq-widget").first();
  for (const summary of await w.locator("details > summary").all()) if (await summary.isVisible()) await summary.click();
  await w.locator(".rq-lanes-canvas").first().focus();
  await page.keyboard.press("ArrowRight");
  assert.ok(await w.locator(".rq-chart-data[open] table tbody tr").count() > 0, "the data tables are filled");
  const found = await axeViolations(page);
  assert.deepEqual(found.map((v) => `${v.id}: ${v.targets.join(", ")}`), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the skip link is the first stop of the keyboard, shows when reached and leads to the text", async () => {
  for (const [path, name] of [[CH4, "Skip to the text"], [`zh-CN/${CH4}`, "跳到正文"]]) {
    const { page, errors } = await openPage(site, path);
    await ready(page);
    await page.keyboard.press("Tab");
    const skip = page.locator(":focus");
    assert.equal(await skip.innerText(), name);
    const box = await skip.boundingBox();
    assert.ok(box && box.y >= 0 && box.width > 20 && box.height > 10, `the focused skip link is on screen: ${JSON.stringify(box)}`);
    await page.keyboard.press("Enter");
    assert.equal(await page.evaluate(() => document.activeElement.tagName), "MAIN", "Enter moves the focus to the text");
    // From the text, the first experiment's Run button is a few stops away, not the sidebar's length.
    let presses = 0;
    while (!(await page.evaluate(() => document.activeElement.classList.contains("rq-run")))) {
      await page.keyboard.press("Tab");
      assert.ok(++presses < 40, "Run is not among the first 40 stops after the skip link");
    }
    console.log(`# ${path}: Run reached with Tab, Enter and ${presses} more Tabs`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test("every keyboard stop of a chapter with a finished run shows where the focus is", async () => {
  const { page, errors } = await openPage(site, CH3);
  await ready(page);
  await runFirst(page);
  await page.evaluate(() => document.activeElement?.blur());
  await page.locator("body").focus();
  const seen = new Map();
  const invisible = [];
  for (let i = 0; i < 400; i++) {
    await page.keyboard.press("Tab");
    const stop = await page.evaluate(() => {
      const e = document.activeElement;
      if (e === document.body) return { id: "body" };
      e.rqStop ??= (globalThis.rqStops = (globalThis.rqStops ?? 0) + 1);
      const s = getComputedStyle(e);
      const path = [];
      for (let n = e; n && n !== document.body; n = n.parentElement) path.unshift(n.tagName.toLowerCase() + (n.className && typeof n.className === "string" ? `.${n.className.trim().split(/\s+/).join(".")}` : ""));
      const inWidget = Boolean(e.closest(".rq-widget"));
      return { path: path.slice(-3).join(" > "), outline: s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2, shadow: s.boxShadow !== "none", id: e.rqStop, inWidget };
    });
    if (stop.id === "body") continue; // past the page's last stop, in the browser's own controls
    if (seen.has(stop.id)) break; // back where it started
    seen.set(stop.id, stop);
    if (!stop.outline && !stop.shadow) invisible.push(stop.path);
  }
  assert.ok(seen.size > 50, `only ${seen.size} stops`);
  const widgetStops = [...seen.values()].filter((s) => s.inWidget).length;
  assert.ok(widgetStops > 20, `only ${widgetStops} stops in the widgets`);
  assert.deepEqual(invisible, [], "stops without a visible focus indicator");
  assert.deepEqual(errors, []);
  await page.close();
});

test("the lanes are a slider for the keyboard, and a screen reader hears who runs and who waits", async () => {
  const { page, errors } = await openPage(site, CH6);
  await ready(page);
  const w = page.locator(".rq-widget").first();
  await w.locator(".rq-run").focus();
  await page.keyboard.press("Enter");
  await finished(page, 0);
  const lanes = w.locator(".rq-lanes-canvas").first();
  await lanes.focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  const state = await page.evaluate(() => {
    const lanes = runqueue.experiments[0].panes[0].lanes;
    const events = lanes.model.events;
    return { cursor: lanes.cursor, second: events[1].t, snapshot: lanes.snapshot(), start: lanes.model.start };
  });
  assert.equal(state.cursor, state.second, "two presses of the right arrow reach the second event");
  const tree = await accessibilityTree(page);
  const slider = tree.find((n) => n.role === "slider" && /^Task lanes: .*arrow keys step the cursor/.test(n.name));
  assert.ok(slider, "the lanes are a slider in the accessibility tree");
  assert.ok(slider.props.valuemax > 0, "its range is the run's length");
  assert.match(slider.description, /^\d+ harts? and \d+ tasks over [\d.]+ ms/, "its description is the lanes' summary");
  // Chromium's tree gives the slider's number; the words a screen reader speaks are aria-valuetext.
  const valuetext = await lanes.getAttribute("aria-valuetext");
  const ms = ((state.cursor - state.start) / 1e6).toFixed(3);
  assert.ok(Math.abs(slider.value - Number(ms)) < 1e-3, `its value ${slider.value} is the cursor's ${ms} ms`);
  assert.ok(valuetext.startsWith(`At ${ms} ms:`), valuetext);
  for (const h of state.snapshot.harts) {
    assert.ok(valuetext.includes(h.running ? `hart ${h.hart} runs ${h.running.name}` : `hart ${h.hart} is idle`), valuetext);
  }
  for (const t of state.snapshot.queues.flatMap((q) => q.tasks)) assert.ok(valuetext.includes(t.name), `${t.name} waits: ${valuetext}`);
  // A button moves the cursor too; the status says it, since the slider has no focus then.
  await w.locator(".rq-next-event").first().click();
  assert.match(await w.locator(".rq-lanes [role=status]").first().textContent(), /^At [\d.]+ ms: hart 0 /);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a screen reader finds each chart's name, summary and data table, the terminal's text and the controls' states", async () => {
  const { page, errors } = await openPage(site, CH3);
  await ready(page);
  const before = await accessibilityTree(page);
  assert.ok(before.some((n) => n.role === "link" && n.name === "Skip to the text"));
  assert.ok(before.some((n) => n.role === "link" && /^中文\s*: Read this page in Chinese$/.test(n.name)), "the switcher's name starts with its visible text");
  await runFirst(page);
  const w = page.locator(".rq-widget").first();
  const tree = await accessibilityTree(page);
  const images = tree.filter((n) => n.role === "image" && n.name);
  const figures = await page.evaluate(() => runqueue.experiments[0].panes.flatMap((p) => Object.values(p.charts.figures)
    .filter((f) => !f.hidden).map((f) => ({ label: f.canvas.getAttribute("aria-label"), summary: f.summary.textContent }))));
  assert.ok(figures.length >= 6, `${figures.length} charts`);
  for (const f of figures) {
    assert.doesNotMatch(f.summary, /No data/, `${f.label} has a summary`);
    assert.ok(images.some((n) => n.name === f.label && n.description === f.summary), `${f.label}: an image described by "${f.summary}"`);
  }
  // The terminal's lines, the kernel's table among them, are text a screen reader reads (xterm
  // copies them into the tree at most once a second, for a terminal on screen).
  await w.locator(".rq-terminal").first().scrollIntoViewIfNeeded();
  await page.waitForFunction(() => /tid\s+name\s+arrive_ms/.test(document.querySelector(".xterm-accessibility-tree")?.textContent), null, { timeout: 5000 });
  const text = (await accessibilityTree(page)).filter((n) => n.role === "StaticText").map((n) => n.name).join("\n");
  assert.match(text, /tid\s+name\s+arrive_ms/, "the kernel's table is in the accessibility tree");
  const freeze = tree.find((n) => n.role === "button" && n.name === "Freeze the charts");
  assert.equal(freeze?.props.pressed, "false");
  // The completion chart's table, opened, has a row per task with the RESULT's figures.
  await w.getByText("The chart's data as a table").first().click();
  await w.locator(".rq-chart-data[open] table tbody tr").first().waitFor();
  const rows = await w.locator(".rq-chart-data[open] table").first().locator("tbody tr").allInnerTexts();
  const tasks = await page.evaluate(() => JSON.parse(runqueue.experiments[0].panes[0].result).tasks);
  assert.deepEqual(rows.map((r) => r.split("\t")), tasks.map((t) => [t.name, (t.finish_ns / 1e6).toFixed(3), (t.cpu_ns / 1e6).toFixed(3), (t.wait_ns / 1e6).toFixed(3)]));
  const tables = (await accessibilityTree(page)).filter((n) => n.role === "table").map((n) => n.name);
  assert.ok(tables.includes("Bar chart: each task's finish time, CPU time received and time spent waiting"), `tables: ${tables}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test("tasks differ by pattern and dash as well as colour, and every line and bar keeps 3:1 against its ground", async () => {
  const { page, errors } = await openPage(site, CH3);
  await ready(page);
  await runFirst(page);
  const styles = await page.evaluate(() => {
    const p = runqueue.experiments[0].panes[0];
    return {
      dashes: p.charts.progress.data.datasets.map((d) => JSON.stringify(d.borderDash)),
      lines: p.charts.progress.data.datasets.map((d) => d.borderColor),
      fills: p.charts.timeline.data.datasets.filter((d) => d.type !== "scatter").map((d) => typeof d.backgroundColor === "string" ? d.backgroundColor : "pattern"),
    };
  });
  assert.equal(new Set(styles.dashes).size, styles.dashes.length, `each task's line has its own dash: ${styles.dashes}`);
  assert.ok(styles.fills.filter((f) => f === "pattern").length >= styles.fills.length - 1, `the timeline's bars are patterned: ${styles.fills}`);
  const { contrast, CHART_GROUND } = await import("../../book/widget/palette.js");
  for (const c of styles.lines) assert.ok(contrast(c, CHART_GROUND) >= 3, `${c} on ${CHART_GROUND}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test("live charts can be paused while the run goes on, and catch up when resumed", async () => {
  const { page, errors } = await openPage(site, CH3);
  await ready(page);
  const w = page.locator(".rq-widget").first();
  await w.getByLabel("Speed").selectOption("10000000");
  await w.getByRole("button", { name: "Run", exact: true }).click();
  await page.waitForFunction(() => runqueue.experiments[0].panes[0].model.eventCount > 0, null, { timeout: 20_000 });
  await w.getByRole("button", { name: "Freeze the charts" }).click();
  const drawn = () => page.evaluate(() => runqueue.experiments[0].panes.map((p) => ({ charts: p.charts.drawn, lanes: p.lanes.drawMs.length, events: p.model.eventCount, version: p.model.version })));
  await page.waitForTimeout(300); // a draw already under way ends
  const held = await drawn();
  await page.waitForTimeout(1500);
  const later = await drawn();
  assert.ok(later[0].events > held[0].events, "the run went on");
  assert.deepEqual(later.map((p) => [p.charts, p.lanes]), held.map((p) => [p.charts, p.lanes]), "no chart or lane was redrawn");
  assert.equal(await w.getByRole("button", { name: "Freeze the charts" }).getAttribute("aria-pressed"), "true");
  const versions = (await drawn()).map((p) => p.version);
  await w.getByRole("button", { name: "Freeze the charts" }).click();
  // The run may still be going, so the model moves on while the charts draw: catching up means
  // drawing at least what had accumulated at the resume, not matching a moving version.
  await page.waitForFunction((at) => runqueue.experiments[0].panes.every((p, i) => p.charts.drawn >= at[i]), versions, { timeout: 20_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

for (const [what, viewport] of [["320 px", { width: 320, height: 640 }], ["200 % zoom", { width: 640, height: 400 }]]) {
  test(`pages reflow at ${what}: nothing scrolls sideways but the tables and the terminal`, async () => {
    for (const path of ["index.html", CH3, "labs/sjf.html", `zh-CN/${CH3}`]) {
      const { page, errors } = await openPage(site, path);
      await page.setViewportSize(viewport);
      await page.reload(); // mdBook decides at load whether the sidebar fits
      if (await settle(page)) await runFirst(page);
      if (path.startsWith("labs/")) await page.waitForFunction(() => globalThis.runqueueGrade?.widgets.length > 0, null, { timeout: 20_000 });
      const wide = await page.evaluate((width) => {
        const scrollsItself = (e) => e.closest(".table-wrapper, pre, .rq-table, .rq-terminal, .xterm, .rq-grade-table");
        return {
          page: document.documentElement.scrollWidth,
          out: [...document.querySelectorAll("main *")].filter((e) => {
            if (!e.checkVisibility() || scrollsItself(e)) return false;
            const r = e.getBoundingClientRect();
            return r.width > 0 && (r.left < -0.5 || r.right > width + 0.5);
          }).slice(0, 5).map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
        };
      }, viewport.width);
      assert.ok(wide.page <= viewport.width, `${path}: the page is ${wide.page} px wide`);
      assert.deepEqual(wide.out, [], `${path}: outside the screen`);
      assert.deepEqual(errors, []);
      await page.close();
    }
  });
}

test("a reader who asks for reduced motion gets no transitions or animations", async () => {
  const moving = async (reducedMotion) => {
    const { page } = await openPage(site, CH3);
    await page.emulateMedia({ reducedMotion });
    await ready(page);
    const found = await page.evaluate(() => [...document.querySelectorAll("*")].filter((e) => {
      const s = getComputedStyle(e);
      const long = (list) => list.split(",").some((d) => parseFloat(d) > 0);
      return long(s.transitionDuration) || (s.animationName !== "none" && long(s.animationDuration));
    }).map((e) => e.id || e.className || e.tagName));
    await page.close();
    return found;
  };
  assert.ok((await moving("no-preference")).length > 0, "mdBook's frame moves when motion is welcome (this test can fail)");
  assert.deepEqual(await moving("reduce"), []);
});
