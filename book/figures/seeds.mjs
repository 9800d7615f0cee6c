// The seed reports' figures that the chapters quote (book/figures/seeds.json): checked, rendered
// into book/src/generated/seeds.md (one anchor per figure, as the experiments' figures are), and
// looked for where a chapter would have typed one by hand. Pure functions but for the file
// readers at the end; the generator and the tests share them.
//
// A figure is { id, value, unit?, format?, about, shared?, and either seed + line + excerpt (the
// source: the seed file's key, its 1-based line or [first, last] lines, and their text) or calc
// (an expression over other figures, `{id}` for each, with `sum()` and `Math`) }. `value` is a
// number, a string, or a list of numbers. `shared: true` marks a figure whose value is also one
// of our own settings (the seed's warps are our experiment's): a bare occurrence of it in a
// chapter cannot be told apart from ours, so the hand-written check skips it. A number in a list
// may be written as a string ("22.30") to keep the digits the seed shows.

import fs from "node:fs";
import path from "node:path";

const ID = /^[A-Za-z0-9_-]+$/; // mdBook's anchor names: [\w-]+
const KEYS = ["id", "value", "unit", "format", "about", "shared", "seed", "line", "excerpt", "calc"];
// Units written without a space after the number.
const TIGHT = new Set(["×", "%"]);

export function parseSeeds(text) {
  let spec;
  try {
    spec = JSON.parse(text);
  } catch (e) {
    throw new Error(`seeds.json is not valid JSON: ${e.message}`);
  }
  const { seeds, figures } = spec;
  if (!seeds || typeof seeds !== "object") throw new Error("seeds.json: `seeds` maps each seed's key to its file name");
  if (!Array.isArray(figures)) throw new Error("seeds.json: `figures` is a list");
  const ids = new Set();
  for (const f of figures) {
    const where = `seed figure ${JSON.stringify(f.id)}`;
    if (typeof f.id !== "string" || !ID.test(f.id)) throw new Error(`${where}: the id must match ${ID} (it is an mdBook anchor)`);
    if (ids.has(f.id)) throw new Error(`${where}: the id is used twice`);
    ids.add(f.id);
    for (const k of Object.keys(f)) if (!KEYS.includes(k)) throw new Error(`${where}: unknown key "${k}"`);
    const scalar = (v) => (typeof v === "number" && Number.isFinite(v)) || (typeof v === "string" && v.trim() !== "");
    const list = Array.isArray(f.value) && f.value.length > 1 && f.value.every((v) => typeof v === "number" || NUMERIC.test(v));
    if (!scalar(f.value) && !list) throw new Error(`${where}: the value is a number, a string or a list of numbers`);
    if (typeof f.about !== "string" || !f.about.trim()) throw new Error(`${where}: say what it is in "about"`);
    if (f.format !== undefined && !(typeof f.format === "string" && f.format.includes("{}"))) {
      throw new Error(`${where}: a format has "{}" where the value goes`);
    }
    if (f.calc !== undefined) {
      if (typeof f.calc !== "string" || f.seed !== undefined || f.line !== undefined || f.excerpt !== undefined) {
        throw new Error(`${where}: a derived figure has a calc and no source of its own`);
      }
      continue;
    }
    if (!Object.hasOwn(seeds, f.seed)) throw new Error(`${where}: seed "${f.seed}" is not in "seeds"`);
    const range = Array.isArray(f.line) ? f.line : [f.line, f.line];
    if (range.length !== 2 || !range.every(Number.isInteger) || range[0] < 1 || range[1] < range[0]) {
      throw new Error(`${where}: line is a line number or [first, last]`);
    }
    const lines = Array.isArray(f.line) ? f.excerpt : [f.excerpt];
    if (!Array.isArray(lines) || lines.length !== range[1] - range[0] + 1 || !lines.every((l) => typeof l === "string")) {
      throw new Error(`${where}: the excerpt is the text of its line (a list of lines for a range)`);
    }
  }
  for (const f of figures.filter((f) => f.calc !== undefined)) {
    for (const [, ref] of f.calc.matchAll(/\{([^}]+)\}/g)) {
      if (!ids.has(ref)) throw new Error(`seed figure "${f.id}": calc names "${ref}", which is not a figure`);
    }
  }
  return { seeds, figures };
}

const NUMERIC = /^\d+(\.\d+)?$/;
const number = (v) => String(v);
const isNumber = (v) => typeof v === "number" || NUMERIC.test(v);

