// check-linux-table.mjs on a page of one row: the row as the suite measured it passes; a figure
// that moved, a wrong verdict and a row the check does not know are each named.
import assert from "node:assert/strict";
import test from "node:test";
import { check } from "./check-linux-table.mjs";

// One row of the book and the suite's two figures behind it.
const book = (linux, agrees) => `## Compared with Linux {#compared-with-linux}

| experiment | figure | ours | Linux | agrees |
| --- | --- | --- | --- | --- |
| nice 0 and nice 5, 1 hart | nice 0's CPU share (%) | 75.3 / 75.3 | ${linux} | ${agrees} |

Text after the table | with a bar.
`;
const suite = `| nice 0 vs 5, 1 hart, sched=cfs vs 6.1 | spin0 CPU share | 75.31 | 75.38 | ±2 points | yes |
| nice 0 vs 5, 1 hart, sched=eevdf eevdf.version=6.12 vs 6.12 | spin0 CPU share | 75.29 | 75.32 | ±2 points | **no** |
`;

// The other rows the check knows are missing from this page; only the row's own problems count.
test("the row as the suite measured it passes", () => {
  const problems = check(suite, book("75.4 / 75.3", "only CFS"));
  assert.ok(problems.length > 0 && problems.every((p) => p.startsWith("the book has no row")), problems.join("\n"));
});

test("a figure that moved, a wrong verdict and an unknown row fail", () => {
  const problems = check(suite, book("75.5 / 75.3", "yes"));
  assert.ok(problems.some((p) => p.includes("prints Linux 75.5 / 75.3, the suite measured 75.38 / 75.32")), problems.join("\n"));
  assert.ok(problems.some((p) => p.includes('the book says "yes", the suite "only CFS"')), problems.join("\n"));
  const extra = book("75.4 / 75.3", "only CFS").replace("\n\nText", "\n| a new row | a figure | 1 / 1 | 1 / 1 | yes |\n\nText");
  assert.ok(check(suite, extra).some((p) => p.includes('the book\'s row "a new row|a figure" is not one this check knows')));
});

test("a figure over several seeds is read as their median", () => {
  const seeded = suite.replace("| 75.38 |", "| 75.38 (74.90 to 76.02, 5 seeds) |");
  const problems = check(seeded, book("75.4 / 75.3", "only CFS"));
  assert.ok(problems.every((p) => p.startsWith("the book has no row")), problems.join("\n"));
  assert.ok(check(seeded, book("74.9 / 75.3", "only CFS")).some((p) => p.includes("the suite measured 75.38 / 75.32")));
});
