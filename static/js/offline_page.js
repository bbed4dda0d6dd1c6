// The offline page (templates/tabletop/offline.html, issue 38) reloads by itself when the connection returns.
// The service worker (offline_worker.js) shows it in place of a seat page that could not load, at that page's
// own address, so the reload asks for the seat page again (and a kept tap goes from there: outbox.js).
//
// "online" alone is not enough: the phone may be on the Wi-Fi while the server is unreachable (restarting, the
// laptop asleep), and the "online" event can come a moment before requests get through again (the reload would
// land here once more, with no further event). So while the browser says it is online, the page asks for its
// address (fetch: no worker's cache, no reload's flash) after 1, 2, 4 … s, at most 30 s apart, and reloads once
// the server answers; offline it waits for "online", which asks at once.
"use strict";

(() => {
  const FIRST_MS = 1000;
  const MOST_MS = 30000;
  let wait = FIRST_MS;
  let timer = null;

  function later() {
    if (timer !== null) return;
    timer = setTimeout(ask, wait);
    wait = Math.min(wait * 2, MOST_MS);
  }

  function ask() {
    timer = null;
    if (!navigator.onLine) return; // "online" asks again
    fetch(location.href, { cache: "no-store", credentials: "same-origin" })
      .then((response) => (response.status < 500 ? location.reload() : later())) // 502: a proxy, the app still down
      .catch(later);
  }

  window.addEventListener("online", () => {
    clearTimeout(timer);
    timer = null;
    wait = FIRST_MS;
    ask();
  });
  later();
})();
