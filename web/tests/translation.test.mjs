// The Chinese edition against the English one, page by page, in the built book (`make book`):
// every page of the English edition is in the Chinese one with the same blocks (paragraphs,
// headings, list items, table cells: gettext translates block by block, so a missing block is a
// lost paragraph), no block of the Chinese edition holds an English sentence outside code,
// commands and quoted names, no emphasis marker is left as text (CommonMark does not open `_`
// next to Chinese characters, and mdbook-gettext writes emphasis as `_..._`), and the page
// frame is Chinese. The search finds the right chapter first for the textbook's words.
// Node only, no browser.

import test from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { search } from "../../book/i18n/search.js";
import { englishSentences, strayEmphasis } from "../zh-text.mjs";

const SITE = fileURLToPath(new URL("../../book/build", import.meta.url));
const ZH = join(SITE, "zh-CN");
// The print page repeats every chapter; toc.html is the sidebar's list of titles.
const SKIP = new Set(["print.html", "toc.html"]);

function pages(dir, root = dir) {
  return readdirSync(dir).sort().flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === "runqueue" || name === "zh-CN" ? [] : pages(p, root);
    return name.endsWith(".html") && !SKIP.has(name) ? [relative(root, p)] : [];
  });
}

const decode = (s) => s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e) =>
  e[0] === "#" ? String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
    : ({ amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " })[e.toLowerCase()] ?? m);

const LEAF = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "td", "th", "dt", "dd", "summary"]);
const BLOCK_TAG = /<(\/?)(p|h[1-6]|li|td|th|dt|dd|summary|ul|ol|table|thead|tbody|tr|div|blockquote|details)\b[^>]*>/gi;

/**
 * The text blocks of a page's <main>, in order, as `{tag, text}`: the text each paragraph,
 * heading, list item or table cell holds itself (a list item of paragraphs counts as its
 * paragraphs), without code, preformatted text and tags.
 */
export function blocks(html) {
  const main = (html.match(/<main\b[^>]*>([\s\S]*?)<\/main>/i)?.[1] ?? "")
    .replace(/<(pre|script|style|svg)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<(code|kbd)\b[\s\S]*?<\/\1>/gi, " ");
  const out = [];
  const open = [];
  let last = 0;
  const flush = (upTo) => {
    const tag = open.at(-1);
    const text = decode(main.slice(last, upTo).replace(/<[^>]+>/g, "")).replace(/\s+/g, " ").trim();
    if (tag && LEAF.has(tag) && text) {
      const prev = out.at(-1);
      // Text after a nested block (a list item's text after its sub-list) stays the item's.
      if (prev?.open === open.length && prev.tag === tag) prev.text += ` ${text}`;
      else out.push({ tag, text, open: open.length });
    }
  };
  for (const m of main.matchAll(BLOCK_TAG)) {
    flush(m.index);
    last = m.index + m[0].length;
    const tag = m[2].toLowerCase();
    if (m[1]) open.splice(open.lastIndexOf(tag), 1);
    else {
      open.push(tag);
      out.push({ tag: "|", open: -1 }); // a block boundary: the next text is a block of its own
    }
  }
  return out.filter((b) => b.tag !== "|").map(({ tag, text }) => ({ tag, text }));
}

const english = existsSync(SITE) ? pages(SITE) : [];

test("the Chinese edition has every page of the English one, block for block", () => {
  assert.ok(english.length >= 25, `only ${english.length} English pages: run make book`);
  const bad = [];
  for (const page of english) {
    const zhPath = join(ZH, page);
    if (!existsSync(zhPath)) {
      bad.push(`${page}: no Chinese page`);
      continue;
    }
    const en = blocks(readFileSync(join(SITE, page), "utf8")).map((b) => b.tag);
    const zh = blocks(readFileSync(zhPath, "utf8")).map((b) => b.tag);
    const at = en.findIndex((tag, i) => tag !== zh[i]);
    if (en.length !== zh.length || at >= 0) bad.push(`${page}: ${en.length} English blocks, ${zh.length} Chinese; first difference at block ${at}: ${en[at]} / ${zh[at]}`);
  }
  assert.deepEqual(bad, []);
});

