// `make bench-web`: the speed figures of docs/web.md, measured in headless Chromium.
//  1. MIPS of the wasm emulator in the widget's Worker on the bench guest (runqueue/bench.elf,
//     when the build copied it; otherwise a kernel run), with the compiled tier on and off,
//     next to the native CLI on the same ELF, best of three each;
//  2. the seed-scale replay (web/replay.mjs: seed 004's 60 s `intr` run on two harts) in the
//     same Worker (tier on and off) and natively on the same arguments: wall seconds,
//     instructions, MIPS, best of REPLAY_ROUNDS (default 2) each;
//  3. time from pressing Run to the first kernel output in the demo chapter;
//  4. the gzipped size of the page's wasm;
//  5. for each Linux the site serves: time from pressing Run to Linux's first output in the demo
//     chapter's widget (fetching and unpacking the image included), and the same experiment
//     (`workload=fairness-unequal smp=2`) in the Worker on Linux and on the book's kernel.
// Native and page runs alternate, so all see the same load on a shared machine. Prints a
// table and writes it as JSON to web-bench.json in cargo's target folder.

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { SITE, start } from "./browser.mjs";
import { workerRun } from "./pages.mjs";
import { replay } from "./replay.mjs";
import { runqueueCli, targetDir } from "../scripts/target-dir.mjs";

const RUNQUEUE = runqueueCli();
const KERNEL_ARGS = "sched=cfs workload=fairness-unequal smp=1";
const LINUX_EXPERIMENT = "workload=fairness-unequal smp=2";
const ROUNDS = 3;
const REPLAY_ROUNDS = Number(process.env.REPLAY_ROUNDS ?? 2);
if (!(Number.isInteger(REPLAY_ROUNDS) && REPLAY_ROUNDS >= 0)) throw new Error(`REPLAY_ROUNDS=${process.env.REPLAY_ROUNDS}: a whole number, 0 to skip the replay`);

const useBench = existsSync(join(SITE, "runqueue/bench.elf"));
const elf = useBench ? "bench.elf" : "kernel.elf";
const args = useBench ? "" : KERNEL_ARGS;

