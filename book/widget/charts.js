// The live charts of one run (Chart.js 4, loaded as the global `Chart`): completion time per
// task, CPU time over emulated time, which task ran on which hart, and for workloads that
// measure it a latency histogram. Each chart is a canvas with a label, and a table carries
// the same numbers for screen readers. Redraws are coalesced to one per animation frame.

import { pageLang, stringsFor } from "./strings.js";

const T = stringsFor(pageLang());
const PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#ff7f0e"];
const colour = (tid) => PALETTE[(tid - 1 + PALETTE.length) % PALETTE.length];
const fmtMs = (ns) => (ns === null || ns === undefined ? "" : (ns / 1e6).toFixed(3));

function baseOptions(title, x, y) {
  return {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    plugins: { title: { display: true, text: title }, legend: { display: true, position: "bottom" } },
    scales: { x: { title: { display: true, text: x } }, y: { title: { display: true, text: y } } },
  };
}

function canvasIn(parent, label) {
  const box = document.createElement("div");
  box.className = "rq-chart";
  const canvas = document.createElement("canvas");
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", label);
  box.append(canvas);
  parent.append(box);
  return { box, canvas };
}

export class RunCharts {
  constructor(parent, model) {
    this.model = model;
    this.drawn = -1;
    this.frame = 0;
    const Chart = globalThis.Chart;
    const grid = document.createElement("div");
    grid.className = "rq-charts";
    parent.append(grid);
    this.grid = grid;

    this.completion = new Chart(canvasIn(grid, T.completionLabel).canvas, {
      type: "bar",
      data: { labels: [], datasets: [{ label: T.finishSeries, data: [], backgroundColor: [] }] },
      options: { ...baseOptions(T.completionTitle, T.task, T.sinceStart), plugins: { title: { display: true, text: T.completionTitle }, legend: { display: false } } },
    });
    this.progress = new Chart(canvasIn(grid, T.progressLabel).canvas, {
      type: "line",
      data: { datasets: [] },
      options: {
        ...baseOptions(T.progressTitle, T.emulatedMs, T.cpuMs),
        parsing: false,
        elements: { point: { radius: 0 }, line: { borderWidth: 2 } },
        scales: { x: { type: "linear", title: { display: true, text: T.emulatedMs } }, y: { title: { display: true, text: T.cpuMs } } },
      },
    });
    this.timeline = new Chart(canvasIn(grid, T.timelineLabel).canvas, {
      type: "bar",
      data: { labels: [], datasets: [] },
      options: {
        ...baseOptions(T.timelineTitle, T.emulatedMs, T.hart),
        indexAxis: "y",
        grouped: false,
        scales: { x: { type: "linear", title: { display: true, text: T.emulatedMs } }, y: { stacked: true } },
      },
    });
    const lat = canvasIn(grid, T.latencyLabel);
    this.latencyBox = lat.box;
    this.latencyBox.hidden = true;
    this.latency = new Chart(lat.canvas, {
      type: "bar",
      data: { labels: [], datasets: [{ label: T.samples, data: [], backgroundColor: "#1f77b4" }] },
      options: { ...baseOptions(T.latencyTitle, T.latencyAxis, T.samples), plugins: { title: { display: true, text: T.latencyTitle }, legend: { display: false } } },
    });

    this.table = document.createElement("table");
    this.table.className = "rq-table";
    const header = document.createElement("tr");
    for (const text of [T.task, T.finishMs, T.cpuShortMs, T.responseMs, T.turnaroundMs]) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = text;
      header.append(th);
    }
    this.table.append(Object.assign(document.createElement("caption"), { textContent: T.tableCaption }),
      document.createElement("thead"), document.createElement("tbody"));
    this.table.tHead.append(header);
    parent.append(this.table);
  }

  /** Asks for a redraw at the next frame; many calls in one frame cost one redraw. */
  schedule() {
    if (!this.frame) this.frame = requestAnimationFrame(() => { this.frame = 0; this.draw(); });
  }

  draw() {
    const m = this.model;
    if (m.version === this.drawn) return;
    this.drawn = m.version;
    const tasks = m.taskList();

    const c = this.completion.data;
    c.labels = tasks.map((t) => t.name);
    c.datasets[0].data = tasks.map((t) => (t.finishNs === null ? null : t.finishNs / 1e6));
    c.datasets[0].backgroundColor = tasks.map((t) => colour(t.tid));
    this.completion.update("none");

    this.progress.data.datasets = tasks.map((t) => ({ label: t.name, data: t.progress, borderColor: colour(t.tid), backgroundColor: colour(t.tid) }));
    this.progress.update("none");

    const harts = [...m.harts].sort((a, b) => a - b);
    this.timeline.data.labels = harts.map((h) => T.hartN(h));
    const stints = m.stints();
    this.timeline.data.datasets = tasks.map((t) => ({
      label: t.name,
      backgroundColor: colour(t.tid),
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
        backgroundColor: m.migrations.map((g) => colour(g.tid)),
        data: m.migrations.map((g) => ({ x: g.at / 1e6, y: T.hartN(g.to), tid: g.tid, from: g.from, why: g.why })),
      });
    }
    if (m.steals.length) {
      // Time the modelled host took from a hart: dark over whatever the guest thought ran.
      this.timeline.data.datasets.push({
        label: T.hostSteal(m.stealCount),
        backgroundColor: "rgba(0, 0, 0, 0.55)",
        data: m.steals.map((s) => ({ x: [s.start / 1e6, s.end / 1e6], y: T.hartN(s.hart), by: s.by })),
      });
    }
    this.timeline.update("none");

    const lat = m.latencySummary();
    this.latencyBox.hidden = !lat;
    if (lat) {
      this.latency.data.labels = lat.hist.map((_, i) => String(i));
      this.latency.data.datasets[0].data = lat.hist;
      this.latency.options.plugins.title.text = T.latencySummary(lat.min / 1000, lat.avg / 1000, lat.max / 1000);
      this.latency.update("none");
    }

    this.table.tBodies[0].replaceChildren(...tasks.map((t) => {
      const row = document.createElement("tr");
      for (const text of [t.name, fmtMs(t.finishNs), fmtMs(t.cpuNs), fmtMs(t.responseNs), fmtMs(t.turnaroundNs)]) {
        const cell = document.createElement("td");
        cell.textContent = text;
        row.append(cell);
      }
      return row;
    }));
  }

  destroy() {
    cancelAnimationFrame(this.frame);
    for (const chart of [this.completion, this.progress, this.timeline, this.latency]) chart.destroy();
    this.grid.remove();
    this.table.remove();
  }
}
