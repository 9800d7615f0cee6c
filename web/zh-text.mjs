// What a Chinese page must not show: an English sentence left untranslated, or an emphasis
// marker that Markdown left as text. Shared by the build's page-by-page comparison
// (tests/translation.test.mjs) and the Chinese page's browser test (tests/zh-page.test.mjs).

// Four English words in a row, not inside quotes (a quoted title is a name, kept as written).
const ENGLISH_RUN = /(?<![A-Za-z])[A-Za-z][a-z'’-]*(?:[ ,;:]+[A-Za-z][a-z'’-]*){3,}/g;
// Quoted names and titles, and an English gloss after a Chinese term (its first use).
const QUOTED = /“[^”]*”|"[^"]*"|「[^」]*」|《[^》]*》|（[A-Za-z][A-Za-z ,'-]*）/g;

/** English sentences left in a Chinese text. */
export function englishSentences(text) {
  return [...text.replace(QUOTED, " ").matchAll(ENGLISH_RUN)].map((m) => m[0]);
}

/** Emphasis markers CommonMark left as text: `_x_`, `*x*`, `**`. */
export function strayEmphasis(text) {
  return [...text.matchAll(/\*\*|(?<![A-Za-z0-9_])_[^_\s][^_]*?_(?![A-Za-z0-9_])|(?<![*\w])\*[^*\s][^*]*?\*(?!\*)/g)].map((m) => m[0]);
}
