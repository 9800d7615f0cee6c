// `node scripts/mdbook-fixes.mjs EDITION_DIR`, after `mdbook build`: two things mdBook's
// templates do not offer, done on what it wrote.
// - toc.html, the sidebar's frame for readers without JavaScript (the only readers who see it),
//   is a bare list: it gets a title, a main landmark and a heading, in the edition's language,
//   and the book's icon (without one, browsers ask for a /favicon.ico the site does not have).
// - Every page ends with mdBook's classic scripts (search, highlighting, clipboard, book.js),
//   which the browser must fetch and run before it shows the page: `defer` lets it show the text
//   first. They still run in their order, before DOMContentLoaded, after the page's modules.

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const CONTENTS = { en: "Contents", "zh-CN": "目录" };

const [root] = process.argv.slice(2);
if (!root) throw new Error("usage: node scripts/mdbook-fixes.mjs EDITION_DIR");

const toc = join(root, "toc.html");
const html = readFileSync(toc, "utf8");
const lang = /<html lang="([^"]+)"/.exec(html)?.[1] ?? "en";
const index = readFileSync(join(root, "index.html"), "utf8");
const book = /<title>([^<]*)<\/title>/.exec(index)?.[1].split(" - ").at(-1) ?? "";
const icon = /<link rel="icon" href="([^"]+)">/.exec(index)?.[1];
const contents = CONTENTS[lang] ?? CONTENTS.en;
const list = /(<ol class="chapter">[\s\S]*<\/ol>)/.exec(html);
if (!list || html.includes("<main>")) throw new Error(`${toc}: not the toc.html this script knows (did mdBook change it?)`);
writeFileSync(toc, html
  .replace('<meta charset="UTF-8">', `<meta charset="UTF-8">\n        <title>${contents} - ${book}</title>${icon ? `\n        <link rel="icon" href="${icon}">` : ""}`)
  .replace(list[1], `<main><h1 class="rq-sr-only">${contents}</h1><nav aria-label="${contents}">${list[1]}</nav></main>`));

const MDBOOK_SCRIPTS = /<script src="([^"]*(?:elasticlunr|mark|searcher|clipboard|highlight|book)-[0-9a-f]+(?:\.min)?\.js)"><\/script>/g;
const pages = [];
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && !["runqueue", "zh-CN"].includes(entry.name)) walk(path);
    else if (entry.name.endsWith(".html")) pages.push(path);
  }
};
walk(root);
for (const page of pages) {
  const text = readFileSync(page, "utf8");
  writeFileSync(page, text.replace(MDBOOK_SCRIPTS, '<script src="$1" defer></script>'));
}

