// The coach's refusals (templates/tabletop/_coach_answer.html) land under its button whatever their status.
// base.html's responseHandling swaps 400 and 409 only; the coach also answers 403 (the GM has not allowed it),
// 429 (the computer is busy with other questions, issue 34) and 503 (no answer in time): each a sentence the
// player should read, not an error left in the console. Hangs on document, as the region is swapped whole.
(() => {
  "use strict";

  document.addEventListener("htmx:beforeSwap", (event) => {
    const detail = event.detail;
    if (!detail.isError || !detail.target || detail.target.id !== "coach-answer") return;
    if (!(detail.serverResponse || "").includes("coach-refusal")) return;
    detail.shouldSwap = true;
    detail.isError = false;
  });
})();
