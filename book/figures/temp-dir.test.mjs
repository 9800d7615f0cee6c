// scripts/temp-dir.mjs: a folder made there exists while its process runs, and is gone, with
// what was written in it, once the process has exited.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import test from "node:test";

const MODULE = new URL("../../scripts/temp-dir.mjs", import.meta.url).href;

test("a temporary folder is removed, with its files, when its process exits", () => {
  const child = `
    import { writeFileSync, existsSync } from "node:fs";
    const { tempDir } = await import(${JSON.stringify(MODULE)});
    const dir = tempDir("rq-temp-dir-test-");
    writeFileSync(dir + "/file.txt", "kept until exit");
    console.log(JSON.stringify({ dir, there: existsSync(dir + "/file.txt") }));`;
  const { dir, there } = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", child], { encoding: "utf8" }));
  assert.ok(there, "the folder and its file exist while the process runs");
  assert.ok(dir.includes("rq-temp-dir-test-"), dir);
  assert.equal(existsSync(dir), false, `${dir} outlived its process`);
});
