// Small behaviours the Content-Security-Policy forbids as inline handlers (onchange="..."),
// attached here by data attributes instead.

// <select data-submit-on-change>: choosing an option sends its form (e.g. a roster's "as of" day).
document.addEventListener("change", (event) => {
  const field = event.target;
  if (field.matches("[data-submit-on-change]") && field.form) {
    field.form.requestSubmit();
  }
});
