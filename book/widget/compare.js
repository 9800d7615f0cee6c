// Compare mode's second run, written `SCHED WORDS` in `data-compare` and in the link's `eN.vs`:
// an optional scheduler name, then kernel command-line words that the second run changes
// (`cfs`, `cfs smp=2`, `tick_us=500`; `same` for an unchanged copy), where `kernel=linux-6.12`
// boots the second run on another kernel (kernels.js). Pure: unit-tested in node.

import { parseArgs } from "./catalog.js";
import { BOOK_KERNEL } from "./kernels.js";
import { pageLang, stringsFor } from "./strings.js";

const SAME = "same";
const KERNEL = "kernel=";

/**
 * `{compare: null | {sched, kernel, words}, errors}` for `text`; `base` is the first run's
 * settings, against which the words are checked (a workload's tunables belong to its workload).
 * `kernel` is null for the first run's kernel; the names `catalog.kernels` lists are accepted.
 */
export function parseCompare(text, catalog, base = {}, T = stringsFor(pageLang())) {
  const all = String(text ?? "").trim().split(/\s+/).filter(Boolean);
  if (!all.length) return { compare: null, errors: [] };
  if (all.length === 1 && all[0] === SAME) return { compare: { sched: null, kernel: null, words: "" }, errors: [] };
  const errors = [];
  let sched = null;
  let kernel = null;
  const words = [];
  const kernels = catalog.kernels ?? [BOOK_KERNEL];
  for (const [i, word] of all.entries()) {
    if (word.startsWith(KERNEL)) {
      kernel = word.slice(KERNEL.length);
      if (!kernels.includes(kernel)) errors.push(T.compareNotKernel(kernel, kernels.join(", ")));
      continue;
    }
    const name = i === 0 && !word.includes("=") ? word : word.startsWith("sched=") ? word.slice("sched=".length) : null;
    if (name === null) words.push(word);
    else if (catalog.scheds.some((s) => s.name === name)) sched = name;
    else errors.push(T.compareNotScheduler(name, catalog.scheds.map((s) => s.name).join(", ")));
  }
  errors.push(...parseArgs(words.join(" "), catalog, base, T).errors);
  return errors.length ? { compare: null, errors } : { compare: { sched, kernel, words: words.join(" ") }, errors };
}

/** The second run's settings: the first run's `settings` with what `compare` changes. */
export function secondRun(compare, catalog, settings) {
  const words = [compare.sched && `sched=${compare.sched}`, compare.words].filter(Boolean).join(" ");
  return parseArgs(words, catalog, settings).settings;
}

/** The text `parseCompare` reads back as `compare`. */
export function formatCompare(compare) {
  return [compare.sched, compare.kernel && `${KERNEL}${compare.kernel}`, compare.words].filter(Boolean).join(" ") || SAME;
}
