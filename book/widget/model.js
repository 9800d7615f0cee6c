// What the charts show, computed from trace events (docs/trace.md) as they arrive and
// corrected by the RESULT line at the end. Pure data, no DOM: the unit tests run it in node.

// A task's progress line has a point where its CPU time starts and stops growing (the start
// and end of each stint). Within one cell of this many emulated ns only the first and the last
// point are kept, so a task switched in every few µs still draws its shape at the cell's
// resolution; past MAX_PROGRESS points per task the cells double in width.
const FIRST_PROGRESS_CELL_NS = 50_000;
const MAX_PROGRESS = 4000;
// The timeline keeps, per hart, at most this many equal time cells, each remembering how long
// each task ran in it; when a run outgrows them, cells double in width and merge pairwise.
// So a run with thousands of short stints still draws in full, at a coarser resolution.
const MAX_CELLS = 2000;
const FIRST_CELL_NS = 10_000;
// The timeline marks at most this many migrations (the first ones); the count goes on.
const MAX_MIGRATIONS = 2000;
// Live latency bins are 1 µs wide; the last one collects everything slower.
const MAX_LATENCY_BINS = 1000;

const ms = (ns) => ns / 1e6;

export class RunModel {
  constructor() {
    this.tasks = new Map(); // tid -> {tid, name, finishNs, cpuNs, waitNs, switches, iterations, progress: [{x, y}]}
    this.eventCount = 0;
    this.startNs = null; // the first event's time: the workload's start
    this.running = new Map(); // hart -> {tid, since}
    this.cellNs = FIRST_CELL_NS;
    this.cells = new Map(); // hart -> [Map(tid -> ns run in that cell)]
    this.harts = new Set();
    this.migrations = []; // {tid, at, from, to, why}: a task moved to another hart's run queue
    this.migrationCount = 0;
    this.steals = []; // {hart, start, end, by}: the modelled host ran something else (ns)
    this.stealCount = 0;
    this.progressCellNs = FIRST_PROGRESS_CELL_NS;
    this.latency = { samples: [], hist: null, min: null, avg: null, max: null };
    this.result = null;
    this.version = 0; // bumped on every change, so views redraw only when needed
  }

  task(tid) {
    let t = this.tasks.get(tid);
    if (!t) {
      // Response (arrival to first run) and turnaround (arrival to finish): the metrics chapter's.
      t = {
        tid, name: `task ${tid}`, finishNs: null, cpuNs: 0, waitNs: null, switches: 0, iterations: null,
        arriveNs: null, responseNs: null, turnaroundNs: null, progress: [{ x: 0, y: 0 }],
      };
      this.tasks.set(tid, t);
    }
    return t;
  }

  rel(e) {
    return e.t - this.startNs;
  }

  /** Applies a batch of parsed events `{t, h, k, id, f}`. */
  add(events) {
    for (const e of events) {
      if (e.k === "steal") {
        this.addSteal(e);
        continue;
      }
      this.startNs ??= e.t;
      this.harts.add(e.h);
      if (e.id === 0) continue; // the idle loop is not a task
      const task = this.task(e.id);
      switch (e.k) {
        case "new":
          if (typeof e.f.name === "string") task.name = e.f.name;
          task.arriveNs = this.rel(e);
          break;
        case "in":
          task.switches++;
          this.running.set(e.h, { tid: e.id, since: this.rel(e) });
          if (task.responseNs === null && task.arriveNs !== null) task.responseNs = this.rel(e) - task.arriveNs;
          break;
        case "out":
          this.switchOut(e, task);
          break;
        case "exit":
          task.finishNs = this.rel(e);
          if (task.arriveNs !== null) task.turnaroundNs = task.finishNs - task.arriveNs;
          this.addProgress(task, task.finishNs);
          break;
        case "mark":
          if (typeof e.f.lat === "number") this.latency.samples.push(e.f.lat);
          break;
        case "migrate":
          this.migrationCount++;
          if (this.migrations.length < MAX_MIGRATIONS) {
            this.migrations.push({ tid: e.id, at: this.rel(e), from: e.f.from, to: e.f.to, why: e.f.why });
          }
          break;
      }
    }
    this.eventCount += events.length;
    if (events.length) this.version++;
  }

  /** Host steal before the workload's first event is boot time, not part of the run. */
  addSteal(e) {
    if (this.startNs === null) return;
    this.stealCount++;
    if (this.steals.length >= MAX_MIGRATIONS) return;
    const end = this.rel(e);
    const ns = typeof e.f.ns === "number" ? e.f.ns : 0;
    this.steals.push({ hart: e.h, start: Math.max(0, end - ns), end, by: String(e.f.by ?? "host") });
    this.version++;
  }

  switchOut(e, task) {
    const now = this.rel(e);
    const stint = this.running.get(e.h);
    this.running.delete(e.h);
    const start = stint?.tid === e.id ? stint.since : now - (typeof e.f.ran === "number" ? e.f.ran : 0);
    const ran = typeof e.f.ran === "number" ? e.f.ran : now - start;
    this.addProgress(task, Math.max(0, now - ran)); // flat while it waited
    task.cpuNs += ran;
    this.addProgress(task, now);
    this.addStint(e.h, e.id, Math.max(0, start), now);
  }

