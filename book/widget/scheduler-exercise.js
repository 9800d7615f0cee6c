// "You are the scheduler": a finished run replayed decision by decision. At each the reader sees
// the lanes up to that moment and the hart's run queue, picks the task to run next, and learns
// whether the kernel picked it and, if not, what told the kernel's pick from theirs (the policy's
// keys, eligibility, a yield, the queue's order); with a queue per hart, also which hart's queue
// each arriving or waking task joins, with what the kernel knew then; a score at the end. The decisions and the
// reasons come from exercise-decisions.js; this module is the page's part.

import { decisions, judge, judgePlace, playable, score } from "./exercise-decisions.js";
import { headingAfter } from "./headings.js";
import { LanesView } from "./lanes.js";
import { pageLang, stringsFor } from "./strings.js";

const T = stringsFor(pageLang());
const fmtMs = (ns) => (ns / 1e6).toFixed(3);
let uid = 0;

/** An element with attributes `attrs`, its text `attrs.text` or its children. */
function el(tag, { text, ...attrs } = {}, ...children) {
  const node = document.createElement(tag);
  Object.entries(attrs).forEach(([k, v]) => node.setAttribute(k, v));
  if (text !== undefined) node.textContent = text;
  else node.append(...children);
  return node;
}

/** A run pane the exercise can replay: a finished run of the book's kernel, with a trace and a policy it can state. */
function replayable(pane) {
  return pane.state === "done" && Boolean(pane.result) && Boolean(pane.lanes) && Boolean(pane.planned?.views?.fair)
    && playable(pane.planned.views) && pane.lanes.model.events.length > 0;
}

export class SchedulerExercise {
  constructor() {
    this.button = el("button", { type: "button", class: "rq-exercise-open", text: T.exOpen, title: T.exOpenHelp });
    this.button.disabled = true;
    this.button.onclick = () => this.open();
    this.box = el("section", { class: "rq-exercise" });
    this.box.hidden = true;
    this.panes = [];
  }

  /** The widget's panes changed: the button offers the first finished run it can replay; a replay of a pane gone closes. */
  offer(panes) {
    this.panes = panes.filter(replayable);
    this.button.disabled = this.panes.length === 0;
    if (this.pane && !this.panes.includes(this.pane)) this.close();
  }

  close() {
    this.lanes?.destroy();
    this.lanes = null;
    this.pane = null;
    this.box.replaceChildren();
    this.box.hidden = true;
  }

  open() {
    const pane = this.panes[0];
    if (!pane) return;
    this.close();
    this.pane = pane;
    this.events = pane.lanes.model.events.filter((e) => e.k !== "mark");
    this.views = pane.planned.views;
    this.start = this.events[0]?.t ?? 0;
    this.list = decisions(this.events, this.views);
    this.answers = [];
    this.box.hidden = false;
    // A sibling of the panes' titles: one level below the heading before the panes.
    const title = headingAfter(this.box.previousElementSibling ?? this.box);
    title.className = "rq-exercise-title";
    title.textContent = T.exTitle(pane.heading.textContent);
    this.figuresBox = el("input", { type: "checkbox", id: `rq-ex${++uid}-figures` });
    this.figuresBox.checked = true;
    this.figuresBox.onchange = () => this.showDecision(false);
    const figures = el("div", { class: "rq-exercise-level" }, this.figuresBox, el("label", { for: this.figuresBox.id, text: T.exShowFigures }));
    const close = el("button", { type: "button", class: "rq-exercise-close", text: T.exClose });
    close.onclick = () => {
      this.close();
      this.button.focus();
    };
    // One live region for the verdicts: the focus moves to the way on, the verdict is said.
    this.said = el("p", { class: "rq-sr-only rq-exercise-said", role: "status" });
    this.box.append(title, el("p", { text: T.exIntro }), figures, close, this.said);
    this.lanes = new LanesView(this.box, { views: () => this.views, charts: () => [] });
    this.stage = el("div", { class: "rq-exercise-stage" });
    this.box.append(this.stage);
    this.fed = 0;
    this.at = 0;
    if (!this.list.length) {
      this.stage.append(el("p", { class: "rq-exercise-prompt", tabindex: "-1", text: T.exNone }));
      this.stage.firstChild.focus();
      return;
    }
    this.showDecision(true);
  }

