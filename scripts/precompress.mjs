// `node scripts/precompress.mjs DIR CACHE`: beside every text-like file of the built book (pages,
// scripts, styles, the wasm, the kernel, JSON) that compression shrinks, writes FILE.br (Brotli,
// best) and FILE.gz (gzip -9), so a host that serves precompressed files (web/serve.mjs, nginx's
// gzip_static/brotli_static, docs/web.md) sends a fraction of the bytes without compressing
// on every request. Files smaller than MIN_BYTES are left alone. Brotli at its best is slow
// (a second per 100 KB), so each result is kept in CACHE under a hash of its input: a rebuild
// compresses only what changed, and the two editions' identical files once; what this build
// did not use is dropped from CACHE.

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { extname, join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const TYPES = new Set([".html", ".js", ".mjs", ".css", ".json", ".wasm", ".svg", ".elf", ".txt", ".tests", ".map", ".ttf", ".otf", ".eot"]);
const MIN_BYTES = 1024;

const used = new Set();

/** The Brotli and gzip forms of `bytes`, from `cache` when it has them. */
function compressed(bytes, cache) {
  const hash = createHash("sha256").update(bytes).digest("hex");
  used.add(hash);
  const key = join(cache, hash);
  if (existsSync(`${key}.br`) && existsSync(`${key}.gz`)) return { br: readFileSync(`${key}.br`), gz: readFileSync(`${key}.gz`) };
  const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
  const gz = gzipSync(bytes, { level: 9 });
  writeFileSync(`${key}.br`, br);
  writeFileSync(`${key}.gz`, gz);
  return { br, gz };
}

function precompress(dir, cache) {
  let [files, before, after] = [0, 0, 0];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (TYPES.has(extname(entry.name)) && statSync(path).size >= MIN_BYTES) {
        const bytes = readFileSync(path);
        const { br, gz } = compressed(bytes, cache);
        if (br.length >= bytes.length) continue;
        writeFileSync(`${path}.br`, br);
        writeFileSync(`${path}.gz`, gz);
        [files, before, after] = [files + 1, before + bytes.length, after + br.length];
      }
    }
  };
  walk(dir);
  return { files, before, after };
}

const [dir, cache] = process.argv.slice(2);
if (!dir || !cache) throw new Error("usage: node scripts/precompress.mjs DIR CACHE");
mkdirSync(cache, { recursive: true });
const t0 = Date.now();
const { files, before, after } = precompress(dir, cache);
for (const name of readdirSync(cache)) if (!used.has(name.replace(/\.(br|gz)$/, ""))) rmSync(join(cache, name));
console.log(`precompress: ${files} files, ${(before / 1e6).toFixed(1)} MB -> ${(after / 1e6).toFixed(1)} MB with Brotli, in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
