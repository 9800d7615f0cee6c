// Task lanes and the run queue at a moment. A canvas with one lane per hart (who ran when) and
// one per task (running in its hart's colour, waiting in the run queue, blocked or sleeping;
// wakeups, preemptions and migrations marked), zoomed and panned with the wheel, a drag, touch
// or the keyboard. A cursor (click, or step event by event) shows beside it what each hart ran
// at that moment and each run queue in the policy's order with the policy's state
// (rq-state.js), and a line at the same time on the pane's Chart.js charts.
//
// For the keyboard and screen readers the canvas is a slider over the run's time: the arrow
// keys step the cursor event by event, and its value says in words who runs and who waits
// (as a polite status when the cursor moved by a button). Colour is never the only cue: a hart
// row's tasks carry their pattern, a task row's running stretch its hart's number, and the
// states differ in height; the figure below says the same in a sentence and a table.

import { lanesData } from "./describe.js";
import { Figure } from "./figure.js";
import { headingAfter } from "./headings.js";
import { taskFill, taskStyle } from "./palette.js";
import { Lanes, snapshot } from "./rq-state.js";
import { pageLang, stringsFor } from "./strings.js";

const T = stringsFor(pageLang());
// Harts get dark shades unlike the tasks' palette: a task row's colour says which hart, a hart
// row's which task, and the two must not be mistaken for each other.
const HART_COLOURS = ["#253494", "#006d2c", "#7a0177", "#b35806", "#01665e", "#4d4d4d", "#54278f", "#8c2d04"];
// Waiting and blocked, each 3:1 or more against the white ground (palette.js's rule).
export const STATE_COLOURS = { wait: "#b06f00", blocked: "#767676" };
const ROW = 18;
// A running stretch this wide (px) or wider names its hart.
const LABEL_MIN_PX = 16;
const LABEL_W = 84;
const AXIS_H = 18;
// A live run redraws at most this often; a reader's zoom or pan redraws at the next frame.
const LIVE_REDRAW_MS = 250;
const ZOOM = 1.5;
const PAN = 0.2;
const fmtMs = (ns) => (ns / 1e6).toFixed(3);

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

// Chart.js plugin drawing the cursor's time on every chart with a linear x axis in ms (the
// progress chart, the per-hart timeline); a chart opts in by having `$rqCursorMs`.
const cursorPlugin = {
  id: "rqCursor",
  afterDatasetsDraw(chart) {
    const ms = chart.$rqCursorMs;
    const x = chart.scales?.x;
    if (ms === undefined || ms === null || !x || x.type !== "linear") return;
    const px = x.getPixelForValue(ms);
    if (px < x.left || px > x.right) return;
    const ctx = chart.ctx;
    ctx.save();
    ctx.strokeStyle = "#000";
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(px, chart.chartArea.top);
    ctx.lineTo(px, chart.chartArea.bottom);
    ctx.stroke();
    ctx.restore();
  },
};
let pluginRegistered = false;

