// `node book/offline/precache.mjs EDITION_DIR NAME`: writes EDITION_DIR/sw.js, the book's
// service worker (sw.js beside this file) with the files of that edition it keeps for offline
// reading and their version, a hash of their paths and bytes. Run by `make book` on each
// edition once it is complete.

import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
// Not kept: another edition, the precompressed copies (the server picks those), the worker itself,
// the build's figures for the tests, the large downloads a reader fetches on purpose (the sources,
// the bench guest, Linux and what comes with it), and dot files (.nojekyll), which many servers
// refuse to serve: one missing file fails the install.
const SKIP = [/^zh-CN\//, /\.(gz|br)$/, /^sw\.js$/, /^generated\//, /^runqueue\/(runqueue-src\.tar\.gz|bench\.elf|linux\/)/, /(^|\/)\./];

/** The edition's files, as URLs relative to its root, sorted. */
export function editionFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(relative(root, path).split(sep).join("/"));
    }
  };
  walk(root);
  return files.filter((f) => !SKIP.some((re) => re.test(f))).sort();
}

export function writeWorker(root, edition) {
  const files = editionFiles(root);
  const hash = createHash("sha256");
  for (const f of files) hash.update(`${f}\0`).update(readFileSync(join(root, f)));
  const precache = { edition, version: hash.digest("hex").slice(0, 16), files: files.map((f) => encodeURI(f)) };
  const template = readFileSync(join(HERE, "sw.js"), "utf8");
  const marker = /\/\* PRECACHE \*\/ \{[^\n]*\}/;
  if (!marker.test(template)) throw new Error("book/offline/sw.js lost its /* PRECACHE */ line");
  writeFileSync(join(root, "sw.js"), template.replace(marker, () => JSON.stringify(precache)));
  return precache;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [root, edition] = process.argv.slice(2);
  if (!root || !edition) throw new Error("usage: node book/offline/precache.mjs EDITION_DIR NAME");
  const { files, version } = writeWorker(root, edition);
  const bytes = files.reduce((n, f) => n + readFileSync(join(root, decodeURI(f))).length, 0);
  console.log(`offline: ${root}/sw.js keeps ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB, version ${version}`);
}
