// The kernel's own description of its schedulers, workloads and tunables (`CATALOG {json}`,
// saved at build time as catalog.json), and the kernel command lines built from it. The
// kernel's argument parser reads the same table, so the controls cannot drift from it.
// Pure functions, no DOM: the unit tests run them in node.

import { CATALOG_ZH } from "./catalog-zh.js";
import { pageLang, stringsFor } from "./strings.js";

// Keys every command line has; `smp` is a control of its own since it also sets the harts.
const FIXED = ["sched", "workload", "smp"];
// The emulator's limit; the catalog's `smp` entry may lower it.
const MAX_HARTS = 8;

// The kernel's help lines and units are English; a Chinese page shows book/widget/catalog-zh.js's
// text instead, and the kernel's where that table has none.
const NO_TRANSLATION = { scheduler() {}, workload() {}, tunable() {}, unit() {} };
const catalogText = (lang) => (/^zh\b/i.test(String(lang)) ? CATALOG_ZH : NO_TRANSLATION);

/**
 * A tunable as the widget uses it; `values` set means "pick one of these". `owner` is the
 * scheduler or workload listing it (workloads give one name different meanings).
 */
function tunable(raw, owner, text) {
  if (!raw || typeof raw.name !== "string") throw new Error("catalog: a tunable has no name");
  const listed = Array.isArray(raw.values) ? raw.values.map(String) : [];
  // A choice is picked from a list; `features` and `choices` list names to combine, so they
  // stay text.
  const combined = raw.type === "features" || raw.type === "choices";
  const values = combined ? null : listed.length ? listed : raw.type === "bool" ? ["0", "1"] : null;
  return {
    name: raw.name,
    type: raw.type ?? "str",
    default: raw.default === undefined ? "" : String(raw.default),
    min: typeof raw.min === "number" ? raw.min : null,
    max: typeof raw.max === "number" ? raw.max : null,
    unit: text.unit(raw.unit) ?? raw.unit ?? "",
    help: text.tunable(raw.name, owner) ?? raw.help ?? "",
    values,
    features: raw.type === "features" ? listed : null,
    choices: raw.type === "choices" ? listed : null,
  };
}

function entries(list, what, help, text) {
  if (!Array.isArray(list) || list.length === 0) throw new Error(`catalog: no ${what} listed`);
  return list.map((e) => {
    if (typeof e?.name !== "string") throw new Error(`catalog: a ${what} entry has no name`);
    return {
      name: e.name,
      help: help(e.name) ?? e.help ?? "",
      tunables: (e.tunables ?? []).map((t) => tunable(t, e.name, text)),
    };
  });
}

/**
 * Checks and normalises the kernel's catalog (`kernel/src/catalog.rs`): `schedulers` and
 * `workloads` with their tunables, `globals`, and `defaults`. Tunables may also sit in one
 * flat `tunables` list where the prefix before the dot names the owner. Help texts and units
 * are in `lang`'s language where book/widget/catalog-zh.js has them (English otherwise).
 */
export function normalizeCatalog(raw, lang = pageLang()) {
  const text = catalogText(lang);
  const scheds = entries(raw?.scheds ?? raw?.schedulers, "schedulers", text.scheduler, text);
  const workloads = entries(raw?.workloads, "workloads", text.workload, text);
  const common = [];
  let maxHarts = MAX_HARTS;
  for (const t of [...(raw.globals ?? []), ...(raw.common ?? []), ...(raw.tunables ?? [])]) {
    if (FIXED.includes(t?.name)) {
      if (t.name === "smp" && typeof t.max === "number") maxHarts = Math.min(t.max, MAX_HARTS);
      continue;
    }
    const prefix = t?.name?.split(".")[0];
    const owner = [...scheds, ...workloads].find((e) => e.name === prefix && t.name.includes("."));
    if (owner) owner.tunables.push(tunable(t, owner.name, text));
    else common.push(tunable(t, undefined, text));
  }
  const byName = new Map();
  for (const t of [...common, ...scheds.flatMap((s) => s.tunables), ...workloads.flatMap((w) => w.tunables)]) {
    byName.set(t.name, t);
  }
  const pick = (list, name) => (list.some((e) => e.name === name) ? name : list[0].name);
  const defaults = { sched: pick(scheds, raw.defaults?.sched), workload: pick(workloads, raw.defaults?.workload) };
  return { scheds, workloads, common, tunables: byName, maxHarts, defaults };
}

const inRange = (t, n) => (t.min === null || n >= t.min) && (t.max === null || n <= t.max);
const range = (t) => `${t.min ?? "-∞"}..${t.max ?? "∞"}`;

