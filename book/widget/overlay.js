// Compare mode's chart of both runs in one frame: the CPU time each task received under each
// run, bars side by side, so the difference is read off one axis rather than two panes. Tasks
// are matched by name (a run that changes wl.tasks has bars for its own tasks only). The runs
// differ by pattern as well as colour, and the figure says the same in words and as a table.

import { overlayData } from "./describe.js";
import { Figure } from "./figure.js";
import { fill } from "./palette.js";
import { pageLang, stringsFor } from "./strings.js";

const T = stringsFor(pageLang());
const RUNS = [{ colour: "#1f77b4", pattern: "solid" }, { colour: "#d62728", pattern: "diagonal" }];
const DRAW_MS = 250;

export class OverlayChart {
  constructor(parent) {
    this.figure = new Figure(parent, T.overlayLabel, "rq-chart rq-overlay");
    this.chart = new globalThis.Chart(this.figure.canvas, {
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
    if (!this.frozen) this.timer ||= setTimeout(() => { this.timer = 0; this.draw(); }, DRAW_MS);
  }

  /** Holds the chart while `on` (the runs go on); then catches up. */
  freeze(on) {
    if (Boolean(this.frozen) === on) return;
    this.frozen = on;
    if (!on && this.panes) this.schedule(this.panes);
  }

  draw() {
    const runs = this.panes.map((p) => ({ label: p.heading.textContent, cpu: new Map(p.model.taskList().map((t) => [t.name, t.cpuNs / 1e6])) }));
    const names = [...new Set(runs.flatMap((r) => [...r.cpu.keys()]))];
    this.chart.data.labels = names;
    this.chart.data.datasets = runs.map((r, i) => ({
      label: r.label, backgroundColor: fill(RUNS[i].colour, RUNS[i].pattern), borderColor: RUNS[i].colour, borderWidth: 1,
      data: names.map((n) => r.cpu.get(n) ?? null),
    }));
    this.chart.update("none");
    this.figure.update(() => overlayData(runs, T), false);
  }

  destroy() {
    clearTimeout(this.timer);
    this.chart.destroy();
    this.figure.remove();
  }
}
