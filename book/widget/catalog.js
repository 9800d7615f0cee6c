// The kernel's own description of its schedulers, workloads and tunables (`CATALOG {json}`,
// saved at build time as catalog.json), and the kernel command lines built from it. Reading a
// line is the kernel's own parser's work (`withReader`); this file only words what it finds
// and spells settings back as a line. Pure functions, no DOM: the unit tests run them in node.

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
      queue: e.queue ?? null,
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
  return { scheds, workloads, common, tunables: byName, maxHarts, defaults, classes: raw.classes ?? [] };
}

/**
 * How the run-queue view orders and shows `sched`'s queue and the classes above it
 * (`book/widget/rq-state.js`), as the policy itself states it in the catalog.
 */
export function queueViews(catalog, sched) {
  return { fair: catalog.scheds.find((s) => s.name === sched)?.queue ?? null, classes: catalog.classes };
}

const range = (p) => `${p.min ?? "-∞"}..${p.max ?? "∞"}`;

/**
 * One refused word, from what the kernel's parser says is wrong with it (`errors` of
 * `runqueue_settings::reading`: which word, why, what is accepted), worded by the message
 * table `T` (book/widget/strings.js, the page's language by default).
 */
export function describeProblem(p, catalog, T = stringsFor(pageLang())) {
  const word = `${p.name}=${p.value}`;
  switch (p.error) {
    case "not-key-value":
      return T.argNotPair(p.word);
    case "unknown-sched":
      return T.argUnknown(`sched=${p.value}`, p.accepted.join(", "));
    case "unknown-workload":
      return T.argUnknown(`workload=${p.value}`, p.accepted.join(", "));
    case "unknown-key":
      return p.elsewhere ? T.argNotOfWorkload(p.name, p.workload) : T.argNotSetting(p.name);
    case "duplicate":
      return T.argTwice(p.name);
    case "bad-value":
      if (p.name === "smp") return T.argHarts(`smp=${p.value}`, catalog.maxHarts);
      switch (p.type) {
        case "int":
          return p.why === "not-integer" ? T.valueNotWhole(word) : T.valueOutside(word, range(p));
        case "list":
          return T.valueList(word, range(p));
        case "features":
          return T.valueFeatures(word, p.values.join(", "));
        case "choices":
          return T.valueChoices(word, p.values.join(", "));
        case "fraction":
          return T.valueFraction(word);
        default:
          return T.valueNotOneOf(word, p.values.join(", "));
      }
    default:
      return p.text ?? JSON.stringify(p);
  }
}

/**
 * Reads a kernel command line into settings {sched, workload, smp, tunables: Map} over
 * `defaults`, with the kernel's own parser (`catalog.read`, the page's wasm or `runqueue
 * settings`: `withReader`). Every bad word is refused with a message that says what is
 * accepted, and the rest applies. Workload tunables are checked against the chosen workload's
 * table (workloads share names such as `wl.tasks` with different limits); any scheduler's
 * tunables are accepted, for compare mode.
 */
export function parseArgs(text, catalog, defaults = {}, T = stringsFor(pageLang())) {
  const tunables = [...(defaults.tunables ?? [])];
  if (defaults.smp !== undefined) tunables.push(["smp", String(defaults.smp)]);
  const base = { sched: defaults.sched ?? catalog.defaults.sched, workload: defaults.workload ?? catalog.defaults.workload, tunables };
  const read = JSON.parse(catalog.read(String(text ?? ""), JSON.stringify(base)));
  const set = new Map(read.tunables);
  const smp = Number(set.get("smp") ?? 1);
  set.delete("smp");
  const settings = { sched: read.sched, workload: read.workload, smp, tunables: set };
  return { settings, errors: read.errors.map((p) => describeProblem(p, catalog, T)) };
}

/**
 * `catalog` with the kernel's parser to read command lines: `read(line, baseJson)` returns
 * the reading's JSON (the page's `SettingsReader.read`, or `runqueue settings` in node).
 */
export function withReader(catalog, read) {
  return Object.assign(catalog, { read });
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
