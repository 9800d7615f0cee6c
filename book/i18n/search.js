// Search for the Chinese edition. mdBook's search splits words at spaces, which Chinese text
// does not have, so a query like 睡眠补偿 matches nothing. Here a page matches when its text
// holds the whole query or one of its synonyms (ranked by how often, a hit in the title or a
// heading counting more), or failing that most of the query's character pairs (bigrams), which
// tolerates a word in between. Synonyms come from the terminology table (po/glossary.md): a
// reader who types a textbook's other word (就绪队列, 先进先出, hart) finds the book's
// (运行队列, 先来先服务, 硬件线程). Pages marked `reference` (the glossary, the bibliography)
// come after the lessons that match, so a term finds the chapter that teaches it first. Pure, so
// the build script and node's tests use the same code as the page.

const TITLE_WEIGHT = 10;
const HEADING_WEIGHT = 4;
// A page with fewer of the query's bigrams than this is not a match.
const MIN_BIGRAM_SHARE = 0.7;
const SNIPPET_CHARS = 40;

/** Lower case, one space between words: what queries and texts are compared as. */
export function normalize(text) {
  return String(text).toLowerCase().replace(/\s+/g, " ").trim();
}

/** One space between words, case kept: what the index stores and snippets show. */
export const tidy = (text) => String(text).replace(/\s+/g, " ").trim();

/** The distinct pairs of neighbouring characters, spaces skipped (so "a b" gives "ab"). */
export function bigrams(text) {
  const chars = [...normalize(text).replace(/ /g, "")];
  const pairs = new Set();
  for (let i = 0; i + 1 < chars.length; i++) pairs.add(chars[i] + chars[i + 1]);
  if (chars.length === 1) pairs.add(chars[0]);
  return pairs;
}

function count(haystack, needle) {
  let n = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) n++;
  return n;
}

function snippet(text, at, length) {
  const start = Math.max(0, at - SNIPPET_CHARS);
  const end = Math.min(text.length, at + length + SNIPPET_CHARS);
  return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`;
}

/** An index entry for one page: its title, its headings below the title, and its text, case kept;
 *  `reference` for a page that defines or cites what the lessons teach. */
export function entry(path, title, text, headings = [], reference = false) {
  return { path, title: tidy(title), headings: headings.map(tidy), text: tidy(text), ...(reference ? { reference } : {}) };
}

/**
 * The queries that mean what `query` means: itself, and for each synonym it contains (a
 * variant or the term of a `{variant: term}` table, both ways) the query with the other word.
 */
export function alternatives(query, synonyms = {}) {
  const q = normalize(query);
  const out = new Set([q]);
  const groups = new Map();
  for (const [variant, term] of Object.entries(synonyms)) {
    const t = normalize(term);
    if (!groups.has(t)) groups.set(t, new Set([t]));
    groups.get(t).add(normalize(variant));
  }
  for (const words of groups.values()) {
    for (const word of words) {
      if (!q.includes(word)) continue;
      for (const other of words) if (other !== word) out.add(q.split(word).join(other));
    }
  }
  return [...out];
}

// Case is ignored by comparing lower-cased copies, which keep the original's offsets for the
// snippet (the book's text is CJK and ASCII, whose lower case has the same length).
const lowered = new WeakMap();
function lower(page) {
  let l = lowered.get(page);
  if (!l) lowered.set(page, (l = { title: normalize(page.title), headings: normalize((page.headings ?? []).join(" \u0000 ")), text: page.text.toLowerCase() }));
  return l;
}

/**
 * The pages matching `query`, best first: `{path, title, score, snippet}`. `index` is the
 * build's `{pages, synonyms}` (or a bare list of pages). Ties keep the index's order (the
 * book's), so results are the same on every run.
 */
export function search(index, query, limit = 20) {
  const pages = Array.isArray(index) ? index : index.pages;
  const queries = alternatives(query, Array.isArray(index) ? {} : index.synonyms).filter(Boolean);
  if (!queries.length) return [];
  const wanted = bigrams(queries[0]);
  const hits = [];
  pages.forEach((page, order) => {
    const l = lower(page);
    let exact = 0;
    let at = -1;
    let length = 0;
    for (const q of queries) {
      exact += count(l.text, q) + TITLE_WEIGHT * count(l.title, q) + HEADING_WEIGHT * count(l.headings, q);
      const found = l.text.indexOf(q);
      if (at < 0 && found >= 0) [at, length] = [found, q.length];
    }
    if (exact > 0) {
      hits.push({ page, order, score: 1 + exact, snippet: snippet(page.text, Math.max(at, 0), length) });
      return;
    }
    const present = [...wanted].filter((b) => l.text.includes(b) || l.title.includes(b));
    const share = present.length / wanted.size;
    if (wanted.size > 1 && share >= MIN_BIGRAM_SHARE) {
      hits.push({ page, order, score: share, snippet: snippet(page.text, l.text.indexOf(present[0]), 2) });
    }
  });
  const back = (h) => (h.page.reference ? 1 : 0);
  hits.sort((a, b) => back(a) - back(b) || b.score - a.score || a.order - b.order);
  return hits.slice(0, limit).map(({ page, score, snippet: s }) => ({ path: page.path, title: page.title, score, snippet: s }));
}
