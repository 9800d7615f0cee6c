// Where cargo builds for this repository, for the node scripts (the book's figures, the web
// tests and benchmark): the `target_directory` cargo reports, which follows CARGO_TARGET_DIR
// and cargo's build.target-dir setting; target/ in the checkout when cargo cannot say.

import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

let cached;

export function targetDir() {
  if (cached) return cached;
  try {
    const out = execFileSync(process.env.CARGO ?? "cargo", ["metadata", "--format-version", "1", "--no-deps"], {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 64 << 20,
    });
    cached = JSON.parse(out).target_directory;
  } catch {
    const env = process.env.CARGO_TARGET_DIR;
    cached = env ? path.resolve(ROOT, env) : path.join(ROOT, "target");
  }
  return cached;
}

// The `runqueue` CLI: $RUNQUEUE when set, else the release build in the target folder.
export function runqueueCli() {
  return process.env.RUNQUEUE ? path.resolve(process.env.RUNQUEUE) : path.join(targetDir(), "release/runqueue");
}
