// Writes the Chinese edition's search index: the text of every page of a built edition, for
// book/i18n/search.js. Run after `mdbook build`:
//   node book/i18n/build-index.mjs book/build/zh-CN
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { entry } from "./search.js";
import { searchSynonyms } from "./catalog.mjs";

export const INDEX_FILE = "cjk-search.json";
// Pages that repeat or frame the others (the index only lists other pages' sections); the
// widget's own folder holds no chapters.
const SKIP = new Set(["print.html", "404.html", "toc.html", "book-index.html"]);
// Pages that define or cite the lessons' terms: found, but after the lessons that match.
const REFERENCE = new Set(["glossary.html", "bibliography.html"]);

function pages(root, dir = root) {
  return fs.readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name, "en"))
    .flatMap((e) => {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return e.name === "runqueue" ? [] : pages(root, p);
      return e.name.endsWith(".html") && !SKIP.has(e.name) ? [path.relative(root, p).split(path.sep).join("/")] : [];
    });
}

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
// Block tags end a run of text; inline ones (<em>, <code>, <a>) sit inside one, and Chinese puts
// no space around them, so a space there would split a word and hide it from substring search.
const BLOCK_TAG = /<\/?(?:p|div|h[1-6]|li|ul|ol|dl|dt|dd|table|tr|td|th|pre|blockquote|section|br|hr|details|summary)\b[^>]*>/gi;

export function plainText(html) {
  return html
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<(script|style|svg)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(BLOCK_TAG, " ")
    .replace(/<[^>]+>/g, "")
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e) => {
      if (e[0] === "#") return String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
      return ENTITIES[e.toLowerCase()] ?? m;
    });
}

/** `{path, title, headings, text}` of a page: its first heading, its other headings, and the text of its <main>. */
export function indexPage(relPath, html) {
  const main = html.match(/<main\b[^>]*>([\s\S]*?)<\/main>/i)?.[1] ?? "";
  const h1 = main.match(/<h1\b[^>]*>([\s\S]*?)<\/h1>/i)?.[1];
  const title = h1 ?? html.match(/<title>([\s\S]*?)<\/title>/i)?.[1] ?? relPath;
  const headings = [...main.matchAll(/<h([2-4])\b[^>]*>([\s\S]*?)<\/h\1>/gi)].map((m) => plainText(m[2]));
  return entry(relPath, plainText(title), plainText(main), headings, REFERENCE.has(path.basename(relPath)));
}

/** The index of a built edition: its pages, and the search's synonyms (po/glossary.md). */
export function buildIndex(root) {
  return { pages: pages(root).map((p) => indexPage(p, fs.readFileSync(path.join(root, p), "utf8"))), synonyms: searchSynonyms() };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2];
  if (!root || !fs.existsSync(path.join(root, "index.html"))) {
    console.error("usage: node build-index.mjs BUILT_EDITION_DIR (a folder holding index.html)");
    process.exit(2);
  }
  const index = buildIndex(root);
  const json = JSON.stringify(index);
  fs.writeFileSync(path.join(root, INDEX_FILE), json);
  console.log(`build-index: ${index.pages.length} pages, ${json.length} bytes in ${path.join(root, INDEX_FILE)}`);
}
