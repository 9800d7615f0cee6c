// The book's table of the Linux comparisons (book/src/linux.md, "Compared with Linux") against
// the table `make test-fidelity` just wrote: every figure the book prints must be the suite's,
// rounded as the book rounds it, and each row's "agrees" must say which pairs agree. A book row
// the suite has no figure for, or a figure that moved, fails with both values.
//
//   node scripts/check-linux-table.mjs FIDELITY_TABLE BOOK_PAGE

import fs from "node:fs";

// Each experiment of the book's table, the suite's case it is, and for each of its figures the
// suite's name; `variant` is what the suite's case adds after the Linux version (Linux's own
// words, such as a feature).
const DEADLINE = "constrained SCHED_DEADLINE task (2 ms per 10 ms, D 2 ms), 1 hart";
const EXPERIMENTS = [
  ["nice 0 and nice 5, 1 hart", "nice 0 vs 5, 1 hart", { "nice 0's CPU share (%)": "spin0 CPU share" }],
  ["a sleeper of 8 ms beside a hog", "8 ms sleeper beside a hog, 1 hart", { "the sleeper's CPU share (%)": "sleeper's CPU share" }],
  ["fair cyclictest beside a hog", "fair cyclictest beside a hog, 1 hart", {
    "median latency above the fastest (µs)": "latency median above the floor",
    "99th percentile above the fastest (µs)": "latency p99 above the floor",
  }],
  ["seed 004's `intr`, 2 harts", "seed 004 intr, 2 harts", { "loops, all tasks": "loops, all tasks", "CPU time spread (%)": "CPU time spread" }],
  ["hackbench beside a hog", "hackbench beside a hog, 1 hart", { "hackbench's time (ms)": "hackbench time" }],
  ["SCHED_FIFO cyclictest beside 8 fair tasks", "cyclictest SCHED_FIFO beside 8 fair tasks, 1 hart", {
    "fastest latency (µs)": "latency floor (min)",
    "median latency above the fastest (µs)": "latency median above the floor",
  }],
  ["a FIFO hog and a fair task", "a FIFO hog and a fair task, 1 hart", { "the fair task's CPU in 3 s (ms)": "fair task's CPU", "the fair task's first run (ms)": "fair task's first run" }],
  ["constrained SCHED_DEADLINE task", DEADLINE, { "most CPU in a period (ms)": "most CPU in a period", "periods over 3.05 ms": "periods over the reservation and a tick (3.05 ms)" }],
  ["the same, Linux with `HRTICK_DL` on", DEADLINE, { "mean CPU per period (ms)": "mean CPU per period" }, "features=HRTICK_DL"],
  ["cpu.weight 100:300", "cpu.weight 100:300, 1 hart", { "the heavier group's share (%)": "group b's CPU share" }],
  ["three loops in one group, one in another, 100:300", "three in a, one in b, cpu.weight 100:300, 1 hart", { "a loop of the first group's switches": "spin0's switches" }],
  ["cpu.max 20 ms per 100 ms", "cpu.max 20 ms per 100 ms, 1 hart", { "time throttled in 500 ms (ms)": "time throttled" }],
  ["four tasks on three harts", "four tasks on three harts, balancing", { "last finish (ms)": "last finish", migrations: "migrations" }],
  ["four tasks on three harts, no balancing (Linux pinned)", "four tasks on three harts, no balancing", { "last finish (ms)": "last finish" }, "affinity=1,2,4,1"],
  ["a pinned and an isolated task", "a task pinned to hart 0 and one to isolated hart 2", {
    "the isolated task's finish (ms)": "task4 finish",
    "the pinned task's finish (ms)": "task0 finish",
  }],
];
// One entry a book row: [experiment, figure, suite's case, suite's figure, variant].
const ROWS = EXPERIMENTS.flatMap(([experiment, caseName, figures, variant = ""]) =>
  Object.entries(figures).map(([figure, suiteFigure]) => [experiment, figure, caseName, suiteFigure, variant]),
);

const cells = (line) => line.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());

