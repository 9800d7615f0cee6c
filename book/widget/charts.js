// The live charts of one run (Chart.js 4, loaded as the global `Chart`): per task its finish
// time beside the CPU it received and the time it waited (in a fixed-time workload every task
// finishes at the end, so finish time alone would mislead), CPU time over emulated time, which
// task ran on which hart, and for workloads that measure it a latency histogram. Each chart is
// a figure: a canvas with a label, a sentence saying what it shows and its data as a table
// (figure.js, describe.js); tasks differ by pattern and dash as well as colour (palette.js), and
// the per-task table below carries the run's figures. Redraws happen at most every
// DRAW_MS, so a long run's many batches cost a few redraws a second, not one per frame; each
// chart redraws in a task of its own, and only while it is on screen, so that no frame of the
// page is long (the emulator's Workers share the machine's cores with it). The panes of a
// compare widget share their axes (SharedScales). A reader can pause the live redraws
// (`freeze`, WCAG 2.2.2) while the run goes on.

import { completionData, latencyData, progressData, timelineData } from "./describe.js";
import { Figure } from "./figure.js";
import { fill, taskFill, taskStyle } from "./palette.js";
import { pageLang, stringsFor } from "./strings.js";

const T = stringsFor(pageLang());
const fmtMs = (ns) => (ns === null || ns === undefined ? "" : (ns / 1e6).toFixed(3));
const fmtCount = (n) => (n === null || n === undefined ? "" : String(n));
const DRAW_MS = 250;
const SERIES = [
  { key: "finishNs", label: () => T.finishSeries, colour: "#1f77b4", pattern: "solid" },
  { key: "cpuNs", label: () => T.cpuSeries, colour: "#2ca02c", pattern: "diagonal" },
  { key: "waitNs", label: () => T.waitSeries, colour: "#7f7f7f", pattern: "dots" },
];

/** The table's columns, in order: a heading and a task's cell. Add a column here. */
export const COLUMNS = [
  { head: () => T.task, cell: (t) => t.name },
  { head: () => T.finishMs, cell: (t) => fmtMs(t.finishNs) },
  { head: () => T.cpuShortMs, cell: (t) => fmtMs(t.cpuNs) },
  { head: () => T.waitShortMs, cell: (t) => fmtMs(t.waitNs) },
  { head: () => T.switchesHead, cell: (t) => fmtCount(t.switches) },
  { head: () => T.unitsHead, cell: (t) => fmtCount(t.iterations) },
  { head: () => T.responseMs, cell: (t) => fmtMs(t.responseNs) },
  { head: () => T.turnaroundMs, cell: (t) => fmtMs(t.turnaroundNs) },
];

/**
 * The axes of the panes of one widget: each pane reports the largest value its charts need,
 * and every pane draws to the largest of all, so equal heights mean equal figures.
 */
export class SharedScales {
  constructor() {
    this.members = new Map(); // RunCharts -> its extents (ns)
  }

  report(charts, extents) {
    const before = this.max();
    this.members.set(charts, extents);
    const after = this.max();
    // A pane that grew an axis redraws the others to the new scale.
    if (Object.keys(after).some((k) => after[k] !== before[k])) {
      for (const other of this.members.keys()) if (other !== charts) other.schedule(true);
    }
    return after;
  }

  leave(charts) {
    this.members.delete(charts);
  }

  max() {
    const out = {};
    for (const e of this.members.values()) for (const [k, v] of Object.entries(e)) out[k] = Math.max(out[k] ?? 0, v);
    return out;
  }
}

function baseOptions(title, x, y) {
  return {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    plugins: { title: { display: true, text: title }, legend: { display: true, position: "bottom" } },
    scales: { x: { title: { display: true, text: x } }, y: { title: { display: true, text: y } } },
  };
}

