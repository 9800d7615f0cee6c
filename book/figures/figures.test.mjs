// node --test book/figures/
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { checkLinks } from "./check-links.mjs";
import { checkIncludes, includedAnchors } from "./includes.mjs";
import { PENDING, anchored, catalogValues, compareTable, fieldValues, groupOf, littlesLaw, pendingValues, runValues, traceValues, windowValues } from "./metrics.mjs";
import { parseSpec } from "./spec.mjs";
import { tempTree } from "./temp-tree.mjs";
import { tempDir } from "../../scripts/temp-dir.mjs";

const task = (tid, name, finish, cpu, iterations) =>
  ({ tid, name, arrive_ns: 0, response_ns: tid * 1e6, finish_ns: finish, turnaround_ns: finish, cpu_ns: cpu, wait_ns: finish - cpu, switches: tid * 10, iterations });
const result = {
  args: "sched=x workload=realtime",
  time_ns: 1_000_000_000,
  tasks: [task(1, "short0", 300e6, 100e6, 40), task(2, "short1", 200e6, 100e6, 10), task(3, "long", 1000e6, 800e6, 8)],
};

test("the metrics chapter's averages, throughput and utilisation come from the RESULT", () => {
  const v = runValues(result);
  assert.equal(v.avg_wait_ms, "166.67");
  assert.equal(v.avg_response_ms, "2.00");
  assert.equal(v.avg_turnaround_ms, "500.00");
  assert.equal(v.throughput_per_s, "3.0");
  assert.equal(v.util_pct, "100.0");
  assert.equal(v.long_turnaround_ms, "1000.0");
  assert.match(v.metrics_table, /\| short1 \| 0\.0 \| 100\.0 \| 100\.0 \| 2\.0 \| 200\.0 \|/);
});

test("Little's law: L is the time-average of the tasks in the system between the first arrival and the last exit", () => {
  // a: 0 to 10 ms, b: 5 to 15 ms: one task, then two, then one: L = (5 + 10 + 5) / 15.
  const trace = ["T 0 0 new 1 name=a", "T 5000000 0 new 2 name=b", "T 10000000 0 exit 1", "T 15000000 0 exit 2"].join("\n");
  const r = { smp: 1, tasks: [{ tid: 1, name: "a", turnaround_ns: 10e6 }, { tid: 2, name: "b", turnaround_ns: 10e6 }] };
  const { L, lambda, W, lambdaW } = littlesLaw(trace, r);
  assert.equal(L.toFixed(4), "1.3333");
  assert.equal((lambda * 1e9).toFixed(2), "133.33");
  assert.equal(W, 10e6);
  assert.equal(lambdaW.toFixed(4), "1.3333");
  assert.equal(traceValues(trace, { ...r, tasks: r.tasks.map((t) => ({ ...t, cpu_ns: 0, iterations: 0 })) }).little_diff_pct, "0.00");
});

test("values are computed from the RESULT, per task, per group and overall", () => {
  const v = runValues(result);
  assert.equal(v.time_ms, "1000.0");
  assert.equal(v.iters, "40 / 10 / 8");
  assert.equal(v.short1_finish_ms, "200.0");
  assert.equal(v.long_cpu_pct, "80.0");
  assert.equal(v.short_cpu_pct, "20.0");
  assert.equal(v.short_last_finish_ms, "300.0");
  assert.equal(v.short_over_long, "0.30");
  assert.equal(v.long_over_short, "3.33");
  assert.equal(v.cpu_spread_pct, "87.5");
  assert.equal(v.iter_spread_pct, "80.0");
  assert.equal(v.iter_total, "58");
  assert.equal(v.wait_total_ms, "500.0");
  assert.equal(v.us_per_iter, (1e9 / 58 / 1000).toFixed(1));
  assert.match(v.table, /^\| task \| finish \(ms\)/);
  assert.equal(v.table.split("\n").length, 2 + 3);
});

test("a RESULT without tasks is an error, not a table of NaN", () => {
  assert.throws(() => runValues({ args: "a", time_ns: 1, tasks: [] }), /has no tasks/);
});

test("groups are names without their trailing number", () => {
  assert.deepEqual(["short12", "long", "hog0", "task3x"].map(groupOf), ["short", "long", "hog", "task3x"]);
});

test("comparison tables take the first run's task names as columns", () => {
  const other = { ...result, tasks: result.tasks.slice(1) };
  const t = compareTable({ id: "t", metric: "iterations", corner: "s", rows: [["a", "one"], ["b", "two"]] },
    new Map([["one", result], ["two", other]]));
  assert.deepEqual(t.split("\n"), ["| s | short0 | short1 | long |", "| --- | --- | --- | --- |", "| a | 40 | 10 | 8 |", "| b |  | 10 | 8 |"]);
  assert.throws(() => compareTable({ id: "t", metric: "speed", rows: [["a", "one"]] }, new Map([["one", result]])), /metric "speed"/);
});

