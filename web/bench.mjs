// `make bench-web`: the three speed figures of docs/web.md, measured in headless Chromium.
//  1. MIPS of the wasm emulator in the widget's Worker on the bench guest (runqueue/bench.elf,
//     when the build copied it; otherwise a kernel run), next to the native CLI on the same
//     ELF, best of three each;
//  2. time from pressing Run to the first kernel output in the demo chapter;
//  3. the gzipped size of the page's wasm.
// Prints a table and writes it as JSON to web-bench.json in cargo's target folder.

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { SITE, start } from "./browser.mjs";
import { runqueueCli, targetDir } from "../scripts/target-dir.mjs";

const RUNQUEUE = runqueueCli();
const KERNEL_ARGS = "sched=cfs workload=fairness-unequal smp=1";
const ROUNDS = 3;

const useBench = existsSync(join(SITE, "runqueue/bench.elf"));
const elf = useBench ? "bench.elf" : "kernel.elf";
const args = useBench ? "" : KERNEL_ARGS;

/** Wall seconds of one native run of the same ELF (process start-up included, ~1 ms). */
function nativeSeconds() {
  const t0 = process.hrtime.bigint();
  execFileSync(RUNQUEUE, ["run", join(SITE, "runqueue", elf), "--append", args, "--max-insns", "20000000000"], { stdio: "ignore" });
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

if (!existsSync(join(SITE, "experiments.html"))) {
  throw new Error("experiments.html is not in the built book: list experiments.md in book/src/SUMMARY.md");
}
const site = await start();
try {
  const page = await site.context.newPage();
  // Native and browser rounds alternate, so both see the same load on a shared machine.
  let best = null;
  let nativeBest = Infinity;
  for (let i = 0; i < ROUNDS; i++) {
    nativeBest = Math.min(nativeBest, nativeSeconds());
    await page.goto(`${site.base}runqueue/widget/bench.html?elf=${elf}&args=${encodeURIComponent(args)}`);
    await page.waitForFunction(() => globalThis.benchResult, null, { timeout: 600_000 });
    const r = await page.evaluate(() => globalThis.benchResult);
    if (r.error) throw new Error(`bench page: ${r.error}`);
    if (!best || r.mips > best.mips) best = r;
  }
  const nativeMips = best.instret / nativeBest / 1e6;

  await page.goto(`${site.base}experiments.html`);
  await page.waitForFunction(() => globalThis.runqueue?.ready);
  await page.locator(".rq-widget").nth(1).getByRole("button", { name: "Run", exact: true }).click();
  await page.waitForFunction(() => runqueue.experiments[1].panes[0].firstOutputMs !== null, null, { timeout: 30_000 });
  const firstOutputMs = await page.evaluate(() => runqueue.experiments[1].panes[0].firstOutputMs);

  const wasm = readFileSync(join(SITE, "runqueue/pkg/runqueue_wasm_bg.wasm"));
  const report = {
    workload: useBench ? "bench guest (runqueue bench)" : `kernel: ${KERNEL_ARGS}`,
    instructions: best.instret,
    wasm_mips: Number(best.mips.toFixed(1)),
    native_mips: Number(nativeMips.toFixed(1)),
    wasm_over_native: Number((best.mips / nativeMips).toFixed(2)),
    first_output_ms: Math.round(firstOutputMs),
    wasm_bytes: wasm.length,
    wasm_gzip_bytes: gzipSync(wasm, { level: 9 }).length,
  };
  for (const [k, v] of Object.entries(report)) console.log(`${k.padEnd(18)} ${v}`);
  writeFileSync(join(targetDir(), "web-bench.json"), `${JSON.stringify(report, null, 2)}\n`);
} finally {
  await site.stop();
}