export class LanesView {
  /** `sched()` names the pane's policy; `charts()` lists the Chart.js charts the cursor marks. */
  constructor(parent, { sched, charts }) {
    this.sched = sched;
    this.charts = charts;
    this.model = new Lanes();
    this.view = null; // [from, to] ns shown; null: the whole run
    this.cursor = null;
    this.frame = 0;
    this.lastLive = 0;
    this.timer = 0;
    this.drawMs = [];
    if (!pluginRegistered && globalThis.Chart) {
      globalThis.Chart.register(cursorPlugin);
      pluginRegistered = true;
    }

    this.root = el("div", { class: "rq-lanes", role: "group", "aria-label": T.lanesTitle });
    const head = el("div", { class: "rq-lanes-bar", role: "group", "aria-label": T.lanesControls });
    const button = (text, cls, fn) => {
      const b = el("button", { type: "button", class: cls }, text);
      b.onclick = fn;
      head.append(b);
      return b;
    };
    const title = headingAfter(parent.lastChild ?? parent);
    title.className = "rq-lanes-title";
    title.textContent = T.lanesTitle;
    head.append(title);
    button(T.prevEvent, "rq-prev-event", () => this.step(-1));
    button(T.nextEvent, "rq-next-event", () => this.step(1));
    button(T.zoomIn, "rq-zoom-in", () => this.zoom(1 / ZOOM));
    button(T.zoomOut, "rq-zoom-out", () => this.zoom(ZOOM));
    button(T.zoomAll, "rq-zoom-all", () => this.setView(null));
    this.root.append(head);
    this.figure = new Figure(this.root, T.lanesLabel, "rq-lanes-box");
    this.canvas = this.figure.canvas;
    this.canvas.className = "rq-lanes-canvas";
    for (const [k, v] of Object.entries({ tabindex: "0", role: "slider", "aria-orientation": "horizontal", "aria-valuemin": "0",
      "aria-valuemax": "0", "aria-valuenow": "0", "aria-valuetext": T.cursorNone })) this.canvas.setAttribute(k, v);
    this.legend = el("p", { class: "rq-lanes-legend" }, T.lanesLegend);
    this.said = el("p", { class: "rq-sr-only", role: "status" });
    this.queueBox = el("div", { class: "rq-queue-view" });
    this.queueBox.append(el("p", {}, T.cursorHint));
    this.root.append(this.legend, this.said, this.queueBox);
    parent.append(this.root);
    this.listen();
    this.resize = () => this.schedule();
    addEventListener("resize", this.resize);
  }

  /** New trace events from the run. */
  add(events) {
    if (!events.length) return;
    this.model.add(events);
    if (this.frozen) return;
    const now = performance.now();
    if (now - this.lastLive >= LIVE_REDRAW_MS) {
      this.lastLive = now;
      this.schedule();
    } else if (!this.timer) {
      this.timer = setTimeout(() => { this.timer = 0; this.lastLive = performance.now(); this.schedule(); }, LIVE_REDRAW_MS);
    }
  }

  /** Holds the lanes as they are while `on` (the run goes on; the reader may still zoom); then catches up. */
  freeze(on) {
    if (Boolean(this.frozen) === on) return;
    this.frozen = on;
    if (!on) this.schedule();
  }

  /** The shown window [from, to] in ns. */
  window() {
    const m = this.model;
    const start = m.start ?? 0;
    const end = Math.max(m.end, start + 1000);
    if (!this.view) return [start, end];
    return this.view;
  }

  setView(view) {
    if (view) {
      const [start, end] = [this.model.start ?? 0, Math.max(this.model.end, (this.model.start ?? 0) + 1000)];
      let [a, b] = view;
      const span = Math.min(Math.max(b - a, 2000), end - start);
      a = Math.min(Math.max(a, start), end - span);
      view = [a, a + span];
      if (span >= end - start) view = null;
    }
    this.view = view;
    this.schedule();
  }

  /** Zooms by `factor` (< 1 zooms in) around `at` ns, the middle by default. */
  zoom(factor, at) {
    const [a, b] = this.window();
    const c = at ?? (this.cursor !== null && this.cursor >= a && this.cursor <= b ? this.cursor : (a + b) / 2);
    this.setView([c - (c - a) * factor, c + (b - c) * factor]);
  }

  pan(fraction) {
    const [a, b] = this.window();
    const d = (b - a) * fraction;
    this.setView([a + d, b + d]);
  }

  timeAt(px) {
    const [a, b] = this.window();
    const w = this.canvas.clientWidth - LABEL_W;
    return a + ((px - LABEL_W) / Math.max(1, w)) * (b - a);
  }

