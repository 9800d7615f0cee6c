// Temporary folders that go when the process exits, so that the tests and the book's build
// leave nothing behind in the system's temporary folder.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made = [];
process.once("exit", () => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A new folder in the system's temporary folder, named `prefix` and a random tail; removed at exit. */
export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
