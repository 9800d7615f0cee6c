// The grading box's Chinese wording of the grader's report (book/widget/grade-text.js) against
// the grader's own table of messages (labs/grader/src/message.rs) and checks: every message
// key with the same parts, every check described. Node only.

import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { GRADE_TEXT, messageParts, renderReport } from "./grade-text.js";

const source = (file) => readFileSync(new URL(`../../labs/grader/src/${file}`, import.meta.url), "utf8");
const placeholders = (template) => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

// `("key", "template")` pairs of a Rust table such as message.rs's ENGLISH or a lab's CHECKS.
function rustTable(text, name) {
  const body = text.slice(text.indexOf(`pub const ${name}`)).split("\n];")[0];
  return [...body.matchAll(/\(\s*"([^"]+)",\s*"((?:[^"\\]|\\.)*)"\s*\)/g)].map((m) => [m[1], m[2]]);
}

const ENGLISH = rustTable(source("message.rs"), "ENGLISH");
const CHECKS = ["sjf.rs", "mlfq.rs", "bvt.rs"].flatMap((f) => rustTable(source(f), "CHECKS"));

test("every language words every grader message with the same parts, and describes every check", () => {
  assert.ok(ENGLISH.length >= 10 && CHECKS.length >= 15, `${ENGLISH.length} messages, ${CHECKS.length} checks read from the grader`);
  for (const [lang, text] of Object.entries(GRADE_TEXT)) {
    assert.deepEqual(Object.keys(text.messages).sort(), ENGLISH.map(([k]) => k).sort(), `${lang}: the grader's message keys`);
    for (const [key, english] of ENGLISH) {
      // `what` (a check's description) comes from the language's own `checks`.
      assert.deepEqual(placeholders(text.messages[key]), placeholders(english), `${lang}.${key}`);
      assert.match(text.messages[key], /\p{Script=Han}/u, `${lang}.${key} is translated`);
    }
    assert.deepEqual(Object.keys(text.checks).sort(), CHECKS.map(([k]) => k).sort(), `${lang}: the labs' checks`);
  }
});

const code = (text) => ({ code: text });

test("a report is laid out as the CLI's table, quoted parts as code", () => {
  const report = {
    lab: "sjf", score: 2, max_score: 5,
    tests: [
      { name: "sjf-order", score: 2, max_score: 2, violation_ns: null, messages: [{ key: "checked", parts: { check: "sjf.order", count: "40" } }] },
      { name: "sjf-tie", score: 0, max_score: 3, violation_ns: 1_500_000, messages: [{ key: "check-failed", parts: { check: "sjf.tie", what: "between ready tasks...", violation: "tie not to the lowest tid at 10 ns: ..." } }] },
    ],
  };
  const parts = renderReport(GRADE_TEXT["zh-CN"], report, code);
  const text = parts.map((p) => (typeof p === "string" ? p : `<${p.code}>`)).join("");
  assert.match(text, /^编程实验 sjf\n测试 +结果  得分\n/);
  assert.match(text, /sjf-order  通过   2\/2\n/);
  assert.match(text, /sjf-tie    未通过   0\/3  第一处违例在 1\.500 ms\n/);
  assert.match(text, /总分：2\/5\n/);
  assert.match(text, /--- sjf-tie ---\n检查项 <sjf\.tie>（预测突发相同的就绪任务中，选 tid 最小的）未通过。\n第一处违例：<tie not to the lowest tid at 10 ns: \.\.\.>\n$/);
  assert.doesNotMatch(text, /sjf\.order：检查了/, "a passed test's messages are not repeated below the table");
  assert.deepEqual(messageParts(GRADE_TEXT["zh-CN"], { key: "exit-code", parts: { code: "3", last: "boom" } }, code),
    ["内核以退出码 3 结束；它的最后一行输出：", { code: "boom" }]);
  assert.deepEqual(messageParts(GRADE_TEXT["zh-CN"], { key: "from-a-newer-grader", parts: { a: "1" } }, code), [{ code: 'from-a-newer-grader {"a":"1"}' }],
    "a key the page does not know is shown as it came");
});
