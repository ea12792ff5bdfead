// Tables wider than their box (.table-responsive) scroll sideways inside it. This marks such a box
// (data-scroll-x = "start", "middle" or "end": where the view stands) so the CSS can show the hint that more
// columns follow (a fade at the side with more, a shadow beside sticky columns), and makes a box that scrolls
// but holds nothing focusable a focusable, named region, so keyboard users can scroll it with the arrow keys.
(function () {
  "use strict";
  var BOXES = ".table-responsive, .stat-table";

  function labelOf(box) {
    var caption = box.querySelector("caption");
    if (caption && caption.textContent.trim()) return caption.textContent.trim();
    var table = box.querySelector("table[aria-label]");
    if (table) return table.getAttribute("aria-label");
    var section = box.closest("section[aria-labelledby]");
    var heading = section && document.getElementById(section.getAttribute("aria-labelledby"));
    if (heading) return heading.textContent.trim();
    return document.title;
  }

  // What the keyboard reaches inside: shown, not disabled.
  function hasFocusable(box) {
    var candidates = box.querySelectorAll(
      "a[href], button, input:not([type=hidden]), select, textarea, [tabindex]:not([tabindex='-1'])"
    );
    return Array.prototype.some.call(candidates, function (el) {
      return !el.disabled && el.getClientRects().length > 0;
    });
  }

  function update(box) {
    var wide = box.scrollWidth > box.clientWidth + 1;
    var tall = box.scrollHeight > box.clientHeight + 1;
    if (wide) {
      var left = box.scrollLeft, rest = box.scrollWidth - box.clientWidth - left;
      box.dataset.scrollX = left <= 1 ? "start" : rest <= 1 ? "end" : "middle";
    } else {
      delete box.dataset.scrollX;
    }
    if ((wide || tall) && !box.dataset.scrollFocus && !box.hasAttribute("tabindex") && !hasFocusable(box)) {
      box.dataset.scrollFocus = "1";
      box.setAttribute("tabindex", "0");
      box.setAttribute("role", "region");
      box.setAttribute("aria-label", labelOf(box));
    } else if (!wide && !tall && box.dataset.scrollFocus) {
      delete box.dataset.scrollFocus;
      box.removeAttribute("tabindex");
      box.removeAttribute("role");
      box.removeAttribute("aria-label");
    }
  }

  var observer = window.ResizeObserver ? new ResizeObserver(function (entries) {
    entries.forEach(function (entry) { update(entry.target); });
  }) : null;

  function start() {
    document.querySelectorAll(BOXES).forEach(function (box) {
      if (box.dataset.scrollWatched) return;
      box.dataset.scrollWatched = "1";
      box.addEventListener("scroll", function () { update(box); }, { passive: true });
      if (observer) observer.observe(box);
      update(box);
    });
  }

  window.addEventListener("resize", function () { document.querySelectorAll(BOXES).forEach(update); });
  // Content swapped in by htmx (previews, search results) may bring new boxes.
  document.addEventListener("htmx:afterSettle", start);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
