// The page boots the kernel with the command line the widget builds (book/widget/catalog.js:
// fixed keys, then non-default tunables in catalog order). A figure matches what the reader's
// browser shows only if the build ran that very line: the kernel starts the workload at a fixed
// time, so another spelling of the same settings gives the same run, but RESULT quotes the line
// itself (`args`). So experiments run under the widget's own spelling, and every live
// experiment in a chapter must have its twin among them (a pane on Linux excepted: Linux's runs
// are not the book's figures).
import fs from "node:fs";
import path from "node:path";
import { formatArgs, parseArgs } from "../widget/catalog.js";
import { parseCompare, secondRun } from "../widget/compare.js";
import { BOOK_KERNEL, isLinux } from "../widget/kernels.js";

/** `args` as the widget spells it; throws on what the widget would reject. */
export function canonical(args, catalog, defaults = {}, sched = undefined) {
  const { settings, errors } = parseArgs(args, catalog, defaults);
  if (errors.length) throw new Error(`"${args}": ${errors.join("; ")}`);
  return formatArgs(settings, catalog, sched ?? settings.sched);
}

const DIV = /<div class="rq-experiment"([^>]*)>/g;
const ATTR = /data-([a-z-]+)="([^"]*)"/g;

/** Every pane of every live experiment in the chapters: {chapter, args} in the widget's spelling. */
export function livePanes(chaptersDir, catalog) {
  const panes = [];
  for (const name of fs.readdirSync(chaptersDir).filter((f) => f.endsWith(".md")).sort()) {
    const text = fs.readFileSync(path.join(chaptersDir, name), "utf8");
    for (const [, attrs] of text.matchAll(DIV)) {
      const d = Object.fromEntries([...attrs.matchAll(ATTR)].map(([, k, v]) => [k, v]));
      const defaults = { sched: d.sched, workload: d.workload, smp: Number(d.smp ?? 1) };
      const kernel = d.kernel ?? BOOK_KERNEL;
      if (!(catalog.kernels ?? [BOOK_KERNEL]).includes(kernel)) throw new Error(`${name}: data-kernel="${kernel}" is not a kernel the site serves`);
      // A pane on Linux runs Linux, which has no figures of the book's to match.
      const first = parseArgs(d.args ?? "", catalog, defaults).settings;
      if (!isLinux(kernel)) panes.push({ chapter: name, args: canonical(d.args ?? "", catalog, defaults) });
      // compare mode's second run, as the widget makes it (book/widget/compare.js)
      const { compare, errors } = parseCompare(d.compare, catalog, first);
      if (errors.length) throw new Error(`${name}: data-compare="${d.compare}": ${errors.join("; ")}`);
      if (compare && !isLinux(compare.kernel ?? kernel)) panes.push({ chapter: name, args: formatArgs(secondRun(compare, catalog, first), catalog) });
    }
  }
  return panes;
}

/** The panes no experiment ran, as messages. */
export function missingTwins(panes, experimentArgs) {
  const ran = new Set(experimentArgs);
  return panes.filter((p) => !ran.has(p.args)).map((p) => `${p.chapter}: no experiment in experiments.json runs "${p.args}"`);
}
