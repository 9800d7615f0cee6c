// Where cargo builds for this repository, for the node scripts (the book's figures, the web
// tests and benchmark): scripts/target-dir.sh answers, the one place that works it out.

import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));

let cached;

export function targetDir() {
  cached ??= execFileSync(path.join(HERE, "target-dir.sh"), { encoding: "utf8" }).trim();
  return cached;
}

// The `runqueue` CLI: $RUNQUEUE when set, else the release build in the target folder.
export function runqueueCli() {
  return process.env.RUNQUEUE ? path.resolve(process.env.RUNQUEUE) : path.join(targetDir(), "release/runqueue");
}
