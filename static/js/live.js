// Live regions (docs/architecture.md, the push): the server pushes a key ("the table moved on to
// version N") and, for a table, the page's region itself, rendered once for every page of that viewer
// (tabletop/push.py); a key alone makes the page fetch its own view through its ordinary poll URL.
//
// Markup (templates/tabletop/table.html, the day-end bar in templates/armies/gm_armies.html):
//
//   <div data-live data-csrf="T" hx-ext="ws" ws-connect="/ws/...">  never swapped: holds the socket
//     <div data-live-region data-key="K"                       swapped (outerHTML) by its own fetch
//          hx-get="/poll?v=K" hx-trigger="live:fetch">          or by a pushed region
//
// - The socket sends {"key": "..."} on connect and {"key": "...", "html": "..."} (a table's region)
//   or {"key": "..."} on every change. A key other than the region's data-key brings the region up to
//   it (once per push, after any request of the page already in flight, e.g. the GM's own action
//   whose answer may already bring that key): the pushed region when it came with the key and is newer
//   than the region shown, else a fetch. A pushed region is shared by every device of the viewer, so it
//   holds placeholders for the CSRF token and the client action id: the page puts in its own token
//   (the wrapper's data-csrf) and a fresh id before the swap.
// - While the socket is not open (before it opens, after a drop, on a server without websockets)
//   the region polls once a second; the poll answers 204 while nothing changed. Not while the browser is
//   offline (every fetch would fail): "online" fetches at once.
// - A page coming back (phone waking, back online, restored from the back/forward cache) fetches at
//   once and reopens a closed socket.
// - A region without hx-get (an abandoned table, a finished day end) neither fetches nor polls, and
//   its socket is closed.
// - The wrapper's data-socket says "open" while the push is connected, "closed" while it polls.
// - A seat's phone (data-my-turn on the region) cues "your turn" when it becomes the seat's turn:
//   vibration, a title prefix while it lasts, and a beep if the seat turned the sound on.
// - The turn line ([data-turn-text] in the region) is said by [data-turn-status] (role=status, outside the
//   region, never swapped) whenever a swap changes it: a live region inside the swapped one is new each time,
//   and a screen reader does not announce a region new to the page.
// - Focus (issue 38): a swap of the region (one's own move's answer, a push, a fetch) puts the focus back on
//   the same element of the new region (by id, else by what it is: name and value, data-merc-pick, its label),
//   else on the nearest focusable one that is still there (after it, then before it), never the page's top.
//   An element focused inside the live wrapper is scrolled clear of what sticks to the bottom of the screen
//   (Gridaris's hand strip on a phone, the outbox bar), which scroll-padding cannot know the height of.
// - A seat to act whose phone is not connected (tabletop/away.py): the socket sends {"away": "sentence"} (or
//   "") when it changes without the table moving; it goes into the region's [data-away] as it is.
// - One's own move by push (issue 38): a region names the tap that made its version (data-made-by, its client
//   action id). A pushed region made by a move of this page still waiting for its answer (a slow network: the
//   server applied it and pushed it to everyone) is taken at once: that request is given up as answered
//   (aborted, so its late answer changes nothing) and "live:made" tells outbox.js, whose kept tap is then done.
(function () {
  "use strict";

  // The page's language (issue 41): Django's JavaScript catalog (/jsi18n/, base.html), else the English source text
  // (the projector's page loads no catalog, and shows no cue).
  const gettext = (text) => (window.gettext ? window.gettext(text) : text);

  const POLL_MS = 1000;
  const RECONNECT_MAX_MS = 5000;
  const SOUND_KEY = "muster.turnSound";
  // tabletop/push.py's placeholders in a pushed region
  const CSRF_PLACEHOLDER = "__muster_csrf_token__";
  const ACTION_ID_PLACEHOLDER = "__muster_client_action_id__";

  // Full jitter, capped: a phone back on the Wi-Fi reconnects within seconds, not minutes. The extension calls
  // this as it sets its timer: while that timer is pending, coming back does not reconnect too (the timer's
  // reconnect would replace the fresh socket, a "Reconnecting…" flash).
  let reconnectDue = 0;
  htmx.config.wsReconnectDelay = function (retries) {
    const delay = Math.random() * Math.min(RECONNECT_MAX_MS, 500 * Math.pow(2, retries));
    reconnectDue = Date.now() + delay;
    return delay;
  };

  const states = new WeakMap();

  function state(wrap) {
    let s = states.get(wrap);
    if (!s) {
      // socket: the extension's interface (reconnect); raw: the newest WebSocket seen open or closed;
      // wanted/pending: a key the push announced and whether the region still has to fetch it;
      // pushed: the region that came with the wanted key, if any;
      // inflight: the page's requests inside this wrapper not yet finished; acting: those of them posting a
      // move, with its client action id.
      s = { socket: null, raw: null, wanted: null, pending: false, pushed: null, inflight: new Set(), acting: new Map(),
        myTurn: null };
      states.set(wrap, s);
    }
    return s;
  }

  function region(wrap) {
    return wrap.querySelector("[data-live-region]");
  }

  function fetchable(wrap) {
    const r = region(wrap);
    return r && r.hasAttribute("hx-get") ? r : null;
  }

  function isOpen(s) {
    return s.raw !== null && s.raw.readyState === WebSocket.OPEN;
  }

  // A table's key: its version, "-abandoned" once abandoned (which keeps the version). Anything else
  // (a day end's progress, "revoked") is only ever compared for equality.
  function rank(key) {
    const match = /^(\d+)(-abandoned)?$/.exec(key || "");
    return match ? parseInt(match[1], 10) * 2 + (match[2] ? 1 : 0) : null;
  }

  function newer(key, than) {
    const a = rank(key);
    const b = rank(than);
    return a === null || b === null ? key !== than : a > b;
  }

  function actionId() {
    const bytes = new Uint8Array(16); // crypto.randomUUID needs https; a venue's Wi-Fi is plain http
    window.crypto.getRandomValues(bytes);
    return Array.from(bytes, function (b) {
      return b.toString(16).padStart(2, "0");
    }).join("");
  }

  // The pushed region in place of the shown one, as a fetch's answer would be swapped: the same events
  // (a GET's beforeSwap, so a game's script keeps the cards picked), htmx.process, place and cue kept.
  function swapIn(wrap, r, html) {
    const own = html.split(CSRF_PLACEHOLDER).join(wrap.dataset.csrf || "").split(ACTION_ID_PLACEHOLDER).join(actionId());
    const info = { requestConfig: { verb: "get", pushed: true }, target: r };
    htmx.trigger(r, "htmx:beforeSwap", info);
    htmx.swap(r, own, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: htmx.config.defaultSettleDelay }, { eventInfo: info });
    closeIfFinished(wrap);
    turnCue(wrap, false);
    wrap.dispatchEvent(new CustomEvent("live:pushed", { bubbles: true })); // outbox.js: the server is reachable
  }

  // Bring the region up to a key a push (or a wake) asked for, once nothing else of the page is under way.
  function settle(wrap) {
    const s = state(wrap);
    const r = fetchable(wrap);
    if (!s.pending || !r) {
      s.pending = false;
      s.pushed = null;
      return;
    }
    if (s.wanted !== null && r.dataset.key === s.wanted) {
      s.pending = false; // an answer already brought it (e.g. the page's own action)
      s.pushed = null;
      return;
    }
    if (s.inflight.size) {
      return; // settled again when that request ends
    }
    s.pending = false;
    const pushed = s.pushed;
    s.pushed = null;
    if (pushed !== null && pushed.key === s.wanted) {
      if (newer(pushed.key, r.dataset.key)) swapIn(wrap, r, pushed.html);
      return; // else the region shown is already newer (pushes from two processes crossed)
    }
    htmx.trigger(r, "live:fetch");
  }

  function want(wrap, key, html) {
    const s = state(wrap);
    s.wanted = key;
    s.pushed = typeof html === "string" ? { key: key, html: html } : null;
    s.pending = true;
    if (s.pushed) madeBy(wrap, s.pushed.html);
    settle(wrap);
  }

  // The region's own tag names the tap that made its version: a move of this page still waiting for its
  // answer is done (the push brought it), so its request is given up and the pushed region shown now.
  const MADE_BY = /^\s*<div\b[^>]*\sdata-made-by="([^"]+)"/;

  function madeBy(wrap, html) {
    const found = MADE_BY.exec(html);
    if (!found) return;
    const id = found[1];
    const s = state(wrap);
    wrap.dispatchEvent(new CustomEvent("live:made", { bubbles: true, detail: { id: id } })); // outbox.js
    s.acting.forEach(function (acted, xhr) {
      if (acted === id) xhr.abort(); // its loadend settles the region (below): the pushed one goes in
    });
  }

  function closeIfFinished(wrap) {
    const s = state(wrap);
    if (!fetchable(wrap) && isOpen(s)) {
      s.raw.close(1000); // a normal close: the extension does not reconnect
    }
  }

  // --- the socket (events of the htmx ws extension, fired on the wrapper) -----------------------

  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    const wrap = event.target.closest("[data-live]");
    if (!wrap) return;
    event.preventDefault(); // JSON, not HTML: the extension must not swap it
    let message;
    try {
      message = JSON.parse(event.detail.message);
    } catch (error) {
      return;
    }
    if (message && typeof message.key === "string") want(wrap, message.key, message.html);
    if (message && typeof message.away === "string") sayAway(wrap, message.away);
  });

  // "Ann's phone is not connected" (tabletop/away.py), changed without the table moving: put in place.
  function sayAway(wrap, text) {
    const r = region(wrap);
    const out = r && r.querySelector("[data-away]");
    if (out && out.textContent !== text) out.textContent = text;
  }

  document.addEventListener("htmx:wsOpen", function (event) {
    const wrap = event.target.closest("[data-live]");
    if (!wrap) return;
    const s = state(wrap);
    s.socket = event.detail.socketWrapper;
    s.raw = event.detail.event.target;
    wrap.dataset.socket = "open"; // for styles and tests: no polling now
    closeIfFinished(wrap);
  });

  document.addEventListener("htmx:wsClose", function (event) {
    const wrap = event.target.closest("[data-live]");
    if (!wrap) return;
    const s = state(wrap);
    s.socket = event.detail.socketWrapper;
    if (s.raw === null) s.raw = event.detail.event.target; // never opened (refused, no websockets)
    if (!isOpen(s)) wrap.dataset.socket = "closed"; // polling until it reopens
  });

  // --- the page's requests ------------------------------------------------------------------

  document.addEventListener("htmx:beforeSend", function (event) {
    const wrap = event.detail.elt && event.detail.elt.closest && event.detail.elt.closest("[data-live]");
    const xhr = event.detail.xhr;
    if (!wrap || !xhr) return;
    const s = state(wrap);
    s.inflight.add(xhr);
    const posted = event.detail.requestConfig && event.detail.requestConfig.formData;
    const acted = posted && typeof posted.get === "function" ? posted.get("client_action_id") : null;
    if (typeof acted === "string" && acted) s.acting.set(xhr, acted);
    xhr.addEventListener("loadend", function () {
      // htmx swapped the answer in its load handler, before this
      s.inflight.delete(xhr);
      s.acting.delete(xhr);
      closeIfFinished(wrap);
      turnCue(wrap, false);
      settle(wrap);
    });
  });

  // --- keeping the page's place when the live region is swapped ------------------------------
  // An outerHTML swap inserts the new region before removing the old one; Chrome's scroll anchoring
  // keeps the old region's anchor in place meanwhile, so the page jumped down by the region's height
  // (issue 25: the GM's tablet, 836 -> 1950 px after a decision for a seat). The place is read before
  // the swap and put back after it, before anything is painted.

  let placeBeforeSwap = null;

  document.addEventListener("htmx:beforeSwap", function (event) {
    const target = event.detail.target;
    placeBeforeSwap = target && target.matches && target.matches("[data-live-region]") ? window.scrollY : null;
  });

  document.addEventListener("htmx:afterSwap", function () {
    if (placeBeforeSwap === null) return;
    if (window.scrollY !== placeBeforeSwap) window.scrollTo(window.scrollX, placeBeforeSwap);
    placeBeforeSwap = null;
  });

  // --- keeping the focus where it was when the region is swapped -----------------------------

  const FOCUSABLE = "a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]";
  let focusBeforeSwap = null;

  function focusKey(elt) {
    if (elt.id) return "#" + elt.id;
    const label = elt.getAttribute("aria-label") || (elt.tagName === "BUTTON" ? elt.textContent : "");
    return [elt.tagName, elt.getAttribute("name") || "", elt.getAttribute("value") || "",
      elt.getAttribute("data-merc-pick") || "", (label || "").replace(/\s+/g, " ").trim()].join("|");
  }

  // The focusable elements of a region, each with its key and which of the elements with that key it is.
  function focusables(root) {
    const seen = {};
    return Array.from(root.querySelectorAll(FOCUSABLE), function (elt) {
      const key = focusKey(elt);
      seen[key] = (seen[key] || 0) + 1;
      return { elt: elt, key: key, nth: seen[key] };
    });
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    const target = event.detail.target;
    const active = document.activeElement;
    focusBeforeSwap = null;
    if (!target || !target.matches || !target.matches("[data-live-region]") || !active || !target.contains(active)) return;
    const list = focusables(target);
    const at = list.findIndex(function (item) {
      return item.elt === active;
    });
    if (at < 0) return;
    // the element, then the ones after it (where the player was going), then the ones before it, nearest first
    const order = list.slice(at).concat(list.slice(0, at).reverse());
    focusBeforeSwap = { wrap: target.closest("[data-live]"), order: order };
  });

  function usable(elt) {
    return !elt.disabled && elt.getClientRects().length > 0;
  }

  document.addEventListener("htmx:afterSwap", function () {
    const kept = focusBeforeSwap;
    focusBeforeSwap = null;
    if (!kept || !kept.wrap) return;
    const active = document.activeElement;
    if (active && active !== document.body && document.body.contains(active)) return; // the focus is somewhere
    const r = region(kept.wrap);
    if (!r) return;
    const now = focusables(r);
    for (const was of kept.order) {
      const found = now.find(function (item) {
        return item.key === was.key && item.nth === was.nth && usable(item.elt);
      });
      if (found) {
        found.elt.focus({ preventScroll: true }); // the place is kept (above); the element is where it was
        return;
      }
    }
  });

  // What sticks to the bottom of the screen and covers the element, if anything.
  function coverOf(elt) {
    const rect = elt.getBoundingClientRect();
    const hit = document.elementFromPoint(rect.left + rect.width / 2, Math.min(rect.bottom - 1, window.innerHeight - 1));
    if (!hit || elt.contains(hit) || hit.contains(elt)) return null;
    for (let node = hit; node && node !== document.body; node = node.parentElement) {
      const position = window.getComputedStyle(node).position;
      if (position === "sticky" || position === "fixed") return node.contains(elt) ? null : node;
    }
    return null;
  }

  document.addEventListener("focusin", function (event) {
    const elt = event.target;
    if (!elt.closest || !elt.closest("[data-live]") || elt.closest("[data-outbox-bar]")) return;
    const cover = coverOf(elt);
    if (!cover) return;
    const overlap = elt.getBoundingClientRect().bottom - cover.getBoundingClientRect().top;
    if (overlap > 0) window.scrollBy(0, overlap + 8);
  });

  // --- the fallback: poll once a second while the socket is not open -------------------------

  function poll() {
    if (document.visibilityState === "hidden") return; // a page shown again fetches at once
    if (!navigator.onLine) return; // "online" fetches at once
    document.querySelectorAll("[data-live]").forEach(function (wrap) {
      const s = state(wrap);
      const r = fetchable(wrap);
      if (r && !isOpen(s) && !s.inflight.size) {
        htmx.trigger(r, "live:fetch");
      }
    });
  }

  // --- coming back: a phone waking, the network back, a page restored ------------------------

  function catchUp() {
    document.querySelectorAll("[data-live]").forEach(function (wrap) {
      const s = state(wrap);
      if (!fetchable(wrap)) return;
      s.wanted = null;
      s.pushed = null;
      s.pending = true;
      settle(wrap);
      if (s.socket && s.raw && s.raw.readyState === WebSocket.CLOSED && Date.now() >= reconnectDue) {
        s.socket.reconnect();
      }
    });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") catchUp();
  });
  window.addEventListener("online", catchUp);
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) catchUp();
  });

  // --- a seat's "your turn" cue ---------------------------------------------------------------

  let plainTitle = null;
  let audio = null;

  function soundOn() {
    try {
      return window.localStorage.getItem(SOUND_KEY) === "1";
    } catch (error) {
      return false;
    }
  }

  function beep() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    if (!audio) audio = new Context();
    if (audio.state === "suspended") audio.resume();
    const now = audio.currentTime;
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.3, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start(now);
    tone.stop(now + 0.3);
  }

  function sayTurn(wrap, firstLoad) {
    const r = region(wrap);
    const line = r && r.querySelector("[data-turn-text]");
    const out = wrap.querySelector("[data-turn-status]");
    if (!line || !out) return;
    const s = state(wrap);
    const text = line.textContent.replace(/\s+/g, " ").trim();
    if (!firstLoad && s.turnText !== undefined && text !== s.turnText) out.textContent = text;
    s.turnText = text;
  }

  function turnCue(wrap, firstLoad) {
    sayTurn(wrap, firstLoad);
    const r = region(wrap);
    if (!r || !r.hasAttribute("data-my-turn")) return; // only a seat's own page
    const s = state(wrap);
    const mine = r.dataset.myTurn === "1";
    r.querySelectorAll("[data-turn-sound]").forEach(showSound); // the region (and its toggle) may be new
    if (plainTitle === null) plainTitle = document.title;
    if (mine && s.myTurn === false && !firstLoad) {
      document.title = "\u25CF " + gettext("Your turn") + " \u00B7 " + plainTitle;
      if (typeof navigator.vibrate === "function") navigator.vibrate([200, 100, 200]);
      if (soundOn()) beep();
    } else if (!mine) {
      document.title = plainTitle;
    }
    s.myTurn = mine;
  }

  function showSound(button) {
    button.setAttribute("aria-pressed", soundOn() ? "true" : "false");
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest("[data-turn-sound]");
    if (!button) return;
    const on = !soundOn();
    try {
      window.localStorage.setItem(SOUND_KEY, on ? "1" : "0");
    } catch (error) {
      return;
    }
    showSound(button);
    if (on) beep(); // this click unlocks audio (iOS) and lets the player hear it
  });

  function start() {
    document.querySelectorAll("[data-turn-sound]").forEach(showSound);
    document.querySelectorAll("[data-live]").forEach(function (wrap) {
      turnCue(wrap, true);
    });
    window.setInterval(poll, POLL_MS);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
