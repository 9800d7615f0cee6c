// A widget's headings continue the page's outline: one level below the heading before them,
// whatever level the chapter put the experiment under (axe: heading-order).

/** A new heading element one level below the last heading before `node` (h2 at the top, h6 at most). */
export function headingAfter(node) {
  let level = 1;
  for (const h of document.querySelectorAll("h1, h2, h3, h4, h5, h6")) {
    if (node.compareDocumentPosition(h) & Node.DOCUMENT_POSITION_PRECEDING) level = Number(h.tagName[1]);
  }
  return document.createElement(`h${Math.min(6, level + 1)}`);
}
