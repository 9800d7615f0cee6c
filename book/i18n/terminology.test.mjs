// The Chinese edition keeps one term per concept (po/glossary.md): checked over the gettext
// catalog and the widget's Chinese texts. Node only, no build needed.

import test from "node:test";
import assert from "node:assert/strict";
import { findVariant, prose, readCatalog, readGlossary, withoutGlosses } from "./catalog.mjs";
import { STRINGS } from "../widget/strings.js";
import { CATALOG_ZH } from "../widget/catalog-zh.js";

const glossary = readGlossary();
const catalog = readCatalog().filter((m) => m.msgstr);

/** Every text a Chinese function or string of a table yields, arguments as placeholders. */
function texts(value) {
  if (typeof value === "string") return [value];
  if (typeof value === "function") return texts(value(...Array.from({ length: value.length }, (_, i) => `{${i}}`)));
  if (Array.isArray(value)) return value.flatMap(texts);
  if (value && typeof value === "object") return Object.values(value).flatMap(texts);
  return [];
}

test("the terminology table parses, and names each term once", () => {
  assert.ok(glossary.length >= 20, `${glossary.length} rows`);
  assert.equal(new Set(glossary.map((g) => g.term)).size, glossary.length);
  for (const g of glossary) assert.ok(g.first.includes(g.term), `${g.term}: its first use ${g.first} holds it`);
});

test("no translation uses a variant the terminology table rules out", () => {
  const bad = [];
  const widget = [...texts(STRINGS["zh-CN"]), ...texts(CATALOG_ZH)].map((t) => ({ msgid: "(widget)", msgstr: t }));
  for (const { msgid, msgstr } of [...catalog, ...widget]) {
    const text = withoutGlosses(prose(msgstr));
    for (const g of glossary) {
      for (const v of g.avoid) if (findVariant(text, v)) bad.push(`${v.text} (say ${g.term}) in "${msgstr.slice(0, 60)}…" for "${msgid.slice(0, 40)}…"`);
    }
  }
  assert.deepEqual(bad, []);
});

test("every message whose English names a concept uses its Chinese term", () => {
  const bad = [];
  for (const { msgid, msgstr } of catalog) {
    for (const g of glossary) {
      if (g.english?.test(prose(msgid)) && !msgstr.includes(g.term)) bad.push(`${g.term}: "${msgid.slice(0, 70)}" -> "${msgstr.slice(0, 50)}"`);
    }
  }
  assert.deepEqual(bad, []);
});

// Titles in the table of contents (SUMMARY.md) carry no glosses; the prose after them does.
test("each term's first use in the book gives the English in parentheses", () => {
  const bad = [];
  const text = catalog.filter((m) => !m.refs.includes("SUMMARY.md")).map((m) => prose(m.msgstr));
  for (const g of glossary) {
    // 时间片 inside 时间片轮转 is the longer term's use, not its own.
    const longer = glossary.filter((o) => o.term !== g.term && o.term.includes(g.term)).map((o) => o.term);
    const first = text.find((t) => longer.reduce((s, l) => s.split(l).join(" "), t).includes(g.term));
    if (!first) bad.push(`${g.term} is used nowhere`);
    else if (!first.includes(g.first)) bad.push(`${g.term} is first used without "${g.first}": "${first.slice(0, 80)}"`);
  }
  assert.deepEqual(bad, []);
});
