// For the figures' tests: a temporary folder holding `files` ({path: text}), made afresh.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export function tempTree(files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "figures-"));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}