/** The figure as a chapter prints it, e.g. `1302, 1282, 1265, 1249 ms` or `MAX_TIME_SLICE=5`. */
export function render(f) {
  const value = Array.isArray(f.value) ? f.value.map(number).join(", ") : number(f.value);
  if (f.format) return f.format.replace("{}", value);
  if (!f.unit) return value;
  return TIGHT.has(f.unit) ? `${value}${f.unit}` : `${value} ${f.unit}`;
}

/** seeds.md: one anchor per figure. */
export function seedsMarkdown(spec) {
  return spec.figures.map((f) => `ANCHOR: ${f.id}\n${render(f)}\nANCHOR_END: ${f.id}`).join("\n") + "\n";
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Does `text` contain the number `v` as a whole number (not part of a longer one)? A decimal may
 *  be written with a comma, as the Polish report does. */
export function hasNumber(text, v) {
  const forms = [number(v)];
  if (forms[0].includes(".")) forms.push(forms[0].replace(".", ","));
  return forms.some((s) => new RegExp(`(?<![\\d.,]|\\d[.,])${escape(s)}(?![\\d]|[.,]\\d)`, "u").test(text));
}

function evaluate(f, byId) {
  const args = [];
  const body = f.calc.replace(/\{([^}]+)\}/g, (_, ref) => {
    args.push(byId.get(ref).value);
    return `a[${args.length - 1}]`;
  });
  const sum = (xs) => (Array.isArray(xs) ? xs : [xs]).reduce((s, x) => s + Number(x), 0);
  return new Function("a", "sum", `return (${body});`)(args, sum);
}

/** Each value is on its source line (the excerpt); each derived value is what its calc gives. */
export function checkValues(spec) {
  const byId = new Map(spec.figures.map((f) => [f.id, f]));
  const problems = [];
  for (const f of spec.figures) {
    if (f.calc !== undefined) {
      let got;
      try {
        got = evaluate(f, byId);
      } catch (e) {
        problems.push(`${f.id}: calc "${f.calc}" fails: ${e.message}`);
        continue;
      }
      if (typeof got !== "number" || Math.abs(got - f.value) > 1e-9) problems.push(`${f.id}: calc "${f.calc}" gives ${got}, not ${f.value}`);
      continue;
    }
    const text = (Array.isArray(f.excerpt) ? f.excerpt : [f.excerpt]).join("\n");
    const values = Array.isArray(f.value) ? f.value : [f.value];
    for (const v of values) {
      const found = isNumber(v) ? hasNumber(text, v) : text.includes(v);
      if (!found) problems.push(`${f.id}: ${JSON.stringify(v)} is not on seed ${f.seed} line ${f.line}: ${JSON.stringify(f.excerpt)}`);
    }
  }
  return problems;
}

/** Each excerpt is what the seed file has on that line (`dir` holds the seed files). */
export function checkSources(spec, dir) {
  const problems = [];
  const files = new Map();
  for (const f of spec.figures.filter((f) => f.calc === undefined)) {
    const name = spec.seeds[f.seed];
    if (!files.has(name)) {
      const p = path.join(dir, name);
      files.set(name, fs.existsSync(p) ? fs.readFileSync(p, "utf8").split("\n") : null);
    }
    const lines = files.get(name);
    if (!lines) {
      problems.push(`${f.id}: seed file ${name} is not in ${dir}`);
      continue;
    }
    const [first] = Array.isArray(f.line) ? f.line : [f.line];
    const excerpts = Array.isArray(f.excerpt) ? f.excerpt : [f.excerpt];
    excerpts.forEach((want, i) => {
      const have = lines[first - 1 + i];
      if (have === undefined || !have.includes(want)) {
        problems.push(`${f.id}: ${name} line ${first + i} is ${JSON.stringify(have)}, not ${JSON.stringify(want)}`);
      }
    });
  }
  return problems;
}

