// The seat pages' service worker (issue 38): its one job is a page of Muster's own for a navigation that
// fails, instead of the browser's error page. Served by tabletop/views/offline.py at /play/sw.js (scope /play/),
// which puts one line of plain data before this file:
//   const OFFLINE = {"page": "/play/offline/", "assets": [stylesheet, script], "version": "…"};
// (so this file alone, as /static/ serves it, is no worker).
//
// - Network first, always: a GET navigation is fetched as it would be without the worker; only when that fetch
//   fails (offline, the server unreachable) is the kept offline page the answer, at the page's own address.
// - It caches nothing but the offline page and its stylesheet and script, at install: never a seat's page, a
//   fragment or anything with a token (they say Cache-Control: private, no-store, and no cache here holds one).
// - The offline page's own stylesheet and script: network first too, the kept copy when that fails.
// - Every other request (the moves, polls, the push, a POST) gets no respondWith: it goes as if no worker were
//   there.
// - The cache's name carries the version: a release that changes the page, its files or this worker installs a
//   new worker, which deletes the older caches when it takes over.
// - Words (issue 41): the worker has none of its own and no catalog; the offline page says everything, in the
//   language of the request that kept it (the install's fetch, LocaleMiddleware). The version is made of the page
//   as rendered for the request of /play/sw.js, so a phone whose language changes gets a new worker, which keeps
//   the page in that language. The kept page is the answer whatever the failed request asks for (ignoreVary: the
//   page varies by Accept-Language, and there is only the one kept).
"use strict";

const PREFIX = "muster-offline-";
const CACHE = PREFIX + OFFLINE.version;
const ASSETS = new Set(OFFLINE.assets.map((url) => new URL(url, self.location).href));

self.addEventListener("install", (event) => {
  const kept = [OFFLINE.page, ...OFFLINE.assets].map((url) => new Request(url, { cache: "reload" }));
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(kept)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  const older = (names) => names.filter((name) => name.startsWith(PREFIX) && name !== CACHE);
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(older(names).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

function keptOr(request, url) {
  const kept = () => caches.open(CACHE).then((cache) => cache.match(url, { ignoreVary: true }));
  return fetch(request).catch(() => kept().then((page) => page || Response.error()));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  // a page (its path ends in "/"), never a file such as the seat's log.json, which would be saved as this page
  if (request.mode === "navigate" && new URL(request.url).pathname.endsWith("/")) {
    event.respondWith(keptOr(request, OFFLINE.page));
  } else if (ASSETS.has(request.url)) {
    event.respondWith(keptOr(request, request.url));
  }
});
