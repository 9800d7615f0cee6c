// Loaded on every page of both editions (book/theme/head.hbs). It adds the language switcher,
// a link to the same page in the other edition, and on Chinese pages a search that works on
// Chinese text (book/i18n/search.js) in place of mdBook's, which the Chinese build switches off.
// It also adds a link that skips to the chapter's text, first in the keyboard's order, lets the
// keyboard reach mdBook's sideways-scrolling tables, code blocks and sidebar toggle, marks the
// menu bar as the page's banner, and registers the edition's service worker, which keeps the
// book for reading offline once visited (book/offline/sw.js).

import { search } from "./search.js";

// This file is <edition root>/runqueue/i18n/page.js; the Chinese edition lives in zh-CN/.
const ROOT = new URL("../../", import.meta.url);
const ZH = "zh-CN";
const isZh = document.documentElement.lang === ZH;

const TEXT = isZh
  ? { other: "English", otherLang: "en", switchTo: "阅读本页的英文版", search: "搜索本书", placeholder: "搜索本书……",
      loading: "正在加载索引……", none: (q) => `没有找到“${q}”`, found: (n, q) => `“${q}”：${n} 个页面`,
      failed: "无法加载搜索索引", skip: "跳到正文" }
  : { other: "中文", otherLang: ZH, switchTo: "Read this page in Chinese", skip: "Skip to the text" };

/** The same page in the other edition, keeping the query (an experiment's settings). */
function otherEdition() {
  const here = decodeURI(location.pathname);
  const rootPath = decodeURI(ROOT.pathname);
  const rel = here.startsWith(rootPath) ? here.slice(rootPath.length) : "";
  const target = new URL(isZh ? `../${rel}` : `${ZH}/${rel}`, ROOT);
  target.search = location.search;
  return target.href;
}

// The link shows the other language's name; its accessible name starts with that same text
// (WCAG 2.5.3, label in name) and goes on to say, in this page's language, what it does.
function addSwitcher(bar) {
  const link = document.createElement("a");
  link.className = "rq-lang";
  link.href = otherEdition();
  link.hreflang = TEXT.otherLang;
  link.title = TEXT.switchTo;
  const name = document.createElement("span");
  name.lang = TEXT.otherLang;
  name.textContent = TEXT.other;
  const purpose = document.createElement("span");
  purpose.className = "rq-sr-only";
  purpose.textContent = `: ${TEXT.switchTo}`;
  link.append(name, purpose);
  bar.querySelector(".right-buttons")?.prepend(link);
}

// The first stop of the keyboard: past the sidebar and the menu bar to the page's own text.
function addSkipLink() {
  const main = document.querySelector("main");
  if (!main) return;
  main.id ||= "rq-main";
  main.tabIndex = -1; // focusable from the link, not a stop of its own
  const link = document.createElement("a");
  link.className = "rq-skip";
  link.href = `#${main.id}`;
  link.textContent = TEXT.skip;
  link.addEventListener("click", (e) => {
    e.preventDefault();
    main.focus();
  });
  document.body.prepend(link);
}

const SEARCH_ICON = '<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">' +
  '<circle cx="6.5" cy="6.5" r="4.5" fill="none" stroke="currentColor" stroke-width="2"/>' +
  '<line x1="10" y1="10" x2="14.5" y2="14.5" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';

