// Unit tests, in node, of the two editions' pieces: the widget's string table (every key in
// every language) and the Chinese search (book/i18n/).

import test from "node:test";
import { readFileSync } from "node:fs";
import assert from "node:assert/strict";
import { STRINGS, stringsFor } from "../../book/widget/strings.js";
import { alternatives, bigrams, entry, normalize, search } from "../../book/i18n/search.js";
import { indexPage, plainText } from "../../book/i18n/build-index.mjs";

const [base, ...others] = Object.keys(STRINGS);

test("every language has every widget string, of the same kind", () => {
  assert.deepEqual(Object.keys(STRINGS).sort(), ["en", "zh-CN"]);
  for (const lang of others) {
    assert.deepEqual(Object.keys(STRINGS[lang]).sort(), Object.keys(STRINGS[base]).sort(), `${lang} has the same keys as ${base}`);
    for (const [key, value] of Object.entries(STRINGS[base])) {
      const other = STRINGS[lang][key];
      assert.equal(typeof other, typeof value, `${lang}.${key}`);
      if (typeof value === "function") assert.equal(other.length, value.length, `${lang}.${key} takes the same arguments`);
    }
  }
});

test("every string is non-empty and every message shows all its arguments", () => {
  for (const [lang, table] of Object.entries(STRINGS)) {
    for (const [key, value] of Object.entries(table)) {
      if (typeof value === "string") {
        assert.ok(value.trim(), `${lang}.${key} is empty`);
        continue;
      }
      const args = Array.from({ length: value.length }, (_, i) => `ARG${i}`);
      const text = value(...args);
      for (const a of args) assert.ok(text.includes(a), `${lang}.${key} drops ${a}: ${text}`);
    }
  }
});

test("the Chinese table is Chinese and the page language picks the table", () => {
  assert.match(STRINGS["zh-CN"].run, /\p{Script=Han}/u);
  assert.notEqual(STRINGS["zh-CN"].run, STRINGS.en.run);
  assert.equal(stringsFor("zh-CN"), STRINGS["zh-CN"]);
  assert.equal(stringsFor("zh"), STRINGS["zh-CN"]);
  assert.equal(stringsFor("en-GB"), STRINGS.en);
  assert.equal(stringsFor("fr"), STRINGS.en, "an unknown language falls back to English");
  assert.equal(stringsFor(), STRINGS.en);
});

const INDEX = [
  entry("chapters/05-mlfq.html", "多级反馈队列", "任务在睡眠之后回到最高优先级。"),
  entry("chapters/06-cfs.html", "CFS：完全公平调度器", "每个任务有一个虚拟运行时间 vruntime。虚拟运行时间最小的任务先运行。"),
  entry("chapters/07-sleepers.html", "睡眠者与唤醒放置", "睡眠补偿让睡眠的任务更早运行，运行时间更短。"),
];

test("Chinese text is found by substring, more hits first, titles counting most", () => {
  assert.deepEqual(search(INDEX, "虚拟运行时间").map((h) => h.path), ["chapters/06-cfs.html"]);
  assert.deepEqual(search(INDEX, "睡眠").map((h) => h.path), ["chapters/07-sleepers.html", "chapters/05-mlfq.html"]);
  assert.deepEqual(search(INDEX, "  VRUNTIME ").map((h) => h.path), ["chapters/06-cfs.html"], "case and spaces do not matter");
  assert.match(search(INDEX, "补偿")[0].snippet, /睡眠补偿/);
  assert.deepEqual(search(INDEX, "cfs").map((h) => h.title), ["CFS：完全公平调度器"], "a title matches regardless of case");
});

test("synonyms find the book's term, headings outrank the text, snippets keep their case", () => {
  const index = {
    synonyms: { 就绪队列: "运行队列", 先进先出: "先来先服务", FIFO: "先来先服务" },
    pages: [
      entry("chapters/02-tour.html", "内核导览", "每个硬件线程有一个运行队列，运行队列里是可运行的任务，运行队列按策略排序。"),
      entry("chapters/03-fifo-rr.html", "FIFO 与时间片轮转", "先来先服务（FIFO）按到达顺序运行。", ["先来先服务", "运行队列"]),
      entry("chapters/12-linux.html", "比较", "Linux 的 CFS 和 SCHED_FIFO。"),
    ],
  };
  assert.deepEqual(alternatives("就绪队列", index.synonyms), ["就绪队列", "运行队列"]);
  assert.deepEqual(search(index, "就绪队列").map((h) => h.path), ["chapters/03-fifo-rr.html", "chapters/02-tour.html"], "a heading counts more than three hits in the text");
  assert.equal(search(index, "先进先出")[0].path, "chapters/03-fifo-rr.html");
  assert.match(search(index, "linux")[0].snippet, /Linux 的 CFS/, "the snippet keeps the text's case");
  assert.deepEqual(search(index.pages, "就绪队列"), [], "a bare list of pages has no synonyms");
});

