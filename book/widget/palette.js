// How the charts and lanes tell tasks (and series) apart without relying on colour alone
// (WCAG 1.4.1): each gets a colour and a fill pattern for bars, a dash for lines. Every colour
// keeps 3:1 contrast against the charts' white ground (WCAG 1.4.11), which the unit tests
// check. The colours and shapes are pure data; `fill` makes a canvas pattern from them.

export const CHART_GROUND = "#ffffff";
export const TASK_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#d1489e", "#7f7f7f", "#8a7a00", "#0e7c86", "#c45a00"];
// Fill patterns, drawn in white over the colour; as many as colours, so task n and task n + 10
// share both.
export const PATTERNS = ["solid", "diagonal", "dots", "vertical", "cross", "horizontal", "back-diagonal", "grid", "checker", "rings"];
export const DASHES = [[], [8, 3], [2, 3], [10, 3, 2, 3], [14, 4], [5, 5], [1, 4], [10, 2, 2, 2, 2, 2], [6, 2, 6, 6], [3, 2, 8, 2]];

const pick = (list, tid) => list[(tid - 1 + list.length) % list.length];

/** A task's colour, pattern and line dash (tids start at 1). */
export function taskStyle(tid) {
  return { colour: pick(TASK_COLOURS, tid), pattern: pick(PATTERNS, tid), dash: pick(DASHES, tid) };
}

/** WCAG's contrast ratio of two `#rrggbb` colours. */
export function contrast(a, b) {
  const luminance = (hex) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const TILE = 8;
const marks = {
  solid: () => {},
  diagonal: (c) => { c.moveTo(0, TILE); c.lineTo(TILE, 0); c.stroke(); },
  "back-diagonal": (c) => { c.moveTo(0, 0); c.lineTo(TILE, TILE); c.stroke(); },
  vertical: (c) => { c.moveTo(TILE / 2, 0); c.lineTo(TILE / 2, TILE); c.stroke(); },
  horizontal: (c) => { c.moveTo(0, TILE / 2); c.lineTo(TILE, TILE / 2); c.stroke(); },
  cross: (c) => { c.moveTo(0, 0); c.lineTo(TILE, TILE); c.moveTo(0, TILE); c.lineTo(TILE, 0); c.stroke(); },
  grid: (c) => { c.moveTo(TILE / 2, 0); c.lineTo(TILE / 2, TILE); c.moveTo(0, TILE / 2); c.lineTo(TILE, TILE / 2); c.stroke(); },
  dots: (c) => { c.arc(TILE / 2, TILE / 2, 1.6, 0, 2 * Math.PI); c.fill(); },
  rings: (c) => { c.arc(TILE / 2, TILE / 2, 2.2, 0, 2 * Math.PI); c.stroke(); },
  checker: (c) => { c.fillRect(0, 0, TILE / 2, TILE / 2); c.fillRect(TILE / 2, TILE / 2, TILE / 2, TILE / 2); },
};
const made = new Map();

/** A canvas fill of `colour` with `pattern` in white over it (a plain colour for "solid"). */
export function fill(colour, pattern) {
  if (pattern === "solid") return colour;
  const key = `${colour} ${pattern}`;
  if (!made.has(key)) {
    const tile = document.createElement("canvas");
    tile.width = tile.height = TILE;
    const c = tile.getContext("2d");
    c.fillStyle = colour;
    c.fillRect(0, 0, TILE, TILE);
    c.strokeStyle = c.fillStyle = "rgba(255, 255, 255, 0.85)";
    c.lineWidth = 1.5;
    c.beginPath();
    marks[pattern](c);
    made.set(key, c.createPattern(tile, "repeat"));
  }
  return made.get(key);
}

/** A task's bar fill: its colour with its pattern. */
export const taskFill = (tid) => {
  const s = taskStyle(tid);
  return fill(s.colour, s.pattern);
};
