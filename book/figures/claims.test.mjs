// node --test book/figures/  (make test-figures runs the figures first: the last tests check the
// book's own claims on them)
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { GENERATED, bookPages, checkClaims, evaluate, figureNumbers, pageClaims, parseClaim, refsOf } from "./claims.mjs";
import { anchored } from "./metrics.mjs";
import { tempTree } from "./temp-tree.mjs";
import { tempDir } from "../../scripts/temp-dir.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const claim = (text, values = {}) => evaluate(parseClaim(text), (r) => values[r]);

test("a claim compares figures with arithmetic, chained comparisons, and/or/not and named checks", () => {
  const v = { "a.b:x": 3, "a.c:y": 2, "s:l": [1291, 1277, 1265, 1253], "t:iters": [40, 10, 8] };
  assert.equal(claim("a.b:x > a.c:y", v), true);
  assert.equal(claim("a.b:x < a.c:y", v), false);
  assert.equal(claim("1 < a.c:y < a.b:x <= 3", v), true);
  assert.equal(claim("1 < a.b:x < a.c:y", v), false);
  assert.equal(claim("a.b:x / a.c:y == 1.5 and not (a.b:x - a.c:y > 1)", v), true);
  assert.equal(claim("-a.b:x + 4 * (a.c:y) == 5", v), true);
  assert.equal(claim("decreasing(s:l) and at(s:l, 1) == max(s:l) and count(s:l) == 4", v), true);
  assert.equal(claim("increasing(s:l) or spread(t:iters) == 80", v), true);
  assert.equal(claim("near(100, 104, 5) and not near(100, 106, 5)"), true);
  assert.equal(claim("alike(s:l, 38) and not alike(s:l, 37)", v), true);
  assert.equal(claim("sum(t:iters) == 58 and mean(t:iters) > 19 and min(t:iters, 9) == 8", v), true);
  assert.equal(claim("same(t:iters, t:iters) and not same(t:iters, s:l) and same(a.b:x, 3)", v), true);
  assert.equal(claim("w:by == 'kworker/1' and starts(w:by, 'kworker') and not starts(w:by, 'irq')", { "w:by": "kworker/1" }), true);
  assert.throws(() => claim("w:by + 1 > 2", { "w:by": "kworker/1" }), /arithmetic takes numbers/);
  assert.deepEqual(refsOf(parseClaim("max(s:l) > a.b:x + a.b:x")), ["s:l", "a.b:x"]);
});

test("a claim that is no comparison, or misuses a list, is refused with the reason", () => {
  assert.throws(() => claim("1 + 2"), /must be a comparison/);
  assert.throws(() => claim("s:l > 3", { "s:l": [1, 2] }), /takes single numbers/);
  assert.throws(() => parseClaim("a:b >"), /ends too early/);
  assert.throws(() => parseClaim("a:b > 1 1"), /unexpected "1"/);
  assert.throws(() => parseClaim("frob(a:b) > 1"), /not a figure/);
  assert.throws(() => parseClaim("a:b > $"), /cannot read/);
  assert.throws(() => claim("at(s:l, 5) > 1", { "s:l": [1, 2] }), /has 2 numbers/);
});

test("figures read as numbers or lists, with their unit dropped; a pending one has no value", () => {
  assert.equal(figureNumbers("12.5"), 12.5);
  assert.equal(figureNumbers("-3"), -3);
  assert.deepEqual(figureNumbers("40 / 10 / 8"), [40, 10, 8]);
  assert.deepEqual(figureNumbers("1291, 1277, 1265 ms"), [1291, 1277, 1265]);
  assert.equal(figureNumbers("0.3 s"), 0.3);
  assert.equal(figureNumbers("5×"), 5);
  assert.equal(figureNumbers("`none`"), null);
  assert.equal(figureNumbers("(pending: needs `cache.kb=`)"), undefined);
});

test("a claim block sits beside its sentence and quotes it; a reworded sentence is caught", () => {
  const page = [
    "The sleeper's share falls from {{#include ../generated/a.md:x}} % to",
    "{{#include ../generated/b.md:x}} % without *the credit*.",
    "",
    '<!-- claim "share falls from": a:x > b:x -->',
    "",
    "<!-- claims",
    '"without the credit": a:x >= b:x',
    '"rises": a:x < b:x',
    "-->",
    "",
    "Next paragraph.",
    '<!-- claim "next": 1 < 2 -->',
    "",
    "<!-- claim 1 < 2 -->",
    "",
    'Text and then <!-- claim "then": 1 < 2 -->',
  ].join("\n");
  const { claims, problems } = pageClaims("ch.md", page);
  assert.deepEqual(claims.map((c) => [c.where, c.phrase, c.text]), [
    ["ch.md:4", "share falls from", "a:x > b:x"],
    ["ch.md:7", "without the credit", "a:x >= b:x"],
    ["ch.md:8", "rises", "a:x < b:x"],
    ["ch.md:12", "next", "1 < 2"],
  ]);
  assert.deepEqual(problems, [
    "ch.md:16: a claim block starts a line of its own, after a blank line",
    'ch.md:8: the words the claim quotes ("rises") are not in the paragraph beside it: was the sentence reworded? Check the claim against it',
    "ch.md:12: a claim block needs a blank line before and after it (gettext must see a block of its own)",
    'ch.md:14: a claim is `"words of its sentence": expression`, not "1 < 2"',
  ]);
});

