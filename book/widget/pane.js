// One run of the kernel: a Worker with the emulator, the terminal showing its console, and
// the charts fed by its trace. An experiment has one pane, or two in compare mode.

import { Terminal } from "../vendor/xterm.mjs";
import { RunModel } from "./model.js";
import { RunCharts } from "./charts.js";
import { LanesView } from "./lanes.js";
import { pageLang, stringsFor } from "./strings.js";

const WORKER_URL = new URL("./worker.js", import.meta.url);
const T = stringsFor(pageLang());
// The terminal gets as many columns as fit its box; a monospace glyph is about 0.6 em wide.
const FONT_PX = 13;
const CHAR_WIDTH = 0.62;

export class RunPane {
  /** `onChange(pane)` is called whenever the state or the progress changes. */
  constructor(parent, title, onChange) {
    this.onChange = onChange;
    this.root = document.createElement("section");
    this.root.className = "rq-pane";
    this.heading = document.createElement("h3");
    this.heading.className = "rq-pane-title";
    this.heading.textContent = title;
    const term = document.createElement("div");
    term.className = "rq-terminal";
    this.root.append(this.heading, term);
    parent.append(this.root);

    this.terminal = new Terminal({ convertEol: true, rows: 14, cols: 80, fontSize: FONT_PX, screenReaderMode: true, scrollback: 5000 });
    this.terminal.open(term);
    this.fit = () => this.terminal.resize(Math.max(40, Math.floor(term.clientWidth / (FONT_PX * CHAR_WIDTH))), 14);
    requestAnimationFrame(this.fit);
    addEventListener("resize", this.fit);
    this.terminal.onData((text) => this.worker?.postMessage({ type: "input", bytes: new TextEncoder().encode(text) }));
    this.clear();
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
    this.decode = new TextDecoder();
    this.terminal.reset();
    this.charts?.destroy();
    this.model = new RunModel();
    this.charts = new RunCharts(this.root, this.model);
    this.lanes?.destroy();
    this.lanes = new LanesView(this.root, {
      sched: () => /(?:^| )sched=(\S+)/.exec(this.bootargs ?? "")?.[1] ?? "",
      charts: () => [this.charts.progress, this.charts.timeline],
    });
  }

  /** Starts a fresh machine; it stays paused until `run` or `step`. */
  boot({ elf, harts, bootargs, budget, ips, pressedAt }) {
    this.clear();
    this.pressedAt = pressedAt;
    this.bootargs = bootargs;
    this.state = "booting";
    this.worker = new Worker(WORKER_URL, { type: "module" });
    this.worker.onmessage = ({ data }) => this.receive(data);
    this.worker.onerror = (e) => this.fail(T.workerFailed(e.message ?? T.unknownError));
    this.worker.postMessage({ type: "speed", ips });
    this.worker.postMessage({ type: "boot", elf, harts, bootargs, budget, lang: pageLang() });
    this.onChange(this);
  }

  send(type, extra = {}) {
    this.worker?.postMessage({ type, ...extra });
  }

  fail(message) {
    this.state = "error";
    this.error = message;
    this.onChange(this);
  }

  receive(msg) {
    if ("instret" in msg) [this.instret, this.timeNs] = [msg.instret, msg.timeNs];
    switch (msg.type) {
      case "booted":
        this.state = "paused";
        break;
      case "state":
        this.state = msg.state;
        break;
      case "output":
        if (msg.console.length) {
          this.firstOutputMs ??= performance.now() - this.pressedAt;
          const text = this.decode.decode(msg.console, { stream: true });
          this.consoleText += text;
          this.terminal.write(msg.console);
        }
        this.model.add(msg.events);
        this.charts.schedule();
        this.lanes.add(msg.events);
        break;
      case "done":
        this.finish(msg);
        break;
      case "trace":
        this.onTrace?.(msg.json ?? msg.text);
        this.onTrace = null;
        return;
      case "error":
        return this.fail(msg.message);
    }
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
      this.charts.schedule();
    }
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
    removeEventListener("resize", this.fit);
    this.lanes?.destroy();
    this.terminal.dispose();
    this.worker?.terminate();
    this.charts?.destroy();
    this.root.remove();
  }
}