  listen() {
    const c = this.canvas;
    c.addEventListener("keydown", (e) => {
      // A slider's keys (WAI-ARIA): the arrows step the cursor, Home and End go to the first and
      // the last event, Page Up and Down (or Shift with an arrow) pan.
      const pan = { ArrowLeft: -PAN, ArrowRight: PAN, PageUp: -PAN, PageDown: PAN };
      const keys = {
        ArrowLeft: () => this.step(-1), ArrowRight: () => this.step(1), ArrowDown: () => this.step(-1), ArrowUp: () => this.step(1),
        PageUp: () => this.pan(-PAN), PageDown: () => this.pan(PAN),
        "+": () => this.zoom(1 / ZOOM), "=": () => this.zoom(1 / ZOOM), "-": () => this.zoom(ZOOM),
        "[": () => this.step(-1), "]": () => this.step(1), ",": () => this.step(-1), ".": () => this.step(1),
        Home: () => this.stepTo(0), End: () => this.stepTo(this.model.events.length - 1), "0": () => this.setView(null),
      };
      const act = e.shiftKey && e.key in pan ? () => this.pan(pan[e.key]) : keys[e.key];
      if (!act || e.ctrlKey || e.metaKey || e.altKey) return;
      // mdBook turns the page on the arrow keys at the document: the lanes keep them.
      e.preventDefault();
      e.stopPropagation();
      act();
    });
    c.addEventListener("wheel", (e) => {
      e.preventDefault();
      const r = c.getBoundingClientRect();
      if (Math.abs(e.deltaX) > Math.abs(e.deltaY)) this.pan(e.deltaX / Math.max(1, r.width));
      else this.zoom(e.deltaY > 0 ? ZOOM : 1 / ZOOM, this.timeAt(e.clientX - r.left));
    }, { passive: false });
    // A press that moves pans (mouse, pen or one finger); one that does not places the cursor.
    let drag = null;
    c.addEventListener("pointerdown", (e) => {
      c.setPointerCapture(e.pointerId);
      drag = { x: e.clientX, view: this.window(), moved: false };
    });
    c.addEventListener("pointermove", (e) => {
      if (!drag) return;
      const dx = e.clientX - drag.x;
      if (Math.abs(dx) > 4) drag.moved = true;
      if (!drag.moved) return;
      const [a, b] = drag.view;
      const d = (-dx / Math.max(1, c.clientWidth - LABEL_W)) * (b - a);
      this.setView([a + d, b + d]);
    });
    c.addEventListener("pointerup", (e) => {
      if (drag && !drag.moved) this.setCursor(this.timeAt(e.clientX - c.getBoundingClientRect().left));
      drag = null;
    });
    c.addEventListener("pointercancel", () => { drag = null; });
    c.style.touchAction = "pan-y";
  }

  /** Moves the cursor to the previous (-1) or next (+1) event. */
  step(dir) {
    const times = this.model.events;
    if (!times.length) return;
    const now = this.cursor ?? (dir > 0 ? -Infinity : Infinity);
    let i = dir > 0 ? times.findIndex((e) => e.t > now) : findLast(times, (e) => e.t < now);
    if (i < 0) i = dir > 0 ? times.length - 1 : 0;
    this.stepTo(i);
  }

  /** Moves the cursor to the `i`-th event, bringing it into view. */
  stepTo(i) {
    const events = this.model.events;
    if (!events[i]) return;
    this.setCursor(events[i].t);
    const [a, b] = this.window();
    if (this.cursor < a || this.cursor > b) this.setView([this.cursor - (b - a) / 2, this.cursor + (b - a) / 2]);
  }

  setCursor(t) {
    this.cursor = Math.round(t);
    this.showQueue();
    this.say();
    for (const chart of this.charts().filter(Boolean)) {
      chart.$rqCursorMs = (this.cursor - (this.model.start ?? 0)) / 1e6;
      chart.draw();
    }
    this.schedule();
  }

  /** The state at the cursor, as the run-queue view shows it (also read by the tests). */
  snapshot() {
    return this.cursor === null ? null : snapshot(this.model.events, this.cursor, this.sched());
  }

