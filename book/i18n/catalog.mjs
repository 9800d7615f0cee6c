// Reading the Chinese edition's gettext catalog (po/zh-CN.po) and its terminology table
// (po/glossary.md), for the tests that hold the translation to one term per concept. Pure.

import fs from "node:fs";

const PO = new URL("../../po/zh-CN.po", import.meta.url);
const GLOSSARY = new URL("../../po/glossary.md", import.meta.url);

const unescape = (s) => s.replace(/\\(.)/g, (_, c) => ({ n: "\n", t: "\t" })[c] ?? c);

/** The catalog's messages in its order (the book's reading order): `{msgid, msgstr, refs}`. */
export function readCatalog(text = fs.readFileSync(PO, "utf8")) {
  const messages = [];
  for (const block of text.split(/\n\n+/)) {
    const lines = block.split("\n").filter((l) => !l.startsWith("#~"));
    const refs = lines.filter((l) => l.startsWith("#:")).map((l) => l.slice(2).trim()).join(" ");
    const field = (name) => {
      const at = lines.findIndex((l) => l.startsWith(`${name} `));
      if (at < 0) return null;
      const parts = [lines[at].slice(name.length + 1)];
      for (let i = at + 1; i < lines.length && lines[i].startsWith('"'); i++) parts.push(lines[i]);
      return parts.map((p) => unescape(p.trim().slice(1, -1))).join("");
    };
    const msgid = field("msgid");
    if (msgid) messages.push({ msgid, msgstr: field("msgstr") ?? "", refs });
  }
  return messages;
}

/**
 * The words a reader reads of a Markdown message: without code spans, include directives,
 * HTML tags, link targets and addresses (what stays English on purpose).
 */
export function prose(markdown) {
  return markdown
    .replace(/(`+)[\s\S]*?\1/g, " ")
    .replace(/\{\{[^}]*\}\}/g, " ")
    .replace(/<[^>]+>/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/https?:\/\/\S+/g, " ");
}

/** po/glossary.md's table: `{term, first, english: RegExp|null, avoid: [{text, word}], also: [text]}`. */
export function readGlossary(text = fs.readFileSync(GLOSSARY, "utf8")) {
  const rows = text.split("\n").filter((l) => /^\|/.test(l)).slice(2);
  return rows.map((row) => {
    // Cells are separated by `|` not escaped as `\|` (regular expressions use it).
    const cells = row.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, "|"));
    const [term, first, english, avoid, also] = cells;
    const list = (cell) => (cell ? cell.split(/,\s*/) : []);
    const code = english.match(/^`(.*)`$/);
    return {
      term,
      first,
      english: code ? new RegExp(code[1], "i") : null,
      // `word` in backticks: an English word to avoid in Chinese prose; else a Chinese variant.
      avoid: list(avoid).map((a) => (a.startsWith("`") ? { text: a.slice(1, -1), word: true } : { text: a, word: false })),
      also: list(also),
    };
  });
}

/** Where `variant` occurs in the Chinese prose `text` (an English word only as a whole word). */
export function findVariant(text, variant) {
  if (!variant.word) return text.includes(variant.text);
  return new RegExp(`(?<![A-Za-z0-9_.=/-])${variant.text}(?![A-Za-z0-9_=/-])`).test(text);
}

/** Chinese prose without its first-use glosses: an English term alone in （…） or “…”. */
export function withoutGlosses(text) {
  return text.replace(/（[A-Za-z][A-Za-z ,.'-]*）/g, "").replace(/“[A-Za-z][A-Za-z -]*”/g, "");
}

/** The Chinese search's synonyms: each ruled-out variant and each other word, to its term. */
export function searchSynonyms(glossary = readGlossary()) {
  const synonyms = {};
  for (const g of glossary) for (const word of [...g.avoid.map((a) => a.text), ...g.also]) synonyms[word] = g.term;
  return synonyms;
}
