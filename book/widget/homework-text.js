// A homework problem's words and answer fields, pure (no DOM), shared by the build's blocks
// (book/figures/homework.mjs, in Markdown) and the page's student problems (homework.js, in
// the DOM): a message of the CLI's JSON (`{key, parts, en}`) worded in the reader's language,
// and a question's answer field as HTML.

import { problemKey } from "./homework-progress.js";

export function fill(template, parts) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in parts ? parts[name] : whole));
}

/**
 * `message` in `lang` ("en" or "zh"): English as the CLI worded it; Chinese from `words`
 * (`{zh: templates by key, parts: Chinese for English words the CLI put in parts}`).
 */
export function wordIn(words, message, lang) {
  if (lang === "en") return message.en;
  const template = words.zh[message.key];
  if (!template) throw new Error(`homework: no Chinese for the message ${message.key}`);
  const parts = Object.fromEntries(Object.entries(message.parts).map(([k, v]) => [k, words.parts[v] ?? v]));
  return fill(template, parts);
}

/** The policy a problem's command line names (`sched=`), whose queue order its lanes show. */
export const schedOf = (args) => /(?:^| )sched=(\S+)/.exec(args)?.[1] ?? "";

export const attribute = (text) => String(text).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * Question `n`'s answer field of problem `p` (the CLI's JSON) as one line of HTML, carrying its
 * answer's JSON for the check; `T` the edition's strings, `idPrefix` what keeps its id apart
 * from another problem's on the same page.
 */
export function answerField(T, p, q, n, idPrefix = `rq-hw-${p.chapter}`) {
  const id = `${idPrefix}-${q.id}`;
  return `<form class="rq-hw" data-problem="${problemKey(p)}" data-question="${q.id}" data-answer="${attribute(JSON.stringify(q.answer))}">` +
    `<label for="${id}">${T.hwAnswerLabel(n)}</label> <input id="${id}" type="text" autocomplete="off" spellcheck="false"> ` +
    `<button type="submit">${T.hwCheck}</button> <span class="rq-hw-result" role="status"></span></form>`;
}
