// The pages of the built book, edition by edition: every HTML file mdBook wrote (chapters,
// reference, labs, the print page, the home and 404 pages), not the widget's own files.

import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { SITE } from "./browser.mjs";

export const ZH = "zh-CN";
export const EDITIONS = [{ lang: "en", prefix: "" }, { lang: ZH, prefix: `${ZH}/` }];
// Folders of an edition that hold no pages of its own: the widget's, the other edition.
const NOT_PAGES = new Set(["runqueue", ZH]);

/** The paths (relative to the site, with `prefix`) of every page of the edition at `prefix`. */
export function sitePages(prefix) {
  const root = join(SITE, prefix);
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!(dir === root && NOT_PAGES.has(entry.name))) walk(path);
      } else if (entry.name.endsWith(".html")) found.push(prefix + relative(root, path));
    }
  };
  walk(root);
  return found.sort();
}

// The back matter (glossary, bibliography, index, the appendix's opening): chapters that run nothing.
export const BACK_MATTER = new Set(["appendix-seeds.html", "bibliography.html", "book-index.html", "glossary.html"]);

/** Whether the chapter file `chapter` of the edition at `prefix` holds an experiment. */
export const hasExperiment = (prefix, chapter) =>
  readFileSync(join(SITE, prefix, "chapters", chapter), "utf8").includes('class="rq-experiment"');
