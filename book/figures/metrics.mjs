// Turns one RESULT object (docs/trace.md) into the named values a chapter may quote, and into
// markdown tables. Pure functions: the generator and its tests share them.

const ms = (ns) => (ns / 1e6).toFixed(1);
const us = (ns) => (ns / 1000).toFixed(1);
const pct = (x) => x.toFixed(1);
const pct2 = (x) => x.toFixed(2);

// The largest value of `key=` on each task's `mark` events.
function worstMarks(text, key) {
  const worst = new Map();
  for (const line of text.split("\n")) {
    const f = line.split(" ");
    if (f[0] !== "T" || f[3] !== "mark") continue;
    const kv = f.slice(5).find((x) => x.startsWith(`${key}=`));
    if (kv === undefined) continue;
    const tid = Number(f[4]);
    worst.set(tid, Math.max(worst.get(tid) ?? 0, Number(kv.slice(key.length + 1))));
  }
  return worst;
}

// Tasks whose names differ only in a trailing number form a group: short0..3, hog0..4, task0..9.
export function groupOf(name) {
  return name.replace(/\d+$/, "");
}

function spreadPct(values) {
  const max = Math.max(...values);
  return max === 0 ? 0 : ((max - Math.min(...values)) / max) * 100;
}

// Every value is a string, ready to be included in prose. Keys are mdBook anchor names.
export function runValues(result) {
  const tasks = result.tasks;
  if (!Array.isArray(tasks) || tasks.length === 0) {
    throw new Error(`RESULT of "${result.args}" has no tasks`);
  }
  const totalCpu = tasks.reduce((s, t) => s + t.cpu_ns, 0);
  const totalIter = tasks.reduce((s, t) => s + t.iterations, 0);
  const v = {
    time_ms: ms(result.time_ns),
    iters: tasks.map((t) => t.iterations).join(" / "),
    finishes_ms: tasks.map((t) => ms(t.finish_ns)).join(" / "),
    switches_total: String(tasks.reduce((s, t) => s + t.switches, 0)),
    cpu_min_ms: ms(Math.min(...tasks.map((t) => t.cpu_ns))),
    cpu_max_ms: ms(Math.max(...tasks.map((t) => t.cpu_ns))),
    cpu_spread_pct: pct(spreadPct(tasks.map((t) => t.cpu_ns))),
    iter_min: String(Math.min(...tasks.map((t) => t.iterations))),
    iter_max: String(Math.max(...tasks.map((t) => t.iterations))),
    iter_spread_pct: pct(spreadPct(tasks.map((t) => t.iterations))),
    iter_total: String(totalIter),
    wait_total_ms: ms(tasks.reduce((s, t) => s + t.wait_ns, 0)),
    first_finish_ms: ms(Math.min(...tasks.map((t) => t.finish_ns))),
    last_finish_ms: ms(Math.max(...tasks.map((t) => t.finish_ns))),
    // Wall time per unit of work, all tasks together: on yield-heavy workloads, the cost of a yield.
    us_per_iter: totalIter === 0 ? "n/a" : (result.time_ns / totalIter / 1000).toFixed(1),
    // The metrics chapter's averages over the tasks (docs/trace.md: response from arrival to
    // first run, turnaround from arrival to finish), and the run's throughput and utilisation.
    avg_wait_ms: ms2(mean(tasks, (t) => t.wait_ns)),
    avg_response_ms: ms2(mean(tasks, (t) => t.response_ns)),
    avg_turnaround_ms: ms2(mean(tasks, (t) => t.turnaround_ns)),
    max_turnaround_ms: ms(Math.max(...tasks.map((t) => t.turnaround_ns))),
    max_response_ms: ms(Math.max(...tasks.map((t) => t.response_ns))),
    throughput_per_s: (tasks.length / (result.time_ns / 1e9)).toFixed(1),
    util_pct: pct((totalCpu / (result.time_ns * (result.smp ?? 1))) * 100),
  };
  for (const t of tasks) {
    v[`${t.name}_finish_ms`] = ms(t.finish_ns);
    v[`${t.name}_cpu_ms`] = ms(t.cpu_ns);
    v[`${t.name}_wait_ms`] = ms(t.wait_ns);
    v[`${t.name}_arrive_ms`] = ms(t.arrive_ns);
    v[`${t.name}_response_ms`] = ms(t.response_ns);
    v[`${t.name}_turnaround_ms`] = ms(t.turnaround_ns);
    v[`${t.name}_switches`] = String(t.switches);
    v[`${t.name}_iter`] = String(t.iterations);
    v[`${t.name}_cpu_pct`] = pct(totalCpu === 0 ? 0 : (t.cpu_ns / totalCpu) * 100);
    // Share of the whole run, idle included: what a bandwidth reservation (runtime / period) promises.
    v[`${t.name}_time_pct`] = pct(result.time_ns === 0 ? 0 : (t.cpu_ns / result.time_ns) * 100);
    if (t.lat) {
      v[`${t.name}_lat_min_us`] = us(t.lat.min_ns);
      v[`${t.name}_lat_avg_us`] = us(t.lat.avg_ns);
      v[`${t.name}_lat_max_us`] = us(t.lat.max_ns);
    }
    if (t.lock) {
      v[`${t.name}_lock_avg_ms`] = ms(t.lock.avg_wait_ns);
      v[`${t.name}_lock_max_ms`] = ms(t.lock.max_wait_ns);
      v[`${t.name}_lock_contended`] = String(t.lock.contended);
      v[`${t.name}_lock_inversions`] = String(t.lock.inversions);
    }
  }
  const groups = new Map();
  for (const t of tasks) {
    const g = groupOf(t.name);
    groups.set(g, [...(groups.get(g) ?? []), t]);
  }
  const lastFinish = new Map();
  for (const [g, members] of groups) {
    const last = Math.max(...members.map((t) => t.finish_ns));
    lastFinish.set(g, last);
    v[`${g}_last_finish_ms`] = ms(last);
    v[`${g}_cpu_pct`] = pct(totalCpu === 0 ? 0 : (members.reduce((s, t) => s + t.cpu_ns, 0) / totalCpu) * 100);
  }
  for (const [a, la] of lastFinish) {
    for (const [b, lb] of lastFinish) {
      if (a !== b && lb > 0) v[`${a}_over_${b}`] = (la / lb).toFixed(2);
    }
  }
  v.table = taskTable(result);
  v.metrics_table = metricsTable(result);
  return v;
}

