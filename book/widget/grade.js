// The lab chapters' grading widget: `<div class="rq-grade" data-lab="sjf"></div>` becomes a
// drop zone for the student's built kernel ELF. Dropping (or choosing) a file runs the lab's
// public tests in a Worker (grade-worker.js) with the same checks as `runqueue grade`, and
// shows the same table. State is mirrored in `globalThis.runqueueGrade` for the tests.

import { GRADE_TEXT, renderReport } from "./grade-text.js";
import { pageLang, stringsFor } from "./strings.js";

const T = stringsFor(pageLang());
// The grader's table is English; a page in another language words its report itself.
const REPORT_TEXT = GRADE_TEXT[pageLang()] ?? null;
const ASSETS = new URL("../", import.meta.url); // the site's runqueue/ folder
const WORKER_URL = new URL("./grade-worker.js", import.meta.url);
const KERNEL_PATH = "target/riscv/riscv64imac-unknown-none-elf/release/runqueue-kernel";

function element(tag, props = {}, children = []) {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
}

class GradeWidget {
  constructor(host, index) {
    this.lab = host.dataset.lab;
    this.state = "idle"; // idle | running | done | error
    this.table = "";
    this.results = null;
    this.error = null;
    const id = `rq-grade-file-${index}`;
    this.input = element("input", { type: "file", id });
    this.input.addEventListener("change", () => this.input.files[0] && this.grade(this.input.files[0]));
    const label = element("label", { htmlFor: id, textContent: T.gradeChoose(this.lab) });
    this.zone = element("div", { className: "rq-grade-zone" }, [
      element("p", {}, T.gradeDrop(element("code", { textContent: "make kernel" }), element("code", { textContent: KERNEL_PATH }))),
      label, " ", this.input,
    ]);
    for (const type of ["dragenter", "dragover"]) {
      this.zone.addEventListener(type, (e) => { e.preventDefault(); this.zone.classList.add("rq-grade-over"); });
    }
    this.zone.addEventListener("dragleave", () => this.zone.classList.remove("rq-grade-over"));
    this.zone.addEventListener("drop", (e) => {
      e.preventDefault();
      this.zone.classList.remove("rq-grade-over");
      const file = e.dataTransfer?.files?.[0];
      if (file) this.grade(file);
    });
    this.status = element("p", { className: "rq-status", role: "status" });
    this.output = element("pre", { className: "rq-grade-table", hidden: true, tabIndex: 0 });
    this.download = element("a", { textContent: T.gradeDownload, download: `${this.lab}-results.json`, hidden: true });
    host.replaceChildren(element("div", { className: "rq-widget rq-grade-widget" }, [this.zone, this.status, this.output, this.download]));
    this.host = host;
  }

  show(state, { status = "", table = "", error = null } = {}) {
    this.state = state;
    // A status or a table is a text, or parts in which nodes (code: another program's words) sit.
    this.status.replaceChildren(...[status].flat());
    this.status.className = error ? "rq-status rq-alert" : "rq-status";
    this.error = error;
    this.output.replaceChildren(...[table].flat());
    this.output.hidden = !this.output.textContent;
  }

  async grade(file) {
    if (this.state === "running") return;
    this.worker?.terminate();
    this.download.hidden = true;
    this.show("running", { status: T.gradeReading(file.name) });
    let tests;
    try {
      const response = await fetch(new URL(`labs/${this.lab}.tests`, ASSETS));
      if (!response.ok) throw new Error(T.gradeTestsHttp(this.lab, response.status));
      tests = await response.text();
    } catch (e) {
      return this.fail(e.message ?? String(e));
    }
    const elf = await file.arrayBuffer();
    this.worker = new Worker(WORKER_URL, { type: "module" });
    this.worker.onerror = (e) => this.fail(T.gradeWorker(e.message ?? T.unknownError));
    this.worker.onmessage = ({ data }) => this.receive(data, file.name);
    this.worker.postMessage({ type: "grade", elf, lab: this.lab, tests }, [elf]);
  }

  receive(msg, fileName) {
    if (msg.type === "test") {
      this.show("running", { status: T.gradeProgress(fileName, msg.index + 1, msg.count, msg.name) });
    } else if (msg.type === "done") {
      this.results = JSON.parse(msg.results);
      this.table = msg.table;
      const { score, tests } = this.results;
      const max = tests.reduce((sum, t) => sum + t.max_score, 0);
      // Quoted output inside the table's <pre> is <samp>: mdBook styles `pre > code` as a block.
      const samp = (text) => element("samp", { textContent: text });
      const table = REPORT_TEXT ? renderReport(REPORT_TEXT, JSON.parse(msg.report), samp) : msg.table;
      this.show("done", { status: T.gradeScore(fileName, score, max), table });
      URL.revokeObjectURL(this.download.href);
      this.download.href = URL.createObjectURL(new Blob([msg.results], { type: "application/json" }));
      this.download.hidden = false;
      this.stop();
    } else {
      this.fail(this.errorText(msg));
    }
  }

  /** A worker's error in the page's words: parts, the emulator's own detail as code. */
  errorText({ kind, detail }) {
    const code = (text) => element("code", { textContent: text });
    if (kind === "notKernel") return T.gradeNotKernel(code(detail), code("make kernel"), code(KERNEL_PATH));
    if (kind === "request") return T.unknownRequest(detail);
    return T.gradeError(code(detail));
  }

  fail(message) {
    const parts = [T.gradeFailed(""), ...[message].flat()];
    this.show("error", { status: parts, error: parts.map((p) => (typeof p === "string" ? p : p.textContent)).join("") });
    this.stop();
  }

  stop() {
    this.worker?.terminate();
    this.worker = null;
  }
}

export async function mount() {
  const hosts = [...document.querySelectorAll(".rq-grade[data-lab]")];
  if (document.querySelector('meta[name="robots"][content="noindex"]')) {
    for (const host of hosts) {
      const note = element("em", { textContent: T.gradePrint(host.dataset.lab) });
      host.replaceChildren(element("p", {}, [note]));
    }
    return;
  }
  // The widgets appear once their style applies: built before it, the file input keeps the
  // browser's own width for a moment and pushes a 320 px page sideways.
  const link = element("link", { rel: "stylesheet", href: new URL("grade.css", import.meta.url).href });
  const styled = new Promise((resolve) => { link.addEventListener("load", resolve); link.addEventListener("error", resolve); });
  document.head.append(link);
  await styled;
  globalThis.runqueueGrade = { widgets: hosts.map((host, i) => new GradeWidget(host, i)) };
}