/** Wall seconds of one native run (process start-up included, ~1 ms). */
function nativeSeconds(argv) {
  const t0 = process.hrtime.bigint();
  execFileSync(RUNQUEUE, ["run", ...argv], { stdio: "ignore" });
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

/** Best of `rounds` alternating native and page runs: the page's fastest run with the compiled
 * tier on (`page`) and off (`interpreted`), and the native best seconds. */
async function paired(page, site, rounds, run, argv) {
  const fastest = (a, b) => (!a || b.seconds < a.seconds ? b : a);
  let best = null;
  let interpreted = null;
  let native = Infinity;
  for (let i = 0; i < rounds; i++) {
    native = Math.min(native, nativeSeconds(argv));
    best = fastest(best, await workerRun(page, site, run));
    interpreted = fastest(interpreted, await workerRun(page, site, { ...run, tier: "off" }));
  }
  if (best.instret !== interpreted.instret) throw new Error(`the tiers ran ${best.instret} and ${interpreted.instret} instructions`);
  return { page: best, interpreted, nativeSeconds: native };
}

const fixed = (x, digits = 1) => Number(x.toFixed(digits));

if (!existsSync(join(SITE, "experiments.html"))) {
  throw new Error("experiments.html is not in the built book: list experiments.md in book/src/SUMMARY.md");
}
const site = await start();
try {
  const page = await site.context.newPage();
  const bench = await paired(page, site, ROUNDS, { elf, args }, [join(SITE, "runqueue", elf), "--append", args, "--max-insns", "20000000000"]);
  const nativeMips = bench.page.instret / bench.nativeSeconds / 1e6;

  let replayRow = {};
  if (REPLAY_ROUNDS > 0) {
    const r = replay();
    const { page: p, interpreted: q, nativeSeconds: s } = await paired(page, site, REPLAY_ROUNDS, { args: r.args, max: r.maxInsns },
      ["--append", r.args, "--max-insns", String(r.maxInsns)]);
    replayRow = {
      replay_args: r.args,
      replay_instructions: p.instret,
      replay_page_seconds: fixed(p.seconds, 2),
      replay_interpreted_seconds: fixed(q.seconds, 2),
      replay_native_seconds: fixed(s, 2),
      replay_page_mips: fixed(p.mips),
      replay_interpreted_mips: fixed(q.mips),
      replay_compiled_regions: p.compiledRegions,
      replay_native_mips: fixed(p.instret / s / 1e6),
    };
  }

  await page.goto(`${site.base}experiments.html`);
  await page.waitForFunction(() => globalThis.runqueue?.ready);
  await page.locator(".rq-widget").nth(1).getByRole("button", { name: "Run", exact: true }).click();
  await page.waitForFunction(() => runqueue.experiments[1].panes[0].firstOutputMs !== null, null, { timeout: 30_000 });
  const firstOutputMs = await page.evaluate(() => runqueue.experiments[1].panes[0].firstOutputMs);

  const linuxRows = {};
  const kernels = JSON.parse(readFileSync(join(SITE, "runqueue/linux/kernels.json"), "utf8")).kernels;
  for (const { name } of kernels) {
    const fresh = await site.context.newPage();
    await fresh.goto(`${site.base}experiments.html?e2.kernel=${name}`);
    await fresh.waitForFunction(() => globalThis.runqueue?.ready);
    await fresh.locator(".rq-widget").nth(1).getByRole("button", { name: "Run", exact: true }).click();
    await fresh.waitForFunction(() => runqueue.experiments[1].panes[0].firstOutputMs !== null, null, { timeout: 60_000 });
    linuxRows[`${name}_first_output_ms`] = Math.round(await fresh.evaluate(() => runqueue.experiments[1].panes[0].firstOutputMs));
    await fresh.close();
    // The policy the book compares with each: CFS with 6.1, EEVDF with 6.12.
    const sched = name === "linux-6.1" ? "cfs" : "eevdf";
    // Whole runs: the Worker's building of the machine (a snapshot's resumption) included.
    const whole = (r) => r.seconds + r.bootSeconds;
    const ours = await workerRun(page, site, { args: `sched=${sched} ${LINUX_EXPERIMENT}` });
    const theirs = await workerRun(page, site, { kernel: name, args: LINUX_EXPERIMENT });
    const resumed = await workerRun(page, site, { kernel: name, args: LINUX_EXPERIMENT, snapshot: true });
    if (!resumed.resumed) throw new Error(`${name}: the second run did not start from the snapshot`);
    linuxRows[`${name}_boot_to_init_s`] = fixed(theirs.bootToInitSeconds, 2);
    linuxRows[`${name}_experiment_s`] = fixed(whole(theirs), 2);
    linuxRows[`${name}_from_snapshot_s`] = fixed(whole(resumed), 2);
    linuxRows[`${name}_book_kernel_s`] = fixed(whole(ours), 2);
    linuxRows[`${name}_over_book_kernel`] = fixed(whole(theirs) / whole(ours), 1);
    linuxRows[`${name}_snapshot_over_book_kernel`] = fixed(whole(resumed) / whole(ours), 1);
  }

  const wasm = readFileSync(join(SITE, "runqueue/pkg/runqueue_wasm_bg.wasm"));
  const report = {
    workload: useBench ? "bench guest (runqueue bench)" : `kernel: ${KERNEL_ARGS}`,
    instructions: bench.page.instret,
    wasm_mips: fixed(bench.page.mips),
    wasm_interpreted_mips: fixed(bench.interpreted.mips),
    compiled_regions: bench.page.compiledRegions,
    native_mips: fixed(nativeMips),
    wasm_over_native: fixed(bench.page.mips / nativeMips, 2),
    ...replayRow,
    first_output_ms: Math.round(firstOutputMs),
    wasm_bytes: wasm.length,
    wasm_gzip_bytes: gzipSync(wasm, { level: 9 }).length,
    ...linuxRows,
  };
  for (const [k, v] of Object.entries(report)) console.log(`${k.padEnd(22)} ${v}`);
  writeFileSync(join(targetDir(), "web-bench.json"), `${JSON.stringify(report, null, 2)}\n`);
} finally {
  await site.stop();
}