const mean = (tasks, figure) => tasks.reduce((s, t) => s + figure(t), 0) / tasks.length;
const ms2 = (ns) => (ns / 1e6).toFixed(2);

/** Per task: when it arrived, waited, first ran and finished, as the metrics chapter defines them. */
export function metricsTable(result) {
  const header = ["task", "arrival (ms)", "CPU (ms)", "waiting (ms)", "response (ms)", "turnaround (ms)"];
  const rows = result.tasks.map((t) => [t.name, ms(t.arrive_ns), ms(t.cpu_ns), ms(t.wait_ns), ms(t.response_ns), ms(t.turnaround_ns)]);
  return markdownTable(header, rows);
}

/**
 * Little's law from a trace: L, the time-average number of tasks in the system (arrived, `new`,
 * and not yet gone, `exit`) from the first arrival to the last exit; lambda, arrivals per
 * second over that span; W, the mean turnaround from RESULT. `null` without arrivals.
 */
export function littlesLaw(text, result) {
  let [inSystem, area, last, first] = [0, 0, 0, null];
  for (const line of text.split("\n")) {
    const f = line.split(" ");
    if (f[0] !== "T" || (f[3] !== "new" && f[3] !== "exit")) continue;
    const t = Number(f[1]);
    area += inSystem * (t - last);
    last = t;
    first ??= t;
    inSystem += f[3] === "new" ? 1 : -1;
  }
  if (first === null || last === first) return null;
  const span = last - first;
  const L = area / span;
  const lambda = result.tasks.length / span;
  const W = mean(result.tasks, (t) => t.turnaround_ns);
  return { L, lambda, W, lambdaW: lambda * W };
}

