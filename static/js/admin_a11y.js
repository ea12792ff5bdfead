// Django's admin, made to pass axe-core (tests/browser/test_accessibility.py). Each field named where Django
// leaves it unnamed:
// - a tabular inline names its inputs only by the column header above them: the header becomes their
//   aria-label (rows added with "Add another" too);
// - an autocomplete field (select2) is named by what is selected only, nothing when nothing is: its combobox,
//   the box showing the choice and the search field are named by the field's label as well;
// - a date-and-time field has one label for two inputs: "Label Datum" and "Label Zeit";
// - an inline that scrolls sideways (phones) but holds no field or link (read-only rows) is a named region
//   the keyboard can reach and scroll.
(function () {
  "use strict";

  function columnName(cell, prefix) {
    var match = cell && cell.className.match(new RegExp("(?:^|\\s)" + prefix + "(\\S+)"));
    return match ? match[1] : null;
  }

  function text(element) {
    return element ? element.textContent.replace(/\s+/g, " ").replace(/:\s*$/, "").trim() : "";
  }

  function hasName(field) {
    if (field.hasAttribute("aria-label") || field.hasAttribute("aria-labelledby")) return true;
    if (field.closest("label")) return true;
    return !!(field.id && document.querySelector("label[for='" + field.id + "']"));
  }

  // The label of a field: its <label for>, else its inline column's header.
  function labelOf(field) {
    var label = field.id && document.querySelector("label[for='" + field.id + "']");
    if (label) return label;
    var cell = field.closest("td");
    var name = columnName(cell, "field-");
    var table = cell && cell.closest("table");
    return name && table ? table.querySelector("thead th.column-" + name) : null;
  }

  function labelInlines() {
    document.querySelectorAll(".tabular table").forEach(function (table) {
      var lastHead = table.querySelector("thead th:last-child");
      table.querySelectorAll("tbody td").forEach(function (td) {
        var name = columnName(td, "field-");
        var head = name ? table.querySelector("thead th.column-" + name) : td.classList.contains("delete") ? lastHead : null;
        var label = text(head);
        if (!label) return;
        td.querySelectorAll("input:not([type=hidden]), select, textarea").forEach(function (field) {
          if (!hasName(field)) field.setAttribute("aria-label", label);
        });
      });
    });
  }

  function labelAutocompletes() {
    document.querySelectorAll("select.admin-autocomplete").forEach(function (select) {
      var box = select.nextElementSibling;
      if (!box || !box.classList.contains("select2")) return;
      var label = text(labelOf(select));
      if (!label) return;
      var combobox = box.querySelector(".select2-selection[role=combobox]");
      if (combobox) combobox.setAttribute("aria-label", label);
      box.querySelectorAll(".select2-selection__rendered[role=textbox], .select2-search__field").forEach(function (el) {
        el.setAttribute("aria-label", label);
      });
    });
  }

  function labelSplitDateTimes() {
    document.querySelectorAll("p.datetime").forEach(function (p) {
      var row = p.closest(".form-row, .fieldBox, td");
      var fieldLabel = text(row && row.querySelector("label"));
      p.querySelectorAll("input:not([type=hidden])").forEach(function (input) {
        if (hasName(input)) return;
        var before = input.previousSibling;
        while (before && before.nodeType !== Node.TEXT_NODE) before = before.previousSibling;
        var part = before ? before.textContent.replace(/:\s*$/, "").trim() : "";
        input.setAttribute("aria-label", (fieldLabel + " " + part).trim());
      });
    });
  }

  function focusableInlines() {
    document.querySelectorAll(".inline-group").forEach(function (group) {
      var scrolls = group.scrollWidth > group.clientWidth + 1 || group.scrollHeight > group.clientHeight + 1;
      // What the keyboard reaches: shown (not the hidden template row of "Add another"), not disabled.
      var focusable = Array.prototype.some.call(
        group.querySelectorAll("a[href], button, input:not([type=hidden]), select, textarea, [tabindex]"),
        function (el) { return !el.disabled && el.getClientRects().length > 0; }
      );
      if (scrolls && !focusable) {
        group.setAttribute("tabindex", "0");
        group.setAttribute("role", "region");
        group.setAttribute("aria-label", text(group.querySelector(".inline-heading")) || document.title);
      } else if (!scrolls && group.getAttribute("role") === "region") {
        group.removeAttribute("tabindex");
        group.removeAttribute("role");
        group.removeAttribute("aria-label");
      }
    });
  }

  function labelAll() {
    labelInlines();
    labelAutocompletes();
    labelSplitDateTimes();
    focusableInlines();
  }

  // After Django's own scripts: select2 starts in a jQuery ready callback, and redraws its boxes on changes.
  window.addEventListener("load", function () {
    labelAll();
    var jq = window.django && window.django.jQuery;
    if (jq) {
      jq(labelAll);
      jq(document).on("change select2:open select2:close", labelAll);
    }
  });
  // A row added with "Add another": after its select2 boxes are drawn.
  window.addEventListener("resize", focusableInlines);
  document.addEventListener("formset:added", function () { window.setTimeout(labelAll, 0); });
})();
