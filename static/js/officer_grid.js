/* Officer results entry: keyboard-friendly crosstable grid (mirror cells fill themselves), paste of a
   block of results, ½ shortcuts on board results. Plain form posts work without this file. */
(function () {
  "use strict";
  var MIRROR = { "1": "0", "0": "1", "½": "½", "+": "-", "-": "+", "--": "--" };
  var KEYS = { "1": "1", "0": "0", "5": "½", "r": "½", "R": "½", "=": "½", "½": "½", "+": "+", "-": "-" };

  function normalise(value) {
    var v = (value || "").trim().toLowerCase();
    if (v === "5" || v === "r" || v === "=" || v === "0.5" || v === "0,5" || v === "1/2") { return "½"; }
    return v;
  }

  function grid() { return document.getElementById("rr-grid"); }

  function cellAt(row, col) {
    var g = grid();
    return g ? g.querySelector('.rr-cell[data-row="' + row + '"][data-col="' + col + '"]') : null;
  }

  function setMirror(input) {
    var mirror = document.getElementById(input.dataset.mirror);
    if (!mirror) { return; }
    var v = normalise(input.value);
    if (v === "") {
      if (mirror.classList.contains("rr-auto")) { mirror.value = ""; mirror.classList.remove("rr-auto"); }
    } else if (MIRROR[v] !== undefined) {
      mirror.value = MIRROR[v];
      mirror.classList.add("rr-auto");
      mirror.classList.remove("is-invalid");
    }
    input.classList.remove("rr-auto", "is-invalid");
  }

  function changed(input) {
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function cells() { var g = grid(); return g ? Array.prototype.slice.call(g.querySelectorAll(".rr-cell")) : []; }

  function focusNext(input, step) {
    var all = cells();
    var i = all.indexOf(input) + step;
    if (i >= 0 && i < all.length) { all[i].focus(); all[i].select(); }
  }

  function move(input, dRow, dCol) {
    var row = Number(input.dataset.row), col = Number(input.dataset.col);
    for (var k = 0; k < 50; k++) {
      row += dRow; col += dCol;
      if (row === col) { continue; }
      var target = cellAt(row, col);
      if (!target) { return; }
      target.focus(); target.select(); return;
    }
  }

  document.addEventListener("keydown", function (event) {
    var input = event.target;
    if (!(input instanceof HTMLInputElement)) { return; }
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    if (input.classList.contains("rr-cell")) {
      if (Object.prototype.hasOwnProperty.call(KEYS, event.key)) {
        event.preventDefault();
        var value = KEYS[event.key];
        input.value = (value === "-" && input.value === "-") ? "--" : value;
        setMirror(input);
        changed(input);
        if (input.value !== "-") { focusNext(input, 1); }
      } else if (event.key === "Backspace" || event.key === "Delete") {
        event.preventDefault();
        input.value = "";
        setMirror(input);
        changed(input);
      } else if (event.key === "ArrowRight") { event.preventDefault(); move(input, 0, 1); }
      else if (event.key === "ArrowLeft") { event.preventDefault(); move(input, 0, -1); }
      else if (event.key === "ArrowDown") { event.preventDefault(); move(input, 1, 0); }
      else if (event.key === "ArrowUp") { event.preventDefault(); move(input, -1, 0); }
    } else if (input.classList.contains("board-result")) {
      if (event.key === "5" || event.key === "r" || event.key === "R" || event.key === "=") {
        event.preventDefault();
        input.value = "½";
        changed(input);
      }
    }
  });

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (input instanceof HTMLInputElement && input.classList.contains("rr-cell")) {
      input.value = normalise(input.value) === "½" ? "½" : input.value.trim();
      setMirror(input);
    }
  });

  // Paste a block (spreadsheet rows/columns) starting at the focused cell; the diagonal is skipped.
  document.addEventListener("paste", function (event) {
    var input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.classList.contains("rr-cell")) { return; }
    var text = (event.clipboardData || window.clipboardData).getData("text");
    if (!/[\t\n ]/.test(text.trim())) { return; }
    event.preventDefault();
    var row0 = Number(input.dataset.row), col0 = Number(input.dataset.col);
    text.replace(/\r/g, "").split("\n").filter(function (l) { return l.trim() !== ""; }).forEach(function (line, r) {
      line.trim().split(/[\t ;]+/).forEach(function (value, c) {
        var target = cellAt(row0 + r, col0 + c);
        if (target && value !== "x" && value !== "*") {
          target.value = normalise(value) === "½" ? "½" : value;
          setMirror(target);
        }
      });
    });
    changed(input);
  });

  // The live preview (hx-trigger of #results-form) listens for "result-input" and "result-change": an htmx
  // event filter in the template would need eval, which the Content-Security-Policy refuses.
  ["input", "change"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      var input = event.target;
      if (input instanceof HTMLElement && input.classList.contains("js-result") && input.form) {
        input.form.dispatchEvent(new CustomEvent("result-" + type, { bubbles: true }));
      }
    });
  });
})();
