// Referee's service worker: the app keeps working on a phone whose connection comes and goes.
// The app's files and what it read from the API (the games, rulebooks, passages) come from the
// network first and are kept; when the network is gone the kept copies serve, and a page opened
// offline gets the app's one HTML shell. Questions and verdicts (POST) always go to the server: an answer is
// never made up from a cache.
const VERSION = "referee-4";
// What the app reads that is worth keeping offline: the games and their rulebooks (not searches,
// which would grow the cache with every question).
const KEPT = ["/v1/games", "/v1/rulebooks/", "/v1/passages/"];
const SHELL = ["/", "/app/app.js", "/app/dom.js", "/app/table.js", "/app/moves.js", "/app/app.css", "/app/strings.json", "/app/icon.svg", "/app/manifest.webmanifest"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(VERSION).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== VERSION).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

// The network first, and what it gave kept; the kept answer when the network fails.
async function networkFirst(request, fallback) {
  const cache = await caches.open(VERSION);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const kept = (await cache.match(request)) || (fallback && (await cache.match(fallback)));
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(networkFirst(request, "/"));  // every page is the same shell
  } else if (url.pathname.startsWith("/app/") || KEPT.some((path) => url.pathname.startsWith(path))) {
    event.respondWith(networkFirst(request));
  }
});
