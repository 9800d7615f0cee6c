// The book's structure as a course reads it, checked on its markdown: the reading order
// (SUMMARY.md); each chapter's predictions, each answered by a folded result; its learning
// objectives, worked example, summary and key terms; its length; the glossary's terms, each
// used in no chapter before the one that teaches it; the index, whose every link lands on a
// section that speaks of its term.
//
//   node book/figures/structure.mjs [--count] [--write-index]
//
// checks the book and prints the problems; --count also counts prompts, folds, claims and minutes
// per chapter; --write-index first rewrites the index from the glossary and the chapters.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pageClaims } from "./claims.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const SRC = path.resolve(HERE, "../src");
export const CHAPTERS = path.join(SRC, "chapters");

// The pages that are apparatus, not lessons: they need no objectives, summary or worked example.
export const APPARATUS = /^(appendix-seeds|seed-\d{3}|glossary|bibliography|book-index)\.md$/;
export const GLOSSARY = "glossary.md";
export const INDEX = "book-index.md";

// A chapter takes about an hour: reading at READING_WPM words a minute, plus EXPERIMENT_MIN per
// live experiment (set up, run, read the charts). A lesson over MAX_MINUTES is too long.
export const READING_WPM = 120;
export const EXPERIMENT_MIN = 3;
export const MAX_MINUTES = 70;

/** The pages of the book in reading order: [{title, file}] for each link of SUMMARY.md under
 *  `chapters/` (file: the name inside chapters/). */