test("a task's share of the whole run counts idle time, unlike its share of the CPU used", () => {
  const idle = { ...result, time_ns: 2_000_000_000 };
  const v = runValues(idle);
  assert.equal(v.long_time_pct, "40.0");
  assert.equal(v.long_cpu_pct, "80.0");
});

test("latency tables have one row per run with the measuring task's min, avg and max", () => {
  const measured = (min, avg, max) => ({
    args: "workload=cyclictest",
    time_ns: 1e9,
    tasks: [{ ...task(1, "cyclic", 1e9, 1e7, 1000), lat: { min_ns: min, avg_ns: avg, max_ns: max, samples: 1000 } }, task(2, "load0", 1e9, 9e8, 50)],
  });
  const runs = new Map([["fifo", measured(24400, 25357, 114400)], ["fair", measured(48600, 91331, 1035700)]]);
  const t = compareTable({ id: "lat", metric: "latency", corner: "policy", rows: [["fifo", "fifo"], ["fair", "fair"]] }, runs);
  assert.deepEqual(t.split("\n"), [
    "| policy | min (µs) | avg (µs) | max (µs) | samples |",
    "| --- | --- | --- | --- | --- |",
    "| fifo | 24.4 | 25.4 | 114.4 | 1000 |",
    "| fair | 48.6 | 91.3 | 1035.7 | 1000 |",
  ]);
  assert.throws(() => compareTable({ id: "lat", metric: "latency", rows: [["x", "one"]] }, new Map([["one", result]])),
    /measured no latency/);
});

test("lock tables have one row per run with the longest waiter's waits and inversions", () => {
  const locked = (avg, max, inversions) => ({
    args: "workload=inversion",
    time_ns: 4e8,
    tasks: [
      { ...task(1, "high", 4e8, 6e6, 20), lock: { acquired: 20, contended: 20, avg_wait_ns: avg, max_wait_ns: max, inversions } },
      { ...task(2, "low", 4e8, 4e7, 20), lock: { acquired: 20, contended: 0, avg_wait_ns: 0, max_wait_ns: 0, inversions: 0 } },
      task(3, "hog0", 4e8, 1.6e8, 20),
    ],
  });
  const runs = new Map([["off", locked(9486680, 9492200, 20)], ["on", locked(1755250, 1756300, 0)]]);
  const t = compareTable({ id: "pi", metric: "lock", corner: "lock.pi", rows: [["0", "off"], ["1", "on"]] }, runs);
  assert.deepEqual(t.split("\n"), [
    "| lock.pi | task | waits | avg wait (ms) | max wait (ms) | inversions |",
    "| --- | --- | --- | --- | --- | --- |",
    "| 0 | high | 20 | 9.5 | 9.5 | 20 |",
    "| 1 | high | 20 | 1.8 | 1.8 | 0 |",
  ]);
  assert.equal(runValues(runs.get("off")).high_lock_max_ms, "9.5");
  assert.throws(() => compareTable({ id: "pi", metric: "lock", rows: [["x", "one"]] }, new Map([["one", result]])), /took no mutex/);
});

test("the spec rejects duplicates, unknown keys and dangling table rows", () => {
  const ok = { experiments: [{ id: "a.b", args: "sched=cfs" }], tables: [{ id: "t", metric: "cpu_ms", rows: [["x", "a.b"]] }] };
  assert.equal(parseSpec(JSON.stringify(ok)).experiments.length, 1);
  const bad = (spec, re) => assert.throws(() => parseSpec(JSON.stringify(spec)), re);
  bad({ experiments: [ok.experiments[0], ok.experiments[0]] }, /used twice/);
  bad({ experiments: [{ id: "a", args: "x", smp: 2 }] }, /unknown key "smp"/);
  bad({ experiments: [{ id: "a b", args: "x" }] }, /bad experiment id/);
  bad({ experiments: [{ id: "a", args: "" }] }, /has no args/);
  bad({ experiments: [], tables: [{ id: "t", metric: "cpu_ms", rows: [["x", "nope"]] }] }, /no experiment "nope"/);
  assert.throws(() => parseSpec("{"), /not valid JSON/);
});

test("chapters may only include figures that were generated", () => {
  const dir = tempTree({
    "gen/run.md": anchored({ time_ms: "5.0" }),
    "ch/a.md": "took {{#include ../generated/run.md:time_ms}} ms",
    "ch/b.md": "{{#include ../generated/run.md:speed}} {{#include ../generated/gone.md:x}} {{#include ../generated/run.md}}",
  });
  const problems = checkIncludes(path.join(dir, "ch"), path.join(dir, "gen"));
  assert.deepEqual(problems, [
    'b.md: run.md has no figure "speed"',
    "b.md: gone.md does not exist",
    "b.md: run.md is included whole; name an anchor",
  ]);
});

