// One run of the kernel: a Worker with the emulator, the terminal showing its console, and
// the charts fed by its trace. An experiment has one pane, or two in compare mode. Until its
// first run a pane is only its title: the terminal, charts and lanes are made (and their
// libraries loaded, libs.js) when a run is about to start, so an experiment nobody runs costs
// the page nothing.

import { headingAfter } from "./headings.js";
import { loadLibraries } from "./libs.js";
import { RunModel } from "./model.js";
import { RunCharts } from "./charts.js";
import { ResultLineFilter } from "./console.js";
import { LanesView } from "./lanes.js";
import { pageLang, stringsFor } from "./strings.js";

const WORKER_URL = new URL("./worker.js", import.meta.url);
const nextTask = () => new Promise((next) => setTimeout(next));
const T = stringsFor(pageLang());
// The terminal gets as many columns as fit its box; a monospace glyph is about 0.6 em wide.
// Never fewer than the kernel's result table needs: a narrower box scrolls sideways instead of
// wrapping the table.
const FONT_PX = 13;
const CHAR_WIDTH = 0.62;
const MIN_COLS = 120;

// Snapshots of the Linux boots this page's Workers made, parked where the init asks for its
// words (a Worker lives for one run; the page outlives them): a later run on the same kernel,
// harts and Linux words starts there instead of booting Linux again. The two most recent.
const linuxSnapshots = [];
function keepSnapshot(bytes) {
  linuxSnapshots.unshift(bytes);
  linuxSnapshots.length = Math.min(linuxSnapshots.length, 2);
}

export class RunPane {
  /**
   * `onChange(pane)` is called whenever the state or the progress changes; `run` is the run the
   * pane will make (`plan`), `scales` the axes it shares with the widget's other pane.
   */
  constructor(parent, run, onChange, scales) {
    this.onChange = onChange;
    this.scales = scales;
    this.root = document.createElement("section");
    this.root.className = "rq-pane";
    parent.append(this.root);
    this.heading = headingAfter(parent);
    this.heading.className = "rq-pane-title";
    this.root.append(this.heading);
    this.plan(run);
  }

  /**
   * Makes the terminal, charts and lanes, the first time a run needs them: each in a task of its
   * own, so that the page does not freeze for the frame it takes to make them all.
   */
  async prepare() {
    if (this.terminal) return;
    const { Terminal } = await loadLibraries();
    await nextTask();
    if (this.terminal || this.destroyed) return;
    const term = document.createElement("div");
    term.className = "rq-terminal";
    this.heading.after(term);

    // xterm's own labels for screen readers, in the page's language.
    Terminal.strings.promptLabel = T.terminalInput;
    Terminal.strings.tooMuchOutput = T.terminalTooMuch;
    this.terminal = new Terminal({ convertEol: true, rows: 14, cols: 80, fontSize: FONT_PX, screenReaderMode: false, scrollback: 5000 });
    this.terminal.open(term);
    this.fit = () => this.terminal.resize(Math.max(MIN_COLS, Math.floor(term.clientWidth / (FONT_PX * CHAR_WIDTH))), 14);
    requestAnimationFrame(this.fit);
    addEventListener("resize", this.fit);
    this.terminal.onData((text) => this.worker?.postMessage({ type: "input", bytes: new TextEncoder().encode(text) }));
    // Tab moves the focus on, as everywhere else in the page: the terminal must not trap the
    // keyboard (WCAG 2.1.2), and the kernel reads no input that would need a tab.
    this.terminal.attachCustomKeyEventHandler((e) => e.key !== "Tab");
    this.termBox = term;
    await nextTask();
    if (!this.destroyed) this.makeViews();
  }

  /**
   * The run this pane will make: its title, its command line, whether it traces, and how its
   * queue is drawn (`queueViews`); an idle pane redraws for it.
   */
  plan({ title, bootargs, traceOff, views }) {
    this.heading.textContent = title;
    this.bootargs = bootargs;
    this.planned = { traceOff, views };
    if (!this.state || this.state === "idle") this.clear();
  }

  clear() {
    this.worker?.terminate();
    this.worker = null;
    this.state = "idle";
    this.error = null;
    this.result = null;
    this.exitCode = null;
    this.instret = 0;
    this.timeNs = 0;
    this.consoleText = "";
    this.firstOutputMs = null;
    this.budgetHit = false;
    this.decode = new TextDecoder();
    this.shown = new ResultLineFilter(T.resultLine);
    this.model = new RunModel();
    const { traceOff } = this.planned;
    // Said before any run: the reader learns why such a run will draw less.
    this.note?.remove();
    this.note = traceOff ? Object.assign(document.createElement("p"), { className: "rq-note", textContent: T.traceOff }) : null;
    if (this.note) (this.termBox ?? this.heading).after(this.note);
    if (this.terminal) {
      this.terminal.reset();
      this.makeViews();
    }
  }