export class RunCharts {
  /** `traceOff`: the run records no trace, so only RESULT's figures can be drawn. */
  constructor(parent, model, { scales = new SharedScales(), traceOff = false } = {}) {
    this.model = model;
    this.scales = scales;
    this.drawn = -1;
    this.timer = 0;
    this.lastDraw = -Infinity;
    this.stale = new Set(); // charts whose data changed while they were off screen
    this.onScreen = new Set();
    const Chart = globalThis.Chart;
    this.traceOff = traceOff;
    const grid = document.createElement("div");
    grid.className = "rq-charts";
    parent.append(grid);
    this.grid = grid;

    this.figures = {
      completion: new Figure(grid, T.completionLabel),
      progress: new Figure(grid, T.progressLabel),
      timeline: new Figure(grid, T.timelineLabel),
      latency: new Figure(grid, T.latencyLabel),
    };
    // Without a trace these two would be empty frames with made-up axes.
    this.figures.progress.hidden = this.figures.timeline.hidden = traceOff;
    this.figures.latency.hidden = true;
    const configs = {
      completion: {
        type: "bar",
        data: { labels: [], datasets: SERIES.map((s) => ({ label: s.label(), data: [], backgroundColor: fill(s.colour, s.pattern), borderColor: s.colour, borderWidth: 1 })) },
        options: baseOptions(T.completionTitle, T.task, T.msAxis),
      },
      progress: {
        type: "line",
        data: { datasets: [] },
        options: {
          ...baseOptions(T.progressTitle, T.emulatedMs, T.cpuMs),
          parsing: false,
          elements: { point: { radius: 0 }, line: { borderWidth: 2 } },
          scales: { x: { type: "linear", title: { display: true, text: T.emulatedMs } }, y: { title: { display: true, text: T.cpuMs } } },
        },
      },
      timeline: {
        type: "bar",
        data: { labels: [], datasets: [] },
        options: {
          ...baseOptions(T.timelineTitle, T.emulatedMs, T.hart),
          indexAxis: "y",
          grouped: false,
          scales: { x: { type: "linear", title: { display: true, text: T.emulatedMs } }, y: { stacked: true } },
        },
      },
      latency: {
        type: "bar",
        data: { labels: [], datasets: [{ label: T.samples, data: [], backgroundColor: "#1f77b4" }] },
        options: { ...baseOptions(T.latencyTitle, T.latencyAxis, T.samples), plugins: { title: { display: true, text: T.latencyTitle }, legend: { display: false } } },
      },
    };
    this.charts = [];
    this.watch = new IntersectionObserver((entries) => {
      for (const e of entries) {
        const chart = this.charts.find((c) => c.canvas === e.target);
        if (e.isIntersecting) this.onScreen.add(chart);
        else this.onScreen.delete(chart);
        if (e.isIntersecting && this.stale.delete(chart)) this.later(() => chart.update("none"));
      }
    });
    // A chart takes a layout of the page to size itself: each is made in a task of its own, so
    // the first run of a pane costs no long frame; the run draws once all four are there.
    this.made = (async () => {
      for (const [name, config] of Object.entries(configs)) {
        await new Promise((next) => setTimeout(next));
        if (this.destroyed) return;
        this[name] = new Chart(this.figures[name].canvas, config);
        this.charts.push(this[name]);
        this.watch.observe(this[name].canvas);
      }
      this.schedule(true);
    })();

    this.table = document.createElement("table");
    this.table.className = "rq-table";
    // It scrolls sideways in a narrow pane: keyboard users must be able to reach it.
    this.table.tabIndex = 0;
    const header = document.createElement("tr");
    for (const column of COLUMNS) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = column.head();
      header.append(th);
    }
    this.table.append(Object.assign(document.createElement("caption"), { textContent: T.tableCaption }),
      document.createElement("thead"), document.createElement("tbody"));
    this.table.tHead.append(header);
    parent.append(this.table);

  }

  /** Starts over with a new run's `model` (its first draw clears what the last one drew). */
  reset(model) {
    clearTimeout(this.timer);
    this.timer = 0;
    this.model = model;
    this.drawn = -1;
    this.lastDraw = -Infinity;
    this.schedule();
  }

  /** Runs `work` in a task of its own, after those already queued. */
  later(work) {
    this.queue = (this.queue ?? Promise.resolve()).then(() => new Promise((done) => setTimeout(() => {
      if (!this.destroyed) work();
      done();
    })));
  }

  /** Redraws `chart` in a task of its own when it is on screen, or once it comes into view. */
  redraw(chart) {
    if (this.onScreen.has(chart)) this.later(() => chart.update("none"));
    else this.stale.add(chart);
  }

  /**
   * Asks for a redraw: at once (the next frame) when the last one is DRAW_MS old, else when it
   * will be. Many calls in between cost one redraw. `force` redraws an unchanged model (axes).
   */
  schedule(force = false) {
    if (force) this.drawn = -1;
    if (this.timer || this.frozen) return;
    const wait = Math.max(0, this.lastDraw + DRAW_MS - performance.now());
    this.timer = setTimeout(() => requestAnimationFrame(() => { this.timer = 0; this.draw(); }), wait);
  }

  /** Draws whatever is pending now (a run's end must not wait for the next slot). */
  flush() {
    clearTimeout(this.timer);
    this.timer = 0;
    if (!this.frozen) this.draw(true);
  }

  /** Holds the charts as they are while `on`, though the run goes on; then catches up. */
  freeze(on) {
    if (Boolean(this.frozen) === on) return;
    this.frozen = on;
    if (on) {
      clearTimeout(this.timer);
      this.timer = 0;
    } else this.schedule();
  }

  /** Redraws from the model; `final` (the run's end) says so in the figures' text at once. */
  draw(final = false) {
    const m = this.model;
    if (this.charts.length < 4) return void this.made.then(() => this.draw(final));
    if (m.version === this.drawn) return;
    this.drawn = m.version;
    this.lastDraw = performance.now();
    const tasks = m.taskList();
    const axes = this.scales.report(this, m.extents());
    const top = (ns) => (ns ? ns / 1e6 : undefined);

    const c = this.completion.data;
    c.labels = tasks.map((t) => t.name);
    SERIES.forEach((s, i) => { c.datasets[i].data = tasks.map((t) => (t[s.key] === null ? null : t[s.key] / 1e6)); });
    this.completion.options.scales.y.max = top(axes.perTask);
    this.redraw(this.completion);
    this.figures.completion.update(() => completionData(tasks, T), final);

    this.progress.data.datasets = tasks.map((t) => {
      const { colour, dash } = taskStyle(t.tid);
      return { label: t.name, data: t.progress, borderColor: colour, backgroundColor: colour, borderDash: dash };
    });
    this.progress.options.scales.x.max = this.timeline.options.scales.x.max = top(axes.time);
    this.progress.options.scales.y.max = top(axes.cpu);
    this.redraw(this.progress);
    this.figures.progress.update(() => progressData(tasks, T), final);

    const harts = [...m.harts].sort((a, b) => a - b);
    this.timeline.data.labels = harts.map((h) => T.hartN(h));
    const stints = m.stints();
    this.timeline.data.datasets = tasks.map((t) => ({
      label: t.name,
      backgroundColor: taskFill(t.tid),
      borderColor: taskStyle(t.tid).colour,
      borderWidth: 1,
      data: stints.filter((s) => s.tid === t.tid).map((s) => ({ x: [s.start / 1e6, s.end / 1e6], y: T.hartN(s.hart) })),
    }));
    if (m.migrations.length) {
      // A triangle on the hart a task moved to, in the task's colour.
      this.timeline.data.datasets.push({
        type: "scatter",
        label: T.migrations(m.migrationCount),
        pointStyle: "triangle",
        pointRadius: 5,
        borderColor: "#000",
        backgroundColor: m.migrations.map((g) => taskStyle(g.tid).colour),
        data: m.migrations.map((g) => ({ x: g.at / 1e6, y: T.hartN(g.to), tid: g.tid, from: g.from, why: g.why })),
      });
    }
    if (m.steals.length) {
      // Time the modelled host took from a hart: dark over whatever the guest thought ran.
      this.timeline.data.datasets.push({
        label: T.hostSteal(m.stealCount),
        backgroundColor: fill("rgba(0, 0, 0, 0.55)", "cross"),
        data: m.steals.map((s) => ({ x: [s.start / 1e6, s.end / 1e6], y: T.hartN(s.hart), by: s.by })),
      });
    }
    this.redraw(this.timeline);
    this.figures.timeline.update(() => timelineData(stints, tasks, T), final);

    const lat = m.latencySummary();
    this.figures.latency.hidden = !lat;
    if (lat) {
      this.latency.data.labels = lat.hist.map((_, i) => String(i));
      this.latency.data.datasets[0].data = lat.hist;
      this.latency.options.plugins.title.text = T.latencySummary(lat.min / 1000, lat.avg / 1000, lat.max / 1000);
      this.redraw(this.latency);
      this.figures.latency.update(() => latencyData(lat, T), final);
    }

    this.table.tBodies[0].replaceChildren(...tasks.map((t) => {
      const row = document.createElement("tr");
      for (const column of COLUMNS) {
        const cell = document.createElement("td");
        cell.textContent = column.cell(t);
        row.append(cell);
      }
      return row;
    }));
  }

  destroy() {
    clearTimeout(this.timer);
    this.destroyed = true;
    this.watch.disconnect();
    this.scales.leave(this);
    for (const chart of this.charts) chart.destroy();
    for (const figure of Object.values(this.figures)) figure.remove();
    this.grid.remove();
    this.table.remove();
  }
}