test("the link checker finds missing pages and fragments, and ignores external links", () => {
  const dir = tempTree({
    "a.html": '<h1 id="top"></h1><a href="b.html#x"></a><a href="b.html#nope"></a><a href="c.html"></a><a href="https://e.org/"></a><a href="#top"></a>',
    "b.html": '<p id="x"></p>',
  });
  assert.deepEqual(checkLinks(dir), ["a.html: b.html#nope names no element on its page", "a.html: c.html does not exist"]);
});

test("experiments run under the widget's spelling, and a live pane without its twin is named", async () => {
  const { kernelCatalog } = await import("./kernel-catalog.mjs");
  const { runqueueCli } = await import("../../scripts/target-dir.mjs");
  const { canonical, livePanes, missingTwins } = await import("./twins.mjs");
  const int = (name, def) => ({ name, type: "int", default: def, min: 0, max: 100, unit: "", help: "" });
  // Read by the kernel's own parser (`runqueue settings`), as the page reads lines.
  const catalog = kernelCatalog(runqueueCli(), {
    defaults: { sched: "cfs", workload: "spin" },
    globals: [{ ...int("smp", 1), min: 1, max: 4 }, int("tick_us", 10)],
    schedulers: [{ name: "cfs", tunables: [int("cfs.x", 1)] }, { name: "fifo", tunables: [] }],
    workloads: [{ name: "spin", tunables: [int("wl.tasks", 2), int("wl.run_ms", 5)] }],
  });
  // Order follows the catalog, defaults are dropped, smp is spelled out.
  assert.equal(canonical("wl.run_ms=7 sched=fifo wl.tasks=2 workload=spin tick_us=20", catalog), "sched=fifo workload=spin smp=1 tick_us=20 wl.run_ms=7");
  assert.throws(() => canonical("sched=cfs wl.nope=1", catalog), /not a setting/);

  const dir = tempDir("rq-twins-");
  fs.writeFileSync(path.join(dir, "01.md"), '<div class="rq-experiment" data-sched="cfs" data-workload="spin" data-smp="2" data-args="wl.tasks=3" data-compare="fifo"></div>\n');
  const panes = livePanes(dir, catalog);
  assert.deepEqual(panes.map((p) => p.args), ["sched=cfs workload=spin smp=2 wl.tasks=3", "sched=fifo workload=spin smp=2 wl.tasks=3"]);
  assert.deepEqual(missingTwins(panes, ["sched=cfs workload=spin smp=2 wl.tasks=3"]),
    ['01.md: no experiment in experiments.json runs "sched=fifo workload=spin smp=2 wl.tasks=3"']);
  assert.deepEqual(missingTwins(panes, panes.map((p) => p.args)), []);
  // A second run that changes more than the scheduler, as compare mode spells it.
  fs.writeFileSync(path.join(dir, "01.md"), '<div class="rq-experiment" data-sched="cfs" data-workload="spin" data-compare="fifo smp=2 wl.run_ms=7"></div>\n');
  assert.deepEqual(livePanes(dir, catalog).map((p) => p.args), ["sched=cfs workload=spin smp=1", "sched=fifo workload=spin smp=2 wl.run_ms=7"]);
  fs.writeFileSync(path.join(dir, "01.md"), '<div class="rq-experiment" data-sched="cfs" data-workload="spin" data-compare="nope"></div>\n');
  assert.throws(() => livePanes(dir, catalog), /data-compare="nope": nope is not a scheduler/);
  // A pane on Linux needs no figure; a kernel the site does not serve is refused.
  fs.writeFileSync(path.join(dir, "01.md"), '<div class="rq-experiment" data-sched="cfs" data-workload="spin" data-compare="kernel=linux-6.1"></div>\n');
  assert.throws(() => livePanes(dir, catalog), /kernel=linux-6.1 is not a kernel of this site/);
  const withLinux = { ...catalog, kernels: ["runqueue", "linux-6.1"] };
  assert.deepEqual(livePanes(dir, withLinux).map((p) => p.args), ["sched=cfs workload=spin smp=1"]);
  fs.writeFileSync(path.join(dir, "01.md"), '<div class="rq-experiment" data-kernel="linux-6.1" data-sched="cfs" data-workload="spin" data-compare="fifo kernel=runqueue"></div>\n');
  assert.deepEqual(livePanes(dir, withLinux).map((p) => p.args), ["sched=fifo workload=spin smp=1"]);
  fs.writeFileSync(path.join(dir, "01.md"), '<div class="rq-experiment" data-kernel="linux-9" data-sched="cfs" data-workload="spin"></div>\n');
  assert.throws(() => livePanes(dir, withLinux), /data-kernel="linux-9" is not a kernel the site serves/);
});