  showQueue() {
    const s = this.snapshot();
    const start = this.model.start ?? 0;
    const box = this.queueBox;
    box.replaceChildren(el("p", { class: "rq-cursor-at" }, T.cursorAt(fmtMs(s.t - start), s.events)));
    const fields = (f) => Object.entries(f).map(([k, v]) => `${k}=${v}`).join(" ");
    const harts = el("ul", { class: "rq-harts-now" });
    for (const h of s.harts) {
      const li = el("li", { "data-hart": String(h.hart) }, h.running ? T.hartRuns(h.hart, h.running.name, fields(h.running.fields)) : T.hartIdle(h.hart));
      if (h.running) li.dataset.tid = String(h.running.tid);
      harts.append(li);
    }
    box.append(harts);
    const queues = s.queues.length ? s.queues : [{ hart: null, min: null, tasks: [] }];
    for (const q of queues) {
      const title = el("p", { class: "rq-queue-title" }, T.queueOf(q.hart) + (q.min !== null ? ` (min_vruntime=${q.min})` : "") + (s.random ? ` ${T.byLottery}` : ""));
      const ol = el("ol", { class: "rq-queue", ...(q.hart !== null && { "data-hart": String(q.hart) }) });
      for (const t of q.tasks) {
        const eligible = t.eligible === undefined ? "" : ` ${t.eligible ? T.eligible : T.notEligible}`;
        const li = el("li", { "data-tid": String(t.tid) }, `${t.name} ${fields(t.fields)}${eligible}${t.yielded ? ` ${T.yieldSkip}` : ""}`);
        li.style.borderLeftColor = taskStyle(t.tid).colour;
        ol.append(li);
      }
      if (!q.tasks.length) ol.append(el("li", { class: "rq-queue-empty" }, T.queueEmpty));
      box.append(title, ol);
    }
    if (s.blocked.length) box.append(el("p", { class: "rq-blocked" }, T.blockedList(s.blocked.map((b) => b.name).join(", "))));
  }

  /** The cursor's moment in words: the slider's value, and a status when the slider has no focus. */
  say() {
    const s = this.snapshot();
    const names = (list) => list.map((t) => t.name).join(", ") || T.queueEmpty;
    const harts = s.harts.map((h) => (h.running ? T.hartRunsShort(h.hart, h.running.name) : T.hartIdle(h.hart)));
    const waiting = s.queues.flatMap((q) => q.tasks);
    const text = T.cursorSays(fmtMs(s.t - (this.model.start ?? 0)), harts.join("; "), names(waiting), s.blocked.length ? names(s.blocked) : T.nobody);
    this.canvas.setAttribute("aria-valuenow", fmtMs(s.t - (this.model.start ?? 0)));
    this.canvas.setAttribute("aria-valuetext", text);
    this.said.textContent = document.activeElement === this.canvas ? "" : text;
  }

  schedule() {
    if (!this.frame) this.frame = requestAnimationFrame(() => { this.frame = 0; this.draw(); });
  }

  draw() {
    const began = performance.now();
    const m = this.model;
    const c = this.canvas;
    const harts = [...m.harts.keys()].sort((a, b) => a - b);
    const tasks = [...m.tasks.values()].sort((a, b) => a.tid - b.tid);
    const rows = harts.length + tasks.length;
    const width = Math.max(200, c.clientWidth || c.parentElement?.clientWidth || 600);
    const height = AXIS_H + rows * ROW + 4;
    const dpr = globalThis.devicePixelRatio || 1;
    if (c.width !== Math.round(width * dpr) || c.height !== Math.round(height * dpr)) {
      c.width = Math.round(width * dpr);
      c.height = Math.round(height * dpr);
      c.style.height = `${height}px`;
    }
    const ctx = c.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, width, height);
    const [a, b] = this.window();
    const plotW = width - LABEL_W;
    const x = (t) => LABEL_W + ((t - a) / (b - a)) * plotW;
    const start = m.start ?? 0;
    const end = m.end;

    // Time axis: about six ticks at round values.
    ctx.fillStyle = "#222";
    ctx.font = "11px sans-serif";
    const stepNs = niceStep((b - a) / 6);
    for (let t = Math.ceil((a - start) / stepNs) * stepNs + start; t <= b; t += stepNs) {
      const px = x(t);
      ctx.fillRect(px, AXIS_H - 4, 1, 4);
      ctx.fillText(`${+((t - start) / 1e6).toFixed(3)} ms`, px + 2, AXIS_H - 6);
    }

