// Predictions stay predictions: a chapter wraps the figures and discussion that answer a
// **Predict** block in `<details class="rq-result"><summary>Show the result</summary> …
// </details>`, right after the experiment the prediction is about. The result stays folded until
// the reader opens it, or until that experiment (the nearest `.rq-experiment` above it) finishes a
// run: the widget then fires `rq-run-finished` on its host. Printing shows every result: the print
// page opens them all, so does `beforeprint` anywhere, and widget.css unfolds them for print.
// Without JavaScript the `<details>` still opens on a click.

const SELECTOR = "details.rq-result";

/** The experiment host a result belongs to: the nearest `.rq-experiment` before it, or null. */
export function hostOf(details, hosts) {
  let found = null;
  for (const host of hosts) {
    if (host.compareDocumentPosition(details) & Node.DOCUMENT_POSITION_FOLLOWING) found = host;
  }
  return found;
}

function label(details, T) {
  const summary = details.querySelector(":scope > summary");
  if (summary) summary.textContent = details.open ? T.hideResult : T.showResult;
}

/** Opens the result and says why, once. */
function reveal(details, T) {
  if (!details.querySelector(":scope > .rq-reveal-note")) {
    const note = document.createElement("p");
    note.className = "rq-reveal-note";
    note.setAttribute("role", "status");
    note.textContent = T.resultShown;
    details.querySelector(":scope > summary")?.after(note);
  }
  details.open = true;
}

/** Opens every result on the page: for good on the print page, until `afterprint` otherwise. */
export function openAll(forGood = false) {
  for (const d of document.querySelectorAll(SELECTOR)) {
    if (!d.open) {
      if (!forGood) d.dataset.printOpened = "";
      d.open = true;
    }
  }
}

function closePrintOpened() {
  for (const d of document.querySelectorAll(`${SELECTOR}[data-print-opened]`)) {
    delete d.dataset.printOpened;
    d.open = false;
  }
}

/** Wires up every result on the page; `T` is the widget's string table for the page language. */
export function mountReveals(T) {
  const results = [...document.querySelectorAll(SELECTOR)];
  if (!results.length) return;
  const hosts = [...document.querySelectorAll(".rq-experiment")];
  const byHost = new Map();
  for (const d of results) {
    label(d, T);
    d.addEventListener("toggle", () => label(d, T));
    const host = hostOf(d, hosts);
    if (host) byHost.set(host, [...(byHost.get(host) ?? []), d]);
  }
  document.addEventListener("rq-run-finished", (e) => {
    for (const d of byHost.get(e.target) ?? []) reveal(d, T);
  });
  addEventListener("beforeprint", () => openAll());
  addEventListener("afterprint", closePrintOpened);
}