test("a refused experiment is declared as such", () => {
  const spec = (extra) => JSON.stringify({ experiments: [{ id: "a", args: "sched=cfs", ...extra }], tables: [] });
  assert.equal(parseSpec(spec({ refused: true })).experiments[0].refused, true);
  assert.throws(() => parseSpec(spec({ refused: "yes" })), /refused is true or absent/);
});

test("an experiment may name trace keys to quote, each a policy state key", () => {
  const spec = (extra) => JSON.stringify({ experiments: [{ id: "a", args: "sched=o1", ...extra }], tables: [] });
  assert.deepEqual(parseSpec(spec({ fields: ["prio", "expired"] })).experiments[0].fields, ["prio", "expired"]);
  for (const fields of [[], "prio", ["Prio"], ["a b"], [1]]) {
    assert.throws(() => parseSpec(spec({ fields })), /fields must be a list of trace keys/);
  }
});

test("trace keys are quoted per task: last, smallest and largest value", () => {
  const events = [
    "T 10 0 new 1 name=intr0 class=fair prio=125 bonus=-5",
    "T 20 0 new 2 name=hog0 class=fair prio=125 bonus=-5",
    "T 30 0 in 1 prio=125 bonus=-5",
    "T 40 0 mark 1 iter=1",
    "T 50 0 wake 1 prio=115 bonus=5",
    "T 60 0 state 2 prio=126 expired=1",
    "T 70 0 state 1 prio=116 expired=0",
  ].join("\n");
  const r = { args: "sched=o1", tasks: [{ tid: 1, name: "intr0" }, { tid: 2, name: "hog0" }] };
  const v = fieldValues(events, r, ["prio", "bonus"]);
  assert.equal(v.intr0_prio_last, "116");
  assert.equal(v.intr0_prio_min, "115");
  assert.equal(v.intr0_prio_max, "125");
  assert.equal(v.intr0_bonus_last, "5");
  assert.equal(v.hog0_prio_max, "126");
  assert.equal(v.hog0_bonus_min, "-5");
  assert.throws(() => fieldValues(events, r, ["pass"]), /shows no pass=/);
});

// The seed reports' figures (seeds.json): each is on its source line, and no chapter or
// translation types one by hand instead of including it from generated/seeds.md.
const seedsModule = await import("./seeds.mjs");
const { bookParagraphs, chapterParagraphs, checkSources, checkValues, handWritten, hasNumber, parseSeeds, poParagraphs, render, seedsMarkdown } = seedsModule;
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const SEEDS = parseSeeds(fs.readFileSync(path.join(ROOT, "book/figures/seeds.json"), "utf8"));
// The seed reports themselves live outside the repository, beside it on the project's machines.
const SEED_DIR = process.env.RUNQUEUE_SEEDS ?? path.resolve(ROOT, "../shared/seeds");

test("every seed figure is on the line of the seed its source names, and every derived one adds up", () => {
  assert.deepEqual(checkValues(SEEDS), []);
});

test("every seed figure's excerpt is what the seed file has on that line", (t) => {
  if (!fs.existsSync(SEED_DIR)) return t.skip(`the seed reports are not in ${SEED_DIR} (set RUNQUEUE_SEEDS)`);
  assert.deepEqual(checkSources(SEEDS, SEED_DIR), []);
});

test("no chapter and no translation writes a seed figure by hand", () => {
  const paragraphs = bookParagraphs(path.join(ROOT, "book/src/chapters"), [path.join(ROOT, "po/zh-CN.po")]);
  assert.ok(paragraphs.length > 100);
  assert.deepEqual(handWritten(SEEDS, paragraphs), []);
});

const seedSpec = (figures) => parseSeeds(JSON.stringify({ seeds: { "001": "001.txt", "004": "004.txt" }, figures }));
const fifo = { id: "s001-fifo", value: [1302, 1282, 1265, 1249], unit: "ms", seed: "001", line: 79, excerpt: "| fifo | 1302 | 1282 | 1265 | 1249 |", about: "finish times" };
const loops = { id: "s004-loops", value: 9, seed: "004", line: 3, excerpt: "różnica 9 obrotów (max 766)", about: "loop count spread" };

test("seed figures render as the chapters print them, and seeds.md has one anchor each", () => {
  assert.equal(render(fifo), "1302, 1282, 1265, 1249 ms");
  assert.equal(render({ value: 5, unit: "×" }), "5×");
  assert.equal(render({ value: 5, unit: "ticks", format: "MAX_TIME_SLICE={}" }), "MAX_TIME_SLICE=5");
  assert.equal(seedsMarkdown(seedSpec([fifo])), "ANCHOR: s001-fifo\n1302, 1282, 1265, 1249 ms\nANCHOR_END: s001-fifo\n");
});

