// Entry point, loaded on every page of the book (theme/head.hbs). It does nothing on pages
// without experiments. Otherwise it loads the catalog, the terminal and the charts, and turns
// each `<div class="rq-experiment" data-sched=… data-workload=… data-smp=… data-args=…>`
// into a widget. No emulator starts until the reader presses Run, and the print page, which
// holds every chapter at once, gets a short note instead of live widgets. The results that
// answer a chapter's predictions stay folded until their experiment has run (reveal.js).

import { mountReveals, openAll } from "./reveal.js";
import { pageLang, stringsFor } from "./strings.js";

const ASSETS = new URL("../", import.meta.url); // the site's runqueue/ folder
const T = stringsFor(pageLang());
// The lab slots' schedulers (`lab-sjf`, ...) stop the kernel with a TODO until a student fills
// them in, so only the lab pages (those with a grading widget) offer them.
const LAB_SCHED = /^lab-/;

function loadScript(url) {
  return new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = url;
    s.onload = resolve;
    s.onerror = () => reject(new Error(T.scriptFailed(url)));
    document.head.append(s);
  });
}

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
  try {
    const [catalogRaw, { normalizeCatalog, withReader }, { Experiment }, wasm] = await Promise.all([
      fetch(new URL("catalog.json", ASSETS)).then((r) => {
        if (!r.ok) throw new Error(T.catalogHttp(r.status));
        return r.json();
      }),
      import("./catalog.js"),
      import("./experiment.js"),
      import(new URL("pkg/runqueue_wasm.js", ASSETS).href),
      loadScript(new URL("vendor/chart.umd.min.js", ASSETS)),
    ]);
    if (!document.querySelector(".rq-grade")) catalogRaw.schedulers = catalogRaw.schedulers.filter((s) => !LAB_SCHED.test(s.name));
    // Command lines are read by the kernel's own parser, compiled into the page's wasm.
    await wasm.default(new URL("pkg/runqueue_wasm_bg.wasm", ASSETS));
    const reader = new wasm.SettingsReader(JSON.stringify(catalogRaw));
    const catalog = withReader(normalizeCatalog(catalogRaw), (line, base) => reader.read(line, base));
    const assets = { url: (name) => new URL(name, ASSETS) };
    hosts.forEach((host, i) => api.experiments.push(new Experiment(host, i, catalog, assets)));
    guardPageKeys(api.experiments);
    api.ready = true;
  } catch (e) {
    showFailure(hosts, e.message ?? String(e));
  }
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

// mdBook 0.5's sidebar toggle is a <label> carrying aria-label and aria-expanded, which a
// label may not have (axe: aria-allowed-attr, aria-prohibited-attr); as a button it may.
function fixSidebarToggle() {
  document.getElementById("mdbook-sidebar-toggle")?.setAttribute("role", "button");
}

// The lab chapters' grading widgets live in grade.js, loaded only where a page has one.
function mountGrading() {
  if (document.querySelector(".rq-grade")) import("./grade.js").then((m) => m.mount());
}

fixSidebarToggle();
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => { mount(); mountGrading(); });
else { mount(); mountGrading(); }
