// The outbox (issue 22, "a tap is never lost"): a move tapped while the page cannot reach the server
// stays on the page and is sent, once, when the connection returns. Loaded by templates/tabletop/table.html.
//
// Markup: inside the live wrapper [data-live] (never swapped), after the live region:
//
//   <div data-outbox-bar>
//     <p data-outbox-status role="status">          "Reconnecting…", "“Play on B2” is not sent yet…"
//     <p data-outbox-actions hidden>                Send now · Don't send
//
// - An action form is a form of the live region that carries a client_action_id (every move of every game).
// - Offline (navigator.onLine false) before htmx sends one, or its request fails (htmx:sendError, htmx:timeout):
//   the request (its URL and every value it posts, the version and client_action_id among them) is kept in
//   localStorage under the page's path (issue 38: sessionStorage died with the tab), so a reload, or the seat's
//   link opened again after the tab was closed, sends it (or says it went stale). This phone's storage only;
//   a kept tap older than KEEP_MS is dropped with a word, and any page sweeps the ones past it (a seat link
//   never opened again). The tapped button gets data-outbox="queued" (it reads "not sent yet") and the status
//   says so, with "Send now".
// - One kept move per page: another tap at the same version would be stale anyway, so a different move is
//   refused with a sentence until the kept one is answered (or dropped); the same move again sends it now.
// - It is sent when the browser is back online, the push reopens, a fetch of the region gets through or the
//   push brings one (live.js's "live:pushed": the server is reachable), the page loads, or on "Send now": the same values and client_action_id, so the server
//   applies it once (a repeat is answered with the table as it is) or refuses a stale version (409: the fresh
//   table with its sentence). Any answer empties the outbox; 2xx, 400 and 409 swap the region as the tap's
//   own answer would (base.html's responseHandling), any other status is said in the status line. No answer
//   (the network failed again) keeps it.
// - While a move is kept and the browser is online, it is also sent again by itself (issue 38: a refused
//   connection or a request with no answer while the push stayed open was otherwise never sent again), after
//   1, 2, 4 … s, at most 30 s apart; offline it waits for "online". The client_action_id keeps it once.
// - What it is: the move's own label (the button's accessible name up to a colon: what follows describes the
//   target) with the cards picked for it: "Play Squeegee Scout on A1", "Learn a hymn, with 4♣, 7♠".
// - Picks while a move is kept: a tap on another card (a radio or checkbox of a move's form) is refused with
//   the sentence, and a swapped region shows the kept move's cards picked. The kept move is what goes (one move
//   per version: any other would be stale); a page showing another card picked would say another move goes.
// - "Sending “…”…" while a request is out: the tap's own once it has been out a moment, and every resend.
//   "It goes when the connection is back" is said only while the browser is offline.
// - A kept move answered with a refusal is named in the status line with why (409: another move came first
//   while it waited); the bar sticks to the bottom of the screen, so the sentence is where the player looks.
// - The bar's height is kept in --outbox-height on the wrapper: a sticky hand strip sits above it (muster.css).
//   On a narrow screen (200 % zoom on a phone) the status shows its first lines and scrolls for the rest, so
//   each sentence names the move first and the newest comes first; a status that scrolls takes the focus.
// - Nothing shows a move as made before the server's answer: the page changes only by that answer's swap.
// - The status says "Reconnecting…" while the browser is offline or the push socket is closed (live.js sets
//   data-socket on the wrapper) on a table that is still live.
// - A kept move the table already holds is done without sending it again (issue 38): a pushed region made by
//   it (live.js's "live:made", its client action id) or a fetched one (the region's data-made-by). A resend
//   still out is given up: the push brought what its answer would.
(function () {
  "use strict";

  // Every sentence in the page's language (issue 41): Django's JavaScript catalog (/jsi18n/, base.html), else the
  // English source text when it did not load.
  const gettext = (text) => (window.gettext ? window.gettext(text) : text);
  const interpolate = (format, values) => format.replace(/%\((\w+)\)s/g, (match, name) => String(values[name]));

  const STORE_PREFIX = "muster.outbox:";
  // How long a kept tap waits for its seat's page: a game night. Past it the table has surely moved on.
  const KEEP_MS = 12 * 3600 * 1000;
  // A request with no answer after this long counts as lost and is kept; sent again, its client_action_id
  // makes the server answer with the table as it is if the first one landed after all.
  const TIMEOUT_MS = 20000;
  const NOT_COMPARED = ["csrfmiddlewaretoken", "version", "client_action_id"];
  const RETRY_FIRST_MS = 1000;
  const RETRY_MAX_MS = 30000;
  // A tap's own request says "Sending" only once it has been out this long: a quick answer flashes nothing.
  const SENDING_AFTER_MS = 600;

  let kept = null; // {path, values: {name: [value, ...]}, label, sig, at (ms since the epoch)}
  let keptButton = null; // the tapped button, while it is still in the page
  let sending = null; // the xhr of the resend under way
  let notice = "";
  let tapping = null; // {label, xhr, shown} the tap's own request while it is out
  let retryTimer = null;
  let retries = 0;

  // --- where things are ---------------------------------------------------------------------

  function box() {
    return document.querySelector("[data-live] [data-outbox-bar]");
  }

  function wrapper() {
    const b = box();
    return b ? b.closest("[data-live]") : null;
  }

  function actionForm(elt) {
    const isAction =
      elt instanceof HTMLFormElement &&
      elt.closest("[data-live] [data-live-region]") !== null &&
      elt.querySelector("input[name=client_action_id]") !== null;
    return isAction && box() !== null ? elt : null;
  }

  // --- what is kept -------------------------------------------------------------------------

  function storeKey() {
    return STORE_PREFIX + window.location.pathname;
  }

  function persist() {
    try {
      if (kept) window.localStorage.setItem(storeKey(), JSON.stringify(kept));
      else window.localStorage.removeItem(storeKey());
      window.sessionStorage.removeItem(storeKey()); // where an older page kept it
    } catch (error) {
      // no storage (a private window's quota): kept in this page only
    }
  }

  function parsed(raw) {
    try {
      const entry = raw ? JSON.parse(raw) : null;
      return entry && typeof entry.path === "string" && entry.values ? entry : null;
    } catch (error) {
      return null;
    }
  }

  function tooOld(entry) {
    return typeof entry.at !== "number" || Date.now() - entry.at > KEEP_MS;
  }

  // The kept taps of seat pages not opened for longer than KEEP_MS: dropped.
  function sweep() {
    try {
      const store = window.localStorage;
      for (let index = store.length - 1; index >= 0; index -= 1) {
        const key = store.key(index);
        if (key && key.indexOf(STORE_PREFIX) === 0 && key !== storeKey()) {
          const entry = parsed(store.getItem(key));
          if (!entry || tooOld(entry)) store.removeItem(key);
        }
      }
    } catch (error) {
      // no storage: nothing kept
    }
  }

  function restore() {
    let entry = null;
    try {
      entry = parsed(window.localStorage.getItem(storeKey())) || parsed(window.sessionStorage.getItem(storeKey()));
    } catch (error) {
      return null;
    }
    if (entry && typeof entry.at !== "number") entry.at = Date.now(); // kept by an older page: from now
    if (entry && tooOld(entry)) {
      notice = interpolate(
        gettext("\u201C%(move)s\u201D was not sent: it waited more than 12 hours, and the table has surely moved on."),
        { move: entry.label },
      );
      kept = null;
      persist();
      return null;
    }
    return entry;
  }

  function signature(path, values) {
    const pairs = Object.keys(values)
      .filter((name) => NOT_COMPARED.indexOf(name) < 0)
      .sort()
      .map((name) => [name, values[name]]);
    return JSON.stringify([path, pairs]);
  }

  function valuesOf(formData) {
    const values = {};
    formData.forEach(function (value, name) {
      if (typeof value !== "string") return; // no files in a move
      (values[name] = values[name] || []).push(value);
    });
    return values;
  }

  function plain(text) {
    return (text || "").replace(/\s+/g, " ").trim();
  }

  // A picked card's name: its short name (the tap-to-pick hands), else its card's name as shown.
  function pickName(input) {
    if (input.dataset.short) return input.dataset.short;
    const holder = input.closest("label");
    if (!holder) return input.value;
    const shown = holder.querySelector(".card-name") || holder;
    const copy = shown.cloneNode(true);
    copy.querySelectorAll(".visually-hidden, input").forEach(function (hidden) {
      hidden.remove();
    });
    return plain(copy.textContent).split(":")[0].trim() || input.value;
  }

  function picksOf(form) {
    return Array.from(form.querySelectorAll("input[type=radio]:checked, input[type=checkbox]:checked"), pickName);
  }

  function labelOf(button, form) {
    // a button that shows a card names its move in data-move-label (GOT'M's shop: "Hire the Ogre Warrior (J♥) …"),
    // not its whole text, which reads the card first
    const named = button && (button.dataset.moveLabel || button.getAttribute("aria-label") || button.textContent);
    const fallback = form.querySelector("button");
    const text = plain(named) || (fallback ? plain(fallback.textContent) : "");
    const base = text.split(":")[0].trim() || gettext("Your move");
    const picks = picksOf(form);
    if (!picks.length) return base;
    const onto = /^(\S+) (on .+)$/.exec(base); // "Play on A1": the card goes between
    if (onto) return onto[1] + " " + picks.join(", ") + " " + onto[2];
    return interpolate(gettext("%(move)s, with %(cards)s"), { move: base, cards: picks.join(", ") });
  }

  function submitterOf(config, form) {
    const event = config.triggeringEvent;
    if (event && event.submitter && form.contains(event.submitter)) return event.submitter;
    const active = document.activeElement;
    return active && active.tagName === "BUTTON" && form.contains(active) ? active : null;
  }

  function entryFrom(detail) {
    const config = detail.requestConfig;
    const form = detail.elt;
    const values = valuesOf(config.formData);
    const button = submitterOf(config, form);
    return { path: config.path, values, label: labelOf(button, form), sig: signature(config.path, values), button };
  }

  function keep(entry) {
    kept = { path: entry.path, values: entry.values, label: entry.label, sig: entry.sig, at: Date.now() };
    keptButton = entry.button;
    notice = "";
    retries = 0;
    persist();
    render();
    retryLater();
  }

  function forget() {
    kept = null;
    keptButton = null;
    retries = 0;
    stopRetrying();
    persist();
  }

  // --- sent again by itself while online ----------------------------------------------------

  function stopRetrying() {
    if (retryTimer !== null) window.clearTimeout(retryTimer);
    retryTimer = null;
  }

  function retryLater() {
    if (!kept || sending || retryTimer !== null || !navigator.onLine) return;
    const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * Math.pow(2, retries));
    retryTimer = window.setTimeout(function () {
      retryTimer = null;
      retries += 1;
      flush(false);
    }, delay);
  }

  // --- what the page shows ------------------------------------------------------------------

  function reconnecting() {
    const wrap = wrapper();
    if (!wrap) return false;
    const live = wrap.querySelector("[data-live-region]");
    if (!live || !live.hasAttribute("hx-get")) return false; // an abandoned table has nothing to reconnect
    return !navigator.onLine || wrap.dataset.socket === "closed";
  }

  // The tapped button if still in the page, else one of the (re-rendered) region that would post the same move.
  function findButton() {
    if (keptButton && document.body.contains(keptButton)) return keptButton;
    keptButton = null;
    const wrap = wrapper();
    if (!kept || !wrap) return null;
    const forms = wrap.querySelectorAll("[data-live-region] form");
    for (const form of forms) {
      if (!actionForm(form)) continue;
      for (const button of form.querySelectorAll("button:not([type=button])")) {
        let data;
        try {
          data = new FormData(form, button);
        } catch (error) {
          return null; // an older browser: no mark on the button, the status still says it
        }
        if (signature(kept.path, valuesOf(data)) === kept.sig) return button;
      }
    }
    return null;
  }

  function mark(status) {
    document.querySelectorAll("[data-outbox=queued]").forEach(function (button) {
      button.removeAttribute("data-outbox");
      if (button.getAttribute("aria-describedby") === status.id) button.removeAttribute("aria-describedby");
    });
    const button = kept ? findButton() : null;
    if (!button) return;
    button.setAttribute("data-outbox", "queued");
    if (!button.hasAttribute("aria-describedby")) button.setAttribute("aria-describedby", status.id);
  }

  function render() {
    const b = box();
    if (!b) return;
    const status = b.querySelector("[data-outbox-status]");
    const actions = b.querySelector("[data-outbox-actions]");
    // The newest word first (a notice names the move too), then the kept move, then the connection: a narrow
    // screen shows the status's first lines (muster.css), and they name the move.
    const lines = notice ? [notice] : [];
    const move = { move: kept ? kept.label : tapping && tapping.label };
    if (kept && sending) lines.push(interpolate(gettext("Sending \u201C%(move)s\u201D\u2026"), move));
    else if (kept && !navigator.onLine) {
      lines.push(interpolate(gettext("\u201C%(move)s\u201D is not sent yet: it goes when the connection is back."), move));
    } else if (kept) {
      lines.push(interpolate(
        gettext("\u201C%(move)s\u201D is not sent yet: the server did not answer, so it is sent again by itself."), move));
    } else if (tapping && tapping.shown) lines.push(interpolate(gettext("Sending \u201C%(move)s\u201D\u2026"), move));
    if (reconnecting()) lines.push(gettext("Reconnecting\u2026"));
    const text = lines.join(" ");
    if (status.textContent !== text) {
      status.textContent = text; // an unchanged status is not announced again
      status.scrollTop = 0;
    }
    // clipped to a few lines on a narrow screen (muster.css): it scrolls, so a keyboard can reach the rest
    if (status.scrollHeight > status.clientHeight + 1) status.setAttribute("tabindex", "0");
    else status.removeAttribute("tabindex");
    actions.hidden = !kept || sending !== null;
    showKeptPicks();
    mark(status);
    const wrap = wrapper();
    if (wrap) wrap.style.setProperty("--outbox-height", b.offsetHeight + "px");
  }

  function pickInputs() {
    const wrap = wrapper();
    if (!wrap) return [];
    return Array.from(wrap.querySelectorAll("[data-live-region] form input[type=radio], [data-live-region] form input[type=checkbox]"))
      .filter(function (input) {
        return actionForm(input.form) !== null;
      });
  }

  // A swapped region (a push, a fetch) shows the kept move's cards picked, not whatever was picked before.
  function showKeptPicks() {
    if (!kept) return;
    pickInputs().forEach(function (input) {
      const values = kept.values[input.name];
      if (values) input.checked = values.indexOf(input.value) >= 0;
    });
  }

  function stillWaiting() {
    // Translators: "Don't send" is the bar's button of that name (templates/tabletop/table.html).
    const text = gettext("\u201C%(move)s\u201D is still waiting: one move at a time, and it goes first (or tap Don't send).");
    return interpolate(text, { move: kept.label });
  }

  // --- sending it ---------------------------------------------------------------------------

  function flush(evenOffline) {
    const wrap = wrapper();
    if (!kept || sending || !wrap || (!navigator.onLine && !evenOffline)) return;
    const region = wrap.querySelector("[data-live-region]");
    const entry = kept;
    htmx
      .ajax("POST", entry.path, { source: wrap, target: "#live", swap: "outerHTML", values: entry.values })
      .catch(function () {}); // the outcome is read from the xhr (answered) below
    // htmx sent it synchronously (htmx:beforeSend set `sending`) unless something stopped it
    if (!sending) {
      render();
      retryLater();
      return;
    }
    stopRetrying();
    // A fetch of the region already under way would land after this answer and sweep its sentence away;
    // the answer brings the table anyway (live.js fetches only once it has ended).
    if (region) htmx.trigger(region, "htmx:abort");
    render();
  }

  function answered(xhr) {
    if (xhr !== sending) return;
    sending = null;
    const status = xhr.status;
    if (status === 0) {
      render(); // no answer: still kept, sent again by itself (or when the connection returns)
      retryLater();
      return;
    }
    const move = { move: kept ? kept.label : gettext("Your move"), status: status };
    forget();
    if (status >= 200 && status < 300) notice = "";
    else if (status === 409) {
      notice = interpolate(gettext("\u201C%(move)s\u201D was not played: another move came first while it waited, so it " +
        "no longer fits the table. Here is the table as it is now."), move);
    } else if (status === 400) {
      notice = interpolate(gettext("\u201C%(move)s\u201D was not played: the server refused it (the reason is above the board)."),
        move);
    } else {
      notice = interpolate(
        gettext("The server could not take \u201C%(move)s\u201D (error %(status)s). Reload the page to see the table as it is."),
        move);
    }
    render();
  }

  // --- htmx's requests ----------------------------------------------------------------------

  document.addEventListener("htmx:configRequest", function (event) {
    if (actionForm(event.detail.elt) && !event.detail.timeout) event.detail.timeout = TIMEOUT_MS;
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    const form = actionForm(event.detail.elt);
    if (!form || !event.detail.requestConfig) return;
    const entry = entryFrom(event.detail);
    if (kept) {
      event.preventDefault();
      if (entry.sig === kept.sig) {
        flush(true); // the same move tapped again: send it now
        return;
      }
      notice = stillWaiting();
      render();
      flush(false);
      return;
    }
    notice = "";
    if (!navigator.onLine) {
      event.preventDefault(); // it would fail: keep it instead
      keep(entry);
      return;
    }
    tapping = { label: entry.label, xhr: null, shown: false };
  });

  // Another card picked while a move is kept: refused (the kept move's cards stay picked).
  document.addEventListener(
    "click",
    function (event) {
      const input = event.target;
      if (!kept || !(input instanceof HTMLInputElement) || pickInputs().indexOf(input) < 0) return;
      event.preventDefault();
      notice = stillWaiting();
      render();
    },
    true,
  );

  // The tap's own request: "Sending" once it has been out a moment, until its answer (or its failure).
  document.addEventListener("htmx:beforeSend", function (event) {
    const xhr = event.detail.xhr;
    if (!xhr || !tapping || tapping.xhr || !actionForm(event.detail.elt)) return;
    const out = tapping;
    out.xhr = xhr;
    const timer = window.setTimeout(function () {
      out.shown = true;
      render();
    }, SENDING_AFTER_MS);
    xhr.addEventListener("loadend", function () {
      window.clearTimeout(timer);
      if (tapping === out) tapping = null;
      if (out.shown) render();
    });
  });

  document.addEventListener("htmx:beforeSend", function (event) {
    const xhr = event.detail.xhr;
    if (!xhr || event.detail.elt !== wrapper() || !kept || sending) return;
    sending = xhr; // the resend flush() just issued
    xhr.timeout = TIMEOUT_MS;
    xhr.addEventListener("loadend", function () {
      answered(xhr);
    });
  });

  function failed(event) {
    const form = actionForm(event.detail.elt);
    if (!form || kept || !event.detail.requestConfig) return;
    tapping = null;
    keep(entryFrom(event.detail));
  }

  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);

  // A fetch of the region that got an answer: the server is reachable, send what is kept.
  document.addEventListener("htmx:afterRequest", function (event) {
    const detail = event.detail;
    const config = detail.requestConfig;
    if (!kept || sending || !config || config.verb !== "get" || !detail.xhr) return;
    if (!detail.elt || !detail.elt.closest || !detail.elt.closest("[data-live]")) return;
    if (detail.xhr.status >= 200 && detail.xhr.status < 300) flush(false);
  });

  // The push brought a region made by the kept move (live.js): it is in, whatever its own answer says later.
  function keptId() {
    const ids = kept && kept.values.client_action_id;
    return ids && ids.length ? ids[0] : null;
  }

  function done(id) {
    if (!id || id !== keptId()) return;
    const out = sending;
    sending = null; // answered() ignores it now
    forget();
    notice = "";
    if (out) out.abort();
    render();
  }

  document.addEventListener("live:made", function (event) {
    done(event.detail && event.detail.id);
  });

  document.addEventListener("htmx:afterSettle", function () {
    const wrap = wrapper();
    const region = wrap && wrap.querySelector("[data-live-region]");
    if (region) done(region.dataset.madeBy);
  });

  // A region the push brought (live.js): the server is reachable too.
  document.addEventListener("live:pushed", function () {
    flush(false);
  });

  // A swapped region: mark the kept move's button again if the new table still offers it.
  document.addEventListener("htmx:afterSettle", render);

  // --- the connection -----------------------------------------------------------------------

  // Capturing, so it runs before live.js's own "online" catch-up: the resend goes first and live.js fetches
  // the region only after its answer (which may carry a refusal's sentence).
  window.addEventListener(
    "online",
    function () {
      render();
      flush(false);
    },
    true,
  );
  window.addEventListener("offline", function () {
    stopRetrying(); // "online" sends it
    render();
  });
  document.addEventListener("htmx:wsClose", render);
  document.addEventListener("htmx:wsOpen", function () {
    render();
    flush(false);
  });

  document.addEventListener("click", function (event) {
    const target = event.target.closest && event.target.closest("[data-outbox-send], [data-outbox-drop]");
    if (!target || !box() || !box().contains(target)) return;
    if (target.hasAttribute("data-outbox-send")) {
      flush(true);
      return;
    }
    if (sending) return;
    const label = kept ? kept.label : "";
    forget();
    notice = label ? interpolate(gettext("\u201C%(move)s\u201D was not sent."), { move: label }) : "";
    render();
  });

  function start() {
    if (!box()) return;
    sweep();
    kept = restore();
    const region = wrapper().querySelector("[data-live-region]");
    if (region) done(region.dataset.madeBy); // it went in before the page was closed
    render();
    flush(false);
  }

  window.addEventListener("pageshow", function (event) {
    if (event.persisted) start(); // restored from the back/forward cache
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
