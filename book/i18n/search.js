// Search for the Chinese edition. mdBook's search splits words at spaces, which Chinese text
// does not have, so a query like 睡眠补偿 matches nothing. Here a page matches when its text
// holds the whole query (ranked by how often, a title hit counting more), or failing that most
// of the query's character pairs (bigrams), which tolerates a word in between. Pure, so the
// build script and node's tests use the same code as the page.

const TITLE_WEIGHT = 10;
// A page with fewer of the query's bigrams than this is not a match.
const MIN_BIGRAM_SHARE = 0.7;
const SNIPPET_CHARS = 40;

/** Lower case, one space between words: what both the index and the queries are compared as. */
export function normalize(text) {
  return String(text).toLowerCase().replace(/\s+/g, " ").trim();
}

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

/** An index entry for one page: `{path, title, text}`, the title as shown, the text normalized. */
export function entry(path, title, text) {
  return { path, title: String(title).replace(/\s+/g, " ").trim(), text: normalize(text) };
}

/**
 * The pages matching `query`, best first: `{path, title, score, snippet}`. Ties keep the
 * index's order (the book's), so results are the same on every run.
 */
export function search(index, query, limit = 20) {
  const q = normalize(query);
  if (!q) return [];
  const wanted = bigrams(q);
  const hits = [];
  index.forEach((page, order) => {
    const title = normalize(page.title);
    const exact = count(page.text, q) + TITLE_WEIGHT * count(title, q);
    if (exact > 0) {
      const at = page.text.indexOf(q);
      hits.push({ page, order, score: 1 + exact, snippet: snippet(page.text, Math.max(at, 0), q.length) });
      return;
    }
    const present = [...wanted].filter((b) => page.text.includes(b) || title.includes(b));
    const share = present.length / wanted.size;
    if (wanted.size > 1 && share >= MIN_BIGRAM_SHARE) {
      hits.push({ page, order, score: share, snippet: snippet(page.text, page.text.indexOf(present[0]), 2) });
    }
  });
  hits.sort((a, b) => b.score - a.score || a.order - b.order);
  return hits.slice(0, limit).map(({ page, score, snippet: s }) => ({ path: page.path, title: page.title, score, snippet: s }));
}
