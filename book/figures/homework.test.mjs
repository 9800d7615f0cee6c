// node --test book/figures/  (homework.mjs: the chapters' generated problems, in both editions)
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { problemMarkdown, word } from "./homework.mjs";
import { STRINGS } from "../widget/strings.js";
import { wordIn } from "../widget/homework-text.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// The CLI's messages the page never shows: the handout's own headings.
const HANDOUT_ONLY = new Set(["problem-title", "answers-title"]);

const m = (key, parts = {}, en = key) => ({ key, parts, en });

test("every message the CLI can send has its Chinese", () => {
  const source = fs.readFileSync(path.join(ROOT, "homework/src/message.rs"), "utf8");
  const keys = [...source.matchAll(/^ {4}\("([a-z0-9-]+)", "/gm)].map((k) => k[1]).filter((k) => !HANDOUT_ONLY.has(k));
  assert.ok(keys.length > 40, `${keys.length} messages`);
  for (const key of keys) assert.doesNotThrow(() => word(m(key), "zh"), key);
  assert.throws(() => word(m("no-such-message"), "zh"), /no Chinese for the message no-such-message/);
  assert.equal(word(m("q-running", { t: "3.25" }), "zh"), "3.25 ms 时哪个任务在运行？");
  assert.equal(word(m("setup-jobs", { policy: "Round Robin" }), "zh"), "这些任务在 时间片轮转 下运行。每个任务需要 CPU 运行其突发时间，然后退出；都不睡眠。");
});

test("the page's block folds every answer and the kernel's schedule, and gives each question its field", () => {
  const problem = {
    chapter: "sjf",
    seed: 1,
    level: "medium",
    args: "sched=sjf workload=timed-bursts wl.burst_ms=3,1 wl.arrive_us=500,500",
    leadUs: 500,
    setup: [m("setup-jobs", { policy: "SJF" }, "These tasks run on SJF.")],
    table: { head: [m("col-task", {}, "task")], rows: [["job0"], ["job1"]] },
    rules: [m("rule-sjf", {}, "SJF: shortest first.")],
    questions: [
      { id: "q1", prompt: m("q-order", {}, "In which order?"), tolerance: m("answer-order", {}, "Give the names."), answer: { kind: "order", value: ["job1", "job0"], text: "job1, job0" }, steps: [m("s-finished", { task: "job1", t: "1.02" }, "job1 finished at 1.02 ms.")] },
      { id: "q2", prompt: m("q-turnaround", { task: "job0" }, "Turnaround of job0?"), tolerance: m("tolerance-exact", {}, "(exact)"), answer: { kind: "number", value: 4.08, decimals: 2, unit: "ms", abs: 0, rel: 0, text: "4.08" }, steps: [] },
    ],
    scheduleText: [m("stint", { from: "0.02", to: "1.02", task: "job1", hart: "0", why: "finished" }, "0.02-1.02 ms: job1 on hart 0 (finished)")],
    commandLine: m("command-line", { args: "`sched=sjf`", lead: "0.50" }, "The kernel's command line: `sched=sjf`."),
  };
  for (const [lang, answer] of [["en", "Answer"], ["zh", "答案"]]) {
    const text = problemMarkdown(problem, lang);
    const folds = text.match(new RegExp(`<details><summary>${answer}</summary>\\n\\n {3}\\*\\*([^*]+)\\*\\*`, "g")) ?? [];
    assert.equal(folds.length, 2, `${lang}: ${text}`);
    assert.ok(folds[0].endsWith("**job1, job0**") && folds[1].endsWith("**4.08**"), lang);
    // No answer shows outside a fold: the text before the first fold names no result (the
    // fields carry theirs in an attribute, for the page's check).
    const shown = text.replace(/ data-answer="[^"]*"/g, "");
    assert.ok(!shown.slice(0, shown.indexOf("<details>")).includes("4.08"), lang);
    // Each question has its field, labelled, carrying its answer's JSON for homework.js.
    const T = STRINGS[lang === "zh" ? "zh-CN" : "en"];
    const fields = [...text.matchAll(/^ {3}<form class="rq-hw" data-problem="sjf:1:medium" data-question="(q\d)" data-answer="([^"]*)"><label for="(rq-hw-sjf-q\d)">([^<]*)<\/label> <input id="([^"]+)"[^>]*> <button type="submit">([^<]*)<\/button> <span class="rq-hw-result" role="status"><\/span><\/form>$/gm)];
    assert.deepEqual(fields.map((f) => [f[1], f[3], f[4], f[5], f[6]]),
      [["q1", "rq-hw-sjf-q1", T.hwAnswerLabel(1), "rq-hw-sjf-q1", T.hwCheck], ["q2", "rq-hw-sjf-q2", T.hwAnswerLabel(2), "rq-hw-sjf-q2", T.hwCheck]], lang);
    const unescape = (a) => a.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
    assert.deepEqual(fields.map((f) => JSON.parse(unescape(f[2]))), problem.questions.map((q) => q.answer), lang);
    assert.ok(text.includes('<div class="rq-hw-progress" data-problem="sjf:1:medium"></div>'), lang);
    assert.ok(text.includes("--chapter sjf --level medium"), lang);
    // The reader's own problem is offered under the block, with the Chinese words on that edition.
    const student = text.match(/^<div class="rq-hw-student" data-chapter="sjf" data-level="medium"(?: data-words="([^"]*)")?><\/div>$/m);
    assert.ok(student, lang);
    if (lang === "zh") assert.equal(wordIn(JSON.parse(unescape(student[1])), problem.rules[0], "zh"), word(problem.rules[0], "zh"));
    else assert.equal(student[1], undefined);
  }
  assert.ok(problemMarkdown(problem, "zh").includes("0.02-1.02 ms：job1 在硬件线程 0 上（完成）"));
  assert.ok(problemMarkdown(problem, "en").includes("The kernel's command line: `sched=sjf`."));
  assert.ok(problemMarkdown(problem, "zh").includes("内核的命令行：`sched=sjf`。其中的到达时间比表中晚 0.50 ms"));
});