test("a seed figure must be on its source line, and a derived one must add up", () => {
  assert.ok(hasNumber("0:22.30 bash", "22.30") && hasNumber("rzędu 0,3sekundy", 0.3) && hasNumber("10ms 一个", 10));
  assert.ok(!hasNumber("| 2023 |", 20) && !hasNumber("0:22.30", 2.3) && !hasNumber("1302", 130));
  const wrong = { ...fifo, excerpt: "| fifo | 1302 | 1282 | 1256 | 1249 |" };
  assert.deepEqual(checkValues(seedSpec([wrong])), [`s001-fifo: 1265 is not on seed 001 line 79: "| fifo | 1302 | 1282 | 1256 | 1249 |"`]);
  const sum = { id: "sum", value: 5099, unit: "ms", calc: "sum({s001-fifo}) - 1" , about: "x" };
  assert.match(checkValues(seedSpec([fifo, sum]))[0], /gives 5097, not 5099/);
  const dir = tempTree({ "001.txt": "a\n".repeat(78) + "| fifo | 1302 | 1282 | 1265 | 1249 |\n" });
  assert.deepEqual(checkSources(seedSpec([fifo]), dir), []);
  assert.match(checkSources(seedSpec([{ ...fifo, line: 78 }]), dir)[0], /line 78 is "a"/);
});

test("seeds.json rejects what a chapter could not include or check", () => {
  const bad = (f, re) => assert.throws(() => seedSpec([f]), re);
  bad({ ...fifo, id: "s001.fifo" }, /must match/);
  bad({ ...fifo, line: [79, 80] }, /excerpt is the text of its line/);
  bad({ ...fifo, seed: "009" }, /seed "009" is not in/);
  bad({ ...fifo, about: "" }, /about/);
  bad({ ...fifo, value: [] }, /value is a number/);
  bad({ id: "x", value: 1, calc: "{nope}", about: "x" }, /calc names "nope"/);
  assert.throws(() => seedSpec([fifo, fifo]), /used twice/);
});

test("a seed figure typed by hand is found, in a chapter or a translation; an included one is not", () => {
  const spec = seedSpec([fifo, loops, { ...fifo, id: "s001-shared", value: 0.1, unit: "ms", excerpt: "0.1ms", shared: true }]);
  const chapter = chapterParagraphs("03.md", [
    "The seed saw 1302, 1282, 1265, 1249 ms under FIFO.", "",
    "The seed saw {{#include ../generated/seeds.md:s001-fifo}} under FIFO.", "",
    "Our tasks finish at 1302, 1282, 1265, 1249 ms too, and a warp of 0.1 ms.", "",
    "The seed's loops differed by 9 ({{#include ../generated/seeds.md:s004-x}}); ours by 9.", "",
    "Seed `001` ran 9 units of 9 ms.",
  ].join("\n"));
  const po = poParagraphs("zh-CN.po", '#: book/src/chapters/03-fifo-rr.md\nmsgid "x"\nmsgstr ""\n"种子材料测得 1302、1282、"\n"1265、1249 ms"\n\n' +
    '#: book/src/platform.md\nmsgid "y"\nmsgstr "1302、1282"\n\n#~ msgstr "1302, 1282, 1265, 1249 ms"\n');
  assert.deepEqual(handWritten(spec, [...chapter, ...po]), [
    '03.md:1: "1302, 1282, 1265, 1249 ms" is seed figure s001-fifo; include it with {{#include ../generated/seeds.md:s001-fifo}}',
    '03.md:5: "1302, 1282, 1265, 1249 ms" is seed figure s001-fifo; include it with {{#include ../generated/seeds.md:s001-fifo}}',
    'zh-CN.po:3: "1302, 1282, 1265, 1249 ms" is seed figure s001-fifo; include it with {{#include ../generated/seeds.md:s001-fifo}}',
  ]);
  // A figure at the start of a range whose end carries the unit is found too; a small one is not.
  const time = { id: "s004-min", value: 22.22, unit: "s", seed: "004", line: 1, excerpt: "0:22.22 bash", about: "CPU time" };
  assert.deepEqual(handWritten(seedSpec([time]), chapterParagraphs("06.md", "Loops ran 22.22 to 23.07 s.\n\nUnits of 5 to 20 ms.")),
    ['06.md:1: "22.22 s" is seed figure s004-min; include it with {{#include ../generated/seeds.md:s004-min}}']);
  // A bare small number counts only where the paragraph quotes the same seed.
  const loopsQuoted = chapterParagraphs("06.md", "Seed `004` counted loops that differed by 9.\n\nThe seed's 9 units.");
  assert.deepEqual(handWritten(spec, loopsQuoted), ['06.md:1: "9" is seed figure s004-loops; include it with {{#include ../generated/seeds.md:s004-loops}}']);
});

