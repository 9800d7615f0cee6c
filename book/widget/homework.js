// The chapters' homework fields (`<form class="rq-hw" data-problem data-question data-answer>`,
// written by book/figures/homework.mjs): Enter or Check reads the typed answer with the CLI's
// own rules (homework/wasm, `Answer::check`: tolerance, task names and their numbers), fetched
// when the reader first uses a field; the result line says right, not yet, or why the answer
// cannot be read. What was checked is kept per edition in localStorage (homework-progress.js)
// and restored on the next visit; each problem's bar exports and imports it as a file.
// Under each block (`.rq-hw-student`) the reader types their name or student id and gets a
// problem of their own, drawn and answered in the page (homework-worker.js: the CLI's generator,
// the kernel run by the page's emulator), with the same fields and a worked solution to reveal;
// its progress is kept under its own seed. Each worked solution draws the kernel's run as task
// lanes (lanes.js, the experiments' own), when the reader first opens it. State is mirrored in
// `globalThis.runqueueHomework` for the tests.

import { answerCount, exportFile, fromStorage, merge, problemKey, readImport, record, storageKey, verdictText } from "./homework-progress.js";
import { answerField, schedOf, wordIn } from "./homework-text.js";
import { pageLang, stringsFor } from "./strings.js";

const EDITION = pageLang();
const T = stringsFor(EDITION);
const ASSETS = new URL("../", import.meta.url); // the site's runqueue/ folder
const KEY = storageKey(EDITION);
const LANG = EDITION === "zh-CN" ? "zh" : "en";
// The name last typed, so the reader need not type it on every chapter.
const STUDENT_KEY = "runqueue-homework-student";

function element(tag, props = {}, children = []) {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
}

let checker = null;
/** The wasm's `check`, loaded once, on first use. */
function loadChecker() {
  checker ??= import(new URL("pkg/runqueue_homework_wasm.js", ASSETS).href).then(async (wasm) => {
    await wasm.default(new URL("pkg/runqueue_homework_wasm_bg.wasm", ASSETS));
    return wasm.check;
  });
  return checker;
}

function load() {
  try {
    return fromStorage(localStorage.getItem(KEY));
  } catch {
    return {}; // storage refused (a private window): progress lasts the visit
  }
}

function save(problems) {
  try {
    localStorage.setItem(KEY, JSON.stringify(problems));
  } catch { /* as above */ }
}

const state = { problems: {}, forms: [], mine: {} };

function show(form, entry) {
  const input = form.querySelector("input");
  const result = form.querySelector(".rq-hw-result");
  input.value = entry?.text ?? "";
  result.textContent = entry ? (entry.right ? T.hwRight : T.hwNotYet) : "";
  form.dataset.verdict = entry ? (entry.right ? "right" : "not-yet") : "";
}

async function check(form) {
  const input = form.querySelector("input");
  const result = form.querySelector(".rq-hw-result");
  const typed = input.value;
  if (!typed.trim()) {
    result.textContent = T.hwEmpty;
    return;
  }
  result.textContent = T.hwLoading;
  let verdict;
  try {
    verdict = JSON.parse((await loadChecker())(form.dataset.answer, typed));
  } catch (e) {
    result.textContent = T.hwCannotCheck(e.message ?? String(e));
    form.dataset.verdict = "error";
    return;
  }
  result.textContent = verdictText(T, verdict);
  form.dataset.verdict = verdict.unreadable ? "unreadable" : verdict.right ? "right" : "not-yet";
  state.problems = record(state.problems, form.dataset.problem, form.dataset.question, { text: typed, right: verdict.right === true });
  save(state.problems);
}

function download(text, name) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  element("a", { href: url, download: name }).click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function progressBar(host, index) {
  const status = element("p", { className: "rq-hw-progress-status", role: "status" });
  const file = element("input", { type: "file", accept: ".json,application/json", hidden: true, className: "rq-hw-import-file" });
  file.addEventListener("change", async () => {
    const chosen = file.files[0];
    file.value = "";
    if (!chosen) return;
    const read = readImport(await chosen.text(), EDITION);
    if (read.foreign) status.textContent = T.hwForeign;
    else if (read.broken) status.textContent = T.hwBroken(read.broken);
    else {
      state.problems = merge(state.problems, read.problems);
      save(state.problems);
      for (const form of state.forms) show(form, state.problems[form.dataset.problem]?.[form.dataset.question]);
      status.textContent = T.hwImported(answerCount(read.problems));
    }
  });
  const exporter = element("button", { type: "button", textContent: T.hwExport });
  exporter.addEventListener("click", () => download(exportFile(state.problems, EDITION), `runqueue-homework-${EDITION}.json`));
  const importer = element("button", { type: "button", textContent: T.hwImport });
  importer.addEventListener("click", () => file.click());
  const label = `rq-hw-progress-${index}`;
  host.replaceChildren(element("div", { className: "rq-buttons" }, [exporter, " ", importer, file]), status);
  // A group, not a landmark: the print page holds one per chapter.
  host.setAttribute("role", "group");
  host.setAttribute("aria-labelledby", label);
  host.prepend(element("p", { id: label, className: "rq-hw-progress-title", textContent: T.hwProgress }));
}

