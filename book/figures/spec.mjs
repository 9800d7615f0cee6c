// Reads and checks experiments.json:
//   { experiments: [{id, args, events?, fields?, refused?, trace?, window_us?, max_insns?, quantum?, needs?}], tables: [{id, metric, rows, corner?}] }.
// `refused: true` marks a run the kernel must reject (its `error:` line becomes the figure `error`).
// `trace: true` adds the figures only the trace has (metrics.mjs, traceValues: moves between
// harts, switching time per hart, ...); with it, `window_us` adds each task's most CPU time in any
// window of that length (a deadline task's runtime per period). `max_insns` raises the CLI's instruction budget for a long
// run (its default is 5e9); `quantum` sets the machine's turn length (`runqueue run --quantum`).
// `needs: "NAME"` names a setting a run depends on that the kernel's catalog may not list yet (a
// machine option another branch adds): until it does, the run is skipped and every figure the
// chapters quote from it reads as pending, so the book still builds.
// `fields: ["prio", ...]` names policy state keys of the trace to quote per task (`fieldValues`).

const ID = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
const FIELD = /^[a-z0-9_]{1,16}$/;

export function parseSpec(text) {
  let spec;
  try {
    spec = JSON.parse(text);
  } catch (e) {
    throw new Error(`experiments.json is not valid JSON: ${e.message}`);
  }
  const experiments = spec.experiments ?? [];
  const tables = spec.tables ?? [];
  if (!Array.isArray(experiments) || !Array.isArray(tables)) throw new Error("experiments and tables must be lists");
  const ids = new Set();
  for (const e of experiments) {
    if (typeof e.id !== "string" || !ID.test(e.id)) throw new Error(`bad experiment id ${JSON.stringify(e.id)}`);
    if (ids.has(e.id)) throw new Error(`experiment id ${e.id} is used twice`);
    ids.add(e.id);
    if (typeof e.args !== "string" || !e.args.trim()) throw new Error(`experiment ${e.id} has no args`);
    if (e.events !== undefined && !(Number.isInteger(e.events) && e.events > 0)) {
      throw new Error(`experiment ${e.id}: events must be a positive line count`);
    }
    if (e.refused !== undefined && e.refused !== true) throw new Error(`experiment ${e.id}: refused is true or absent`);
    if (e.fields !== undefined && !(Array.isArray(e.fields) && e.fields.length > 0 && e.fields.every((f) => typeof f === "string" && FIELD.test(f)))) {
      throw new Error(`experiment ${e.id}: fields must be a list of trace keys (1-16 of a-z, 0-9, _)`);
    }
    if (e.trace !== undefined && e.trace !== true) throw new Error(`experiment ${e.id}: trace is true or absent`);
    if (e.window_us !== undefined && e.trace !== true) throw new Error(`experiment ${e.id}: window_us needs trace`);
    for (const k of ["max_insns", "quantum", "window_us"]) {
      if (e[k] !== undefined && !(Number.isSafeInteger(e[k]) && e[k] > 0)) throw new Error(`experiment ${e.id}: ${k} must be a positive whole number`);
    }
    if (e.needs !== undefined && !(typeof e.needs === "string" && /^[A-Za-z0-9_.]+$/.test(e.needs))) {
      throw new Error(`experiment ${e.id}: needs names one setting`);
    }
    for (const k of Object.keys(e)) {
      if (!["id", "args", "events", "fields", "refused", "trace", "window_us", "max_insns", "quantum", "needs"].includes(k)) throw new Error(`experiment ${e.id}: unknown key "${k}"`);
    }
  }
  const tableIds = new Set();
  for (const t of tables) {
    if (typeof t.id !== "string" || !/^[A-Za-z0-9_-]+$/.test(t.id)) throw new Error(`bad table id ${JSON.stringify(t.id)}`);
    if (tableIds.has(t.id)) throw new Error(`table id ${t.id} is used twice`);
    tableIds.add(t.id);
    if (!Array.isArray(t.rows) || t.rows.length === 0) throw new Error(`table ${t.id} has no rows`);
    for (const row of t.rows) {
      if (!Array.isArray(row) || row.length !== 2) throw new Error(`table ${t.id}: a row is [label, experiment id]`);
      if (!ids.has(row[1])) throw new Error(`table ${t.id}: no experiment "${row[1]}"`);
    }
  }
  return { experiments, tables };
}

// The `runqueue` arguments that run experiment `exp`, writing its RESULT JSON to `json` and, when
// the figures need the trace, its trace lines to `events`. The book's figures and the
// determinism test (scripts/test-determinism.mjs) run experiments the same way.
export function runArgv(exp, json, events) {
  const argv = ["run", "--append", exp.args, "--json", json];
  if (exp.events || exp.trace || exp.fields) argv.push("--events", events);
  if (exp.max_insns) argv.push("--max-insns", String(exp.max_insns));
  if (exp.quantum) argv.push("--quantum", String(exp.quantum));
  return argv;
}
