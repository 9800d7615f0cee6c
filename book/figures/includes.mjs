// Every `{{#include ../generated/FILE:ANCHOR}}` in a chapter must name a figure the generator
// wrote; mdBook would otherwise render an empty string where a number belongs.
import fs from "node:fs";
import path from "node:path";

const INCLUDE = /\{\{#include\s+\.\.\/generated\/([^:}\s]+)(?::([^}\s]+))?\s*\}\}/g;
const ANCHOR = /^ANCHOR: (\S+)$/gm;

export function checkIncludes(chaptersDir, generatedDir) {
  const anchors = new Map();
  const anchorsOf = (file) => {
    if (!anchors.has(file)) {
      const p = path.join(generatedDir, file);
      anchors.set(file, fs.existsSync(p) ? new Set([...fs.readFileSync(p, "utf8").matchAll(ANCHOR)].map((m) => m[1])) : null);
    }
    return anchors.get(file);
  };
  const problems = [];
  if (!fs.existsSync(chaptersDir)) return problems;
  for (const name of fs.readdirSync(chaptersDir).filter((f) => f.endsWith(".md")).sort()) {
    const text = fs.readFileSync(path.join(chaptersDir, name), "utf8");
    for (const [, file, anchor] of text.matchAll(INCLUDE)) {
      const found = anchorsOf(file);
      if (found === null) problems.push(`${name}: ${file} does not exist`);
      else if (!anchor) problems.push(`${name}: ${file} is included whole; name an anchor`);
      else if (!found.has(anchor)) problems.push(`${name}: ${file} has no figure "${anchor}"`);
    }
  }
  return problems;
}

/** The anchors the chapters quote, by figure file: Map(file -> Set(anchor)). */
export function includedAnchors(chaptersDir) {
  const quoted = new Map();
  if (!fs.existsSync(chaptersDir)) return quoted;
  for (const name of fs.readdirSync(chaptersDir).filter((f) => f.endsWith(".md"))) {
    for (const [, file, anchor] of fs.readFileSync(path.join(chaptersDir, name), "utf8").matchAll(INCLUDE)) {
      if (!anchor) continue;
      if (!quoted.has(file)) quoted.set(file, new Set());
      quoted.get(file).add(anchor);
    }
  }
  return quoted;
}