// The last, smallest and largest value of each named policy state key (`docs/trace.md`) on each
// task's trace events, as `<task>_<key>_last` / `_min` / `_max`: what a chapter quotes of a
// policy's own figures (O(1)'s dynamic priority, stride's pass). A key a task never showed is
// an error, not an empty figure.
export function fieldValues(eventsText, result, keys) {
  const names = new Map(result.tasks.map((t) => [t.tid, t.name]));
  const seen = new Map();
  for (const line of eventsText.split("\n")) {
    const words = line.trim().split(" ");
    if (words[0] !== "T" || words.length < 5) continue;
    const name = names.get(Number(words[4]));
    if (name === undefined) continue;
    for (const word of words.slice(5)) {
      const eq = word.indexOf("=");
      const key = word.slice(0, eq);
      if (eq < 0 || !keys.includes(key) || !/^-?\d+$/.test(word.slice(eq + 1))) continue;
      const value = Number(word.slice(eq + 1));
      const id = `${name}_${key}`;
      const s = seen.get(id) ?? { min: value, max: value };
      seen.set(id, { last: value, min: Math.min(s.min, value), max: Math.max(s.max, value) });
    }
  }
  const values = {};
  for (const t of result.tasks) {
    for (const key of keys) {
      const s = seen.get(`${t.name}_${key}`);
      if (!s) throw new Error(`"${result.args}": task ${t.name} shows no ${key}= in its trace`);
      values[`${t.name}_${key}_last`] = String(s.last);
      values[`${t.name}_${key}_min`] = String(s.min);
      values[`${t.name}_${key}_max`] = String(s.max);
    }
  }
  return values;
}

