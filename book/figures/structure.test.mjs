// node --test book/figures/  (structure.mjs: the book's frame, predictions, glossary and index)
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { SRC, chapterShape, checkStructure, glossaryEntries, glossaryProblems, indexMarkdown, indexProblems, predictions, readingMinutes } from "./structure.mjs";
import { tempTree } from "./temp-tree.mjs";

const EXPERIMENT = '<div class="rq-experiment" data-sched="rr" data-workload="spin"></div>';
const FOLD = '<details class="rq-result"><summary>Show the result</summary>';
const FIGURE = "{{#include ../generated/rr.spin.md:cpu_ms}}";

test("every chapter of the book holds together: predictions fold, frame, length, glossary, index", () => {
  const { problems, counts } = checkStructure();
  console.log(["prompts folds claims minutes chapter", ...counts.map((c) => `${c.prompts} ${c.folds} ${c.claims} ${c.minutes} ${c.file}`)].join("\n"));
  assert.deepEqual(problems, []);
  const lessons = counts.filter((c) => /^\d/.test(c.file));
  assert.ok(lessons.every((c) => c.folds >= c.prompts), "a chapter has more prompts than folds");
  assert.ok(lessons.reduce((s, c) => s + c.prompts, 0) >= 30, "the chapters ask for predictions");
});