/** A field's check on Enter or Check, and its last checked answer shown. */
function wire(form) {
  state.forms.push(form);
  show(form, state.problems[form.dataset.problem]?.[form.dataset.question]);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    check(form);
  });
  // The checker comes with the first use of a field, not with the page.
  form.querySelector("input").addEventListener("focus", () => loadChecker().catch(() => {}), { once: true });
}

let worker = null;
let queue = Promise.resolve();
/** The problem the worker draws for `request` ({chapter, level, student}), one at a time. */
function draw(request) {
  worker ??= new Worker(new URL("homework-worker.js", import.meta.url), { type: "module" });
  const job = queue.then(() => new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => (data.type === "problem" ? resolve(data) : reject(new Error(data.detail)));
    worker.onerror = (e) => reject(new Error(e.message || "the homework worker did not start"));
    worker.postMessage({ type: "generate", ...request });
  }));
  queue = job.catch(() => {});
  return job;
}

let catalog = null;
/** The site's catalog (how each policy orders its queue, for the lanes' queue view), once. */
function loadCatalog() {
  catalog ??= Promise.all([fetch(new URL("catalog.json", ASSETS)).then((r) => {
    if (!r.ok) throw new Error(`catalog.json: HTTP ${r.status}`);
    return r.json();
  }), import("./catalog.js")]).then(([raw, { normalizeCatalog }]) => normalizeCatalog(raw));
  return catalog;
}

/**
 * `host` (inside a closed <details>) gets the task lanes of a problem's run when the details
 * first open: a canvas needs its width, and the lanes' code and the catalog come only then.
 * `events` are the run's trace as the page takes it; `sched` names the policy whose queue order
 * the cursor's view shows.
 */
function lanesWhenOpened(host, events, sched) {
  const details = host.closest("details");
  const draw = async () => {
    if (host.dataset.drawn) return;
    host.dataset.drawn = "yes";
    try {
      const [{ LanesView }, { queueViews }, cat] = await Promise.all([import("./lanes.js"), import("./catalog.js"), loadCatalog()]);
      const lanes = new LanesView(host, { views: () => queueViews(cat, sched), charts: () => [] });
      lanes.add(events);
      host.lanes = lanes;
    } catch (err) {
      host.append(element("p", { className: "rq-hw-lanes-failed", textContent: T.hwLanesFailed(err.message) }));
    }
  };
  if (!details || details.open) draw();
  else details.addEventListener("toggle", () => details.open && draw());
}

/** `text` with its `code` spans as code elements (the CLI's messages quote command lines so). */
function inline(text) {
  return text.split("`").map((part, i) => (i % 2 ? element("code", { textContent: part }) : part));
}