test("the trace gives each task's first queue, its moves by reason, and each hart's switching time", () => {
  const run = {
    smp: 3,
    tasks: [task(1, "spin0", 1e9, 5e8, 50), task(2, "spin1", 1e9, 9e8, 90), task(3, "spin2", 1e9, 9e8, 88), task(4, "spin3", 1e9, 6e8, 60)],
  };
  const trace = [
    "T 100 0 new 1 name=spin0 class=fair rq=0 vr=5 min=5",
    "T 110 0 new 2 name=spin1 class=fair rq=1 vr=5 min=5",
    "T 120 0 new 3 name=spin2 class=fair rq=2 vr=5 min=5",
    "T 130 0 new 4 name=spin3 class=fair rq=0 vr=5 min=5",
    "T 200 0 in 1 vr=5 min=5",
    "T 1200 0 out 1 why=preempt ran=1000",
    "T 1250 0 in 4 vr=5 min=5",
    "T 2000 1 migrate 4 from=0 to=1 why=periodic vr=9 min=9",
    "T 2100 2 migrate 4 from=1 to=2 why=newidle vr=9 min=9",
    "T 2500 0 out 4 why=sleep ran=1250",
    "T 3000 0 wake 4 rq=0 vr=20 min=30",
    "T 3100 1 wake 2 rq=1 vr=40 min=30",
    "T 3200 0 mark 4 iter=1",
    "",
  ].join("\n");
  const v = traceValues(trace, run);
  assert.equal(v.rq_at_start, "2 / 1 / 1");
  assert.equal(v.migrations, "2");
  assert.equal(v.migrations_periodic, "1");
  assert.equal(v.migrations_newidle, "1");
  assert.equal(v.migrations_active, "0");
  assert.equal(v.spin3_migrations, "2");
  assert.equal(v.spin0_migrations, "0");
  assert.equal(v.spin3_rq, "0");
  assert.equal(v.hart0_ran_ms, (2250 / 1e6).toFixed(1));
  assert.equal(v.hart0_between_ms, (50 / 1e6).toFixed(1));
  assert.equal(v.between_total_ms, (50 / 1e6).toFixed(1));
  assert.equal(v.wakes, "2");
  assert.equal(v.wakes_behind_min, "1");
  // Below min_vruntime by 3 and 5 µs of virtual time: 4 on average; none: 0.
  const behind = traceValues(["T 1 0 wake 1 vr=7000 min=10000", "T 2 0 wake 1 vr=5000 min=10000", "T 3 0 wake 1 vr=20000 min=10000"].join("\n"), run);
  assert.deepEqual([behind.wakes, behind.wakes_behind_min, behind.wakes_behind_avg_us], ["3", "2", "4.0"]);
  assert.equal(traceValues("T 1 0 wake 1 vr=7 min=5", run).wakes_behind_avg_us, "0.0");
  assert.equal(v.spin3_wakes_hart0, "1");
  assert.equal(v.spin3_wakes_hart1, "0");
  assert.equal(v.spin0_first_hart, "0");
  assert.equal(v.balance_passes, "2");
  assert.equal(v.balance_max_moved, "1");
  // By first queue: spin0 and spin3 started on hart 0.
  assert.equal(v.rq0_cpu_min_ms, "500.0");
  assert.equal(v.rq0_cpu_max_ms, "600.0");
  assert.equal(v.rq0_iter_max, "60");
  assert.equal(v.rq1_iter_min, "90");
  const batch = ["T 5 0 migrate 2 from=1 to=0 why=periodic", "T 5 0 migrate 3 from=1 to=0 why=periodic", "T 9 0 migrate 4 from=1 to=0 why=periodic"];
  const b = traceValues(batch.join("\n"), run);
  assert.deepEqual([b.balance_passes, b.balance_max_moved, b.migrations_periodic], ["2", "2", "3"]);
  assert.throws(() => traceValues("T 1 0 migrate 1 from=0 to=1 why=sideways", run), /why=sideways/);
  // One shared queue: no rq= anywhere.
  assert.equal(traceValues("T 1 0 new 1 name=spin0 class=fair vr=1 min=1", run).rq_at_start, "n/a");
});

