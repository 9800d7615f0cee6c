// Compare mode's chart of both runs in one frame: the CPU time each task received under each
// run, bars side by side, so the difference is read off one axis rather than two panes. Tasks
// are matched by name (a run that changes wl.tasks has bars for its own tasks only).

import { pageLang, stringsFor } from "./strings.js";

const T = stringsFor(pageLang());
const RUN_COLOURS = ["#1f77b4", "#d62728"];
const DRAW_MS = 250;

export class OverlayChart {
  constructor(parent) {
    this.box = document.createElement("div");
    this.box.className = "rq-chart rq-overlay";
    const canvas = document.createElement("canvas");
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", T.overlayLabel);
    this.box.append(canvas);
    parent.append(this.box);
    this.chart = new globalThis.Chart(canvas, {
      type: "bar",
      data: { labels: [], datasets: [] },
      options: {
        animation: false, responsive: true, maintainAspectRatio: false,
        plugins: { title: { display: true, text: T.overlayTitle }, legend: { display: true, position: "bottom" } },
        scales: { x: { title: { display: true, text: T.task } }, y: { title: { display: true, text: T.cpuMs } } },
      },
    });
    this.timer = 0;
  }

  /** Redraws from `panes` within DRAW_MS; many calls in between cost one redraw. */
  schedule(panes) {
    this.panes = panes;
    this.timer ||= setTimeout(() => { this.timer = 0; this.draw(); }, DRAW_MS);
  }

  draw() {
    const runs = this.panes.map((p) => new Map(p.model.taskList().map((t) => [t.name, t.cpuNs / 1e6])));
    const names = [...new Set(runs.flatMap((r) => [...r.keys()]))];
    this.chart.data.labels = names;
    this.chart.data.datasets = this.panes.map((p, i) => ({
      label: p.heading.textContent, backgroundColor: RUN_COLOURS[i], data: names.map((n) => runs[i].get(n) ?? null),
    }));
    this.chart.update("none");
  }

  destroy() {
    clearTimeout(this.timer);
    this.chart.destroy();
    this.box.remove();
  }
}
