// The kernel's catalog for node (the figure generator, the tests): read from the CLI's bundled
// kernel, with command lines read by the kernel's own parser through `runqueue settings`, as
// the page reads them through its wasm (book/widget/widget.js).

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { normalizeCatalog, withReader } from "../widget/catalog.js";
import { tempDir } from "../../scripts/temp-dir.mjs";

/** The raw `CATALOG` JSON the kernel inside `cli` prints. */
export function rawCatalog(cli) {
  const stdout = execFileSync(cli, ["run", "--append", "catalog"], { encoding: "utf8", maxBuffer: 16 << 20 });
  const line = stdout.split("\n").find((l) => l.startsWith("CATALOG "));
  if (!line) throw new Error("the kernel printed no CATALOG line");
  return JSON.parse(line.slice("CATALOG ".length));
}

/** `raw` normalised in `lang`, reading command lines with `cli settings`. */
export function kernelCatalog(cli, raw = rawCatalog(cli), lang = "en") {
  const file = path.join(tempDir("rq-catalog-"), "catalog.json");
  fs.writeFileSync(file, JSON.stringify(raw));
  const read = (line, base) => execFileSync(cli, ["settings", "--catalog", file, "--base", base, "--", line], { encoding: "utf8" });
  return withReader(normalizeCatalog(raw, lang), read);
}
