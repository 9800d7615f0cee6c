// The book's service worker (docs/web.md, "Offline"): once a reader has opened a page of an
// edition, every page of that edition, its widget, the wasm emulator, the kernel and the vendored
// libraries are kept in the browser, so the book reads and runs its experiments without a
// network. `make book` writes a copy of this file at each edition's root with the edition's files
// and a hash of their bytes filled in below (book/offline/precache.mjs): a new build is a new
// worker, which fetches the new files and drops the old ones.

const PRECACHE = /* PRECACHE */ { edition: "dev", version: "", files: [] };
const PREFIX = `runqueue-${PRECACHE.edition}-`;
const CACHE = PREFIX + PRECACHE.version;
const SCOPE = new URL(self.registration.scope);

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // No HTTP cache in between: a file that changed since the last build must not come back stale.
    await cache.addAll(PRECACHE.files.map((f) => new Request(new URL(f, SCOPE), { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

// The built book never changes under a version, so what it holds is served from the cache
// (a page's query, an experiment's settings, does not make it another page); anything else
// goes to the network, and comes from the cache when the network is gone.
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const page = event.request.mode === "navigate";
    const kept = await cache.match(event.request, { ignoreSearch: page })
      ?? (page && url.pathname.endsWith("/") ? await cache.match(new URL("index.html", url)) : undefined);
    if (kept) return kept;
    try {
      return await fetch(event.request);
    } catch (e) {
      return (await cache.match(event.request, { ignoreSearch: true })) ?? Promise.reject(e);
    }
  })());
});
