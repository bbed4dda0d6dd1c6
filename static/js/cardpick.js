// Tap-to-pick cards (templates/tabletop/games/_cardpick.html): each card is a checkbox in a label, so tapping
// toggles it and the form posts the ticked cards without any script. This adds a running summary ("Picked:
// 10♣ 5♣ · worth 15") and keeps the picks when the live region is refetched by a push (another seat's move), so
// the player does not lose a half-composed payment. Everything hangs on document: the region is swapped whole.
//
// Keys (issue 38): a card to pick is a radio (Gridaris's hand) or a checkbox (these hands) inside the form of the
// move, and a browser submits a form when Enter is pressed in one of its fields, with the form's first button:
// Enter on a card played it on the first battlefield, offered Mercenarium's offering, posted GOT'M's hire. On a
// card of a move's form Enter only picks it (as Space does; Enter on a picked card leaves it picked); only a move's
// own button plays.
(() => {
  "use strict";

  // The page's language (issue 41): Django's JavaScript catalog (/jsi18n/, base.html), else the English source text.
  const gettext = (text) => (window.gettext ? window.gettext(text) : text);
  const interpolate = (format, values) => format.replace(/%\((\w+)\)s/g, (match, name) => String(values[name]));

  const summarise = (group) => {
    const summary = group.querySelector("[data-cardpick-summary]");
    if (!summary) return;
    const boxes = [...group.querySelectorAll("input.cardpick-box:checked")];
    if (!boxes.length) {
      summary.textContent = summary.dataset.hint || "";
      return;
    }
    const worth = boxes.reduce((sum, box) => sum + (parseInt(box.dataset.value, 10) || 0), 0);
    // A game whose cards have no worth to add up (Mercenarium's offering) gives them an empty value.
    const counted = boxes.some((box) => box.dataset.value !== "");
    const cards = boxes.map((box) => box.dataset.short).join(counted ? " " : ", ");
    summary.textContent = counted
      ? interpolate(gettext("Picked: %(cards)s \u00B7 worth %(worth)s"), { cards: cards, worth: worth })
      : interpolate(gettext("Picked: %(cards)s"), { cards: cards });
  };

  const refresh = (root) => {
    if (!root || !root.querySelectorAll) return;
    if (root.matches && root.matches("[data-cardpick]")) summarise(root);
    root.querySelectorAll("[data-cardpick]").forEach(summarise);
  };

  document.addEventListener("change", (event) => {
    const group = event.target.closest && event.target.closest("[data-cardpick]");
    if (group) summarise(group);
  });

  // A push refetches the live region with a GET; the player's own move (a POST) answers with the picks the
  // server wants shown (none after a move, the same ones after a refusal), so only GETs restore them.
  let kept = null;
  document.addEventListener("htmx:beforeSwap", (event) => {
    const verb = event.detail.requestConfig && event.detail.requestConfig.verb;
    kept = null;
    if (verb !== "get") return;
    kept = [...document.querySelectorAll("[data-cardpick] input.cardpick-box:checked")].map(
      (box) => `${box.name}=${box.value}`,
    );
  });
  document.addEventListener("htmx:afterSettle", () => {
    if (kept && kept.length) {
      document.querySelectorAll("[data-cardpick] input.cardpick-box").forEach((box) => {
        if (kept.includes(`${box.name}=${box.value}`)) box.checked = true;
      });
    }
    kept = null;
    refresh(document);
  });

  document.addEventListener("keydown", (event) => {
    const card = event.target;
    if (event.key !== "Enter" || !(card instanceof HTMLInputElement) || !card.form) return;
    if ((card.type !== "radio" && card.type !== "checkbox") || !card.closest("[data-live-region]")) return;
    event.preventDefault(); // no implicit submission
    if (!card.checked && !card.disabled) card.click(); // picks it, with the click and change a tap makes
  });

  refresh(document);
})();
