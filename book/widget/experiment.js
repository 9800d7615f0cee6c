// One experiment widget: the controls generated from the kernel's catalog, the buttons, the
// settings kept in the page's URL, and one run pane (two in compare mode).

import { applicable, formatArgs, parseArgs } from "./catalog.js";
import { RunPane } from "./pane.js";
import { pageLang, stringsFor } from "./strings.js";

const T = stringsFor(pageLang());

// Step runs one millisecond of emulated time (the kernel's default tick).
const STEP_INSNS = 100_000;
const DEFAULT_BUDGET = 3_000_000_000;
const SPEEDS = [
  ["0", T.speedMax],
  ["100000000", T.speedReal],
  ["10000000", T.speedTenth],
  ["1000000", T.speedHundredth],
];

let uid = 0;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

function labelled(label, control, help) {
  const id = `rq-c${++uid}`;
  control.id = id;
  const wrap = el("div", { class: "rq-field" }, el("label", { for: id, text: label }), control);
  if (help) {
    control.setAttribute("aria-describedby", `${id}-help`);
    wrap.append(el("span", { class: "rq-help", id: `${id}-help`, text: help }));
  }
  return wrap;
}

function select(options, value) {
  const s = el("select");
  for (const [v, text] of options) s.append(el("option", { value: v, text }));
  s.value = value;
  return s;
}