export function readingOrder(srcDir = SRC) {
  const summary = fs.readFileSync(path.join(srcDir, "SUMMARY.md"), "utf8");
  return [...summary.matchAll(/\[([^\]]+)\]\(chapters\/([^)#]+\.md)\)/g)].map(([, title, file]) => ({ title, file }));
}

export const isLesson = (file) => !APPARATUS.test(file);

/** Lines with fenced code blocks and HTML comments blanked out (kept as empty lines, so line
 *  numbers stay), for reading the prose alone. */
export function prose(text) {
  const lines = text.split("\n");
  let fence = false;
  let comment = false;
  return lines.map((l) => {
    if (/^\s*(```|~~~)/.test(l)) {
      fence = !fence;
      return "";
    }
    if (fence) return "";
    let out = l;
    if (comment) {
      const end = out.indexOf("-->");
      if (end < 0) return "";
      out = out.slice(end + 3);
      comment = false;
    }
    out = out.replace(/<!--.*?-->/g, "");
    const open = out.indexOf("<!--");
    if (open >= 0) {
      comment = true;
      out = out.slice(0, open);
    }
    return out;
  }).join("\n");
}

/** Headings: [{level, title, id, line}] (`id`: the explicit `{#id}`, else mdBook's). */
export function headings(text) {
  const out = [];
  prose(text).split("\n").forEach((l, k) => {
    const m = l.match(/^(#{1,6})\s+(.*?)\s*(?:\{#([A-Za-z0-9_-]+)\})?\s*$/);
    if (!m) return;
    const [, hashes, title, explicit] = m;
    out.push({ level: hashes.length, title, id: explicit ?? autoId(title), explicit: Boolean(explicit), line: k + 1 });
  });
  return out;
}

// mdBook's heading id: lower case, markup dropped, spaces to dashes, other punctuation dropped.
const autoId = (title) =>
  title
    .replace(/<[^>]*>/g, "")
    .replace(/[`*_]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .trim()
    .replace(/\s/g, "-");

/** The text of the section under heading `h` (to the next heading of its level or above). */
export function sectionText(text, h) {
  const lines = text.split("\n");
  const next = headings(text).find((o) => o.line > h.line && o.level <= h.level);
  return lines.slice(h.line, next ? next.line - 1 : lines.length).join("\n");
}

// ---- predictions ------------------------------------------------------------------------------

const PROMPT = /^\s*(?:#{2,3}\s+Predict\b|\*\*Predict\b)/;
const EXPERIMENT = /^\s*<div class="rq-experiment"/;
const FOLD = /^\s*<details class="rq-result">/;
// A generated figure of a run; the seed reports' and the kernel catalog's are no result.
const RESULT_FIGURE = /\{\{#include \.\.\/generated\/(?!seeds\.md|catalog\.md)[^}]+\}\}/;

/** The chapter's prompts to predict and its folded results: {prompts, folds, problems}. Each
 *  prompt must be followed by its experiment and then, before any figure of a run shows, by a
 *  fold that the experiment just above it opens (book/widget/reveal.js). */
export function predictions(name, text) {
  const lines = prose(text).split("\n");
  const raw = text.split("\n");
  const problems = [];
  let prompts = 0;
  let folds = 0;
  lines.forEach((l) => {
    if (FOLD.test(l)) folds += 1;
  });
  for (let i = 0; i < lines.length; i++) {
    if (!PROMPT.test(lines[i])) continue;
    prompts += 1;
    const where = `${name}:${i + 1}`;
    let k = i;
    let experiment = false;
    let ok = false;
    for (k = i; k < lines.length; k++) {
      if (k > i && PROMPT.test(lines[k]) && !experiment) {
        problems.push(`${where}: a prediction with no experiment before the next one (line ${k + 1})`);
        break;
      }
      if (EXPERIMENT.test(lines[k])) experiment = true;
      if (FOLD.test(lines[k])) {
        if (!experiment) problems.push(`${where}: the fold at line ${k + 1} comes before any experiment to run`);
        ok = experiment;
        break;
      }
      if (RESULT_FIGURE.test(raw[k]) && !/^\s*<!--/.test(raw[k])) {
        problems.push(`${where}: the prediction's answer shows at line ${k + 1} before any fold (put it in <details class="rq-result">)`);
        break;
      }
    }
    if (k >= lines.length && !ok) problems.push(`${where}: a prediction whose result never folds`);
  }
  return { prompts, folds, problems };
}

// ---- a chapter's frame ------------------------------------------------------------------------

/** What a lesson must have: objectives first, a worked example bound to the run by a claim, a
 *  summary and key terms after the lesson, only questions (or homework) after those. */
export function chapterShape(name, text) {
  const problems = [];
  const hs = headings(text).filter((h) => h.level === 2);
  const titles = hs.map((h) => h.title);
  if (titles[0] !== "Learning objectives") problems.push(`${name}: the first section is "${titles[0]}", not "Learning objectives"`);
  else if ((sectionText(text, hs[0]).match(/^\s*[-*] /gm) ?? []).length < 3) problems.push(`${name}: the learning objectives list fewer than three`);
  const summary = titles.indexOf("Summary");
  const terms = titles.indexOf("Key terms");
  if (summary < 0) problems.push(`${name}: no "Summary" section`);
  if (terms < 0) problems.push(`${name}: no "Key terms" section`);
  if (summary >= 0 && terms >= 0 && terms !== summary + 1) problems.push(`${name}: "Key terms" must follow "Summary"`);
  const after = titles.slice(Math.max(summary, terms) + 1).filter((t) => !/^(Questions|Homework)\b/.test(t));
  if (summary >= 0 && terms >= 0 && after.length) problems.push(`${name}: only questions and homework may follow the key terms, not ${after.map((t) => `"${t}"`).join(", ")}`);
  const worked = headings(text).filter((h) => /^Worked example\b/.test(h.title));
  if (!worked.length) problems.push(`${name}: no "Worked example" section`);
  for (const h of worked) {
    const { claims } = pageClaims(name, sectionText(text, h));
    if (!claims.length) problems.push(`${name}:${h.line}: the worked example "${h.title}" checks no hand computation against the run (no claim)`);
  }
  return problems;
}

/** Minutes a chapter takes: its words (figures count one each) and its live experiments. */
export function readingMinutes(text) {
  const words = prose(text).replace(/\{\{#include[^}]*\}\}/g, "N").replace(/<[^>]+>/g, " ").split(/\s+/).filter(Boolean).length;
  const experiments = (text.match(/<div class="rq-experiment"/g) ?? []).length;
  return Math.round(words / READING_WPM + experiments * EXPERIMENT_MIN);
}

// ---- glossary, key terms, index ---------------------------------------------------------------

/** The glossary's entries: [{id, term, pattern, taught, line}] from `### term {#id}` headings,
 *  the `<!-- term: /regex/flags -->` block under each, and its "taught in" link (the first link
 *  of its section to a chapter). */
export function glossaryEntries(text) {
  const out = [];
  for (const h of headings(text).filter((h) => h.level === 3)) {
    const body = sectionText(text, h);
    const m = body.match(/<!--\s*term:\s*\/(.+)\/([a-z]*)\s*-->/);
    const taught = body.match(/\]\(((?:\d\d[a-z]?-[a-z0-9-]+)\.md)(?:#[^)]*)?\)/);
    out.push({ id: h.id, explicit: h.explicit, term: h.title, line: h.line, pattern: m ? new RegExp(m[1], m[2].includes("g") ? m[2] : `${m[2]}g`) : null, taught: taught?.[1] ?? null });
  }
  return out;
}

// A chapter's paragraphs, prose only: no code, no comments, and no headings (a heading names
// what the section's paragraphs then say).
const paragraphs = (text) => prose(text).split(/\n\s*\n/).map((p) => p.replace(/^#{1,6} .*$/gm, "")).filter((p) => p.trim());

/** Checks the glossary against the chapters: every entry has an explicit id, a pattern and the
 *  chapter that teaches it; that chapter uses the term and lists it among its key terms; no
 *  chapter before it uses it, unless the paragraph points forward to the chapter that teaches it
 *  or to a later one that uses it. */
export function glossaryProblems(pages, order) {
  const problems = [];
  const byFile = new Map(pages.map((p) => [p.file, p.text]));
  const glossaryText = byFile.get(GLOSSARY);
  if (!glossaryText) return [`${GLOSSARY} is not in the book`];
  const lessons = order.map((o) => o.file).filter(isLesson);
  const entries = glossaryEntries(glossaryText);
  for (const e of entries) {
    const where = `${GLOSSARY}:${e.line} (${e.term})`;
    if (!e.explicit) problems.push(`${where}: give the heading an explicit {#id}, so links to it hold in both editions`);
    if (!e.pattern) problems.push(`${where}: no <!-- term: /regex/ --> block to find the term in the chapters`);
    if (!e.taught || !lessons.includes(e.taught)) {
      problems.push(`${where}: links to no chapter that teaches it`);
      continue;
    }
    if (!e.pattern) continue;
    const taughtText = byFile.get(e.taught);
    if (!matches(prose(taughtText), e.pattern)) problems.push(`${where}: ${e.taught} never uses the term it is said to teach`);
    const terms = keyTermLinks(taughtText);
    if (!terms.includes(e.id)) problems.push(`${where}: ${e.taught} teaches it but does not list it among its key terms`);
    // A forward mention is fine when it points forward: a link to the chapter that teaches the
    // term, or to a later one that uses it.
    const ahead = lessons.slice(lessons.indexOf(e.taught)).filter((f) => matches(prose(byFile.get(f)), e.pattern));
    for (const file of lessons.slice(0, lessons.indexOf(e.taught))) {
      for (const para of paragraphs(byFile.get(file))) {
        if (!matches(para, e.pattern) || ahead.some((f) => para.includes(`](${f}`))) continue;
        const line = byFile.get(file).slice(0, byFile.get(file).indexOf(para.trim().split("\n")[0])).split("\n").length;
        problems.push(`${file}:${line}: uses "${e.term}" before ${e.taught} teaches it (link to that chapter, or move the sentence)`);
      }
    }
  }
  // Every key term of every chapter is a glossary entry.
  const ids = new Set(entries.map((e) => e.id));
  for (const file of lessons) {
    for (const id of keyTermLinks(byFile.get(file))) {
      if (!ids.has(id)) problems.push(`${file}: key term #${id} is not in the glossary`);
    }
  }
  return problems;
}

function matches(text, pattern) {
  pattern.lastIndex = 0;
  const hit = pattern.test(text);
  pattern.lastIndex = 0;
  return hit;
}

/** The glossary ids the chapter's "Key terms" section links to. */
export function keyTermLinks(text) {
  const h = headings(text).find((o) => o.level === 2 && o.title === "Key terms");
  if (!h) return [];
  return [...sectionText(text, h).matchAll(/\]\(glossary\.md#([A-Za-z0-9_-]+)\)/g)].map((m) => m[1]);
}

/** The index: each entry links to its glossary term and to sections, by explicit id, whose text
 *  uses the term; every glossary term has an entry. */
export function indexProblems(pages) {
  const problems = [];
  const byFile = new Map(pages.map((p) => [p.file, p.text]));
  const index = byFile.get(INDEX);
  if (!index) return [`${INDEX} is not in the book`];
  const entries = new Map(glossaryEntries(byFile.get(GLOSSARY) ?? "").map((e) => [e.id, e]));
  const listed = new Set();
  index.split("\n").forEach((l, k) => {
    const term = l.match(/^\s*[-*]\s+\[[^\]]+\]\(glossary\.md#([A-Za-z0-9_-]+)\)/);
    if (!term) return;
    const where = `${INDEX}:${k + 1}`;
    const e = entries.get(term[1]);
    if (!e) {
      problems.push(`${where}: #${term[1]} is not in the glossary`);
      return;
    }
    listed.add(e.id);
    const links = [...l.slice(term[0].length).matchAll(/\]\(([^)#]+\.md)#([A-Za-z0-9_-]+)\)/g)];
    if (!links.length) problems.push(`${where}: "${e.term}" points to no section`);
    for (const [, file, id] of links) {
      const text = byFile.get(file);
      const h = text && headings(text).find((o) => o.id === id);
      if (!h) problems.push(`${where}: ${file}#${id} is no section`);
      else if (!h.explicit) problems.push(`${where}: ${file}#${id}: give that heading an explicit {#${id}} (the Chinese edition's ids differ)`);
      else if (e.pattern && !matches(prose(sectionText(text, h)), e.pattern)) problems.push(`${where}: ${file}#${id} does not speak of "${e.term}"`);
    }
  });
  for (const e of entries.values()) if (!listed.has(e.id)) problems.push(`${INDEX}: no entry for "${e.term}" (${GLOSSARY}#${e.id})`);
  return problems;
}

// The sections an index entry may point to: the lesson itself, not its frame.
const FRAME = /^(Learning objectives|Summary|Key terms|Questions)$/;
const INDEX_CHAPTERS = 6;

/** The index page, written from the glossary and the chapters: for each term, the first section
 *  of the chapter that teaches it to use the term, then the first section of each other chapter
 *  that does, in reading order, at most INDEX_CHAPTERS in all. Each section's own text (to the
 *  next heading) is looked at, so an entry points to where the term is discussed. */
export function indexMarkdown(pages, order) {
  const byFile = new Map(pages.map((p) => [p.file, p]));
  const lessons = order.map((o) => o.file).filter(isLesson);
  const entries = glossaryEntries(byFile.get(GLOSSARY).text);
  const ownText = (text, h) => {
    const lines = text.split("\n");
    const next = headings(text).find((o) => o.line > h.line);
    return prose(lines.slice(h.line, next ? next.line - 1 : lines.length).join("\n"));
  };
  const firstSection = (file, pattern) => {
    const { text, title } = byFile.get(file);
    const h = headings(text).find((o) => o.level > 1 && o.explicit && !FRAME.test(o.title) && matches(ownText(text, o), pattern));
    return h && `[${title}: ${h.title.replace(/`/g, "")}](${file}#${h.id})`;
  };
  const out = ["# Index", "", INDEX_INTRO, ""];
  let letter = null;
  for (const e of entries) {
    const first = e.term.replace(/[^A-Za-z0-9]/g, "")[0].toUpperCase();
    const head = /\d/.test(first) ? "0–9" : first;
    if (head !== letter) out.push(`## ${(letter = head)}`, "");
    const files = [e.taught, ...lessons.filter((f) => f !== e.taught)];
    const links = files.map((f) => firstSection(f, e.pattern)).filter(Boolean).slice(0, INDEX_CHAPTERS);
    out.push(`- [${e.term}](glossary.md#${e.id}): ${links.join("; ")}`);
    const last = out.length - 1;
    if (out[last + 1] === undefined && entries[entries.indexOf(e) + 1]) {
      const nextFirst = entries[entries.indexOf(e) + 1].term.replace(/[^A-Za-z0-9]/g, "")[0].toUpperCase();
      if ((/\d/.test(nextFirst) ? "0–9" : nextFirst) !== letter) out.push("");
    }
  }
  return out.join("\n").trimEnd() + "\n";
}

const INDEX_INTRO = `Each term of the [glossary](glossary.md), with the sections that use it: first the one that
teaches it, then the first section of each other chapter that uses it, in reading order.`;

// ---- the whole book ---------------------------------------------------------------------------

/** Every chapter's markdown in reading order: [{file, title, text}]. */
export function bookChapters(srcDir = SRC) {
  return readingOrder(srcDir).map((o) => ({ ...o, text: fs.readFileSync(path.join(srcDir, "chapters", o.file), "utf8") }));
}

/** All problems of the book's structure, and per chapter its counts. */
export function checkStructure(srcDir = SRC) {
  const order = readingOrder(srcDir);
  const pages = bookChapters(srcDir);
  const problems = [];
  const counts = [];
  const listed = new Set(order.map((o) => o.file));
  for (const f of fs.readdirSync(path.join(srcDir, "chapters")).filter((f) => f.endsWith(".md"))) {
    if (!listed.has(f)) problems.push(`chapters/${f} is not in SUMMARY.md`);
  }
  for (const p of pages) {
    const pred = predictions(p.file, p.text);
    problems.push(...pred.problems);
    const claims = pageClaims(p.file, p.text).claims.length;
    const minutes = readingMinutes(p.text);
    if (isLesson(p.file)) {
      problems.push(...chapterShape(p.file, p.text));
      if (minutes > MAX_MINUTES) problems.push(`${p.file}: about ${minutes} minutes of reading and experiments, more than ${MAX_MINUTES}: split it`);
    }
    counts.push({ file: p.file, prompts: pred.prompts, folds: pred.folds, claims, minutes });
  }
  problems.push(...glossaryProblems(pages, order), ...indexProblems(pages));
  return { problems, counts };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--write-index")) {
    fs.writeFileSync(path.join(CHAPTERS, INDEX), indexMarkdown(bookChapters(), readingOrder()));
    console.log(`structure: wrote chapters/${INDEX}`);
  }
  const { problems, counts } = checkStructure();
  if (process.argv.includes("--count")) {
    console.log("prompts  folds  claims  minutes  chapter");
    for (const c of counts) console.log(`${String(c.prompts).padStart(7)}  ${String(c.folds).padStart(5)}  ${String(c.claims).padStart(6)}  ${String(c.minutes).padStart(7)}  ${c.file}`);
    const sum = (k) => counts.reduce((s, c) => s + c[k], 0);
    console.log(`${String(sum("prompts")).padStart(7)}  ${String(sum("folds")).padStart(5)}  ${String(sum("claims")).padStart(6)}           in all`);
  }
  if (problems.length) {
    console.error(`structure: ${problems.length} problems:\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
  if (!process.argv.includes("--count")) console.log("structure: every chapter holds together");
}