  /** The charts and lanes of the planned run; the charts are kept from run to run when they can be. */
  makeViews() {
    const { traceOff, views } = this.planned;
    // Making charts anew costs the page a long frame.
    if (this.charts && traceOff === this.charts.traceOff) this.charts.reset(this.model);
    else {
      this.charts?.destroy();
      this.charts = new RunCharts(this.root, this.model, { scales: this.scales, traceOff });
    }
    this.lanes?.destroy();
    this.lanes = new LanesView(this.root, {
      views: () => views,
      charts: () => [this.charts.progress, this.charts.timeline],
    });
  }

  /** Starts a fresh machine for the planned run; it stays paused until `run` or `step`. */
  boot({ elf, initrd, budget, ips, part, pressedAt }) {
    this.clear();
    this.pressedAt = pressedAt;
    this.state = "booting";
    this.worker = new Worker(WORKER_URL, { type: "module" });
    this.worker.onmessage = ({ data }) => this.receive(data);
    this.worker.onerror = (e) => this.fail(T.workerFailed(e.message ?? T.unknownError));
    this.worker.postMessage({ type: "speed", ips });
    this.worker.postMessage({ type: "share", part });
    // Each boot's Worker gets the page's Linux snapshots (copies: the page keeps its own).
    const snapshots = initrd ? linuxSnapshots : [];
    this.worker.postMessage({ type: "boot", elf, initrd, bootargs: this.bootargs, budget, lang: pageLang(), snapshots });
    this.onChange(this);
  }

  send(type, extra = {}) {
    this.worker?.postMessage({ type, ...extra });
  }

  /**
   * xterm's screen-reader mode mirrors every write into the page's accessibility tree, which
   * costs the page most of its long frames during a run; while the run goes on the status line
   * says how far it is, and once it stops with output the console is there for a screen reader.
   */
  accessible(on) {
    if (!this.terminal || this.wantsMirror === on) return;
    this.wantsMirror = on;
    // The mirror copies the rows it finds when it starts: once xterm has parsed what was written.
    this.terminal.write("", () => {
      if (this.terminal && this.wantsMirror === on) this.terminal.options.screenReaderMode = on;
    });
  }

  /** `quote`: the emulator's own words within `message`, shown as code. */
  fail(message, quote = null) {
    this.accessible(true);
    this.state = "error";
    this.error = message;
    this.errorQuote = quote;
    this.onChange(this);
  }

  receive(msg) {
    if ("instret" in msg) [this.instret, this.timeNs] = [msg.instret, msg.timeNs];
    switch (msg.type) {
      case "booted":
        this.state = "paused";
        this.resumed = msg.resumed;
        break;
      case "state":
        this.state = msg.state;
        break;
      case "output":
        if (msg.console.length) {
          this.firstOutputMs ??= performance.now() - this.pressedAt;
          const text = this.decode.decode(msg.console, { stream: true });
          this.consoleText += text;
          this.terminal.write(this.shown.push(text));
        }
        this.model.add(msg.events);
        this.charts.schedule();
        this.lanes.add(msg.events);
        break;
      case "done":
        this.finish(msg);
        break;
      case "snapshot":
        keepSnapshot(msg.bytes);
        return;
      case "trace":
        this.onTrace?.(msg.json ?? msg.text);
        this.onTrace = null;
        return;
      case "error":
        this.budgetHit = Boolean(msg.budget);
        this.charts.flush();
        return this.fail(msg.message, msg.quote);
    }
    this.accessible(!["booting", "running"].includes(this.state) && this.consoleText.length > 0);
    this.onChange(this);
  }

  finish({ exitCode, result, problem }) {
    this.exitCode = exitCode;
    this.state = "done";
    if (problem) this.error = problem;
    else if (result === null) this.error = T.noResult(exitCode);
    else {
      this.result = result;
      this.model.setResult(JSON.parse(result));
    }
    this.charts.flush();
  }

  /** Whether a Perfetto download would hold anything: a run with trace events. */
  hasTrace() {
    return Boolean(this.worker) && this.model.eventCount > 0;
  }

  /** The Chrome trace JSON of the run so far, from the worker. */
  chromeTrace() {
    return new Promise((resolve) => {
      this.onTrace = resolve;
      this.send("trace");
    });
  }

  /** The ftrace text of the run so far (report::ftrace, as `runqueue run --ftrace`). */
  ftraceText() {
    return new Promise((resolve) => {
      this.onTrace = resolve;
      this.send("trace", { format: "ftrace" });
    });
  }

  destroy() {
    this.destroyed = true;
    if (this.fit) removeEventListener("resize", this.fit);
    this.lanes?.destroy();
    this.terminal?.dispose();
    this.worker?.terminate();
    this.charts?.destroy();
    this.root.remove();
  }
}
