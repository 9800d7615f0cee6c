// An mdBook preprocessor for the Chinese edition and its message catalog. The Chinese build
// translates each chapter with mdbook-gettext *before* mdBook's `links` expands its includes,
// so that a figure the build generates (book/src/generated/) does not turn a translated
// paragraph back into English when it changes (mk/book.mk). A page that is a whole file from
// elsewhere (the reference pages are docs/*.md, the lab pages labs/*/README.md) would then be
// one untranslatable `{{#include}}` line: this preprocessor expands those includes first, in
// the POT extraction and in the Chinese build, so their text is in po/zh-CN.po like any
// chapter's. Includes of generated files, and any with an anchor or line range, stay for
// `links`.
//
// It also makes the formula blocks translatable. mdbook-xgettext takes a ```text block as a
// message only when it holds a string or a comment (a `"` or `//`); otherwise the block, its
// annotations ("how long until it first gets the CPU") included, stays English. A text block
// with English words in it gets `//` as an attribute of its fence (```text,//), which mdBook
// ignores and which makes the whole block one message.
//
// book.toml does not name it; mk/book.mk switches it on (MDBOOK_PREPROCESSOR__EXPANDPAGES__*).

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const INCLUDE = /\{\{#include\s+([^\s}:]+)\s*\}\}/g;

/** Whether `file` is one of the build's generated figures, left to `links`. */
const generated = (file, src) => path.relative(path.join(src, "generated"), file).split(path.sep)[0] !== "..";

/** `text` (the content of a file in `dir`) with its whole-file includes of authored pages expanded. */
export function expand(text, dir, src, seen = []) {
  return text.replace(INCLUDE, (whole, rel) => {
    const file = path.resolve(dir, rel);
    if (generated(file, src)) return whole;
    if (seen.includes(file)) throw new Error(`expand-pages: ${file} includes itself`);
    if (!fs.existsSync(file)) throw new Error(`expand-pages: ${rel} (from ${dir}) does not exist`);
    return expand(fs.readFileSync(file, "utf8"), path.dirname(file), src, [...seen, file]);
  });
}

const TEXT_BLOCK = /^```text\n([\s\S]*?)^```$/gm;

/** `text` with each ```text block holding English words marked for translation (above). */
export function markFormulas(text) {
  return text.replace(TEXT_BLOCK, (block, body) => (/[A-Za-z]{2,} [A-Za-z]{2,}/.test(body) ? block.replace(/^```text/, "```text,//") : block));
}

/**
 * Runs an mdBook preprocessor over stdin and stdout: `edit(content, dir, src)` gives each
 * chapter's new content, `dir` being the folder of its source file and `src` the book's.
 */
export function preprocess(edit) {
  if (process.argv[2] === "supports") process.exit(0);
  const [context, book] = JSON.parse(fs.readFileSync(0, "utf8"));
  const src = path.resolve(context.root, context.config.book.src ?? "src");
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    if (typeof node.content === "string" && typeof node.source_path === "string") {
      node.content = edit(node.content, path.dirname(path.join(src, node.source_path)), src);
    }
    Object.values(node).forEach(visit);
  };
  visit(book);
  process.stdout.write(JSON.stringify(book));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) preprocess((content, dir, src) => markFormulas(expand(content, dir, src)));