  /** The lanes hold the run up to (not including) the decision's switch. */
  feed(index) {
    if (index > this.fed) this.lanes.add(this.events.slice(this.fed, index));
    this.fed = Math.max(this.fed, index);
  }

  /** The decision `this.at`: the prompt and one button per queued task; `focus` moves the focus to the prompt. */
  showDecision(focus) {
    const d = this.list[this.at];
    if (!d) return;
    this.feed(d.index);
    // The lanes' queue view orders the queue as the kernel will pick: without figures, it would give the answer away.
    this.lanes.queueBox.hidden = !this.figuresBox.checked;
    if (d.kind === "place") return this.showPlacement(d, focus);
    const shown = this.figuresBox.checked;
    const others = d.others.map((o) => (o.running ? T.hartRunsShort(o.hart, o.running.name) : T.hartIdle(o.hart))).join("; ");
    const prompt = el("p", { class: "rq-exercise-prompt", tabindex: "-1", "data-t": String(d.t), "data-hart": String(d.hart) },
      T.exPrompt(this.at + 1, this.list.length, fmtMs(d.t - this.start), d.hart) + (others ? ` ${T.exOthers(others)}` : ""));
    const answer = this.answers[this.at];
    const choices = [...d.candidates].sort((a, b) => a.tid - b.tid).map((c) => ({
      attrs: { "data-tid": String(c.tid) }, label: this.describe(c, shown), mine: c.tid === answer?.tid, kernel: c.tid === d.picked, choose: () => this.pick(c.tid),
    }));
    this.stage.replaceChildren(prompt, this.choices(T.exChoices(d.hart), choices, answer));
    if (answer) this.showVerdict(d, answer);
    if (focus) prompt.focus();
  }

  /** A placement decision: the arriving or waking task, and one button per hart saying what it holds. */
  showPlacement(d, focus) {
    const what = this.events[d.index].k === "wake" ? T.exWakes : T.exArrives;
    const prompt = el("p", { class: "rq-exercise-prompt", tabindex: "-1", "data-t": String(d.t), "data-kind": "place", "data-tid": String(d.tid) },
      T.exPlacePrompt(this.at + 1, this.list.length, fmtMs(d.t - this.start), d.name, what));
    const answer = this.answers[this.at];
    const choices = d.harts.map((h) => ({
      attrs: { "data-hart": String(h.hart) }, label: T.exHartHeld(h.hart, h.running, h.waiting), mine: h.hart === answer?.hart, kernel: h.hart === d.placed, choose: () => this.place(h.hart),
    }));
    this.stage.replaceChildren(prompt, this.choices(T.exPlaceChoices(d.name), choices, answer));
    if (answer) {
      const said = answer.right ? T.exPlaceRight(d.name, d.placed) : `${T.exPlaceWrong(d.name, d.placed)} ${T.exPlaceFacts(d.previous, d.from)}`;
      this.stage.append(el("p", { class: `rq-exercise-verdict ${answer.right ? "rq-exercise-is-right" : "rq-exercise-is-wrong"}`, text: said }), this.wayOn());
    }
    if (focus) prompt.focus();
  }

  /**
   * The buttons of a decision (`{attrs, label, mine, kernel, choose}` each): before an answer
   * each chooses; after, all are off, the reader's and the kernel's marked.
   */
  choices(label, list, answer) {
    const group = el("div", { class: "rq-exercise-choices", role: "group", "aria-label": label });
    for (const c of list) {
      const b = el("button", { type: "button", class: "rq-exercise-choice", ...c.attrs }, c.label);
      if (answer) {
        b.disabled = true;
        if (c.mine) b.append(` ${T.exYourPick}`);
        if (c.kernel) b.append(` ${T.exKernelPick}`);
        b.classList.toggle("rq-exercise-kernel", c.kernel);
        b.classList.toggle("rq-exercise-wrong", c.mine && !answer.right);
      } else b.onclick = c.choose;
      group.append(b);
    }
    return group;
  }

