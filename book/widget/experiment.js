// One experiment widget: the controls generated from the kernel's catalog, the buttons, the
// settings kept in the page's URL, and one run pane (two in compare mode, where the second run
// is the first one's settings with any of them changed: scheduler, tunables, harts, kernel).
// A run boots the book's kernel or, where the site serves it, Linux 6.12 or 6.1 (kernels.js).

import { applicable, formatArgs, parseArgs, queueViews } from "./catalog.js";
import { SharedScales } from "./charts.js";
import { formatCompare, parseCompare, secondRun } from "./compare.js";
import { BOOK_KERNEL, isLinux, linuxArgs, linuxKernel, loadLinux } from "./kernels.js";
import { loadLibraries } from "./libs.js";
import { OverlayChart } from "./overlay.js";
import { RunPane } from "./pane.js";
import { SchedulerExercise } from "./scheduler-exercise.js";
import { pageLang, stringsFor } from "./strings.js";

const T = stringsFor(pageLang());

// Step runs one millisecond of emulated time (the kernel's default tick).
const STEP_INSNS = 100_000;
const DEFAULT_BUDGET = 3_000_000_000;
// The budget control offers the next step up when a run hits its budget.
const BUDGET_FACTOR = 10;
// The emulator's Workers leave one core to the page, so that it stays responsive (its charts,
// the reader's clicks); a Worker never gets less than this part of a core.
const MIN_SHARE = 0.25;
// mdBook turns the page on these keys; inside a widget, or while it runs, they must not.
const PAGE_KEYS = new Set(["ArrowLeft", "ArrowRight"]);
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
    this.kernelName = d.kernel ?? BOOK_KERNEL;
    if (!catalog.kernels.includes(this.kernelName)) {
      bad.push(T.dataUnknown("kernel", this.kernelName, catalog.kernels.join(", ")));
      this.kernelName = BOOK_KERNEL;
    }
    const compare = parseCompare(d.compare, catalog, settings);
    this.compare = compare.compare;
    this.budget = Number(d.maxInsns ?? DEFAULT_BUDGET);
    const problems = [...bad, ...errors.map((e) => `data-args: ${e}`), ...compare.errors.map((e) => `data-compare: ${e}`), ...this.readUrl()];
    this.scales = new SharedScales();
    host.addEventListener("keydown", (e) => PAGE_KEYS.has(e.key) && e.stopPropagation());
    // A reader about to run it (a pointer over it, the focus in it, or it on screen while the page
    // is idle): the terminal's and the charts' libraries start loading.
    const preload = () => loadLibraries().catch(() => {}); // Run reports a failure
    host.addEventListener("pointerenter", preload, { once: true });
    host.addEventListener("focusin", preload, { once: true });
    this.seen = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      this.seen.disconnect();
      (globalThis.requestIdleCallback ?? setTimeout)(preload);
    });
    this.seen.observe(host);

    host.replaceChildren();
    host.classList.add("rq-widget");
    this.build();
    this.panes = [];
    this.layoutPanes();
    if (problems.length) this.alert(T.ignored(problems.join("; ")));
  }

  /** Applies `?eN=ARGS&eN.vs=COMPARE&eN.max=N`; returns what was wrong with them. */
  readUrl() {
    const q = new URLSearchParams(location.search);
    const problems = [];
    if (q.has(this.key)) {
      const { settings, errors } = parseArgs(q.get(this.key), this.catalog, this.settings);
      this.settings = settings;
      problems.push(...errors.map((e) => T.linkParam(this.key, e)));
    }
    if (q.has(`${this.key}.kernel`)) {
      const name = q.get(`${this.key}.kernel`);
      if (this.catalog.kernels.includes(name)) this.kernelName = name;
      else problems.push(T.linkParam(`${this.key}.kernel`, T.compareNotKernel(name, this.catalog.kernels.join(", "))));
    }
    if (q.has(`${this.key}.vs`)) {
      const { compare, errors } = parseCompare(q.get(`${this.key}.vs`), this.catalog, this.settings);
      if (errors.length) problems.push(...errors.map((e) => T.linkParam(`${this.key}.vs`, e)));
      else this.compare = compare;
    }
    if (q.has(`${this.key}.max`)) {
      const n = Number(q.get(`${this.key}.max`));
      if (Number.isInteger(n) && n > 0) this.budget = n;
      else problems.push(T.linkBadMax(this.key));
    }
    return problems;
  }

  /** The widget's accessible name: its number and its settings. */
  name() {
    this.host.setAttribute("aria-label", T.experimentN(this.key.slice(1), formatArgs(this.settings, this.catalog)));
  }

  writeUrl() {
    const url = new URL(location.href);
    url.searchParams.set(this.key, formatArgs(this.settings, this.catalog));
    if (isLinux(this.kernelName)) url.searchParams.set(`${this.key}.kernel`, this.kernelName);
    else url.searchParams.delete(`${this.key}.kernel`);
    if (this.compare) url.searchParams.set(`${this.key}.vs`, formatCompare(this.compare));
    else url.searchParams.delete(`${this.key}.vs`);
    if (this.budget !== Number(this.host.dataset.maxInsns ?? DEFAULT_BUDGET)) url.searchParams.set(`${this.key}.max`, String(this.budget));
    history.replaceState(history.state, "", url);
  }

  build() {
    const c = this.catalog;
    const names = (list) => list.map((e) => [e.name, e.help ? `${e.name}: ${e.help}` : e.name]);
    // The widget is a landmark of its own, named by its number and settings, so a screen
    // reader's list of landmarks leads from experiment to experiment; its parts are not.
    this.host.setAttribute("role", "region");
    this.name();
    this.form = el("form", { class: "rq-controls" });
    this.form.addEventListener("submit", (e) => e.preventDefault());
    this.schedSel = select(names(c.scheds), this.settings.sched);
    this.workloadSel = select(names(c.workloads), this.settings.workload);
    this.smpIn = el("input", { type: "number", min: "1", max: String(c.maxHarts), step: "1" });
    this.smpIn.value = String(this.settings.smp);
    const linux = this.assets.linux?.kernels ?? [];
    this.kernelSel = select([[BOOK_KERNEL, T.bookKernelOption], ...linux.map((k) => [k.name, k.label])], this.kernelName);
    this.vsSel = select([["", T.noComparison], ["=", T.sameScheduler], ...names(c.scheds)], this.vsValue());
    this.kernelOptions();
    this.vsWords = el("input", { type: "text", spellcheck: "false", autocomplete: "off", placeholder: "smp=2 tick_us=500" });
    this.vsWords.value = this.compare?.words ?? "";
    this.vsWordsField = labelled(T.compareChanges, this.vsWords, T.compareChangesHelp);
    this.fileIn = el("input", { type: "file" });
    this.tunablesBox = el("fieldset", { class: "rq-tunables" }, el("legend", { text: T.tunablesLegend }));
    this.form.append(
      el("div", { class: "rq-row" },
        ...(linux.length ? [labelled(T.kernel, this.kernelSel, T.kernelHelp)] : []),
        labelled(T.scheduler, this.schedSel),
        labelled(T.workload, this.workloadSel),
        labelled(T.harts, this.smpIn),
        labelled(T.compareWith, this.vsSel),
        this.vsWordsField),
      (this.more = el("details", { class: "rq-more" }, el("summary", { text: T.tunables }), this.tunablesBox)),
      labelled(T.ownKernel, this.fileIn, T.ownKernelHelp),
    );
    this.form.addEventListener("change", (e) => this.onFormChange(e));
    // The tunables' fields are made when the reader opens them (a page has many widgets).
    this.more.addEventListener("toggle", () => this.tunablesStale && this.buildTunables());

    this.runBtn = el("button", { type: "button", class: "rq-run", text: T.run });
    this.pauseBtn = el("button", { type: "button", class: "rq-pause", text: T.pause });
    this.stepBtn = el("button", { type: "button", class: "rq-step", text: T.step });
    this.resetBtn = el("button", { type: "button", class: "rq-reset", text: T.reset });
    this.speedSel = select(SPEEDS, "0");
    this.resultBtn = el("button", { type: "button", class: "rq-dl-result", text: T.downloadResult });
    this.traceBtn = el("button", { type: "button", class: "rq-dl-trace", text: T.downloadTrace });
    this.ftraceBtn = el("button", { type: "button", class: "rq-dl-ftrace", text: T.downloadFtrace });
    // Live charts move while a run goes on; a reader can hold them still (WCAG 2.2.2).
    this.freezeBtn = el("button", { type: "button", class: "rq-freeze", "aria-pressed": "false", text: T.freezeCharts });
    this.freezeBtn.onclick = () => {
      this.freezeBtn.setAttribute("aria-pressed", String(this.freezeBtn.getAttribute("aria-pressed") !== "true"));
      this.refresh();
    };
    this.runBtn.onclick = () => this.run();
    this.pauseBtn.onclick = () => this.panes.filter((p) => p.state === "running").forEach((p) => p.send("pause"));
    this.stepBtn.onclick = () => this.step();
    this.resetBtn.onclick = () => this.reset();
    this.speedSel.onchange = () => this.panes.forEach((p) => p.send("speed", { ips: Number(this.speedSel.value) }));
    this.resultBtn.onclick = () => this.downloadResult();
    this.traceBtn.onclick = () => this.downloadTrace();
    this.ftraceBtn.onclick = () => this.downloadFtrace();
    this.exercise = new SchedulerExercise();
    const bar = el("div", { class: "rq-buttons", role: "group", "aria-label": T.runControls },
      this.runBtn, this.pauseBtn, this.stepBtn, this.resetBtn, labelled(T.speed, this.speedSel), this.freezeBtn, this.resultBtn, this.traceBtn, this.ftraceBtn, this.exercise.button);

    this.status = el("p", { class: "rq-status", role: "status" });
    this.alertText = el("span");
    this.budgetBtn = el("button", { type: "button", class: "rq-budget" });
    this.budgetBtn.onclick = () => this.raiseBudget();
    this.alertBox = el("p", { class: "rq-alert", role: "alert" }, this.alertText, " ", this.budgetBtn);
    this.alertBox.hidden = true;
    this.panesBox = el("div", { class: "rq-panes" });
    this.overlayBox = el("div", { class: "rq-overlay-box" });
    this.host.append(this.form, bar, this.status, this.alertBox, this.panesBox, this.exercise.box, this.overlayBox);
    this.buildTunables();
    this.refresh();
  }

  /** The compare control's value for `this.compare`: a scheduler, "=", another kernel or none. */
  vsValue() {
    if (!this.compare) return "";
    return this.compare.kernel ? `kernel=${this.compare.kernel}` : this.compare.sched ?? "=";
  }

  /**
   * The compare control offers the same run on each other kernel; on Linux the scheduler is
   * Linux's own, so its control rests.
   */
  kernelOptions() {
    this.vsSel.querySelectorAll("option[value^='kernel=']").forEach((o) => o.remove());
    for (const name of this.catalog.kernels.filter((k) => k !== this.kernelName)) {
      this.vsSel.append(el("option", { value: `kernel=${name}`, text: T.sameOnKernel(this.kernelLabel(name)) }));
    }
    this.vsSel.value = this.vsValue();
    this.schedSel.disabled = isLinux(this.kernelName);
  }

  kernelLabel(name) {
    return isLinux(name) ? linuxKernel(this.assets.linux, name).label : T.bookKernel;
  }

  buildTunables() {
    this.vsWordsField.hidden = !this.compare;
    this.tunablesStale = !this.more.open;
    if (this.tunablesStale) return;
    this.tunablesBox.replaceChildren(el("legend", { text: T.tunablesLegend }));
    const scheds = this.runs().map((r) => r.sched);
    // The modelled host's words get a group of their own: they set up the machine below.
    const hostBox = el("fieldset", { class: "rq-host" }, el("legend", { text: T.hostLegend }));
    for (const t of applicable(this.catalog, scheds, this.settings.workload)) {
      const value = this.settings.tunables.get(t.name) ?? t.default;
      const control = t.values ? select(t.values.map((v) => [v, v]), value)
        : el("input", t.type === "int"
          ? { type: "number", step: "1", ...(t.min !== null && { min: String(t.min) }), ...(t.max !== null && { max: String(t.max) }) }
          : { type: "text" });
      if (!t.values) control.value = value;
      control.dataset.tunable = t.name;
      const range = t.min !== null || t.max !== null ? ` (${t.min ?? ""}..${t.max ?? ""})` : "";
      const field = labelled(`${t.name}${t.unit ? ` [${t.unit}]` : ""}`, control, T.tunableHelp(t.help, range, t.default));
      field.append(el("span", { class: "rq-invalid", id: `${control.id}-invalid`, role: "alert" }));
      (t.name === "host" || t.name.startsWith("host.") ? hostBox : this.tunablesBox).append(field);
    }
    this.tunablesBox.append(hostBox);
  }

  /**
   * A value the kernel would refuse is not kept in its box: the box goes back to the value
   * the run will use, and says beside it what was wrong and what is accepted.
   */
  checkBox(control, name) {
    const { settings, errors } = parseArgs(`${name}=${control.value}`, this.catalog, this.settings);
    const note = control.parentElement.querySelector(".rq-invalid");
    if (errors.length) {
      const kept = name === "smp" ? String(this.settings.smp) : this.settings.tunables.get(name) ?? this.catalog.tunables.get(name).default;
      if (note) {
        note.textContent = T.keptValue(errors[0], kept);
        control.setAttribute("aria-describedby", `${note.id} ${control.getAttribute("aria-describedby") ?? ""}`.trim());
      } else this.alert(T.keptValue(errors[0], kept));
      control.value = kept;
      return false;
    }
    if (note) note.textContent = "";
    this.settings = settings;
    return true;
  }

  onFormChange(e) {
    const target = e.target;
    if (target === this.fileIn) return this.loadFile();
    if (target.dataset.tunable || target === this.smpIn) {
      if (!this.checkBox(target, target.dataset.tunable ?? "smp")) return;
      this.plans().forEach((plan, i) => this.panes[i].plan(plan));
      this.refresh();
    } else if (target === this.vsWords) {
      const { compare, errors } = parseCompare(formatCompare({ sched: this.compare?.sched ?? null, words: this.vsWords.value }), this.catalog, this.settings);
      if (errors.length) return this.alert(T.compareBad(errors.join("; ")));
      this.compare = compare;
      this.layoutPanes();
    } else {
      this.settings.sched = this.schedSel.value;
      this.settings.workload = this.workloadSel.value;
      if (target === this.kernelSel) {
        this.kernelName = this.kernelSel.value;
        if (this.compare?.kernel === this.kernelName) this.compare = null;
        this.kernelOptions();
      }
      const vs = this.vsSel.value;
      const kernel = vs.startsWith("kernel=") ? vs.slice("kernel=".length) : null;
      this.compare = vs ? { sched: vs === "=" || kernel ? null : vs, kernel, words: this.compare?.words ?? "" } : null;
      this.buildTunables();
      this.layoutPanes();
    }
    this.alert("");
    this.writeUrl();
    this.name();
  }

  /** The settings of each pane's run: this widget's, then the compared run's. */
  runs() {
    return this.compare ? [this.settings, secondRun(this.compare, this.catalog, this.settings)] : [this.settings];
  }

  /** The kernel of each pane's run. */
  kernels() {
    return this.compare ? [this.kernelName, this.compare.kernel ?? this.kernelName] : [this.kernelName];
  }

  /**
   * Each pane's run: its kernel, title, command line, whether it traces, how its queue is drawn.
   * Linux gets the words its init knows (kernels.js); its title names the book kernel's words it
   * runs without.
   */
  plans() {
    const titles = this.titles();
    const kernels = this.kernels();
    return this.runs().map((r, i) => {
      const words = formatArgs(r, this.catalog);
      const linux = isLinux(kernels[i]) && linuxArgs(words, this.assets.linux);
      return {
        kernel: kernels[i],
        title: linux ? T.paneTitleLinux(this.kernelLabel(kernels[i]), linux.dropped.join(" ")) : titles[i],
        bootargs: linux ? linux.args : words,
        traceOff: r.tunables.get("trace") === "off",
        views: linux ? queueViews(this.catalog, null) : queueViews(this.catalog, r.sched),
      };
    });
  }

  /** What each pane's title says: its scheduler, and in compare mode what the second run changes. */
  titles() {
    const [a, b] = this.runs().map((r) => formatArgs(r, this.catalog).split(" "));
    if (!b) return [T.paneTitle(this.settings.sched)];
    const changed = b.filter((w) => !a.includes(w) && !w.startsWith("sched="));
    const sched = b[0].slice("sched=".length);
    return [T.paneTitle(this.settings.sched), changed.length ? T.paneTitleWith(sched, changed.join(" ")) : T.paneTitle(sched)];
  }

  async loadFile() {
    const file = this.fileIn.files[0];
    this.customElf = file ? { name: file.name, bytes: await file.arrayBuffer() } : null;
    this.alert("");
    this.refresh();
  }

  /** One pane per run. */
  layoutPanes() {
    const plans = this.plans();
    this.panes.forEach((p) => p.destroy());
    this.panes = plans.map((plan) => new RunPane(this.panesBox, plan, () => this.refresh(), this.scales));
    this.panesBox.classList.toggle("rq-compare", plans.length > 1);
    this.overlay?.destroy();
    this.overlay = null; // made at the first run that compares (boot)
    this.refresh();
  }

  /** Shows `text`; each of `quotes` in it (the emulator's own words) as code. */
  alert(text, budget = false, quotes = []) {
    const parts = quotes.reduce((all, q) => all.flatMap((p) => (typeof p === "string" ? p.split(q).flatMap((s, i) => (i ? [el("code", {}, q), s] : [s])) : [p])), [text]);
    this.alertText.replaceChildren(...parts);
    this.alertBox.hidden = !text;
    this.budgetBtn.hidden = !budget;
    this.budgetBtn.textContent = T.raiseBudget((this.budget * BUDGET_FACTOR).toLocaleString(T.numberLocale));
  }

  /** The reader's answer to a run that hit its budget: the same run with a larger one. */
  raiseBudget() {
    this.budget *= BUDGET_FACTOR;
    this.writeUrl();
    this.reset();
    this.run();
  }

  /**
   * What the kernel `name` boots from: `{kernel, initrd}` (no initrd for the book's kernel or the
   * reader's own). Each is fetched once per page, when a run first needs it.
   */
  async image(name) {
    if (!isLinux(name) && this.customElf) return { kernel: this.customElf.bytes };
    this.assets.images ??= new Map();
    if (!this.assets.images.has(name)) {
      const load = isLinux(name)
        ? loadLinux(this.assets.url("linux/"), this.assets.linux, name, T.linuxHttp)
        : fetch(this.assets.url("kernel.elf")).then((r) => {
          if (!r.ok) throw new Error(T.kernelHttp(r.status));
          return r.arrayBuffer().then((kernel) => ({ kernel }));
        });
      this.assets.images.set(name, load);
      load.catch(() => this.assets.images.delete(name)); // the next Run tries again
    }
    return this.assets.images.get(name);
  }

  async boot() {
    const pressedAt = performance.now();
    this.announced = false;
    const plans = this.plans();
    if (plans.length !== this.panes.length) this.layoutPanes();
    else plans.forEach((plan, i) => this.panes[i].plan(plan));
    let images;
    try {
      [images] = await Promise.all([Promise.all(plans.map((p) => this.image(p.kernel))), ...this.panes.map((p) => p.prepare())]);
    } catch (e) {
      this.alert(e.message);
      return false;
    }
    if (this.panes.length > 1) this.overlay ??= new OverlayChart(this.overlayBox);
    this.alert("");
    const ips = Number(this.speedSel.value);
    const cores = navigator.hardwareConcurrency || 2;
    const part = Math.max(MIN_SHARE, Math.min(1, (cores - 1) / this.panes.length));
    this.panes.forEach((pane, i) => pane.boot({ part, elf: images[i].kernel.slice(0), initrd: images[i].initrd?.slice(0), budget: this.budget, ips, pressedAt }));
    return true;
  }

  /** No pane has a machine to go on with (each is idle, finished or failed): Run starts over. */
  fresh() {
    return this.panes.every((p) => ["idle", "done", "error"].includes(p.state));
  }

  /**
   * Sends `type` to every pane that can go on; when none can, boots them all first. Clicks
   * that arrive while a boot is under way join it instead of booting again.
   */
  async go(type, extra) {
    if (this.starting) return;
    if (this.fresh()) {
      this.starting = true;
      this.refresh();
      try {
        if (!(await this.boot())) return;
      } finally {
        this.starting = false;
      }
    }
    this.panes.filter((p) => ["booting", "paused"].includes(p.state)).forEach((p) => p.send(type, extra));
    this.refresh();
  }

  run() {
    return this.go("run");
  }

  step() {
    return this.go("step", { insns: STEP_INSNS });
  }

  /** Whether a run is going on (mdBook's page-turning keys wait). */
  busy() {
    return this.starting || this.panes.some((p) => ["booting", "running"].includes(p.state));
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
    for (const p of this.panes.filter((p) => p.hasTrace())) {
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
    const frozen = this.freezeBtn.getAttribute("aria-pressed") === "true";
    for (const view of [this.overlay, ...panes.flatMap((p) => [p.charts, p.lanes])]) view?.freeze(frozen);
    this.overlay?.schedule(panes);
    const states = panes.map((p) => p.state);
    const running = states.includes("running");
    const paused = states.includes("paused");
    this.runBtn.textContent = paused && !running ? T.resume : T.run;
    this.runBtn.disabled = running || Boolean(this.starting);
    this.pauseBtn.disabled = !running;
    this.stepBtn.disabled = running || Boolean(this.starting);
    this.resultBtn.disabled = !panes.some((p) => p.result);
    // A run without trace events (trace=off) has nothing for Perfetto.
    this.traceBtn.disabled = !panes.some((p) => p.hasTrace());
    this.ftraceBtn.disabled = this.traceBtn.disabled;
    this.exercise.offer(panes);
    const kernel = this.customElf && !isLinux(this.kernelName) ? T.yourKernel(this.customElf.name) : this.kernelLabel(this.kernelName);
    this.status.textContent = panes.length ? panes.map((p) => `${p.heading.textContent}: ${describe(p)}`).join(" · ") + ` (${kernel})` : "";
    const errors = panes.filter((p) => p.error).map((p) => `${p.heading.textContent}: ${p.error}`);
    if (errors.length) this.alert(errors.join("; "), panes.some((p) => p.budgetHit), panes.map((p) => p.errorQuote).filter(Boolean));
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
