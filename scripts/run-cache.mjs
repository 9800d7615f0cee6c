// Runs of the CLI kept across builds and clones, in $RUNQUEUE_CACHE (else ~/.cache/runqueue):
// a run prints the same bytes whenever the CLI's inputs digest (`runqueue inputs`: the kernel,
// the benchmark and the emulator's sources it was built from, and the compiler) and its
// arguments are the same, so what is kept under their key can stand for running it again.
// The book's figures (book/figures/generate.mjs) and the determinism check
// (scripts/test-determinism.mjs) keep their runs here, each in a folder of its own.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// Entries nobody used for this long are removed when a folder is opened.
const KEEP_DAYS = 30;

export function cacheRoot() {
  if (process.env.RUNQUEUE_CACHE) return path.resolve(process.env.RUNQUEUE_CACHE);
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "runqueue");
}

// The folder `name` of the cache, made if missing, with its stale entries removed.
export function cacheFolder(name) {
  const dir = path.join(cacheRoot(), name);
  fs.mkdirSync(dir, { recursive: true });
  const old = Date.now() - KEEP_DAYS * 86_400_000;
  for (const file of fs.readdirSync(dir)) {
    const p = path.join(dir, file);
    try {
      if (fs.statSync(p).mtimeMs < old) fs.rmSync(p, { force: true });
    } catch {
      // Removed by another run meanwhile.
    }
  }
  return dir;
}

// What `runqueue inputs` prints for this CLI.
export function runInputs(cli) {
  const digest = execFileSync(cli, ["inputs"], { encoding: "utf8" }).trim();
  if (!/^[0-9a-f]{32}$/.test(digest)) throw new Error(`${cli} inputs printed ${JSON.stringify(digest)}, not a digest`);
  return digest;
}

// The key of a run: the inputs digest and the command line (with no paths of this machine in it).
export function runKey(inputs, argv) {
  return createHash("sha256").update(`${inputs}\n${JSON.stringify(argv)}`).digest("hex").slice(0, 32);
}

// The entry's bytes when it exists (and marks it used), else undefined.
export function readEntry(file) {
  try {
    const bytes = fs.readFileSync(file);
    const now = new Date();
    fs.utimesSync(file, now, now);
    return bytes;
  } catch {
    return undefined;
  }
}

// Writes an entry whole or not at all: runs side by side (make test's suites) may write the
// same key at once.
export function writeEntry(file, bytes) {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  fs.writeFileSync(tmp, bytes);
  fs.renameSync(tmp, file);
}
