// The new-table page's preview (templates/tabletop/_table_new_preview.html): which game, how many seats,
// and who will sit where, redrawn as the GM ticks members and types guests. Listeners sit on document
// (event delegation), so a re-rendered form needs nothing new; the CSP forbids inline handlers.
(() => {
  "use strict";

  // The page's language (issue 41): Django's JavaScript catalog (/jsi18n/, base.html), else the English source text.
  const gettext = (text) => (window.gettext ? window.gettext(text) : text);
  const ngettext = (one, many, n) => (window.ngettext ? window.ngettext(one, many, n) : n === 1 ? one : many);
  const pgettext = (context, text) => (window.pgettext ? window.pgettext(context, text) : text);
  const interpolate = (format, values) => format.replace(/%\((\w+)\)s/g, (match, name) => String(values[name]));

  function seatsOf(form) {
    const seats = [];
    form.querySelectorAll('input[name="members"]:checked').forEach((box) => {
      const label = box.closest("label") || (box.id && form.querySelector(`label[for="${box.id}"]`));
      seats.push({ name: (label ? label.textContent : box.value).trim(), guest: false });
    });
    const guests = form.querySelector('textarea[name="guests"]');
    if (guests) {
      guests.value.split(/\r?\n/).map((line) => line.trim()).filter(Boolean)
        .forEach((name) => seats.push({ name: name.slice(0, 60), guest: true }));
    }
    // Computer players (issue 16): "Computer", or "Computer 1", "Computer 2"..., after the guests.
    const computers = form.querySelector('input[name="computers"]');
    const strength = form.querySelector('select[name="computer_strength"]');
    const count = computers ? Math.max(0, Math.min(5, parseInt(computers.value, 10) || 0)) : 0;
    for (let n = 1; n <= count; n += 1) {
      seats.push({ name: count === 1 ? "Computer" : `Computer ${n}`, computer: (strength && strength.value) || "normal" });
    }
    return seats;
  }

  // The computer's strength in its badge: the select's value (tabletop/computer/strengths.py) in words.
  function strengthWord(value) {
    if (value === "quick") return pgettext("computer strength", "quick");
    if (value === "normal") return pgettext("computer strength", "normal");
    if (value === "strong") return pgettext("computer strength", "strong");
    return value;
  }

  function badge(text) {
    const span = document.createElement("span");
    span.className = "badge";
    span.textContent = text;
    return span;
  }

  // "Ready to open" is the server's word (the preview the form posts as it is edited, which runs the form's
  // own clean, stakes included); meanwhile a staked table is only said to be checked.
  function countText(n, min, max, staked) {
    const values = { n: n, more: min - n, fewer: n - max };
    values.range = min === max ? `${min}` : interpolate(gettext("%(min)s to %(max)s"), { min: min, max: max });
    if (n === 0) return gettext("No seats chosen yet: tick members or type guests above.");
    if (n < min) {
      return interpolate(ngettext("%(n)s seat chosen; this game seats %(range)s: add %(more)s more.",
        "%(n)s seats chosen; this game seats %(range)s: add %(more)s more.", n), values);
    }
    if (n > max) {
      return interpolate(ngettext("%(n)s seat chosen; this game seats %(range)s: remove %(fewer)s.",
        "%(n)s seats chosen; this game seats %(range)s: remove %(fewer)s.", n), values);
    }
    if (staked) {
      return interpolate(ngettext("%(n)s seat: checking the stakes\u2026", "%(n)s seats: checking the stakes\u2026", n), values);
    }
    return interpolate(ngettext("%(n)s seat: ready to open.", "%(n)s seats: ready to open.", n), values);
  }

  function redraw(form) {
    const preview = form.querySelector("[data-table-preview]");
    if (!preview) return;
    const seats = seatsOf(form);
    const min = Number(preview.dataset.min);
    const max = Number(preview.dataset.max);
    const deckMaster = form.querySelector('input[name="deck_master"]');
    const withMaster = Boolean(deckMaster && deckMaster.checked);
    const leaders = seats.length - (withMaster ? 1 : 0);
    const items = seats.map((seat, index) => {
      const li = document.createElement("li");
      li.append(seat.name);
      if (seat.guest) li.append(" ", badge(gettext("guest")));
      if (seat.computer) {
        li.append(" ", badge(interpolate(gettext("computer, %(strength)s"), { strength: strengthWord(seat.computer) })));
      }
      if (withMaster && index === seats.length - 1) li.append(" ", badge(gettext("Deck Master")));
      else if (preview.dataset.game === "dungeon" && leaders === 2) li.append(" ", badge(gettext("two mercenaries")));
      return li;
    });
    preview.querySelector("[data-preview-seats]").replaceChildren(...items);
    const count = preview.querySelector("[data-preview-count]");
    const fee = form.querySelector('input[name="entry_fee"]');
    const staked = Boolean(fee && parseInt(fee.value, 10) > 0);
    count.textContent = countText(seats.length, min, max, staked);
    count.classList.toggle("error", seats.length > 0 && (seats.length < min || seats.length > max));
    count.removeAttribute("data-blocked");
  }

  function onEdit(event) {
    const form = event.target.closest && event.target.closest("form[data-table-new]");
    if (form) redraw(form);
  }

  document.addEventListener("input", onEdit);
  document.addEventListener("change", onEdit);
  document.addEventListener("DOMContentLoaded", () => document.querySelectorAll("form[data-table-new]").forEach(redraw));
})();