test("no Chinese page holds an untranslated English sentence or a stray emphasis marker", () => {
  const bad = [];
  for (const page of english) {
    const path = join(ZH, page);
    if (!existsSync(path)) continue;
    for (const { text } of blocks(readFileSync(path, "utf8"))) {
      for (const s of englishSentences(text)) bad.push(`${page}: English "${s}" in "${text.slice(0, 80)}"`);
      for (const s of strayEmphasis(text)) bad.push(`${page}: emphasis marker ${s} in "${text.slice(0, 80)}"`);
    }
  }
  assert.deepEqual(bad, []);
});

test("the checks find what they look for", () => {
  assert.deepEqual(englishSentences("未评分：this file is not a kernel（`make kernel`）"), ["this file is not a kernel"]);
  assert.deepEqual(englishSentences("它说“Numbers Everyone Should Know”。用 Perfetto 打开 Chrome trace JSON。"), []);
  assert.deepEqual(englishSentences("按《Operating Systems: Three Easy Pieces》，即最早合格虚拟截止时间优先（Earliest Eligible Virtual Deadline First）"), []);
  assert.deepEqual(strayEmphasis("一个_时间片_ q，单元_数量_，λ_W_，**预测。**一个"), ["_时间片_", "_数量_", "_W_", "**", "**"]);
  assert.deepEqual(strayEmphasis("sched_base_slice 与 min_vruntime，2*3"), []);
  const html = "<main><h1>T</h1><p>a <code>x y z w</code> b</p><ul><li><p>c</p></li><li>d</li></ul><pre>e</pre></main>";
  assert.deepEqual(blocks(html), [{ tag: "h1", text: "T" }, { tag: "p", text: "a b" }, { tag: "p", text: "c" }, { tag: "li", text: "d" }]);
});

test("the Chinese page frame has no English label", () => {
  const bad = [];
  for (const page of english) {
    const path = join(ZH, page);
    if (!existsSync(path)) continue;
    const frame = readFileSync(path, "utf8").replace(/<main\b[\s\S]*?<\/main>/i, "").replace(/<(script|style|svg)\b[\s\S]*?<\/\1>/gi, "");
    const labels = [...frame.matchAll(/(?:title|aria-label|placeholder)="([^"]*)"|>([^<>]+)</g)].map((m) => decode(m[1] ?? m[2]).trim()).filter(Boolean);
    for (const label of labels) {
      if (/\b(?:Toggle|Change theme|Print this|Keyboard|Press|Previous chapter|Next chapter|Table of contents|Document not found|CPU scheduling, live)\b/.test(label)) bad.push(`${page}: "${label}"`);
    }
  }
  assert.deepEqual(bad, []);
});

// The textbook's words, and the chapter a reader looking them up should land on first.
const SEARCHES = [
  // The textbook's word finds the book's: chapter 11, which weighs one run queue against one per
  // hart, names it most (chapter 1 shows the run queue at a moment).
  ["就绪队列", "chapters/11-many-cores.html"],
  ["轮转调度", "chapters/03-fifo-rr.html"],
  ["先来先服务", "chapters/03-fifo-rr.html"],
  ["先进先出", "chapters/03-fifo-rr.html"],
  ["虚拟运行时间", "chapters/06-cfs.html"],
  ["硬件线程", "chapters/11-many-cores.html"],
  ["hart", "chapters/11-many-cores.html"],
  ["截止期限", "chapters/10-deadline.html"],
  ["滞后量", "chapters/08-eevdf.html"],
  ["优先级反转", "chapters/09b-inversion.html"],
];

test("the Chinese search finds the right chapter first, and keeps the case of its snippets", () => {
  const index = JSON.parse(readFileSync(join(ZH, "cjk-search.json"), "utf8"));
  const wrong = SEARCHES.map(([q, want]) => [q, want, search(index, q)[0]?.path]).filter(([, want, got]) => got !== want);
  assert.deepEqual(wrong, [], "query, expected first page, first page found");
  const snippets = search(index, "linux").map((h) => h.snippet).join(" ");
  assert.match(snippets, /Linux/);
  assert.doesNotMatch(snippets, /(?<![A-Za-z_])linux(?![A-Za-z_])/, "a snippet shows the text as written");
});