  place(hart) {
    this.answers[this.at] = { hart, ...judgePlace(this.list[this.at], hart) };
    this.afterAnswer();
  }

  /** A queued task as its button says it: its name and, at the guided level, the policy's figures and when it joined the queue. */
  describe(c, shown) {
    if (!shown) return c.name;
    const figures = Object.entries(c.fields).map(([k, v]) => `${k}=${v}`);
    if (c.eligible !== undefined) figures.push(c.eligible ? T.eligible : T.notEligible);
    if (c.yielded) figures.push(T.yieldSkip);
    if (c.since !== null) figures.push(T.exQueuedAt(fmtMs(c.since - this.start)));
    return `${c.name} (${figures.join(", ")})`;
  }

  pick(tid) {
    const d = this.list[this.at];
    const verdict = judge(d, tid, this.views);
    this.answers[this.at] = { tid, ...verdict };
    this.afterAnswer();
  }

  /** The answered decision again, its verdict said and the focus on the way on. */
  afterAnswer() {
    this.showDecision(false);
    this.said.textContent = this.stage.querySelector(".rq-exercise-verdict").textContent;
    this.stage.querySelector(".rq-exercise-next").focus();
  }

  /** The button to the next decision, or to the score after the last. */
  wayOn() {
    const last = this.at === this.list.length - 1;
    const next = el("button", { type: "button", class: "rq-exercise-next", text: last ? T.exFinish : T.exNext });
    next.onclick = () => (last ? this.finish() : this.advance());
    return next;
  }

  /** Right or not, why the kernel picked as it did, the queue in the kernel's order, and the way on. */
  showVerdict(d, answer) {
    const verdict = el("p", { class: `rq-exercise-verdict ${answer.right ? "rq-exercise-is-right" : "rq-exercise-is-wrong"}` },
      answer.right ? T.exRight(answer.kernel.name) : `${T.exWrong(answer.kernel.name)} ${this.why(answer)}`);
    const queue = el("ol", { class: "rq-queue rq-exercise-queue", "aria-label": T.exQueueOrder(d.hart) });
    for (const c of d.candidates) queue.append(el("li", { "data-tid": String(c.tid), text: this.describe(c, true) }));
    this.stage.append(verdict, el("p", { class: "rq-queue-title", text: T.exQueueOrder(d.hart) }), queue, this.wayOn());
  }

  why({ kernel, yours, reason }) {
    const k = kernel.name;
    const y = yours.name;
    switch (reason.kind) {
      case "class": return T.exWhyClass(k, kernel.cls, y, yours.cls);
      case "ineligible": return T.exWhyIneligible(k, y);
      case "yielded": return T.exWhyYielded(k, y);
      case "key": return T.exWhyKey(k, y, reason.key, reason.better === "lower" ? T.exLower : T.exHigher, String(reason.kernelValue), String(reason.yoursValue));
      default: return (reason.keyed ? T.exWhyTie : T.exWhyOrder)(k, y, fmtMs(kernel.since - this.start), fmtMs(yours.since - this.start));
    }
  }

  advance() {
    this.at++;
    this.said.textContent = "";
    this.showDecision(true);
  }

  finish() {
    this.feed(this.events.length);
    this.lanes.queueBox.hidden = false;
    const s = score(this.answers);
    const again = el("button", { type: "button", class: "rq-exercise-again", text: T.exAgain });
    again.onclick = () => this.open();
    const result = el("p", { class: "rq-exercise-score", tabindex: "-1", text: T.exScore(s.right, s.total, s.percent) });
    this.stage.replaceChildren(result, again);
    result.focus();
  }
}
