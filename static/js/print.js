// Print pages: the "Drucken" button opens the browser's print dialog (also "save as PDF").
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("[data-print]")) {
    button.addEventListener("click", () => window.print());
  }
});
