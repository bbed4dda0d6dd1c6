// The seat pages' offline fallback (issue 38): registers the service worker (static/js/offline_worker.js,
// served at data-worker, /play/sw.js, so it controls /play/…), which shows a page of Muster's own, saying the
// kept tap waits, when a seat page is reloaded offline. Loaded by templates/tabletop/table.html on seat pages.
//
// Browsers offer service workers only on a secure context: HTTPS, or localhost and 127.x. On a venue's plain
// HTTP Wi-Fi address navigator.serviceWorker does not exist, nothing registers, and a reload offline shows the
// browser's own offline page; behind HTTPS ours does (docs/operations.md, "A game day on one machine").
"use strict";

(() => {
  const worker = document.currentScript && document.currentScript.dataset.worker;
  if (!worker || !("serviceWorker" in navigator)) return;
  // A refused registration (private mode, storage full) leaves the page as it was: nothing to tell.
  navigator.serviceWorker.register(worker).catch(() => {});
})();