test("the trace gives each cgroup's CPU share and sleeps, each task's longest wait and how its stints ended", () => {
  const run = { smp: 1, tasks: [task(1, "recv0", 1e9, 1e8, 1), task(2, "send0", 1e9, 2e8, 1), task(3, "hog0", 1e9, 7e8, 1)] };
  const trace = [
    "T 100000 0 new 1 name=recv0 class=fair cg=1",
    "T 110000 0 new 2 name=send0 class=fair cg=1",
    "T 120000 0 new 3 name=hog0 class=fair",
    "T 200000 0 in 2 cg=1",
    "T 300000 0 out 2 why=block ran=100000",
    "T 300000 0 in 1 cg=1",
    "T 400000 0 wake 2 cg=1",
    "T 500000 0 out 1 why=block ran=200000",
    "T 500000 0 in 2 cg=1",
    "T 600000 0 out 2 why=preempt ran=100000",
    "T 600000 0 throttle 0 cg=1 rq=0",
    "T 700000 0 in 3",
    "T 2600000 0 out 3 why=preempt ran=1900000",
    "T 2700000 0 in 2 cg=1",
    "T 2800000 0 out 2 why=sleep ran=100000",
    "",
  ].join("\n");
  const v = traceValues(trace, run);
  assert.deepEqual([v.cg1_cpu_pct, v.cg0_cpu_pct], ["30.0", "70.0"]);
  // Group 1 slept once: when send0 slept at 2.8 ms with recv0 blocked since 0.5 ms, not at 0.3 ms (recv0 was runnable).
  assert.deepEqual([v.cg1_sleeps, v.cg0_sleeps, v.throttles], ["1", "0", "1"]);
  // send0 waited from its preemption at 0.6 ms to 2.7 ms; recv0 from its creation at 0.1 ms to 0.3 ms.
  assert.deepEqual([v.send0_wait_max_ms, v.recv0_wait_max_ms], ["2.1", "0.2"]);
  assert.deepEqual([v.send0_out_block, v.send0_out_preempt, v.send0_out_sleep, v.hog0_out_preempt], ["1", "1", "1", "1"]);
  // Stints by `ran=`: send0 ran 0.1, 0.1 and 0.1 ms, hog0 once for 1.9 ms; nobody exited.
  assert.deepEqual([v.send0_ran_first_ms, v.send0_ran_max_ms, v.recv0_ran_first_ms, v.hog0_ran_max_ms], ["0.1", "0.1", "0.2", "1.9"]);
  assert.deepEqual([v.send0_out_exit, v.hog0_out_exit], ["0", "0"]);
  const job = traceValues(["T 0 0 in 1", "T 5000000 0 out 1 why=preempt ran=5000000", "T 6000000 0 in 1", "T 26000000 0 out 1 why=exit ran=20000000"].join("\n"),
    { smp: 1, tasks: [task(1, "job0", 26e6, 25e6, 1)] });
  assert.deepEqual([job.job0_ran_first_ms, job.job0_ran_max_ms, job.job0_out_exit, job.job0_out_preempt], ["5.0", "20.0", "1", "1"]);
  // Without cgroup= no group figures, but the waits are still there.
  const flat = traceValues(trace.replaceAll(" cg=1", ""), run);
  assert.equal(flat.cg0_cpu_pct, undefined);
  assert.equal(flat.send0_out_block, "1");
});

test("a run pending a setting the kernel lacks shows as pending in tables and in the figures quoted", () => {
  const t = compareTable({ id: "t", metric: "iterations", corner: "cache", rows: [["off", "one"], ["on", "two"]] },
    new Map([["one", result], ["two", PENDING]]));
  assert.deepEqual(t.split("\n").slice(2), ["| off | 40 | 10 | 8 |", "| on | (pending) | (pending) | (pending) |"]);
  const all = compareTable({ id: "t", metric: "latency", rows: [["on", "two"]] }, new Map([["two", PENDING]]));
  assert.match(all, /\| on \| \(pending\) \| \(pending\)/);
  assert.deepEqual(pendingValues(["iters", "spin0_cpu_ms"], "cache.kb"), {
    iters: "(pending: needs `cache.kb=`)",
    spin0_cpu_ms: "(pending: needs `cache.kb=`)",
  });
  const dir = tempTree({ "ch/a.md": "x {{#include ../generated/run.md:iters}} {{#include ../generated/run.md:time_ms}} {{#include ../generated/other.md:x}}" });
  assert.deepEqual([...includedAnchors(path.join(dir, "ch")).get("run.md")].sort(), ["iters", "time_ms"]);
});

test("the spec checks the keys for traces, long runs, the machine's turn and pending settings", () => {
  const spec = (extra) => JSON.stringify({ experiments: [{ id: "a", args: "sched=cfs", ...extra }], tables: [] });
  const e = parseSpec(spec({ trace: true, max_insns: 20e9, quantum: 100, needs: "cache.kb" })).experiments[0];
  assert.deepEqual([e.trace, e.max_insns, e.quantum, e.needs], [true, 20e9, 100, "cache.kb"]);
  assert.throws(() => parseSpec(spec({ trace: 1 })), /trace is true or absent/);
  assert.throws(() => parseSpec(spec({ max_insns: -5 })), /max_insns must be a positive/);
  assert.throws(() => parseSpec(spec({ quantum: 1.5 })), /quantum must be a positive/);
  assert.throws(() => parseSpec(spec({ needs: "a b" })), /needs names one setting/);
});