/**
 * Why `value` is not acceptable for tunable `t`, or null; in the language of the message
 * table `T` (book/widget/strings.js, the page's by default).
 */
export function checkValue(t, value, T = stringsFor(pageLang())) {
  const word = `${t.name}=${value}`;
  switch (t.type) {
    case "int":
      if (!/^-?\d+$/.test(value)) return T.valueNotWhole(word);
      return inRange(t, Number(value)) ? null : T.valueOutside(word, range(t));
    case "list":
      return value.split(",").every((v) => /^-?\d+$/.test(v) && inRange(t, Number(v))) ? null : T.valueList(word, range(t));
    case "features":
      return value.split(",").every((v) => t.features.includes(v.replace(/^NO_/, ""))) ? null : T.valueFeatures(word, t.features.join(", "));
    case "choices":
      return value.split(",").every((v) => t.choices.includes(v)) ? null : T.valueChoices(word, t.choices.join(", "));
    case "fraction": {
      const m = /^(\d+)(?:\/(\d+))?$/.exec(value);
      const ok = m && (m[2] === undefined ? Number(m[1]) <= 1 : Number(m[2]) > 0 && Number(m[1]) <= Number(m[2]));
      return ok ? null : T.valueFraction(word);
    }
    default:
      if (t.values) return t.values.includes(value) ? null : T.valueNotOneOf(word, t.values.join(", "));
      return /^[A-Za-z0-9_.,:+\/-]*$/.test(value) ? null : T.valueCharacters(word);
  }
}

/**
 * Reads a kernel command line into settings {sched, workload, smp, tunables: Map}. Every
 * problem is collected into `errors` with a message that says what is accepted, from the
 * message table `T`. Workload tunables are checked against the chosen workload's table
 * (workloads share names such as `wl.tasks` with different limits); any scheduler's tunables
 * are accepted, for compare mode.
 */
export function parseArgs(text, catalog, defaults = {}, T = stringsFor(pageLang())) {
  const settings = {
    sched: defaults.sched ?? catalog.defaults.sched,
    workload: defaults.workload ?? catalog.defaults.workload,
    smp: defaults.smp ?? 1,
    tunables: new Map(defaults.tunables ?? []),
  };
  const errors = [];
  const rest = [];
  for (const word of String(text ?? "").split(/\s+/).filter(Boolean)) {
    const eq = word.indexOf("=");
    if (eq <= 0) {
      errors.push(T.argNotPair(word));
      continue;
    }
    const [key, value] = [word.slice(0, eq), word.slice(eq + 1)];
    if (key === "sched" || key === "workload") {
      const list = key === "sched" ? catalog.scheds : catalog.workloads;
      if (list.some((e) => e.name === value)) settings[key] = value;
      else errors.push(T.argUnknown(`${key}=${value}`, list.map((e) => e.name).join(", ")));
    } else if (key === "smp") {
      const n = Number(value);
      if (Number.isInteger(n) && n >= 1 && n <= catalog.maxHarts) settings.smp = n;
      else errors.push(T.argHarts(`smp=${value}`, catalog.maxHarts));
    } else {
      rest.push([key, value]);
    }
  }
  const known = applicable(catalog, catalog.scheds.map((s) => s.name), settings.workload);
  for (const [key, value] of rest) {
    const t = known.find((k) => k.name === key);
    const problem = t ? checkValue(t, value, T)
      : catalog.tunables.has(key) ? T.argNotOfWorkload(key, settings.workload)
      : T.argNotSetting(key);
    if (problem) errors.push(problem);
    else settings.tunables.set(key, value);
  }
  return { settings, errors };
}

/** The tunables that apply to the chosen scheduler(s) and workload. */
export function applicable(catalog, scheds, workload) {
  return [
    ...catalog.common,
    ...catalog.scheds.filter((s) => scheds.includes(s.name)).flatMap((s) => s.tunables),
    ...(catalog.workloads.find((w) => w.name === workload)?.tunables ?? []),
  ];
}

/**
 * The kernel command line for `settings` under scheduler `sched`: the fixed keys, then every
 * applicable tunable that differs from its default, in catalog order (so equal settings give
 * byte-equal lines).
 */
export function formatArgs(settings, catalog, sched = settings.sched) {
  const words = FIXED.map((k) => `${k}=${k === "sched" ? sched : settings[k]}`);
  for (const t of applicable(catalog, [sched], settings.workload)) {
    const v = settings.tunables.get(t.name);
    if (v !== undefined && v !== t.default) words.push(`${t.name}=${v}`);
  }
  return words.join(" ");
}