  /** A point at `now` (ns) with the task's CPU time so far; the starting point is never replaced. */
  addProgress(task, now) {
    const points = task.progress;
    const point = { x: ms(now), y: ms(task.cpuNs) };
    const last = points[points.length - 1];
    if (point.x < last.x || (point.x === last.x && point.y === last.y)) return;
    const cell = (p) => Math.floor(p.x / ms(this.progressCellNs));
    // Three points in one cell: the middle one goes, the cell keeps its first and its last.
    if (points.length >= 3 && cell(points[points.length - 2]) === cell(point) && cell(last) === cell(point)) points[points.length - 1] = point;
    else points.push(point);
    if (points.length > MAX_PROGRESS) this.coarsenProgress();
  }

  /** Doubles the progress cells of every task, keeping the first and last point of each. */
  coarsenProgress() {
    this.progressCellNs *= 2;
    const width = ms(this.progressCellNs);
    for (const task of this.tasks.values()) {
      task.progress = task.progress.filter((p, i, all) => i === 0 || i === all.length - 1
        || Math.floor(all[i - 1].x / width) !== Math.floor(p.x / width) || Math.floor(all[i + 1].x / width) !== Math.floor(p.x / width));
    }
  }

  addStint(hart, tid, start, end) {
    while (end > this.cellNs * MAX_CELLS) this.coarsen();
    if (!this.cells.has(hart)) this.cells.set(hart, []);
    const cells = this.cells.get(hart);
    for (let i = Math.floor(start / this.cellNs); i * this.cellNs < end; i++) {
      const ran = Math.min(end, (i + 1) * this.cellNs) - Math.max(start, i * this.cellNs);
      if (ran <= 0) continue;
      while (cells.length <= i) cells.push(new Map());
      cells[i].set(tid, (cells[i].get(tid) ?? 0) + ran);
    }
  }

  coarsen() {
    this.cellNs *= 2;
    for (const [hart, cells] of this.cells) {
      const merged = [];
      for (let i = 0; i < cells.length; i += 2) {
        const cell = new Map(cells[i]);
        for (const [tid, ns] of cells[i + 1] ?? []) cell.set(tid, (cell.get(tid) ?? 0) + ns);
        merged.push(cell);
      }
      this.cells.set(hart, merged);
    }
  }

  /** The timeline as bars {hart, tid, start, end} (ns): each cell shows the task that ran most in it. */
  stints() {
    const bars = [];
    for (const [hart, cells] of this.cells) {
      let bar = null;
      cells.forEach((cell, i) => {
        let tid = null;
        let most = 0;
        for (const [t, ns] of cell) if (ns > most) [tid, most] = [t, ns];
        if (bar && bar.tid === tid && bar.end === i * this.cellNs) bar.end += this.cellNs;
        else if (tid !== null) bars.push((bar = { hart, tid, start: i * this.cellNs, end: (i + 1) * this.cellNs }));
        else bar = null;
      });
    }
    return bars;
  }

  /** The RESULT line, authoritative for finish times and latency. */
  setResult(result) {
    this.result = result;
    for (const r of result.tasks) {
      const t = this.task(r.tid);
      t.name = r.name;
      t.finishNs = r.finish_ns;
      t.cpuNs = r.cpu_ns;
      t.responseNs = r.response_ns ?? t.responseNs;
      t.turnaroundNs = r.turnaround_ns ?? t.turnaroundNs;
      t.waitNs = r.wait_ns ?? null;
      t.switches = r.switches ?? t.switches;
      t.iterations = r.iterations ?? null;
    }
    const lats = result.tasks.map((t) => t.lat).filter(Boolean);
    if (lats.length) {
      const samples = lats.reduce((n, l) => n + l.samples, 0);
      const width = Math.max(...lats.map((l) => l.hist_us.length));
      this.latency.hist = Array.from({ length: width }, (_, i) => lats.reduce((n, l) => n + (l.hist_us[i] ?? 0), 0));
      this.latency.min = Math.min(...lats.map((l) => l.min_ns));
      this.latency.max = Math.max(...lats.map((l) => l.max_ns));
      this.latency.avg = samples ? Math.round(lats.reduce((n, l) => n + l.avg_ns * l.samples, 0) / samples) : 0;
    }
    this.version++;
  }

  /** The largest value of each axis this run's charts need: compare mode shares them (ns). */
  extents() {
    const tasks = this.taskList();
    const most = (f) => Math.max(0, ...tasks.map(f).filter((v) => typeof v === "number"));
    return {
      perTask: most((t) => Math.max(t.finishNs ?? 0, t.cpuNs, t.waitNs ?? 0)),
      cpu: most((t) => t.cpuNs),
      time: most((t) => Math.max(t.progress.at(-1).x * 1e6, t.finishNs ?? 0)),
    };
  }

  /** Tasks in tid order. */
  taskList() {
    return [...this.tasks.values()].sort((a, b) => a.tid - b.tid);
  }

  /** Latency histogram in 1 µs bins and min/avg/max in ns, live from marks until RESULT. */
  latencySummary() {
    const l = this.latency;
    if (l.hist) return { hist: l.hist, min: l.min, avg: l.avg, max: l.max };
    if (!l.samples.length) return null;
    const hist = [];
    let [min, max, sum] = [Infinity, -Infinity, 0];
    for (const ns of l.samples) {
      const bin = Math.min(Math.floor(ns / 1000), MAX_LATENCY_BINS - 1);
      while (hist.length <= bin) hist.push(0);
      hist[bin]++;
      [min, max, sum] = [Math.min(min, ns), Math.max(max, ns), sum + ns];
    }
    return { hist, min, avg: Math.round(sum / l.samples.length), max };
  }
}