// A paragraph that speaks of a seed, in either edition.
const ABOUT_SEED = /\bseeds?\b|种子/i;
const INCLUDE = /\{\{#include\s+[^}]*\}\}/g;
// What may follow a bare number that is not the figure: a unit makes it another quantity.
const UNIT_AFTER = "\\s?(?:ms|µs|us|ns|s|%|×|MiB|KB)(?![\\p{L}])";

/** A rendering that cannot be mistaken for an everyday number: a list, a decimal, three or more
 *  digits, or any text besides the number and its unit. Others are only looked for where a
 *  paragraph speaks of a seed; a bare number without a unit only where it quotes the same seed
 *  (includes one of its figures, or names it: seed `004`). */
export function distinctive(f) {
  if (Array.isArray(f.value) || typeof f.value === "string" || f.format) return true;
  const s = number(f.value);
  return s.includes(".") || s.replace("-", "").length >= 3;
}

function matcher(f) {
  // A list may be written with Chinese commas in the Chinese edition.
  let r = Array.isArray(f.value) && !f.format
    ? escape(render(f)).split(", ").join("\\s*[,，、]\\s*")
    : escape(render(f));
  // A distinctive number with a unit may also stand at the start of a range or a list whose
  // last number carries the unit: "22.22 to 23.07 s", "376 and 384 µs".
  if (f.unit && !f.format && isNumber(f.value) && distinctive(f)) {
    r = `(?:${r}|${escape(number(f.value))}(?=\\s*(?:to|and|or|–|到|至|和|与|、|,|，)\\s*\\d))`;
  }
  const bare = !f.unit && !f.format && typeof f.value === "number";
  // After `=` a number is one of our settings (`eevdf.base_slice_ns=100000`), not a quote.
  return new RegExp(`(?<![\\p{L}\\p{N}_.,=])${r}(?![\\p{N}]|[.,]\\p{N}${bare ? `|${UNIT_AFTER}` : f.unit ? "|\\p{L}" : ""})`, "u");
}

/** Every place in `paragraphs` ([{where, text}]) that writes a seed figure by hand. */
export function handWritten(spec, paragraphs) {
  const seedOf = new Map(spec.figures.map((f) => [f.id, f.seed]));
  const checks = spec.figures.filter((f) => !f.shared).map((f) => ({
    f, re: matcher(f), everywhere: distinctive(f), bare: !f.unit && !f.format && isNumber(f.value),
  }));
  const problems = [];
  for (const { where, text } of paragraphs) {
    // A comment (a claim the build checks) is no prose: its numbers are the claim's own.
    const plain = text.replace(INCLUDE, " ").replace(/<!--[\s\S]*?-->/g, " ");
    const seedy = ABOUT_SEED.test(plain);
    const quoted = new Set([...text.matchAll(/seeds\.md:([A-Za-z0-9_-]+)/g)].map((m) => seedOf.get(m[1])));
    for (const m of plain.matchAll(/(?:seed|种子)[^0-9\n]{0,12}(\d{3})\b/gi)) quoted.add(m[1]);
    for (const { f, re, everywhere, bare } of checks) {
      const look = everywhere || (seedy && (!bare || quoted.has(f.seed)));
      if (look && re.test(plain)) {
        problems.push(`${where}: "${render(f)}" is seed figure ${f.id}; include it with {{#include ../generated/seeds.md:${f.id}}}`);
      }
    }
  }
  return problems;
}

/** A chapter's paragraphs (split at blank lines), with the line each starts on. */
export function chapterParagraphs(name, text) {
  const out = [];
  let start = 1;
  let lines = [];
  const flush = () => {
    if (lines.length) out.push({ where: `${name}:${start}`, text: lines.join("\n") });
    lines = [];
  };
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") {
      flush();
      start = i + 2;
    } else lines.push(line);
  });
  flush();
  return out;
}

/** A PO catalog's translations (msgstr), each one paragraph, with the line it starts on. */
export function poParagraphs(name, text) {
  const out = [];
  const lines = text.split("\n");
  // Only the chapters' translations, as only the chapters are checked in English: the
  // reference pages (docs/*.md, in the catalog too) quote no seed.
  let chapter = false;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith("#: ")) chapter ||= lines[i].includes("chapters/");
    if (!lines[i].startsWith("msgstr ")) continue;
    const start = i + 1;
    let s = JSON.parse(lines[i].slice("msgstr ".length));
    while (lines[i + 1]?.startsWith('"')) s += JSON.parse(lines[++i]);
    if (s && chapter) out.push({ where: `${name}:${start}`, text: s });
    chapter = false;
  }
  return out;
}

/** The paragraphs of every chapter in `chaptersDir` and of each PO file in `poFiles`. */
export function bookParagraphs(chaptersDir, poFiles = []) {
  const out = [];
  for (const name of fs.readdirSync(chaptersDir).filter((f) => f.endsWith(".md")).sort()) {
    out.push(...chapterParagraphs(name, fs.readFileSync(path.join(chaptersDir, name), "utf8")));
  }
  for (const p of poFiles.filter((p) => fs.existsSync(p))) out.push(...poParagraphs(path.basename(p), fs.readFileSync(p, "utf8")));
  return out;
}
