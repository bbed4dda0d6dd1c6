// The pages to print (issue 24): <button data-print> opens the browser's print dialog (no inline
// handler: the Content-Security-Policy forbids them).
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-print]")) {
    window.print();
  }
});