// The suite's figures by "case|figure|pair|variant": ours, Linux, and whether they agree.
function suiteFigures(text) {
  const figures = new Map();
  for (const line of text.split("\n").filter((l) => l.startsWith("| "))) {
    const [caseName, figure, ours, linux, , verdict] = cells(line);
    const m = /^(.*), sched=.* vs (6\.12|6\.1)(?: (.*))?$/.exec(caseName);
    if (!m) throw new Error(`a row of the suite's table names no pair: ${line}`);
    const variant = (m[3] ?? "").replace(/^(cfs|eevdf)\./, "");
    // Linux's figure over several seeds is their median, then their range: "2595.60 (2552.07 to 2710.62, 5 seeds)".
    const over = /^(\S+) \(.* seeds\)$/.exec(linux);
    figures.set(`${m[1]}|${figure}|${m[2]}|${variant}`, { ours: Number(ours), linux: Number(over ? over[1] : linux), agrees: verdict === "yes" });
  }
  return figures;
}

// The book's rows of the first table under "Compared with Linux", by "experiment|figure".
function bookRows(text) {
  const at = text.indexOf("## Compared with Linux");
  if (at < 0) throw new Error('the book page has no section "Compared with Linux"');
  const rows = new Map();
  let inTable = false;
  for (const line of text.slice(at).split("\n")) {
    if (!line.startsWith("|")) {
      if (inTable) break;
      continue;
    }
    inTable = true;
    if (line.startsWith("| ---") || line.startsWith("| experiment")) continue;
    const [experiment, figure, ours, linux, agrees] = cells(line);
    rows.set(`${experiment}|${figure}`, { ours, linux, agrees });
  }
  return rows;
}

// Whether `printed` ("75.3") is `value` rounded to as many decimals as it shows.
function printedAs(printed, value) {
  const decimals = (printed.split(".")[1] ?? "").length;
  return Number.isFinite(value) && value.toFixed(decimals) === printed;
}

export function check(suiteText, bookText) {
  const figures = suiteFigures(suiteText);
  const rows = bookRows(bookText);
  const problems = [];
  for (const key of rows.keys()) {
    if (!ROWS.some(([e, f]) => `${e}|${f}` === key)) problems.push(`the book's row "${key}" is not one this check knows: add it to EXPERIMENTS`);
  }
  for (const [experiment, figure, caseName, suiteFigure, variant] of ROWS) {
    const row = rows.get(`${experiment}|${figure}`);
    if (!row) {
      problems.push(`the book has no row "${experiment} | ${figure}"`);
      continue;
    }
    const pairs = ["6.1", "6.12"].map((v) => figures.get(`${caseName}|${suiteFigure}|${v}|${variant}`));
    if (pairs.some((p) => !p)) {
      problems.push(`the suite's table has no figure "${suiteFigure}" of "${caseName}" for both versions`);
      continue;
    }
    for (const side of ["ours", "linux"]) {
      const printed = row[side].split(" / ");
      if (printed.length !== 2 || !printed.every((p, i) => printedAs(p, pairs[i][side]))) {
        problems.push(`"${experiment} | ${figure}": the book prints ${side === "ours" ? "ours" : "Linux"} ${row[side]}, the suite measured ${pairs.map((p) => p[side]).join(" / ")}`);
      }
    }
    const [cfs, eevdf] = pairs.map((p) => p.agrees);
    const agrees = cfs && eevdf ? "yes" : cfs ? "only CFS" : eevdf ? "only EEVDF" : "no";
    if (row.agrees !== agrees) problems.push(`"${experiment} | ${figure}": the book says "${row.agrees}", the suite "${agrees}"`);
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [suitePath, bookPath] = process.argv.slice(2);
  if (!suitePath || !bookPath) {
    console.error("usage: node scripts/check-linux-table.mjs FIDELITY_TABLE BOOK_PAGE");
    process.exit(2);
  }
  const problems = check(fs.readFileSync(suitePath, "utf8"), fs.readFileSync(bookPath, "utf8"));
  if (problems.length) {
    console.error(`check-linux-table: ${bookPath}'s table is not what the fidelity suite measured:\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
  console.log(`ok   check-linux-table: every figure of ${bookPath}'s table is the fidelity suite's (${ROWS.length} rows)`);
}