test("EEVDF's delayed tasks: how many blocked while still queued, and how many a wakeup moved to another hart", () => {
  const run = { smp: 2, tasks: [task(1, "intr0", 1e9, 1e8, 1), task(2, "intr1", 1e9, 1e8, 1)] };
  const trace = [
    "T 100 0 out 1 why=sleep ran=100",
    "T 100 0 state 1 delayed=1",
    "T 200 1 migrate 1 from=0 to=1 why=placement",
    "T 200 1 wake 1 rq=1",
    "T 300 1 out 2 why=sleep ran=100",
    "T 300 1 state 2 delayed=1",
    "T 350 1 state 2 delayed=0",
    "T 400 0 migrate 2 from=1 to=0 why=placement",
    "T 400 0 wake 2 rq=0",
    "T 500 0 migrate 1 from=1 to=0 why=placement",
    "T 500 0 wake 1 rq=0",
  ].join("\n");
  const v = traceValues(trace, run);
  // intr0 was delayed when its wakeup moved it; intr1 had left the queue before (delayed=0), and
  // intr0's second wakeup followed an ordinary sleep.
  assert.deepEqual([v.delayed_sleeps, v.delayed_wake_moves, v.migrations_placement], ["2", "1", "3"]);
});

test("a task's most CPU time in any window: stints summed wholly or in part, however the window falls", () => {
  const run = { tasks: [{ tid: 1, name: "job0" }, { tid: 2, name: "job1" }] };
  const ms = 1_000_000;
  const stints = (tid, list) => list.flatMap(([a, b]) => [`T ${a * ms} 0 in ${tid}`, `T ${b * ms} 0 out ${tid} why=sleep`]);
  const trace = [
    ...stints(1, [[0, 2], [3, 5], [11, 12], [20, 45], [46, 47]]),
    ...stints(2, [[0, 1], [9, 10], [10.5, 11.5]]),
    "T 50000000 0 in 2",
  ].join("\n");
  const v = windowValues(trace, run, 10 * ms);
  // job0: [0, 2] and [3, 5] fit in one window, and the 25 ms stint fills a whole one; job1's
  // best window starts at 9 ms; a stint with no `out` (job1's last) counts nothing.
  assert.deepEqual([v.job0_cpu_window_max_ms, v.job1_cpu_window_max_ms], ["10.00", "2.00"]);
  assert.equal(windowValues(trace, run, 3 * ms).job0_cpu_window_max_ms, "3.00");
  const traced = traceValues(trace, { ...run, smp: 1, tasks: run.tasks.map((t) => ({ ...t, cpu_ns: 0, iterations: 0 })) }, { window_us: 10000 });
  assert.equal(traced.job0_cpu_window_max_ms, "10.00");
  assert.equal(traceValues(trace, { smp: 1, tasks: [{ tid: 1, name: "job0", cpu_ns: 0, iterations: 0 }] }).job0_cpu_window_max_ms, undefined);
});

test("the spec takes a window only with the trace it is measured on", () => {
  const spec = (extra) => JSON.stringify({ experiments: [{ id: "a", args: "sched=cfs", ...extra }], tables: [] });
  assert.equal(parseSpec(spec({ trace: true, window_us: 10000 })).experiments[0].window_us, 10000);
  assert.throws(() => parseSpec(spec({ window_us: 10000 })), /window_us needs trace/);
  assert.throws(() => parseSpec(spec({ trace: true, window_us: 0 })), /window_us must be a positive/);
});

test("the catalog's figures count each policy's sched_features", async () => {
  const { normalizeCatalog } = await import("../widget/catalog.js");
  const features = (name, values) => ({ name, type: "features", default: values.join(","), values, unit: "", help: "" });
  const catalog = normalizeCatalog({
    defaults: { sched: "cfs", workload: "spin" },
    globals: [{ name: "smp", type: "int", default: 1, min: 1, max: 4, unit: "", help: "" }],
    schedulers: [{ name: "cfs", tunables: [features("cfs.features", ["START_DEBIT", "FAIR_SLEEPERS"])] }, { name: "eevdf", tunables: [features("eevdf.features", ["PLACE_LAG"])] }],
    workloads: [{ name: "spin", tunables: [] }],
  }, "en");
  assert.deepEqual(catalogValues(catalog), { cfs_features_count: "2", eevdf_features_count: "1" });
});