function markdownTable(header, rows) {
  const line = (cells) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

export function taskTable(result) {
  const hasLat = result.tasks.some((t) => t.lat);
  const header = ["task", "finish (ms)", "CPU (ms)", "waiting (ms)", "switches", "units done"];
  if (hasLat) header.push("latency avg / max (µs)");
  const rows = result.tasks.map((t) => {
    const row = [t.name, ms(t.finish_ns), ms(t.cpu_ns), ms(t.wait_ns), t.switches, t.iterations];
    if (hasLat) row.push(t.lat ? `${us(t.lat.avg_ns)} / ${us(t.lat.max_ns)}` : "");
    return row;
  });
  return markdownTable(header, rows);
}

// One row per run, one column per task (by the first run's task names), one figure per cell.
const CELL = {
  finish_ms: (t) => ms(t.finish_ns),
  cpu_ms: (t) => ms(t.cpu_ns),
  iterations: (t) => String(t.iterations),
  switches: (t) => String(t.switches),
};

// One row per run: the measuring task's latency statistics (cyclictest's Min / Avg / Max).
function latencyTable(spec, results) {
  const rows = results.map(([label, r]) => {
    if (r === PENDING) return [label, PENDING_TEXT, PENDING_TEXT, PENDING_TEXT, PENDING_TEXT];
    const t = r.tasks.find((x) => x.lat);
    if (!t) throw new Error(`table ${spec.id}: the run "${r.args}" measured no latency`);
    return [label, us(t.lat.min_ns), us(t.lat.avg_ns), us(t.lat.max_ns), t.lat.samples];
  });
  return markdownTable([spec.corner ?? "", "min (µs)", "avg (µs)", "max (µs)", "samples"], rows);
}

// One row per run: the waits of the task that waited longest for a mutex (the high task of
// `workload=inversion`): from asking to holding, and how many saw a priority inversion.
function lockTable(spec, results) {
  const rows = results.map(([label, r]) => {
    if (r === PENDING) return [label, ...Array(5).fill(PENDING_TEXT)];
    const waited = r.tasks.filter((x) => x.lock).sort((a, b) => b.lock.max_wait_ns - a.lock.max_wait_ns);
    if (!waited.length) throw new Error(`table ${spec.id}: the run "${r.args}" took no mutex`);
    const { name, lock } = waited[0];
    return [label, name, lock.contended, ms(lock.avg_wait_ns), ms(lock.max_wait_ns), lock.inversions];
  });
  return markdownTable([spec.corner ?? "", "task", "waits", "avg wait (ms)", "max wait (ms)", "inversions"], rows);
}

// Tables with a row of their own per run, by metric.
const ROW_TABLES = { latency: latencyTable, lock: lockTable };

// A run skipped because the kernel does not know a setting it needs yet (spec.mjs, `needs`):
// its place in a table, and the text of every figure the chapters quote from it.
export const PENDING = Symbol("pending");
export const PENDING_TEXT = "(pending)";

/** The figures the chapters quote from a skipped run: each anchor says what it waits for. */
export function pendingValues(anchors, needs) {
  return Object.fromEntries(anchors.map((a) => [a, `${PENDING_TEXT.slice(0, -1)}: needs \`${needs}=\`)`]));
}

export function compareTable(spec, resultsById) {
  const cell = CELL[spec.metric];
  const rowTable = ROW_TABLES[spec.metric];
  if (!cell && !rowTable) {
    throw new Error(`table ${spec.id}: metric "${spec.metric}" is not one of ${[...Object.keys(CELL), ...Object.keys(ROW_TABLES)].join(", ")}`);
  }
  const results = spec.rows.map(([label, id]) => {
    const r = resultsById.get(id);
    if (!r) throw new Error(`table ${spec.id}: no experiment "${id}"`);
    return [label, r];
  });
  if (rowTable) return rowTable(spec, results);
  const first = results.find(([, r]) => r !== PENDING);
  const names = first ? first[1].tasks.map((t) => t.name) : [PENDING_TEXT];
  const rows = results.map(([label, r]) => [
    label,
    ...names.map((n) => {
      if (r === PENDING) return PENDING_TEXT;
      const t = r.tasks.find((x) => x.name === n);
      return t ? cell(t) : "";
    }),
  ]);
  return markdownTable([spec.corner ?? "", ...names], rows);
}

// What the kernel offers, as figures a claim can pin: how many sched_features each policy lets
// the reader switch (`cfs_features_count`), so that prose saying which ones ours has is checked
// against the kernel that built the book. `catalog` is normalizeCatalog's (book/widget/catalog.js).
export function catalogValues(catalog) {
  const values = {};
  for (const t of catalog.tunables.values()) {
    if (t.type === "features") values[`${t.name.replace(".", "_")}_count`] = String(t.features.length);
  }
  return values;
}

// mdBook includes the lines between `ANCHOR: x` and `ANCHOR_END: x`; a one-line value with no
// line break around it can sit inside a sentence.
export function anchored(values) {
  return Object.entries(values)
    .map(([k, text]) => `ANCHOR: ${k}\n${text}\nANCHOR_END: ${k}`)
    .join("\n") + "\n";
}

// What a run's trace shows that its RESULT does not (docs/trace.md): where each task was first
// queued, its moves between harts and why, how long each hart spent between one task's `out`
// and the next one's `in` (switching, not charged to any task), and how many CFS wakeups kept
// a vruntime below their queue's min_vruntime (sleeper credit at work), and by how much. `text` is the raw
// trace (`runqueue run --events`); every value is a string, like runValues'.
export const MOVES = ["placement", "periodic", "newidle", "active", "affinity"];

export function traceValues(text, result, { window_us } = {}) {
  const harts = result.smp ?? 1;
  const name = new Map(result.tasks.map((t) => [t.tid, t.name]));
  const firstRq = new Map();
  const moves = Object.fromEntries(MOVES.map((w) => [w, 0]));
  const taskMoves = new Map(result.tasks.map((t) => [t.tid, 0]));
  const ran = new Array(harts).fill(0);
  const between = new Array(harts).fill(0);
  const lastOut = new Array(harts).fill(null);
  let wakes = 0;
  let behind = 0;
  let behindNs = 0;
  // EEVDF 6.12's delayed dequeue: tasks that blocked while still queued (`state delayed=1`), and
  // the wakeups that moved such a task to another hart's queue instead of leaving it in place.
  const delayed = new Map();
  let [delayedSleeps, delayedMoves] = [0, 0];
  const firstHart = new Map();
  const wakesOn = new Map(result.tasks.map((t) => [t.tid, new Array(harts).fill(0)]));
  // Balancing passes that moved tasks: (time, hart, why) -> tasks moved.
  const passes = new Map();
  // The modelled host's steal: its total, and its longest piece and culprit.
  const steal = { ns: 0, longest: 0, by: "none" };
  for (const line of text.split("\n")) {
    const f = line.split(" ");
    if (f[0] !== "T" || f.length < 5) continue;
    const [t, h, kind, tid] = [Number(f[1]), Number(f[2]), f[3], Number(f[4])];
    const kv = Object.fromEntries(f.slice(5).filter((x) => x.includes("=")).map((x) => x.split(/=(.*)/s).slice(0, 2)));
    if (kind === "steal") {
      const ns = Number(kv.ns);
      steal.ns += ns;
      if (ns > steal.longest) [steal.longest, steal.by] = [ns, kv.by];
    } else if (kind === "new" && kv.rq !== undefined && !firstRq.has(tid)) firstRq.set(tid, Number(kv.rq));
    else if (kind === "state" && kv.delayed !== undefined) {
      delayed.set(tid, kv.delayed === "1");
      if (kv.delayed === "1") delayedSleeps += 1;
    } else if (kind === "migrate") {
      if (kv.why === "placement" && delayed.get(tid)) delayedMoves += 1;
      if (!(kv.why in moves)) throw new Error(`a migrate event with why=${kv.why}, which is not one of ${MOVES.join(", ")}`);
      moves[kv.why] += 1;
      taskMoves.set(tid, (taskMoves.get(tid) ?? 0) + 1);
      if (["periodic", "newidle", "active"].includes(kv.why)) {
        const pass = `${t} ${h} ${kv.why}`;
        passes.set(pass, (passes.get(pass) ?? 0) + 1);
      }
    } else if (kind === "out" && h < harts) {
      ran[h] += Number(kv.ran ?? 0);
      lastOut[h] = t;
    } else if (kind === "in" && h < harts) {
      if (!firstHart.has(tid)) firstHart.set(tid, h);
      if (lastOut[h] !== null) between[h] += t - lastOut[h];
      lastOut[h] = null;
    } else if (kind === "wake") {
      delayed.set(tid, false);
      if (wakesOn.has(tid) && h < harts) wakesOn.get(tid)[h] += 1;
      if (kv.vr !== undefined && kv.min !== undefined) {
        wakes += 1;
        if (BigInt(kv.vr) < BigInt(kv.min)) {
          behind += 1;
          behindNs += Number(BigInt(kv.min) - BigInt(kv.vr));
        }
      }
    }
  }
  const v = {
    migrations: String(Object.values(moves).reduce((a, b) => a + b, 0)),
    wakes: String(wakes),
    wakes_behind_min: String(behind),
    // How far below min_vruntime those wakeups kept their vruntime, on average (µs of virtual time).
    wakes_behind_avg_us: behind === 0 ? "0.0" : us(behindNs / behind),
    delayed_sleeps: String(delayedSleeps),
    delayed_wake_moves: String(delayedMoves),
    // Tasks each hart's queue took as they were created, hart 0 first: "2 / 1 / 1".
    rq_at_start: firstRq.size === 0 ? "n/a" : Array.from({ length: harts }, (_, h) => [...firstRq.values()].filter((q) => q === h).length).join(" / "),
  };
  for (const w of MOVES) v[`migrations_${w}`] = String(moves[w]);
  v.host_steal_ms = ms(steal.ns);
  v.host_steal_longest_us = (steal.longest / 1000).toFixed(1);
  v.host_steal_longest_by = steal.by;
  // Balancing passes that moved at least one task, and the most one pass moved.
  v.balance_passes = String(passes.size);
  v.balance_max_moved = String(Math.max(0, ...passes.values()));
  for (let h = 0; h < harts; h++) {
    v[`hart${h}_ran_ms`] = ms(ran[h]);
    v[`hart${h}_between_ms`] = ms(between[h]);
  }
  v.between_total_ms = ms(between.reduce((a, b) => a + b, 0));
  Object.assign(v, groupValues(text, result), readyValues(text, result));
  if (window_us) Object.assign(v, windowValues(text, result, window_us * 1000));
  const little = littlesLaw(text, result);
  if (little) {
    v.little_l = little.L.toFixed(3);
    v.little_lambda_per_s = (little.lambda * 1e9).toFixed(1);
    v.little_w_ms = ms2(little.W);
    v.little_lambda_w = little.lambdaW.toFixed(3);
    v.little_diff_pct = pct2((Math.abs(little.L - little.lambdaW) / little.L) * 100);
  }
  // A periodic job's worst response (`mark resp=`, workload deadline), per task.
  for (const [tid, worst] of worstMarks(text, "resp")) if (name.has(tid)) v[`${name.get(tid)}_resp_max_ms`] = ms2(worst);
  // Tasks by the queue they were created on, whatever moves came later.
  for (let h = 0; h < harts && firstRq.size > 0; h++) {
    const group = result.tasks.filter((t) => firstRq.get(t.tid) === h);
    if (group.length === 0) continue;
    v[`rq${h}_cpu_min_ms`] = ms(Math.min(...group.map((t) => t.cpu_ns)));
    v[`rq${h}_cpu_max_ms`] = ms(Math.max(...group.map((t) => t.cpu_ns)));
    v[`rq${h}_iter_min`] = String(Math.min(...group.map((t) => t.iterations)));
    v[`rq${h}_iter_max`] = String(Math.max(...group.map((t) => t.iterations)));
  }
  for (const [tid, n] of taskMoves) {
    const task = name.get(tid);
    if (task === undefined) continue;
    v[`${task}_migrations`] = String(n);
    if (firstRq.has(tid)) v[`${task}_rq`] = String(firstRq.get(tid));
    if (firstHart.has(tid)) v[`${task}_first_hart`] = String(firstHart.get(tid));
    // Which hart booked its wakeups: where its sleep timer fired (or its waker ran).
    wakesOn.get(tid).forEach((n, h) => (v[`${task}_wakes_hart${h}`] = String(n)));
  }
  return v;
}

// The most CPU time each task received in any stretch of `window` ns of the run,
// `<task>_cpu_window_max_ms`: what a reservation of so much per period promises not to exceed
// (a SCHED_DEADLINE task's runtime per period). Its stints run from each `in` to the next `out`.
export function windowValues(text, result, window) {
  const stints = new Map(result.tasks.map((t) => [t.tid, []]));
  const since = new Map();
  for (const line of text.split("\n")) {
    const f = line.split(" ");
    if (f[0] !== "T" || f.length < 5 || !stints.has(Number(f[4]))) continue;
    const [t, kind, tid] = [Number(f[1]), f[3], Number(f[4])];
    if (kind === "in") since.set(tid, t);
    else if (kind === "out" && since.has(tid)) {
      stints.get(tid).push([since.get(tid), t]);
      since.delete(tid);
    }
  }
  const v = {};
  for (const task of result.tasks) {
    const list = stints.get(task.tid);
    // The best window starts where a stint starts: slide over them, stints wholly inside summed.
    let [best, whole, j] = [0, 0, 0];
    for (let i = 0; i < list.length; i++) {
      const end = list[i][0] + window;
      while (j < list.length && list[j][1] <= end) whole += list[j][1] - list[j++][0];
      const part = j < list.length ? Math.max(0, end - list[j][0]) : 0;
      best = Math.max(best, whole + part);
      // Stint i leaves the window: it was summed whole, or it is stint j, longer than the window.
      if (j > i) whole -= list[i][1] - list[i][0];
      else j = i + 1;
    }
    v[`${task.name}_cpu_window_max_ms`] = ms2(best);
  }
  return v;
}

// cgroup figures (docs/trace.md: a task's group is the `cg=` of its `new`, the root is 0): each
// group's share of the CPU the tasks used, `cg<N>_cpu_pct`, and how often it went to sleep,
// `cg<N>_sleeps`: its last runnable task blocked, slept or exited, so that its entity left its
// parent's queue and the next wakeup places it again. `throttles`: `cpu.max` throttles in all.
export function groupValues(text, result) {
  const group = new Map();
  const runnable = new Map();
  const sleeps = new Map();
  let throttles = 0;
  for (const line of text.split("\n")) {
    const f = line.split(" ");
    if (f[0] !== "T" || f.length < 5) continue;
    const [kind, tid] = [f[3], Number(f[4])];
    if (kind === "throttle") throttles += 1;
    if (kind === "new") {
      const cg = f.slice(5).find((x) => x.startsWith("cg="));
      group.set(tid, cg ? Number(cg.slice(3)) : 0);
    }
    const g = group.get(tid);
    if (g === undefined) continue;
    const why = kind === "out" ? f.find((x) => x.startsWith("why="))?.slice(4) : undefined;
    if (kind === "new" || kind === "wake") runnable.set(g, (runnable.get(g) ?? 0) + 1);
    else if (why === "block" || why === "sleep" || why === "exit") {
      runnable.set(g, runnable.get(g) - 1);
      if (runnable.get(g) === 0 && why !== "exit") sleeps.set(g, (sleeps.get(g) ?? 0) + 1);
    }
  }
  const v = { throttles: String(throttles) };
  if (![...group.values()].some((g) => g > 0)) return v;
  const total = result.tasks.reduce((s, t) => s + t.cpu_ns, 0);
  for (const g of new Set(group.values())) {
    const cpu = result.tasks.filter((t) => group.get(t.tid) === g).reduce((s, t) => s + t.cpu_ns, 0);
    v[`cg${g}_cpu_pct`] = pct(total === 0 ? 0 : (cpu / total) * 100);
    v[`cg${g}_sleeps`] = String(sleeps.get(g) ?? 0);
  }
  return v;
}

// Each task's waits for the CPU, from becoming runnable (`new`, `wake`, or an `out` that left
// it runnable: preempted or yielding) to its next `in`: the longest, `<task>_wait_max_ms`; how
// its stints ended, `<task>_out_<why>` (how often it was preempted, blocked, ...); and its
// first and longest stints, `<task>_ran_first_ms` and `<task>_ran_max_ms` (the `ran=` of its
// `out` events).
export function readyValues(text, result) {
  const name = new Map(result.tasks.map((t) => [t.tid, t.name]));
  const since = new Map();
  const worst = new Map();
  const [first, longest] = [new Map(), new Map()];
  const outs = new Map(result.tasks.map((t) => [t.tid, {}]));
  for (const line of text.split("\n")) {
    const f = line.split(" ");
    if (f[0] !== "T" || f.length < 5 || !name.has(Number(f[4]))) continue;
    const [t, kind, tid] = [Number(f[1]), f[3], Number(f[4])];
    if (kind === "new" || kind === "wake") since.set(tid, t);
    else if (kind === "in" && since.has(tid)) {
      worst.set(tid, Math.max(worst.get(tid) ?? 0, t - since.get(tid)));
      since.delete(tid);
    } else if (kind === "out") {
      const why = f.find((x) => x.startsWith("why="))?.slice(4);
      outs.get(tid)[why] = (outs.get(tid)[why] ?? 0) + 1;
      const ran = Number(f.find((x) => x.startsWith("ran="))?.slice(4) ?? 0);
      if (!first.has(tid)) first.set(tid, ran);
      longest.set(tid, Math.max(longest.get(tid) ?? 0, ran));
      if (why === "preempt" || why === "yield") since.set(tid, t);
    }
  }
  const v = {};
  for (const [tid, task] of name) {
    v[`${task}_wait_max_ms`] = ms(worst.get(tid) ?? 0);
    v[`${task}_ran_first_ms`] = ms(first.get(tid) ?? 0);
    v[`${task}_ran_max_ms`] = ms(longest.get(tid) ?? 0);
    for (const why of ["preempt", "yield", "block", "sleep", "exit"]) v[`${task}_out_${why}`] = String(outs.get(tid)[why] ?? 0);
  }
  return v;
}