test("the glossary and the bibliography come after the lessons that match, however often they name the term", () => {
  const pages = [
    entry("chapters/01-using-this-book.html", "如何使用本书", "内核把它的运行队列保存在内存中。"),
    entry("chapters/glossary.html", "术语表", "运行队列：……运行队列……运行队列……运行队列", ["运行队列"], true),
    entry("chapters/bibliography.html", "参考文献", "只有参考文献才有的词。", [], true),
  ];
  assert.deepEqual(search(pages, "运行队列").map((h) => h.path), ["chapters/01-using-this-book.html", "chapters/glossary.html"]);
  assert.deepEqual(search(pages, "参考文献").map((h) => h.path), ["chapters/bibliography.html"], "a reference page is still found");
  assert.equal(entry("a.html", "A", "a").reference, undefined, "a lesson's entry stays as it was");
});

test("a query with a word in between still matches by bigrams; unrelated text does not", () => {
  assert.deepEqual(search(INDEX, "睡眠的补偿").map((h) => h.path), ["chapters/07-sleepers.html"]);
  assert.deepEqual(search(INDEX, "实时调度"), []);
  assert.deepEqual(search(INDEX, "   "), []);
  assert.deepEqual([...bigrams("睡 眠补")], ["睡眠", "眠补"]);
  assert.equal(normalize(" A\n\tB "), "a b");
});

test("the index holds a page's heading and the text of its <main>, without markup", () => {
  const html = `<html><head><title>x</title><script>var no = 1;</script></head><body><nav>目录</nav>
    <main><h1 id="cfs">CFS：完全&amp;公平</h1><p>虚拟<em>运行</em>时间 &lt;vr&gt; &#x4e2d;&#25991;</p><script>skip()</script></main></body></html>`;
  const page = indexPage("chapters/06-cfs.html", html);
  assert.equal(page.title, "CFS：完全&公平", "titles keep their case for display");
  assert.equal(page.text, "CFS：完全&公平 虚拟运行时间 <vr> 中文", "inline tags do not split words, case is kept");
  assert.deepEqual(indexPage("a.html", "<main><h1>T</h1><h2>二 <code>x</code></h2><h3>三</h3><p>p</p></main>").headings, ["二 x", "三"]);
  assert.equal(plainText("<p>a</p><p><b>b</b>&unknown;</p>"), " a  b&unknown; ");
  // A claim the build checks is a comment: none of it is text, though it holds ">" and "<".
  assert.equal(plainText('<p>a</p>\n<!-- claim "a": x:y > x:z and 1 < 2 -->\n<p>b</p>'), " a \n \n b ");
});

/** Each msgstr of the Chinese catalog, its quoted lines joined. */
function translations() {
  const po = readFileSync(new URL("../../po/zh-CN.po", import.meta.url), "utf8");
  return [...po.matchAll(/^msgstr ((?:".*"\n?)+)/gm)].map((m) => m[1].split("\n").map((l) => l.slice(1, -1)).join(""));
}

// CommonMark closes `**` after punctuation only when whitespace or punctuation follows, and
// Chinese puts no space after 。 or ：, so "**预测。**一个" would show its asterisks.
test("every bold run in the Chinese edition closes: no full-width punctuation right before a closing ** that a letter follows", () => {
  const bad = [];
  for (const text of translations()) {
    const parts = text.split("**");
    for (let i = 2; i < parts.length; i += 2) {
      const before = parts[i - 1].at(-1), after = parts[i][0];
      if (/[\p{P}\p{S}]/u.test(before ?? "") && after && !/[\s\p{P}\p{S}]/u.test(after)) bad.push(`…${parts[i - 1].slice(-12)}**${parts[i].slice(0, 8)}…`);
    }
  }
  assert.deepEqual(bad, [], "move the punctuation after the closing **");
});
