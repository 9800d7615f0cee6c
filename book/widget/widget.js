// Entry point, loaded on every page of the book (theme/head.hbs). It does nothing on pages
// without experiments. Otherwise it loads the catalog and turns each
// `<div class="rq-experiment" data-sched=… data-workload=… data-smp=… data-args=…>` into a
// widget: those on screen first, the others one at a time when the page is idle, so that the
// text shows and scrolls at once (`runqueue.ready` once all are there). The terminal and the charts
// wait until an experiment is about to run (libs.js, pane.js), no emulator starts until the
// reader presses Run, and the print page, which
// holds every chapter at once, gets a short note instead of live widgets. The results that
// answer a chapter's predictions stay folded until their experiment has run (reveal.js).

import { mountReveals, openAll } from "./reveal.js";
import { pageLang, stringsFor } from "./strings.js";

const ASSETS = new URL("../", import.meta.url); // the site's runqueue/ folder
const T = stringsFor(pageLang());
// The lab slots' schedulers (`lab-sjf`, ...) stop the kernel with a TODO until a student fills
// them in, so only the lab pages (those with a grading widget) offer them.
const LAB_SCHED = /^lab-/;

function describe(host) {
  const d = host.dataset;
  return [d.sched && `sched=${d.sched}`, d.workload && `workload=${d.workload}`, d.smp && `smp=${d.smp}`, d.args]
    .filter(Boolean).join(" ");
}

function printNotes(hosts) {
  for (const host of hosts) {
    const note = document.createElement("p");
    note.className = "rq-print-note";
    note.textContent = T.printNote(describe(host));
    host.replaceChildren(note);
  }
}

function showFailure(hosts, message) {
  for (const host of hosts) {
    const p = document.createElement("p");
    p.className = "rq-alert";
    p.setAttribute("role", "alert");
    p.textContent = T.cannotStart(message);
    host.replaceChildren(p);
  }
}

async function mount() {
  const hosts = [...document.querySelectorAll(".rq-experiment")];
  if (document.querySelector('meta[name="robots"][content="noindex"]')) {
    openAll(true); // the print page shows every result
    return printNotes(hosts);
  }
  mountReveals(T);
  if (!hosts.length) return;
  const api = { experiments: [], ready: false };
  globalThis.runqueue = api; // for the end-to-end tests and curious readers
  await afterFirstPaint();
  try {
    const [catalogRaw, { normalizeCatalog, withReader }, { Experiment }, wasm, kernels, linuxRaw] = await Promise.all([
      fetch(new URL("catalog.json", ASSETS)).then((r) => {
        if (!r.ok) throw new Error(T.catalogHttp(r.status));
        return r.json();
      }),
      import("./catalog.js"),
      import("./experiment.js"),
      import(new URL("pkg/runqueue_settings_wasm.js", ASSETS).href),
      import("./kernels.js"),
      // The Linux kernels this site serves, if any (a book built without them offers none).
      fetch(new URL("linux/kernels.json", ASSETS)).then((r) => (r.ok ? r.json() : null)).catch(() => null),
    ]);
    if (!document.querySelector(".rq-grade")) catalogRaw.schedulers = catalogRaw.schedulers.filter((s) => !LAB_SCHED.test(s.name));
    // Command lines are read by the kernel's own parser, compiled into a small wasm of its own:
    // the emulator's waits until an experiment runs (worker.js).
    await wasm.default(new URL("pkg/runqueue_settings_wasm_bg.wasm", ASSETS));
    const reader = new wasm.SettingsReader(JSON.stringify(catalogRaw));
    const catalog = withReader(normalizeCatalog(catalogRaw), (line, base) => reader.read(line, base));
    const linux = kernels.linuxManifest(linuxRaw);
    catalog.kernels = kernels.kernelNames(linux);
    const assets = { url: (name) => new URL(name, ASSETS), linux };
    guardPageKeys(api.experiments); // a widget on screen may run before the last is made
    await idle(); // the reader's setup and the first widget, each a task of its own
    const near = (host) => Math.abs(host.getBoundingClientRect().top - innerHeight / 2);
    for (const i of hosts.map((_, i) => i).sort((a, b) => near(hosts[a]) - near(hosts[b]))) {
      api.experiments[i] = new Experiment(hosts[i], i, catalog, assets);
      await idle(); // the next widget in a task of its own, when the page has nothing else to do
    }
    api.ready = true;
  } catch (e) {
    showFailure(hosts, e.message ?? String(e));
  }
}

// Text first: nothing of the widgets is fetched until the page's text has painted, so on a slow
// network (a phone) their modules, the catalog and the settings reader do not stand between the
// reader and the text; where the browser reports no paint timing, a second at most.
function afterFirstPaint() {
  return new Promise((go) => {
    if (performance.getEntriesByName("first-contentful-paint").length) return go();
    setTimeout(go, 1000);
    try {
      new PerformanceObserver((list, observer) => {
        if (list.getEntriesByName("first-contentful-paint").length) {
          observer.disconnect();
          go();
        }
      }).observe({ type: "paint", buffered: true });
    } catch {
      go();
    }
  });
}

function idle() {
  return new Promise((next) => (globalThis.requestIdleCallback ? requestIdleCallback(() => next(), { timeout: 1000 }) : setTimeout(next)));
}

// mdBook turns the page on the left and right arrow keys, which would throw a run away: while
// one is going the keys stay with the page (a widget with focus keeps them itself).
function guardPageKeys(experiments) {
  addEventListener("keydown", (e) => {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    if (e.target.closest?.(".rq-widget")) return; // the widget keeps them itself (experiment.js)
    if (experiments.some((x) => x.busy())) e.stopPropagation();
  }, true);
}

// The lab chapters' grading widgets live in grade.js, loaded only where a page has one.
function mountGrading() {
  if (document.querySelector(".rq-grade")) import("./grade.js").then((m) => m.mount());
}

// The chapters' homework fields live in homework.js, loaded only where a page has one; it
// fetches its checker (a wasm) when a reader first uses a field.
function mountHomework() {
  if (document.querySelector("form.rq-hw")) import("./homework.js").then((m) => m.mount());
}

function mountAll() {
  mount();
  mountGrading();
  mountHomework();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountAll);
else mountAll();
