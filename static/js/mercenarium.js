// Mercenarium, tap to play (templates/tabletop/games/_mercenarium_board.html): tap a card in hand or one of
// yours on the board ([data-merc-pick]) and the squares it can go to light up (each holds the form of that
// action, [data-merc-source]); tap a lit square to play. Tapping the selected card again clears the selection.
// Everything hangs on document, so it survives the live region being swapped by a push; a refetch (GET) keeps
// the selection when the same card is still there to pick, the player's own move (POST) clears it.
(() => {
  "use strict";

  // The page's language (issue 41): Django's JavaScript catalog (/jsi18n/, base.html), else the English source text.
  const ngettext = (one, many, n) => (window.ngettext ? window.ngettext(one, many, n) : n === 1 ? one : many);
  const interpolate = (format, values) => format.replace(/%\((\w+)\)s/g, (match, name) => String(values[name]));

  let selected = null;

  const show = (root) => {
    const board = root.querySelector(".merc-board");
    if (!board) return;
    root.querySelectorAll("[data-merc-pick]").forEach((pick) => {
      const on = pick.dataset.mercPick === selected;
      pick.classList.toggle("selected", on);
      pick.setAttribute("aria-pressed", on ? "true" : "false");
    });
    root.querySelectorAll("form[data-merc-source]").forEach((form) => {
      form.classList.toggle("lit", form.dataset.mercSource === selected);
    });
    let lit = 0;
    root.querySelectorAll(".merc-cell[data-merc-cell]").forEach((cell) => {
      const on = Boolean(cell.querySelector("form.merc-go.lit"));
      cell.classList.toggle("lit", on);
      if (on) lit += 1;
    });
    board.classList.toggle("picking", Boolean(selected));
    const hint = root.querySelector("[data-merc-hint]");
    if (hint) {
      hint.dataset.base = hint.dataset.base || hint.textContent;
      const lighted = ngettext("%(count)s square lit: tap one to play, or tap the card again to cancel.",
        "%(count)s squares lit: tap one to play, or tap the card again to cancel.", lit);
      hint.textContent = selected ? interpolate(lighted, { count: lit }) : hint.dataset.base;
    }
  };

  document.addEventListener("click", (event) => {
    const pick = event.target.closest && event.target.closest("[data-merc-pick]");
    if (!pick) return;
    event.preventDefault();
    selected = selected === pick.dataset.mercPick ? null : pick.dataset.mercPick;
    show(document);
  });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && selected) {
      selected = null;
      show(document);
    }
  });

  let keep = false;
  document.addEventListener("htmx:beforeSwap", (event) => {
    const verb = event.detail.requestConfig && event.detail.requestConfig.verb;
    keep = verb === "get";
  });
  document.addEventListener("htmx:afterSettle", () => {
    if (!keep || !document.querySelector(`[data-merc-pick="${CSS.escape(selected || "")}"]`)) selected = null;
    keep = false;
    show(document);
  });

  document.documentElement.classList.add("merc-js");
})();
