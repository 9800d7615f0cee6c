// node --test book/widget/  (homework-progress.js: the reader's homework progress and its file)

import test from "node:test";
import assert from "node:assert/strict";
import { answerCount, exportFile, fromStorage, merge, readImport, record, storageKey, verdictText } from "./homework-progress.js";
import { STRINGS } from "./strings.js";

const mine = record(record({}, "sjf:1:medium", "q1", { text: "2 0 1", right: true }), "sjf:1:medium", "q2", { text: "9", right: false });

test("progress goes out as a file and comes back the same, per edition", () => {
  assert.equal(storageKey("zh-CN"), "runqueue-homework-progress/zh-CN");
  const file = exportFile(mine, "en");
  assert.deepEqual(readImport(file, "en"), { problems: mine });
  assert.deepEqual(readImport(file, "zh-CN"), { foreign: true });
  assert.deepEqual(fromStorage(JSON.stringify(mine)), mine);
  assert.deepEqual(fromStorage("{oops"), {});
  assert.deepEqual(fromStorage(null), {});
  assert.equal(answerCount(mine), 2);
});

test("an import lays its answers over the stored ones and keeps the rest", () => {
  const other = record({}, "sjf:1:medium", "q2", { text: "8.6", right: true });
  const both = merge(mine, other);
  assert.deepEqual(both["sjf:1:medium"], { q1: { text: "2 0 1", right: true }, q2: { text: "8.6", right: true } });
  assert.deepEqual(mine["sjf:1:medium"].q2, { text: "9", right: false }, "merge leaves its input alone");
});

test("broken and foreign files are refused with why", () => {
  assert.deepEqual(readImport("not json", "en"), { broken: "not JSON" });
  assert.deepEqual(readImport(JSON.stringify({ results: [] }), "en"), { foreign: true });
  const file = (problems, version = 1) => JSON.stringify({ format: "runqueue-homework-progress", version, edition: "en", problems });
  assert.match(readImport(file({ "sjf:1:medium": { q1: { text: 3, right: true } } }), "en").broken, /q1 is not a checked answer/);
  assert.match(readImport(file({ "sjf:1:medium": { q1: { text: "3" } } }), "en").broken, /q1 is not a checked answer/);
  assert.match(readImport(file({ "../x": {} }), "en").broken, /not a problem/);
  assert.match(readImport(file([]), "en").broken, /no problems/);
  assert.match(readImport(file(mine, 2), "en").broken, /version 2/);
});

test("every verdict of the wasm gets its own sentence in both editions", () => {
  for (const T of Object.values(STRINGS)) {
    const lines = [{ right: true }, { right: false }, { unreadable: "not-a-number", count: 0 }, { unreadable: "unknown-name", count: 0 },
      { unreadable: "wrong-count", count: 4 }].map((v) => verdictText(T, v));
    assert.equal(new Set(lines).size, lines.length, lines.join(" | "));
    assert.match(lines[4], /4/);
  }
});
