// The Chinese edition's page frame in Chinese. mdBook's templates (index.hbs, book.js, the 404
// page) hold their labels in English and mdbook-gettext translates only the chapters, so after
// `mdbook build` this rewrites the built frame of the Chinese edition: the menu bar's titles and
// labels, the theme menu, the keyboard help (with our search's keys, since mdBook's own search
// is off there), the page navigation, the 404 page, and book.js's tooltips. Run by `make book`:
//   node book/i18n/localize-frame.mjs book/build/zh-CN
// Each text must be found where it is expected, so an mdBook upgrade that rewords one fails the
// build instead of leaving English in the Chinese edition.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Attribute values and element texts of index.hbs (mdBook 0.5), as they appear in every page.
export const FRAME = [
  ['aria-label="Table of contents"', 'aria-label="目录"'],
  ['title="Toggle Table of Contents" aria-label="Toggle Table of Contents"', 'title="显示或隐藏目录" aria-label="显示或隐藏目录"'],
  ['title="Change theme" aria-label="Change theme"', 'title="更换主题" aria-label="更换主题"'],
  ['aria-label="Themes"', 'aria-label="主题"'],
  ['id="mdbook-theme-default_theme">Auto<', 'id="mdbook-theme-default_theme">自动（跟随系统）<'],
  ['id="mdbook-theme-light">Light<', 'id="mdbook-theme-light">浅色<'],
  ['id="mdbook-theme-rust">Rust<', 'id="mdbook-theme-rust">铁锈色<'],
  ['id="mdbook-theme-coal">Coal<', 'id="mdbook-theme-coal">煤黑<'],
  ['id="mdbook-theme-navy">Navy<', 'id="mdbook-theme-navy">藏青<'],
  ['id="mdbook-theme-ayu">Ayu<', 'id="mdbook-theme-ayu">Ayu 深色<'],
  ['title="Print this book" aria-label="Print this book"', 'title="打印本书" aria-label="打印本书"'],
  ['<h2 class="mdbook-help-title">Keyboard shortcuts</h2>', '<h2 class="mdbook-help-title">键盘快捷键</h2>'],
  ['<p>Press <kbd>←</kbd> or <kbd>→</kbd> to navigate between chapters</p>',
    '<p>按 <kbd>←</kbd> 或 <kbd>→</kbd> 在章节之间跳转</p>\n                <p>按 <kbd>S</kbd> 或 <kbd>/</kbd> 搜索本书</p>'],
  ['<p>Press <kbd>?</kbd> to show this help</p>', '<p>按 <kbd>?</kbd> 显示本帮助</p>'],
  ['<p>Press <kbd>Esc</kbd> to hide this help</p>', '<p>按 <kbd>Esc</kbd> 隐藏本帮助</p>'],
];

// Only on pages with a previous or next chapter (every page but the first and last has both).
export const NAVIGATION = [
  [/aria-label="Page navigation"/g, 'aria-label="翻页"'],
  [/title="Previous chapter" aria-label="Previous chapter"/g, 'title="上一章" aria-label="上一章"'],
  [/title="Next chapter" aria-label="Next chapter"/g, 'title="下一章" aria-label="下一章"'],
];

// mdBook's 404 page when the book has no 404.md of its own.
const NOT_FOUND = [
  [/<h1 id="document-not-found-404">(?:<a[^>]*>)?Document not found \(404\)(?:<\/a>)?<\/h1>/,
    '<h1 id="document-not-found-404">页面不存在（404）</h1>'],
  [/<p>This URL is invalid, sorry\. Please use the navigation bar or search to continue\.<\/p>/,
    "<p>抱歉，这个网址无效。请使用导航栏或搜索继续阅读。</p>"],
  [/<title>Page not found - /, "<title>页面不存在 - "],
];

// book.js's tooltips on code blocks (the copy button is on every code block).
export const SCRIPT = [
  ["'Copy to clipboard'", "'复制到剪贴板'"],
  ["'Copied!'", "'已复制！'"],
  ["'Clipboard error!'", "'复制失败！'"],
];

/** `html` with every pair's first text replaced by its second; throws when one is missing. */
export function replaceAll(html, pairs, where) {
  return pairs.reduce((text, [from, to]) => {
    const found = typeof from === "string" ? text.includes(from) : from.test(text);
    if (typeof from !== "string") from.lastIndex = 0;
    if (!found) throw new Error(`localize-frame: ${where} has no ${from}: did mdBook's template change?`);
    return typeof from === "string" ? text.split(from).join(to) : text.replace(from, to);
  }, html);
}

export function localizePage(html, where) {
  let out = replaceAll(html, FRAME, where);
  for (const [from, to] of NAVIGATION) out = out.replace(from, to);
  if (/id="document-not-found-404"/.test(out)) out = replaceAll(out, NOT_FOUND, where);
  return out;
}

function htmlPages(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "runqueue" ? [] : htmlPages(p);
    // toc.html is the sidebar's no-script frame: the chapter list, no menu bar.
    return e.name.endsWith(".html") && e.name !== "toc.html" ? [p] : [];
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2];
  if (!root || !fs.existsSync(path.join(root, "index.html"))) {
    console.error("usage: node localize-frame.mjs BUILT_EDITION_DIR (a folder holding index.html)");
    process.exit(2);
  }
  const pages = htmlPages(root);
  for (const page of pages) fs.writeFileSync(page, localizePage(fs.readFileSync(page, "utf8"), page));
  const scripts = fs.readdirSync(root).filter((f) => /^book(-[0-9a-f]+)?\.js$/.test(f));
  if (scripts.length !== 1) throw new Error(`localize-frame: expected one book.js in ${root}, found ${scripts.join(", ") || "none"}`);
  const script = path.join(root, scripts[0]);
  fs.writeFileSync(script, replaceAll(fs.readFileSync(script, "utf8"), SCRIPT, script));
  console.log(`localize-frame: ${pages.length} pages and ${scripts[0]} of ${root} in Chinese`);
}