/** A student's problem (the CLI's JSON) as the build's block shows one, with fields of its own. */
function problemView(p, words, command) {
  const say = (m) => wordIn(words, m, LANG);
  const title = (key, en) => element("p", {}, [element("strong", { textContent: say({ key, parts: {}, en }) })]);
  const [stop, space] = LANG === "zh" ? ["。", ""] : [". ", " "];
  const level = say({ key: `level-${p.level}`, parts: {}, en: p.level });
  const cell = (c) => (typeof c === "string" ? c : say(c));
  const row = (tag, cells) => element("tr", {}, cells.map((c) => element(tag, { textContent: c })));
  const table = element("table", {}, [element("thead", {}, [row("th", p.table.head.map(say))]), element("tbody", {}, p.table.rows.map((r) => row("td", r.map(cell))))]);
  const questions = p.questions.map((q, i) => {
    const field = element("template", { innerHTML: answerField(T, p, q, i + 1, `rq-hw-${p.chapter}-${p.seed}`) }).content.firstChild;
    return element("li", {}, [element("p", {}, inline(`${say(q.prompt)}${space}${say(q.tolerance)}`)), field]);
  });
  const answers = p.questions.map((q) => element("li", {}, [element("strong", { textContent: q.answer.text }), stop, ...inline(q.steps.map(say).join(space))]));
  const lanes = element("div", { className: "rq-hw-lanes" });
  const solution = element("details", { className: "rq-hw-solution" }, [
    element("summary", { textContent: T.hwStudentSolution }),
    element("ol", {}, answers),
    title("schedule-title", "The kernel's schedule"),
    lanes,
    element("ul", {}, p.scheduleText.map((s) => element("li", {}, inline(say(s))))),
    element("p", {}, inline(say(p.commandLine))),
  ]);
  lanesWhenOpened(lanes, p.events, schedOf(p.args));
  return element("section", { className: "rq-hw-mine" }, [
    element("p", {}, [element("strong", { textContent: T.hwStudentHeading(p.seed, level) }), stop, p.setup.map(say).join(space)]),
    table,
    title("rules-title", "Rules"),
    element("ul", {}, p.rules.map((r) => element("li", {}, inline(say(r))))),
    title("questions-title", "Questions"),
    element("ol", {}, questions),
    solution,
    element("p", {}, inline(T.hwStudentCommand(`\`${command}\``))),
  ]);
}

/** A block's "Your name or student id" field, its level and its "Make my problem" button. */
function studentBlock(host) {
  const { chapter, level } = host.dataset;
  const words = host.dataset.words ? JSON.parse(host.dataset.words) : null;
  const id = `rq-hw-student-${chapter}`;
  const name = element("input", { id, type: "text", autocomplete: "name", spellcheck: false });
  try {
    name.value = localStorage.getItem(STUDENT_KEY) ?? "";
  } catch { /* storage refused: nothing remembered */ }
  const levels = element("select", { id: `${id}-level` }, ["easy", "medium", "hard"].map((l) =>
    element("option", { value: l, selected: l === level, textContent: wordIn(words, { key: `level-${l}`, parts: {}, en: l }, LANG) })));
  const make = element("button", { type: "submit", textContent: T.hwStudentMake });
  const status = element("p", { className: "rq-hw-student-status", role: "status" });
  const mine = element("div", { className: "rq-hw-mine-host" });
  const form = element("form", { className: "rq-hw-draw" }, [
    element("label", { htmlFor: id, textContent: T.hwStudentName }), " ", name, " ",
    element("label", { htmlFor: `${id}-level`, textContent: T.hwStudentLevel }), " ", levels, " ", make,
  ]);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const student = name.value.split(/\s+/).filter(Boolean).join(" ");
    if (!student) return void (status.textContent = T.hwStudentEmpty);
    try {
      localStorage.setItem(STUDENT_KEY, student);
    } catch { /* as above */ }
    make.disabled = true;
    status.textContent = T.hwStudentWorking;
    try {
      const made = await draw({ chapter, level: levels.value, student });
      const problem = JSON.parse(made.json);
      const command = `runqueue homework --chapter ${chapter} --level ${levels.value} --student ${JSON.stringify(student)} --answers`;
      state.forms = state.forms.filter((f) => !mine.contains(f));
      mine.replaceChildren(problemView(problem, words, command));
      mine.querySelectorAll("form.rq-hw").forEach(wire);
      state.mine[chapter] = { student, key: problemKey(problem), json: made.json, markdown: made.markdown, ms: made.ms };
      status.textContent = T.hwStudentMade((made.ms / 1000).toFixed(1));
    } catch (err) {
      status.textContent = T.hwStudentFailed(err.message);
    } finally {
      make.disabled = false;
    }
  });
  host.replaceChildren(element("p", { className: "rq-hw-student-title" }, [element("strong", { textContent: T.hwStudentTitle })]), form, status, mine);
}

export function mount() {
  state.problems = load();
  document.querySelectorAll("form.rq-hw").forEach(wire);
  document.querySelectorAll(".rq-hw-progress").forEach(progressBar);
  document.querySelectorAll(".rq-hw-student").forEach(studentBlock);
  document.querySelectorAll(".rq-hw-lanes[data-events]").forEach((host) => lanesWhenOpened(host, JSON.parse(host.dataset.events), host.dataset.sched));
  globalThis.runqueueHomework = state;
}
