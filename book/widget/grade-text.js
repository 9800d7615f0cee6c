// The grading box's results in a language other than the grader's English. The grader
// (labs/grader, shared with `runqueue grade`) reports each test's verdict as messages: a key
// and its parts (labs/grader/src/message.rs). An English page shows the CLI's own table; a
// Chinese one words the same report with the tables below. Parts quoted from elsewhere (the
// kernel's console, the compiler, a violation as the reference model states it) are shown as
// code. web/tests/grade-text.test.mjs holds the keys and parts to the Rust table. Pure but for
// `renderReport`'s `code`, which makes a node.

const zh = {
  lab: (lab) => `编程实验 ${lab}`,
  columns: ["测试", "结果", "得分"],
  pass: "通过",
  fail: "未通过",
  violationAt: (ms) => `第一处违例在 ${ms} ms`,
  total: (score, max) => `总分：${score}/${max}`,
  messages: {
    "unknown-check": "测试文件中有未知的检查项 {check}（这是出题教师的错误，不是你的）",
    refused: "你的解答在构建之前就被拒绝了：{why}",
    "not-built": "你的解答无法编译：\n{error}",
    "not-finished": "内核没有运行完：{why}",
    panicked: "内核停止了：{message}",
    "protection-fault": "你的策略越出了它的保护域，只有利用编译器安全检查的漏洞才能做到，所以所有测试都记零分：{message}",
    "graded-zero": "记零分：你的策略在测试 {test} 中越出了它的保护域",
    "exit-code": "内核以退出码 {code} 结束；它的最后一行输出：{last}",
    "no-result": "内核没有输出 RESULT 行：负载没有完成",
    garbled: "跟踪格式混乱（{error}）：你的代码是否往跟踪里打印了东西？",
    inconsistent: "第一处违例：{violation}",
    "bad-parameters": "无法读取测试的参数：{error}",
    "check-failed": "检查项 {check}（{what}）未通过。\n第一处违例：{violation}",
    "nothing-checked": "检查项 {check}：这次运行没有给它任何可检查的决定（测试的负载太短？）",
    checked: "{check}：检查了 {count} 个决定，全部与参考模型一致",
  },
  // What each check verifies (the `what` of check-failed), by check name.
  checks: {
    "sjf.order": "每次换入都选预测突发最短的就绪任务",
    "sjf.tie": "预测突发相同的就绪任务中，选 tid 最小的",
    "sjf.pred": "策略报告的每个预测值（new、in、wake、state）对新任务是 tau0，之后是所测突发的指数平均，新的预测值由一个 state 事件报告",
    "sjf.burst": "抢占不结束突发：预测值在抢占前后保持不变",
    "sjf.srtf": "preempt=1 时，被唤醒或新到达的任务恰好在其预测值小于正在运行的任务的预测剩余时间时抢占；preempt=0 时从不抢占",
    "mlfq.level": "任务在某一级用完配额（逐级翻倍）后下降一级，不管它让出过多少次，并报告自己的级别（describe 和 milestone）",
    "mlfq.pick": "每次换入都从有就绪任务的最高级别中选任务",
    "mlfq.boost": "每个提升周期，所有任务都回到第 0 级",
    "mlfq.new": "新任务从第 0 级开始",
    "mlfq.preempt": "在正在运行的任务的级别之上变为就绪的任务得到 CPU：它被唤醒或到达时立即得到，正在运行的任务降级时在下一个时钟节拍得到",
    "mlfq.quantum": "同一级别轮流运行：正在运行的任务保有 CPU 直到用完本级的时间片（逐级翻倍），之后若有同级任务就绪就让出，等待最久的任务下一个运行",
    "bvt.place": "新任务从 SVT 开始，被唤醒的任务放在 max(A, SVT)：睡眠不带来补偿",
    "bvt.pick": "每次换入都选 E = A - W 最小的就绪任务（考虑弯曲量），并报告这个 E",
    "bvt.charge": "A 恰好按任务运行的 CPU 时间增长：即任务换入时报告的 avt=",
    "bvt.tie": "E 相同的就绪任务中，选 tid 最小的",
    "bvt.csa": "只有某个就绪任务的 E 比正在运行的任务至少低 C 时，时钟节拍或唤醒才切换，而且此时一定切换（在唤醒时，或不晚于下一个时钟节拍）",
  },
};

export const GRADE_TEXT = { "zh-CN": zh };

// Parts that quote another program's words, shown as code; the others are the page's own.
const QUOTED = new Set(["check", "why", "error", "message", "last", "violation"]);

/** A message as parts: strings, and `code(text)` for each quoted part. */
export function messageParts(text, { key, parts }, code) {
  const template = text.messages[key];
  if (template === undefined) return [code(`${key} ${JSON.stringify(parts)}`)];
  const out = [];
  let last = 0;
  for (const m of template.matchAll(/\{(\w+)\}/g)) {
    out.push(template.slice(last, m.index));
    const name = m[1];
    const value = name === "what" ? text.checks[parts.check] ?? parts.what : parts[name] ?? "";
    out.push(QUOTED.has(name) ? code(value) : value);
    last = m.index + m[0].length;
  }
  out.push(template.slice(last));
  return joinText(out);
}

/** `parts` with neighbouring strings joined and empty ones left out. */
const joinText = (parts) => parts.reduce((out, p) => {
  if (p === "") return out;
  if (typeof p === "string" && typeof out.at(-1) === "string") out[out.length - 1] += p;
  else out.push(p);
  return out;
}, []);

const ms = (ns) => `${Math.floor(ns / 1e6)}.${String(Math.floor(ns / 1e3) % 1000).padStart(3, "0")}`;

/**
 * The grader's report (`Grading.report_json()`) as the CLI's table lays it out, in `text`'s
 * language: parts for a <pre>, `code(text)` making each quoted part.
 */
export function renderReport(text, report, code) {
  const passed = (t) => t.score === t.max_score;
  const width = Math.max(text.columns[0].length, ...report.tests.map((t) => t.name.length));
  const out = [`${text.lab(report.lab)}\n${text.columns[0].padEnd(width)}  ${text.columns[1]}  ${text.columns[2]}\n`];
  for (const t of report.tests) {
    const verdict = passed(t) ? text.pass : text.fail;
    const at = t.violation_ns === null ? "" : `  ${text.violationAt(ms(t.violation_ns))}`;
    out.push(`${t.name.padEnd(width)}  ${verdict}  ${String(t.score).padStart(2)}/${t.max_score}${at}\n`);
  }
  out.push(`${text.total(report.score, report.max_score)}\n`);
  for (const t of report.tests.filter((t) => !passed(t))) {
    out.push(`\n--- ${t.name} ---\n`);
    t.messages.forEach((m, i) => out.push(...messageParts(text, m, code), i + 1 < t.messages.length ? "\n" : ""));
    out.push("\n");
  }
  return joinText(out);
}
