// For the figures' tests: a temporary folder holding `files` ({path: text}), made afresh.
import fs from "node:fs";
import path from "node:path";
import { tempDir } from "../../scripts/temp-dir.mjs";

export function tempTree(files) {
  const dir = tempDir("figures-");
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}
