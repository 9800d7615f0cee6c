// A static file server for the built book: `node serve.mjs DIR [PORT]` (127.0.0.1 only).
// The tests import `serve` and pass port 0 to get a free port. Correct MIME types matter:
// module scripts and WebAssembly.instantiateStreaming refuse anything else. A file the build
// precompressed (scripts/precompress.mjs) goes out as its .br or .gz copy to a browser that
// accepts that encoding, as a static host with precompressed files configured would send it.

import { createServer } from "node:http";
import { createReadStream, statSync } from "node:fs";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".txt": "text/plain; charset=utf-8",
};

/** Resolves a URL path inside `root`, or null when it would leave it. */
function locate(root, urlPath) {
  let path;
  try {
    path = decodeURIComponent(urlPath.split("?")[0]);
  } catch {
    return null;
  }
  const file = normalize(join(root, path));
  if (file !== root && !file.startsWith(root + sep)) return null;
  try {
    return statSync(file).isDirectory() ? join(file, "index.html") : file;
  } catch {
    return file;
  }
}

/** The size of `file` when it is a file, else null. */
function sizeOf(file) {
  try {
    return file && statSync(file).isFile() ? statSync(file).size : null;
  } catch {
    return null;
  }
}

// Encodings in the order they are preferred, with the suffix of their precompressed copies.
const ENCODINGS = [["br", ".br"], ["gzip", ".gz"]];

export function serve(dir, port = 0) {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    const file = locate(root, req.url ?? "/");
    const size = sizeOf(file);
    if (size === null) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    const accepted = String(req.headers["accept-encoding"] ?? "").split(",").map((e) => e.trim().split(";")[0]);
    const [encoding, suffix] = ENCODINGS.find(([name, ext]) => accepted.includes(name) && sizeOf(file + ext) !== null) ?? [null, ""];
    res.writeHead(200, {
      "content-type": TYPES[extname(file)] ?? "application/octet-stream",
      "content-length": sizeOf(file + suffix),
      "cache-control": "no-cache",
      vary: "accept-encoding",
      ...(encoding && { "content-encoding": encoding }),
    });
    if (req.method === "HEAD") return void res.end();
    createReadStream(file + suffix).pipe(res);
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => ok(server));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir = "../book/build", port = "3000"] = process.argv.slice(2);
  const server = await serve(dir, Number(port));
  console.log(`serving ${resolve(dir)} at http://127.0.0.1:${server.address().port}/`);
}