function addSearch(bar) {
  const toggle = document.createElement("button");
  toggle.type = "button";
  toggle.className = "icon-button rq-search-toggle";
  toggle.title = TEXT.search;
  toggle.setAttribute("aria-label", TEXT.search);
  toggle.setAttribute("aria-expanded", "false");
  toggle.setAttribute("aria-controls", "rq-search");
  toggle.innerHTML = SEARCH_ICON;
  bar.querySelector(".left-buttons")?.append(toggle);

  // The whole panel, its results too, is the search landmark.
  const panel = document.createElement("div");
  panel.id = "rq-search";
  panel.className = "rq-search";
  panel.hidden = true;
  panel.setAttribute("role", "search");
  panel.setAttribute("aria-label", TEXT.search);
  const form = document.createElement("form");
  const input = document.createElement("input");
  input.type = "search";
  input.placeholder = TEXT.placeholder;
  input.setAttribute("aria-label", TEXT.search);
  form.append(input);
  const status = document.createElement("p");
  status.className = "rq-search-status";
  status.setAttribute("role", "status");
  const list = document.createElement("ul");
  list.className = "rq-search-results";
  panel.append(form, status, list);
  bar.after(panel);

  let index = null;
  const load = () => (index ??= fetch(new URL("cjk-search.json", ROOT)).then((r) => {
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    return r.json();
  }));
  const show = (open) => {
    panel.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    if (open) {
      load().catch(() => {});
      input.focus();
    }
  };
  const render = async () => {
    const q = input.value.trim();
    list.replaceChildren();
    if (!q) return void (status.textContent = "");
    status.textContent = TEXT.loading;
    let pages;
    try {
      pages = await load();
    } catch {
      index = null; // try again on the next keystroke
      return void (status.textContent = TEXT.failed);
    }
    if (input.value.trim() !== q) return; // a newer query is on its way
    const hits = search(pages, q);
    status.textContent = hits.length ? TEXT.found(hits.length, q) : TEXT.none(q);
    list.replaceChildren(...hits.map((h) => {
      const item = document.createElement("li");
      const a = document.createElement("a");
      a.href = new URL(h.path, ROOT).href;
      a.textContent = h.title;
      const teaser = document.createElement("span");
      teaser.className = "rq-search-teaser";
      teaser.textContent = h.snippet;
      item.append(a, teaser);
      return item;
    }));
  };
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    list.querySelector("a")?.click();
  });
  input.addEventListener("input", render);
  toggle.addEventListener("click", () => show(panel.hidden));
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !panel.hidden) return show(false);
    const typing = e.target.closest?.("input, textarea, select, [contenteditable]");
    if (!typing && !e.ctrlKey && !e.metaKey && !e.altKey && (e.key === "/" || e.key === "s")) {
      e.preventDefault();
      show(true);
    }
  });
}

// mdBook's sidebar toggle is a <label> for a hidden checkbox: the keyboard cannot reach it, and
// the ARIA it carries is not allowed on a label. A real button takes its place and clicks it
// (mdBook's own script listens there); the checkbox still drives the sidebar.
function sidebarButton() {
  const label = document.getElementById("mdbook-sidebar-toggle");
  const box = document.getElementById("mdbook-sidebar-toggle-anchor");
  if (!label || !box) return;
  const button = document.createElement("button");
  button.type = "button";
  button.className = label.className;
  for (const name of ["title", "aria-label", "aria-controls"]) button.setAttribute(name, label.getAttribute(name) ?? "");
  const expanded = () => button.setAttribute("aria-expanded", String(box.checked));
  expanded();
  box.addEventListener("change", expanded);
  button.append(...label.childNodes);
  label.style.display = "none";
  label.removeAttribute("aria-label");
  label.removeAttribute("aria-controls");
  label.after(button);
  button.addEventListener("click", () => label.click());
}

// The service worker lives at the edition's root, so its scope is the whole edition.
function keepOffline() {
  if (!("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) return;
  const register = () => navigator.serviceWorker.register(new URL("sw.js", ROOT)).catch(() => {});
  if (document.readyState === "complete") register();
  else addEventListener("load", register, { once: true });
}

// A box that scrolls sideways must take focus, or keyboard users cannot scroll it (WCAG 2.1.1;
// axe: scrollable-region-focusable). Whether it scrolls depends on the window's width.
// Every width is read before any attribute is written: a write between two reads would make the
// browser lay the page out again for the next read, once per box.
function focusScrollers() {
  const boxes = [...document.querySelectorAll("main .table-wrapper, main pre > code")];
  const scrolls = boxes.map((box) => box.scrollWidth > box.clientWidth);
  boxes.forEach((box, i) => (scrolls[i] ? box.tabIndex = 0 : box.removeAttribute("tabindex")));
}

function mount() {
  addSkipLink();
  // Read after the browser's own layout for the first frame, not forcing one of its own.
  requestAnimationFrame(() => setTimeout(focusScrollers));
  addEventListener("resize", focusScrollers);
  keepOffline();
  const bar = document.getElementById("mdbook-menu-bar");
  if (!bar) return;
  bar.setAttribute("role", "banner");
  sidebarButton();
  addSwitcher(bar);
  if (isZh) addSearch(bar);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mount);
else mount();
