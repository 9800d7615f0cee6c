// The text alternative of every chart and of the task lanes (WCAG 1.1.1): a sentence that says
// what the picture shows, and its data as a table a screen reader can walk. Pure: the charts'
// own data in, `{summary, head, rows}` out (rows of strings); `T` is the page's string table.

const ms = (ns) => (ns / 1e6).toFixed(3);
const percent = (part, whole) => `${whole ? Math.round((100 * part) / whole) : 0} %`;
const most = (list, key) => list.reduce((a, b) => (key(b) > key(a) ? b : a));

/** The completion chart: per task its finish time, CPU received and time waiting. */
export function completionData(tasks, T) {
  const head = [T.task, T.finishMs, T.cpuShortMs, T.waitShortMs];
  const rows = tasks.map((t) => [t.name, t.finishNs === null ? "" : ms(t.finishNs), ms(t.cpuNs), t.waitNs === null ? "" : ms(t.waitNs)]);
  if (!tasks.length) return { summary: T.noData, head, rows };
  const cpu = most(tasks, (t) => t.cpuNs);
  const wait = most(tasks, (t) => t.waitNs ?? 0);
  return { summary: T.completionSummary(tasks.length, cpu.name, ms(cpu.cpuNs), wait.name, ms(wait.waitNs ?? 0)), head, rows };
}

/** A progress line's y at `x`: its points joined by straight lines, flat past its last point. */
export function valueAt(points, x) {
  if (!points.length || x <= points[0].x) return points[0]?.y ?? 0;
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1], points[i]];
    if (x <= b.x) return b.x === a.x ? b.y : a.y + ((b.y - a.y) * (x - a.x)) / (b.x - a.x);
  }
  return points[points.length - 1].y;
}

/** The progress chart (CPU time over emulated time, in ms) sampled at `samples` even moments. */
export function progressData(tasks, T, samples = 10) {
  const head = [T.emulatedMs, ...tasks.map((t) => t.name)];
  const end = Math.max(0, ...tasks.map((t) => t.progress.at(-1)?.x ?? 0));
  if (!tasks.length || !end) return { summary: T.noData, head, rows: [] };
  const rows = Array.from({ length: samples }, (_, i) => {
    const x = (end * (i + 1)) / samples;
    return [x.toFixed(3), ...tasks.map((t) => valueAt(t.progress, x).toFixed(3))];
  });
  const last = tasks.map((t) => `${t.name} ${valueAt(t.progress, end).toFixed(3)} ms`).join(", ");
  return { summary: T.progressSummary(end.toFixed(3), last), head, rows };
}

/** The per-hart timeline: how long each task ran on each hart, and its part of the hart's time. */
export function timelineData(stints, tasks, T) {
  const names = new Map(tasks.map((t) => [t.tid, t.name]));
  const harts = new Map();
  for (const s of stints) {
    const hart = harts.get(s.hart) ?? new Map();
    hart.set(s.tid, (hart.get(s.tid) ?? 0) + s.end - s.start);
    harts.set(s.hart, hart);
  }
  const head = [T.hart, T.task, T.ranMs, T.shareOfHart];
  const rows = [];
  const lines = [];
  for (const [hart, ran] of [...harts].sort(([a], [b]) => a - b)) {
    const total = [...ran.values()].reduce((a, b) => a + b, 0);
    const byTime = [...ran].sort(([, a], [, b]) => b - a);
    for (const [tid, ns] of byTime) rows.push([T.hartN(hart), names.get(tid) ?? String(tid), ms(ns), percent(ns, total)]);
    const [tid, ns] = byTime[0];
    lines.push(T.hartMostly(hart, names.get(tid) ?? String(tid), percent(ns, total)));
  }
  return { summary: rows.length ? lines.join("; ") : T.noData, head, rows };
}

/** The latency histogram (1 µs bins): the bins that hold samples. */
export function latencyData(lat, T) {
  const head = [T.latencyAxis, T.samples];
  if (!lat) return { summary: T.noData, head, rows: [] };
  const rows = lat.hist.flatMap((n, i) => (n ? [[`${i}–${i + 1}`, String(n)]] : []));
  const count = lat.hist.reduce((a, b) => a + b, 0);
  return { summary: `${T.latencySummary(lat.min / 1000, lat.avg / 1000, lat.max / 1000)} (${T.sampleCount(count)})`, head, rows };
}

/** Compare mode's chart: the CPU time (ms) each task received in each run; `runs` [{label, cpu: Map(name -> ms)}]. */
export function overlayData(runs, T) {
  const names = [...new Set(runs.flatMap((r) => [...r.cpu.keys()]))];
  const head = [T.task, ...runs.map((r) => r.label)];
  const rows = names.map((n) => [n, ...runs.map((r) => (r.cpu.has(n) ? r.cpu.get(n).toFixed(3) : ""))]);
  if (!names.length || runs.length < 2) return { summary: T.noData, head, rows };
  const gap = (n) => Math.abs((runs[0].cpu.get(n) ?? 0) - (runs[1].cpu.get(n) ?? 0));
  const widest = most(names, gap);
  return { summary: T.overlaySummary(names.length, widest, (runs[0].cpu.get(widest) ?? 0).toFixed(3), (runs[1].cpu.get(widest) ?? 0).toFixed(3)), head, rows };
}

/**
 * The task lanes (rq-state.js's Lanes): per task its time running, waiting and blocked, and its
 * marks. The rows walk every span of the run, so they are made only when asked for.
 */
export function lanesData(lanes, T) {
  const head = [T.task, T.runningMs, T.waitingMs, T.blockedMs, T.wakeups, T.preemptions, T.migrationsHead];
  const end = lanes.end;
  const tasks = [...lanes.tasks.values()].sort((a, b) => a.tid - b.tid);
  const row = (l) => {
    const time = { run: 0, wait: 0, other: 0 };
    for (const s of l.spans) time[s.st in time ? s.st : "other"] += (s.e ?? end) - s.s;
    const marks = (k) => String(l.marks.filter((m) => m.k === k).length);
    return [l.name, ms(time.run), ms(time.wait), ms(time.other), marks("wake"), marks("preempt"), marks("migrate")];
  };
  const summary = tasks.length ? T.lanesSummary(lanes.harts.size, tasks.length, ms(end - (lanes.start ?? 0)), lanes.events.length) : T.noData;
  return { summary, head, get rows() { return tasks.map(row); } };
}
