// A chart's place in the page: a <figure> holding the canvas (an image named by its label and
// described by the sentence under it), that sentence, and the chart's data as a table in a fold,
// filled only while the fold is open (a long run's table is large). `describe()` gives
// `{summary, head, rows}` (describe.js); `update` asks for it again after the chart changed, at
// most every QUIET_MS while a run streams (each change costs the page a layout), and at once
// when told the chart is final.

const QUIET_MS = 2000;

import { pageLang, stringsFor } from "./strings.js";

const T = stringsFor(pageLang());
let uid = 0;

export class Figure {
  /** `boxClass` styles the canvas's box (its height); `label` names the canvas and the table. */
  constructor(parent, label, boxClass = "rq-chart") {
    const id = `rq-fig${++uid}`;
    this.root = Object.assign(document.createElement("figure"), { className: "rq-figure" });
    this.box = Object.assign(document.createElement("div"), { className: boxClass });
    this.canvas = document.createElement("canvas");
    this.canvas.setAttribute("role", "img");
    this.canvas.setAttribute("aria-label", label);
    this.canvas.setAttribute("aria-describedby", `${id}-summary`);
    this.box.append(this.canvas);
    this.summary = Object.assign(document.createElement("figcaption"), { className: "rq-chart-summary", id: `${id}-summary`, textContent: T.noData });
    this.fold = Object.assign(document.createElement("details"), { className: "rq-chart-data" });
    this.fold.append(Object.assign(document.createElement("summary"), { textContent: T.dataTable }));
    this.table = Object.assign(document.createElement("table"), { className: "rq-table" });
    this.table.tabIndex = 0; // it scrolls sideways in a narrow pane
    this.table.append(Object.assign(document.createElement("caption"), { textContent: label }), document.createElement("thead"), document.createElement("tbody"));
    this.fold.append(this.table);
    this.fold.addEventListener("toggle", () => this.fill());
    this.root.append(this.box, this.summary, this.fold);
    parent.append(this.root);
    this.describe = null;
  }

  get hidden() {
    return this.root.hidden;
  }

  set hidden(on) {
    this.root.hidden = on;
  }

  /** The chart changed: the sentence follows (now when `final`), the table when it is open. */
  update(describe, final = true) {
    this.describe = describe;
    clearTimeout(this.trailing);
    const wait = final ? 0 : (this.described ?? -Infinity) + QUIET_MS - performance.now();
    if (wait > 0) {
      this.trailing = setTimeout(() => this.update(this.describe), wait); // the last change is said too
      return;
    }
    this.described = performance.now();
    const text = describe();
    this.summary.textContent = text.summary;
    this.fill(text);
  }

  fill(text = this.describe?.()) {
    if (!this.fold.open || !text) return;
    const { head, rows } = text;
    const cells = (tag, values) => {
      const tr = document.createElement("tr");
      for (const v of values) {
        const cell = document.createElement(tag);
        if (tag === "th") cell.scope = "col";
        cell.textContent = v;
        tr.append(cell);
      }
      return tr;
    };
    this.table.tHead.replaceChildren(cells("th", head));
    this.table.tBodies[0].replaceChildren(...rows.map((r) => cells("td", r)));
  }

  remove() {
    clearTimeout(this.trailing);
    this.root.remove();
  }
}