    // Each span is drawn as `shape(span)` says: [colour, top offset, height] in its row.
    // Spans narrower than a pixel merge into the pixel they fall in, so a long run costs one
    // rectangle per pixel column at most.
    const spans = (list, y, shape) => {
      let lastPx = -1;
      for (const s of list) {
        const e = s.e ?? end;
        if (e < a || s.s > b) continue;
        const x0 = Math.max(LABEL_W, x(s.s));
        const x1 = Math.min(width, x(e));
        if (x1 - x0 < 1 && Math.floor(x0) === lastPx) continue;
        lastPx = Math.floor(x0);
        const [colour, dy, h] = shape(s);
        ctx.fillStyle = colour;
        ctx.fillRect(x0, y + dy, Math.max(1, x1 - x0), h);
      }
    };
    const taskShape = (s) => (s.st === "run" ? [HART_COLOURS[s.h % HART_COLOURS.length], 0, ROW - 1]
      : s.st === "wait" ? [STATE_COLOURS.wait, 5, ROW - 11] : [STATE_COLOURS.blocked, ROW / 2 - 1, 2]);
    let row = 0;
    for (const h of harts) {
      const y = AXIS_H + row++ * ROW;
      ctx.fillStyle = "#222";
      ctx.fillText(T.hartLane(h), 4, y + 13);
      spans(m.harts.get(h), y, (s) => [taskFill(s.tid), 2, ROW - 4]);
    }
    for (const l of tasks) {
      const y = AXIS_H + row++ * ROW;
      ctx.fillStyle = "#222";
      ctx.fillText(l.name.slice(0, 12), 4, y + 13);
      spans(l.spans, y, taskShape);
      // A running stretch wide enough names its hart (the colour alone would not tell).
      ctx.fillStyle = "#fff";
      for (const s of l.spans) {
        if (s.st !== "run") continue;
        const [x0, x1] = [Math.max(LABEL_W, x(s.s)), Math.min(width, x(s.e ?? end))];
        if (x1 - x0 >= LABEL_MIN_PX) ctx.fillText(String(s.h), x0 + 3, y + 13);
      }
    for (const mk of l.marks) {
        if (mk.t < a || mk.t > b) continue;
        const px = x(mk.t);
        ctx.fillStyle = mk.k === "wake" ? "#006400" : mk.k === "preempt" ? "#a00000" : "#000";
        ctx.beginPath();
        if (mk.k === "migrate") ctx.arc(px, y + ROW / 2, 3, 0, 2 * Math.PI);
        else {
          // A wakeup points up from the lane's foot, a preemption down from its top.
          const [tip, base] = mk.k === "wake" ? [y + ROW, y + ROW - 6] : [y, y + 6];
          ctx.moveTo(px, tip);
          ctx.lineTo(px - 3, base);
          ctx.lineTo(px + 3, base);
        }
        ctx.fill();
      }
    }
    if (this.cursor !== null && this.cursor >= a && this.cursor <= b) {
      ctx.fillStyle = "#000";
      ctx.fillRect(x(this.cursor) - 0.5, 0, 1.5, height);
    }
    this.canvas.setAttribute("aria-valuemax", fmtMs(end - start));
    this.figure.update(() => lanesData(m, T), false);
    this.drawMs.push(performance.now() - began);
    if (this.drawMs.length > 200) this.drawMs.shift();
  }

  destroy() {
    cancelAnimationFrame(this.frame);
    clearTimeout(this.timer);
    this.figure.remove();
    removeEventListener("resize", this.resize);
    this.root.remove();
  }
}

function findLast(list, ok) {
  for (let i = list.length - 1; i >= 0; i--) if (ok(list[i])) return i;
  return -1;
}

/** 1, 2 or 5 times a power of ten, at least `ns`. */
function niceStep(ns) {
  const p = 10 ** Math.floor(Math.log10(Math.max(ns, 1)));
  return [1, 2, 5, 10].map((k) => k * p).find((s) => s >= ns);
}
