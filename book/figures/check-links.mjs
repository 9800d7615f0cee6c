// Checks every relative link and fragment in a built book: the page or file must exist, and a
// `#fragment` must name an element id on that page. External links are not followed (no network).
//   node book/figures/check-links.mjs book/build
import fs from "node:fs";
import path from "node:path";

const ATTR = /\s(?:href|src)="([^"]*)"/g;
const ID = /\sid="([^"]*)"/g;

function htmlFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? htmlFiles(p) : e.name.endsWith(".html") ? [p] : [];
  });
}

const decode = (s) => decodeURIComponent(s.replace(/&amp;/g, "&"));

export function checkLinks(root) {
  const ids = new Map();
  const idsOf = (file) => {
    if (!ids.has(file)) ids.set(file, new Set([...fs.readFileSync(file, "utf8").matchAll(ID)].map((m) => decode(m[1]))));
    return ids.get(file);
  };
  const problems = [];
  for (const page of htmlFiles(root)) {
    // mdBook's print page and 404 page resolve links against the site root, not their own folder.
    if (path.basename(page) === "404.html") continue;
    const html = fs.readFileSync(page, "utf8");
    for (const [, raw] of html.matchAll(ATTR)) {
      if (!raw || /^(?:[a-z]+:|\/\/|\{\{)/i.test(raw)) continue;
      const [file, fragment] = raw.split("#", 2);
      const target = file ? path.resolve(path.dirname(page), decode(file.split("?")[0])) : page;
      const rel = path.relative(root, page);
      if (!fs.existsSync(target)) problems.push(`${rel}: ${raw} does not exist`);
      else if (fragment && target.endsWith(".html") && !idsOf(target).has(decode(fragment))) {
        problems.push(`${rel}: ${raw} names no element on its page`);
      }
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.argv[2];
  if (!root || !fs.existsSync(root)) {
    console.error("usage: node check-links.mjs BUILT_BOOK_DIR");
    process.exit(2);
  }
  const problems = checkLinks(root);
  for (const p of problems) console.error(p);
  console.log(`check-links: ${problems.length} broken link(s) in ${root}`);
  process.exit(problems.length ? 1 : 0);
}