test("checking names the page, the line, the claim and the numbers that contradict it", () => {
  const dir = tempTree({
    "gen/run.md": anchored({ a: "12.0", b: "15.5", list: "3 / 2 / 1", table: "| x |" }),
    "gen/wait.md": anchored({ a: "(pending: needs `cache.kb=`)" }),
    "src/ch.md": [
      "A is above B.",
      "",
      '<!-- claim "above": run:a > run:b -->',
      "",
      "The list falls, and waits.",
      "",
      "<!-- claims",
      '"falls": decreasing(run:list)',
      '"waits": wait:a > 1',
      '"falls": run:table > 1',
      '"falls": run:nope > 1',
      '"falls": gone:a > 1',
      "-->",
      "",
    ].join("\n"),
  });
  const pages = bookPages(path.join(dir, "src"));
  const { problems, checked, pending, perPage } = checkClaims(pages, path.join(dir, "gen"));
  assert.deepEqual(problems, [
    'ch.md:3: "above" is contradicted by the figures: run:a > run:b is false with run:a = 12, run:b = 15.5',
    'ch.md:10: claim "run:table > 1": run:table is "| x |", neither a number nor a word',
    'ch.md:11: claim "run:nope > 1": run:nope: run.md has no figure "nope"',
    'ch.md:12: claim "gone:a > 1": gone:a: no figure file gone.md was generated',
  ]);
  assert.deepEqual([checked, pending, perPage.get("ch.md")], [2, 1, 6]);
});

test("the reference and lab pages' included files are read for claims too", () => {
  const dir = tempTree({
    "docs/p.md": 'It rises.\n\n<!-- claim "rises": 1 < 2 -->\n',
    "src/ref.md": "{{#include ../docs/p.md}}\n\n{{#include ../generated/x.md:y}}\n",
  });
  assert.deepEqual(bookPages(path.join(dir, "src")).map((p) => p.name), ["ref.md", "../docs/p.md"]);
});

// The book's own claims, on the figures `make figures` generated.
const haveFigures = fs.existsSync(path.join(GENERATED, "tables.md"));
const noFigures = "no generated figures: run `make figures` (make test-figures does) before these tests";

test("every claim of the book holds on the generated figures", () => {
  assert.ok(haveFigures, noFigures);
  const { problems, checked } = checkClaims(bookPages(), GENERATED);
  assert.deepEqual(problems, []);
  assert.ok(checked > 300, `only ${checked} claims were checked`);
});

test("a perturbed figure makes the build refuse the chapter that claims otherwise", () => {
  assert.ok(haveFigures, noFigures);
  const chapter = "chapters/06-cfs.md";
  const page = bookPages().find((p) => p.name === chapter);
  // Swap two figures a claim of the chapter compares, so that it turns false.
  const tmp = tempDir("claims-perturbed-");
  fs.cpSync(GENERATED, tmp, { recursive: true });
  let perturbed;
  for (const c of pageClaims(page.name, page.text).claims) {
    const refs = refsOf(parseClaim(c.text));
    const numeric = refs.filter((r) => typeof readFigure(tmp, r) === "string" && figureNumbers(readFigure(tmp, r)) !== null);
    if (numeric.length < 2) continue;
    const [a, b] = numeric;
    const [ta, tb] = [readFigure(tmp, a), readFigure(tmp, b)];
    if (ta === tb) continue;
    writeFigure(tmp, a, tb);
    writeFigure(tmp, b, ta);
    if (checkClaims([page], tmp).problems.some((p) => p.startsWith(c.where))) {
      perturbed = { c, a, b, ta, tb };
      break;
    }
    writeFigure(tmp, a, ta);
    writeFigure(tmp, b, tb);
  }
  assert.ok(perturbed, `no claim of ${chapter} turns false when two of its figures swap`);
  const run = () => execFileSync(process.execPath, [path.join(HERE, "claims.mjs"), "--generated", tmp], { encoding: "utf8", stdio: "pipe" });
  let failure;
  try {
    run();
  } catch (e) {
    failure = e;
  }
  assert.ok(failure, "the check passed on a perturbed figure");
  assert.equal(failure.status, 1);
  const { c, a, b, ta, tb } = perturbed;
  assert.match(failure.stderr, new RegExp(`${escape(c.where)}: "${escape(c.phrase)}" is contradicted by the figures`));
  assert.match(failure.stderr, new RegExp(`${escape(a)} = ${escape(String(figureNumbers(tb)))}`));
  assert.match(failure.stderr, new RegExp(`${escape(b)} = ${escape(String(figureNumbers(ta)))}`));
  // Put back, the same figures pass.
  writeFigure(tmp, a, ta);
  writeFigure(tmp, b, tb);
  assert.match(run(), /claims: \d+ checked/);
});

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const split = (ref) => [ref.slice(0, ref.lastIndexOf(":")), ref.slice(ref.lastIndexOf(":") + 1)];

function readFigure(dir, ref) {
  const [file, anchor] = split(ref);
  const p = path.join(dir, `${file}.md`);
  if (!fs.existsSync(p)) return undefined;
  return fs.readFileSync(p, "utf8").match(new RegExp(`^ANCHOR: ${escape(anchor)}\\n([\\s\\S]*?)\\nANCHOR_END: ${escape(anchor)}$`, "m"))?.[1];
}

function writeFigure(dir, ref, text) {
  const [file, anchor] = split(ref);
  const p = path.join(dir, `${file}.md`);
  const re = new RegExp(`^(ANCHOR: ${escape(anchor)}\\n)[\\s\\S]*?(\\nANCHOR_END: ${escape(anchor)})$`, "m");
  fs.writeFileSync(p, fs.readFileSync(p, "utf8").replace(re, (_, open, close) => `${open}${text}${close}`));
}