test("a prediction whose answer shows before its fold, or that never folds, is refused", () => {
  const good = ["**Predict.** How much?", "", EXPERIMENT, "", FOLD, "", `It got ${FIGURE} ms.`, "", "</details>"].join("\n");
  assert.deepEqual(predictions("ok.md", good), { prompts: 1, folds: 1, problems: [] });
  const open = ["## Predict", "", "How much?", "", EXPERIMENT, "", `It got ${FIGURE} ms.`].join("\n");
  assert.match(predictions("open.md", open).problems[0], /open\.md:1: the prediction's answer shows at line 7 before any fold/);
  const never = ["**Predict.** How much?", "", EXPERIMENT, "", "Nothing more."].join("\n");
  assert.match(predictions("never.md", never).problems[0], /never folds/);
  const early = ["**Predict.** How much?", "", FOLD, "", "</details>", "", EXPERIMENT].join("\n");
  assert.match(predictions("early.md", early).problems[0], /comes before any experiment/);
  // A seed's figure in the question is no answer.
  const seed = ["**Predict.** The seed saw {{#include ../generated/seeds.md:s001-t5-rr}}; and ours?", "", EXPERIMENT, "", FOLD, "", "</details>"].join("\n");
  assert.deepEqual(predictions("seed.md", seed).problems, []);
});

test("a lesson opens with objectives and closes with a summary and key terms; its worked example checks its run", () => {
  const frame = (body) => ["# T", "", "## Learning objectives", "", "- a", "- b", "- c", "", body, "", "## Summary", "", "- s", "", "## Key terms", "", "[x](glossary.md#x)", "", "## Questions", ""].join("\n");
  const worked = ["## Worked example: x {#worked-example}", "", "By hand, 2.", "", "<!-- claim \"By hand\": a.b:c == 2 -->", ""].join("\n");
  assert.deepEqual(chapterShape("ok.md", frame(worked)), []);
  assert.match(chapterShape("no-claim.md", frame("## Worked example: x\n\nBy hand, 2.\n")).join(), /checks no hand computation/);
  assert.match(chapterShape("none.md", frame("## Body\n\ntext\n")).join(), /no "Worked example" section/);
  assert.match(chapterShape("late.md", frame(worked).replace("## Learning objectives", "## Intro\n\ntext\n\n## Learning objectives")).join(), /first section is "Intro"/);
  assert.match(chapterShape("after.md", `${frame(worked)}\n## Afterthoughts\n\ntext\n`).join(), /only questions and homework may follow the key terms, not "Afterthoughts"/);
  assert.match(chapterShape("bare.md", `# T\n\n## Learning objectives\n\n- a\n- b\n- c\n\n${worked}`).join(), /no "Summary" section.*no "Key terms" section/);
});

test("a chapter much over an hour is too long", () => {
  const words = Array.from({ length: 120 * 60 }, () => "word").join(" ");
  assert.equal(readingMinutes(words), 60);
  assert.equal(readingMinutes(`${words}\n\n${EXPERIMENT}\n\n${EXPERIMENT}\n\n${EXPERIMENT}\n\n${EXPERIMENT}`), 72);
});

// A two-chapter book with a glossary and an index, for the glossary's and the index's checks.
function miniBook({ first, second, index }) {
  const glossary = ["# Glossary", "", "### lag {#lag}", "", "What a task is owed. Taught in [Two](02-two.md).", "", "<!-- term: /\\blag\\b/i -->", ""].join("\n");
  const order = [{ file: "01-one.md", title: "One" }, { file: "02-two.md", title: "Two" }, { file: "glossary.md", title: "Glossary" }, { file: "book-index.md", title: "Index" }];
  const pages = [
    { file: "01-one.md", title: "One", text: first },
    { file: "02-two.md", title: "Two", text: second },
    { file: "glossary.md", title: "Glossary", text: glossary },
    { file: "book-index.md", title: "Index", text: index ?? "" },
  ];
  return { pages, order };
}
const TEACHES = "# Two\n\n## Placement {#placement}\n\nA task keeps its lag.\n\n## Key terms\n\n[lag](glossary.md#lag)\n";

test("a term used before the chapter that teaches it is refused, unless the sentence points forward", () => {
  const { pages, order } = miniBook({ first: "# One\n\nIts lag is zero.\n", second: TEACHES });
  assert.deepEqual(glossaryEntries(pages[2].text).map((e) => [e.id, e.taught]), [["lag", "02-two.md"]]);
  assert.match(glossaryProblems(pages, order).join(), /01-one\.md:3: uses "lag" before 02-two\.md teaches it/);
  const linked = miniBook({ first: "# One\n\nIts lag ([chapter 2](02-two.md)) is zero.\n", second: TEACHES });
  assert.deepEqual(glossaryProblems(linked.pages, linked.order), []);
  // In a heading, a code block or a comment it is no use.
  const quiet = miniBook({ first: "# One\n\n## The lag\n\n```text\nlag = V - v\n```\n\n<!-- claim \"x\": lag:x > 0 -->\n", second: TEACHES });
  assert.deepEqual(glossaryProblems(quiet.pages, quiet.order), []);
  const unlisted = miniBook({ first: "# One\n", second: TEACHES.replace("[lag](glossary.md#lag)", "") });
  assert.match(glossaryProblems(unlisted.pages, unlisted.order).join(), /does not list it among its key terms/);
});

test("the index lists every term, each link landing on a section, by explicit id, that uses it", () => {
  const { pages, order } = miniBook({ first: "# One\n", second: TEACHES });
  const index = indexMarkdown(pages, order);
  assert.match(index, /^- \[lag\]\(glossary\.md#lag\): \[Two: Placement\]\(02-two\.md#placement\)$/m);
  pages[3].text = index;
  assert.deepEqual(indexProblems(pages), []);
  pages[3].text = index.replace("02-two.md#placement", "02-two.md#key-terms");
  assert.match(indexProblems(pages).join(), /02-two\.md#key-terms: give that heading an explicit/);
  pages[1].text = TEACHES.replace("## Key terms", "## Key terms {#key-terms}").replace("A task keeps its lag.", "A task keeps it.");
  pages[3].text = index.replace("02-two.md#placement", "02-two.md#placement");
  assert.match(indexProblems(pages).join(), /02-two\.md#placement does not speak of "lag"/);
  pages[3].text = "# Index\n";
  assert.match(indexProblems(pages).join(), /no entry for "lag"/);
});

test("a perturbed copy of the book fails: a fold removed, a glossary term taught too late", () => {
  const files = {};
  const walk = (dir, rel = "") => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name === "generated") continue;
      if (e.isDirectory()) walk(path.join(dir, e.name), path.join(rel, e.name));
      else if (e.name.endsWith(".md")) files[path.join(rel, e.name)] = fs.readFileSync(path.join(dir, e.name), "utf8");
    }
  };
  walk(SRC);
  const unfolded = { ...files, "chapters/03-fifo-rr.md": files["chapters/03-fifo-rr.md"].replace(/<details class="rq-result">.*\n/, "").replace(/\n<\/details>\n/, "\n") };
  assert.match(checkStructure(tempTree(unfolded)).problems.join("\n"), /03-fifo-rr\.md:\d+: the prediction's answer shows at line \d+ before any fold/);
  const late = { ...files, "chapters/glossary.md": files["chapters/glossary.md"].replace("Taught in [Measuring a scheduler](02a-metrics.md).\n\n<!-- term: /\\bconvoy\\b/i -->", "Taught in [Shortest job first](04-sjf.md).\n\n<!-- term: /\\bconvoy\\b/i -->") };
  assert.notEqual(late["chapters/glossary.md"], files["chapters/glossary.md"], "the glossary's convoy entry is where the test expects it");
  assert.match(checkStructure(tempTree(late)).problems.join("\n"), /02a-metrics\.md:\d+: uses "convoy effect" before 04-sjf\.md teaches it/);
});