function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export class Experiment {
  constructor(host, index, catalog, assets) {
    this.host = host;
    this.key = `e${index + 1}`;
    this.catalog = catalog;
    this.assets = assets;
    this.customElf = null;
    const d = host.dataset;
    const { settings, errors } = parseArgs(d.args ?? "", catalog, {
      sched: d.sched, workload: d.workload, smp: Number(d.smp ?? 1),
    });
    const bad = [];
    for (const [key, list] of [["sched", catalog.scheds], ["workload", catalog.workloads]]) {
      if (!list.some((e) => e.name === settings[key])) {
        bad.push(T.dataUnknown(key, settings[key], list.map((e) => e.name).join(", ")));
        settings[key] = list[0].name;
      }
    }
    this.settings = settings;
    this.vs = d.compare ?? "";
    this.budget = Number(d.maxInsns ?? DEFAULT_BUDGET);
    const problems = [...bad, ...errors.map((e) => `data-args: ${e}`), ...this.readUrl()];

    host.replaceChildren();
    host.classList.add("rq-widget");
    this.build();
    this.panes = [];
    this.layoutPanes();
    if (problems.length) this.alert(T.ignored(problems.join("; ")));
  }

  /** Applies `?eN=ARGS&eN.vs=SCHED&eN.max=N`; returns what was wrong with them. */
  readUrl() {
    const q = new URLSearchParams(location.search);
    const problems = [];
    if (q.has(this.key)) {
      const { settings, errors } = parseArgs(q.get(this.key), this.catalog, this.settings);
      this.settings = settings;
      problems.push(...errors.map((e) => T.linkParam(this.key, e)));
    }
    if (q.has(`${this.key}.vs`)) {
      const vs = q.get(`${this.key}.vs`);
      if (vs === "" || this.catalog.scheds.some((s) => s.name === vs)) this.vs = vs;
      else problems.push(T.linkNotSched(this.key, vs, this.catalog.scheds.map((s) => s.name).join(", ")));
    }
    if (q.has(`${this.key}.max`)) {
      const n = Number(q.get(`${this.key}.max`));
      if (Number.isInteger(n) && n > 0) this.budget = n;
      else problems.push(T.linkBadMax(this.key));
    }
    return problems;
  }

  writeUrl() {
    const url = new URL(location.href);
    url.searchParams.set(this.key, formatArgs(this.settings, this.catalog));
    if (this.vs) url.searchParams.set(`${this.key}.vs`, this.vs);
    else url.searchParams.delete(`${this.key}.vs`);
    history.replaceState(history.state, "", url);
  }

  build() {
    const c = this.catalog;
    const names = (list) => list.map((e) => [e.name, e.help ? `${e.name}: ${e.help}` : e.name]);
    this.form = el("form", { class: "rq-controls", "aria-label": T.settings });
    this.form.addEventListener("submit", (e) => e.preventDefault());
    this.schedSel = select(names(c.scheds), this.settings.sched);
    this.workloadSel = select(names(c.workloads), this.settings.workload);
    this.smpIn = el("input", { type: "number", min: "1", max: String(c.maxHarts), step: "1" });
    this.smpIn.value = String(this.settings.smp);
    this.vsSel = select([["", T.noComparison], ...names(c.scheds)], this.vs);
    this.fileIn = el("input", { type: "file" });
    this.tunablesBox = el("fieldset", { class: "rq-tunables" }, el("legend", { text: T.tunables }));
    this.form.append(
      el("div", { class: "rq-row" },
        labelled(T.scheduler, this.schedSel),
        labelled(T.workload, this.workloadSel),
        labelled(T.harts, this.smpIn),
        labelled(T.compareWith, this.vsSel)),
      el("details", { class: "rq-more" }, el("summary", { text: T.tunables }), this.tunablesBox),
      labelled(T.ownKernel, this.fileIn, T.ownKernelHelp),
    );
    this.form.addEventListener("change", (e) => this.onFormChange(e));

    this.runBtn = el("button", { type: "button", class: "rq-run", text: T.run });
    this.pauseBtn = el("button", { type: "button", class: "rq-pause", text: T.pause });
    this.stepBtn = el("button", { type: "button", class: "rq-step", text: T.step });
    this.resetBtn = el("button", { type: "button", class: "rq-reset", text: T.reset });
    this.speedSel = select(SPEEDS, "0");
    this.resultBtn = el("button", { type: "button", class: "rq-dl-result", text: T.downloadResult });
    this.traceBtn = el("button", { type: "button", class: "rq-dl-trace", text: T.downloadTrace });
    this.ftraceBtn = el("button", { type: "button", class: "rq-dl-ftrace", text: T.downloadFtrace });
    this.runBtn.onclick = () => this.run();
    this.pauseBtn.onclick = () => this.panes.forEach((p) => p.send("pause"));
    this.stepBtn.onclick = () => this.step();
    this.resetBtn.onclick = () => this.reset();
    this.speedSel.onchange = () => this.panes.forEach((p) => p.send("speed", { ips: Number(this.speedSel.value) }));
    this.resultBtn.onclick = () => this.downloadResult();
    this.traceBtn.onclick = () => this.downloadTrace();
    this.ftraceBtn.onclick = () => this.downloadFtrace();
    const bar = el("div", { class: "rq-buttons", role: "group", "aria-label": T.runControls },
      this.runBtn, this.pauseBtn, this.stepBtn, this.resetBtn, labelled(T.speed, this.speedSel), this.resultBtn, this.traceBtn, this.ftraceBtn);

    this.status = el("p", { class: "rq-status", role: "status" });
    this.alertBox = el("p", { class: "rq-alert", role: "alert" });
    this.alertBox.hidden = true;
    this.panesBox = el("div", { class: "rq-panes" });
    this.host.append(this.form, bar, this.status, this.alertBox, this.panesBox);
    this.buildTunables();
    this.refresh();
  }

  buildTunables() {
    this.tunablesBox.replaceChildren(el("legend", { text: T.tunablesLegend }));
    const scheds = [this.settings.sched, this.vs].filter(Boolean);
    for (const t of applicable(this.catalog, scheds, this.settings.workload)) {
      const value = this.settings.tunables.get(t.name) ?? t.default;
      const control = t.values ? select(t.values.map((v) => [v, v]), value)
        : el("input", t.type === "int"
          ? { type: "number", step: "1", ...(t.min !== null && { min: String(t.min) }), ...(t.max !== null && { max: String(t.max) }) }
          : { type: "text" });
      if (!t.values) control.value = value;
      control.dataset.tunable = t.name;
      const range = t.min !== null || t.max !== null ? ` (${t.min ?? ""}..${t.max ?? ""})` : "";
      this.tunablesBox.append(labelled(`${t.name}${t.unit ? ` [${t.unit}]` : ""}`, control, T.tunableHelp(t.help, range, t.default)));
    }
  }

  onFormChange(e) {
    const target = e.target;
    if (target === this.fileIn) return this.loadFile();
    if (target.dataset.tunable || target === this.smpIn) {
      const name = target.dataset.tunable ?? "smp";
      const { settings, errors } = parseArgs(`${name}=${target.value}`, this.catalog, this.settings);
      if (errors.length) return this.alert(errors[0]);
      this.settings = settings;
    } else {
      this.settings.sched = this.schedSel.value;
      this.settings.workload = this.workloadSel.value;
      this.vs = this.vsSel.value;
      this.buildTunables();
      this.layoutPanes();
    }
    this.alert("");
    this.writeUrl();
  }

  async loadFile() {
    const file = this.fileIn.files[0];
    this.customElf = file ? { name: file.name, bytes: await file.arrayBuffer() } : null;
    this.alert("");
    this.refresh();
  }

  /** One pane per scheduler being run. */
  layoutPanes() {
    const scheds = [this.settings.sched, this.vs].filter(Boolean);
    this.panes.forEach((p) => p.destroy());
    this.panes = scheds.map((s) => new RunPane(this.panesBox, T.paneTitle(s), () => this.refresh()));
    this.panesBox.classList.toggle("rq-compare", scheds.length > 1);
    this.refresh();
  }

  alert(text) {
    this.alertBox.textContent = text;
    this.alertBox.hidden = !text;
  }

  async kernel() {
    if (this.customElf) return this.customElf.bytes.slice(0);
    this.assets.kernel ??= fetch(this.assets.url("kernel.elf")).then((r) => {
      if (!r.ok) throw new Error(T.kernelHttp(r.status));
      return r.arrayBuffer();
    });
    return (await this.assets.kernel).slice(0);
  }

  async boot() {
    const pressedAt = performance.now();
    this.announced = false;
    const scheds = [this.settings.sched, this.vs].filter(Boolean);
    if (scheds.length !== this.panes.length) this.layoutPanes();
    let elf;
    try {
      elf = await this.kernel();
    } catch (e) {
      this.alert(e.message);
      return false;
    }
    this.alert("");
    const ips = Number(this.speedSel.value);
    this.panes.forEach((pane, i) => pane.boot({
      elf: elf.slice(0), harts: this.settings.smp, budget: this.budget, ips, pressedAt,
      bootargs: formatArgs(this.settings, this.catalog, scheds[i]),
    }));
    return true;
  }

  fresh() {
    return this.panes.some((p) => ["idle", "done", "error"].includes(p.state));
  }

  async run() {
    if (this.fresh() && !(await this.boot())) return;
    this.panes.forEach((p) => p.send("run"));
  }

  async step() {
    if (this.fresh() && !(await this.boot())) return;
    this.panes.forEach((p) => p.send("step", { insns: STEP_INSNS }));
  }

  reset() {
    this.panes.forEach((p) => p.clear());
    this.alert("");
    this.refresh();
  }

  downloadResult() {
    for (const p of this.panes.filter((p) => p.result)) {
      download(`runqueue-${p.bootargs.replace(/[^A-Za-z0-9.=-]+/g, "_")}.json`, `${p.result}\n`, "application/json");
    }
  }

  async downloadTrace() {
    for (const p of this.panes.filter((p) => p.worker)) {
      download(`runqueue-${p.bootargs.replace(/[^A-Za-z0-9.=-]+/g, "_")}.trace.json`, await p.chromeTrace(), "application/json");
    }
  }

  async downloadFtrace() {
    for (const p of this.panes.filter((p) => p.worker)) {
      download(`runqueue-${p.bootargs.replace(/[^A-Za-z0-9.=-]+/g, "_")}.ftrace.txt`, await p.ftraceText(), "text/plain");
    }
  }

  refresh() {
    const panes = this.panes ?? [];
    const states = panes.map((p) => p.state);
    const running = states.includes("running");
    const paused = states.includes("paused");
    this.runBtn.textContent = paused && !running ? T.resume : T.run;
    this.runBtn.disabled = running;
    this.pauseBtn.disabled = !running;
    this.stepBtn.disabled = running;
    this.resultBtn.disabled = !panes.some((p) => p.result);
    this.traceBtn.disabled = !panes.some((p) => p.worker);
    this.ftraceBtn.disabled = this.traceBtn.disabled;
    const kernel = this.customElf ? T.yourKernel(this.customElf.name) : T.bookKernel;
    this.status.textContent = panes.length ? panes.map((p) => `${p.heading.textContent}: ${describe(p)}`).join(" · ") + ` (${kernel})` : "";
    const errors = panes.filter((p) => p.error).map((p) => `${p.heading.textContent}: ${p.error}`);
    if (errors.length) this.alert(errors.join("; "));
    // A run that reached its RESULT in every pane unfolds the result below it (reveal.js).
    if (!this.announced && panes.length && panes.every((p) => p.state === "done" && p.result)) {
      this.announced = true;
      this.host.dispatchEvent(new CustomEvent("rq-run-finished", { bubbles: true }));
    }
  }
}

function describe(p) {
  const where = T.where((p.timeNs / 1e6).toFixed(1), (p.instret / 1e6).toFixed(1));
  switch (p.state) {
    case "idle": return T.idle;
    case "booting": return T.booting;
    case "running": return T.running(where);
    case "paused": return T.paused(where);
    case "done": return T.done(p.exitCode, where);
    default: return T.failed;
  }
}
