// The chapters' homework fields (`<form class="rq-hw" data-problem data-question data-answer>`,
// written by book/figures/homework.mjs): Enter or Check reads the typed answer with the CLI's
// own rules (homework/wasm, `Answer::check`: tolerance, task names and their numbers), fetched
// when the reader first uses a field; the result line says right, not yet, or why the answer
// cannot be read. What was checked is kept per edition in localStorage (homework-progress.js)
// and restored on the next visit; each problem's bar exports and imports it as a file.
// State is mirrored in `globalThis.runqueueHomework` for the tests.

import { answerCount, exportFile, fromStorage, merge, readImport, record, storageKey, verdictText } from "./homework-progress.js";
import { pageLang, stringsFor } from "./strings.js";

const EDITION = pageLang();
const T = stringsFor(EDITION);
const ASSETS = new URL("../", import.meta.url); // the site's runqueue/ folder
const KEY = storageKey(EDITION);

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

const state = { problems: {}, forms: [] };

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

export function mount() {
  state.problems = load();
  state.forms = [...document.querySelectorAll("form.rq-hw")];
  for (const form of state.forms) {
    show(form, state.problems[form.dataset.problem]?.[form.dataset.question]);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      check(form);
    });
    // The checker comes with the first use of a field, not with the page.
    form.querySelector("input").addEventListener("focus", () => loadChecker().catch(() => {}), { once: true });
  }
  document.querySelectorAll(".rq-hw-progress").forEach(progressBar);
  globalThis.runqueueHomework = state;
}
