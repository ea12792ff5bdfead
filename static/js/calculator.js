// DWZ calculator: add/remove opponent rows. The live result comes from htmx (hx-post on the form);
// without JavaScript the form still works with its submit buttons.
(function () {
  "use strict";
  const form = document.getElementById("calculator-form");
  if (!form) return;
  const prefix = "opp";
  const body = form.querySelector("#opponents tbody");
  const template = document.getElementById("opponent-template");
  const total = form.querySelector(`input[name="${prefix}-TOTAL_FORMS"]`);
  const maxForms = parseInt(form.querySelector(`input[name="${prefix}-MAX_NUM_FORMS"]`).value, 10);
  const addButton = document.getElementById("add-opponent");

  form.querySelectorAll(".js-only").forEach((el) => el.classList.remove("d-none"));

  // Keep the row indices contiguous (opp-0, opp-1, ...) so the formset sees no gaps.
  function renumber() {
    const rows = body.querySelectorAll("tr.opponent-row");
    rows.forEach((row, i) => {
      row.querySelector(".row-number").textContent = String(i + 1);
      row.querySelectorAll("[name], [id], label[for]").forEach((el) => {
        for (const attr of ["name", "id", "for"]) {
          const value = el.getAttribute(attr);
          if (value) el.setAttribute(attr, value.replace(new RegExp(`${prefix}-(\\d+|__prefix__)-`), `${prefix}-${i}-`));
        }
      });
    });
    total.value = String(rows.length);
    addButton.disabled = rows.length >= maxForms;
  }

  addButton.addEventListener("click", () => {
    const fragment = template.content.cloneNode(true);
    fragment.querySelectorAll(".js-only").forEach((el) => el.classList.remove("d-none"));
    body.appendChild(fragment);
    renumber();
    const rows = body.querySelectorAll("tr.opponent-row");
    rows[rows.length - 1].querySelector("input").focus();
  });

  body.addEventListener("click", (event) => {
    const button = event.target.closest(".remove-opponent");
    if (!button) return;
    const rows = body.querySelectorAll("tr.opponent-row");
    const row = button.closest("tr");
    const next = row.nextElementSibling || row.previousElementSibling;
    if (rows.length > 1) {
      row.remove();
    } else {
      row.querySelector("input").value = "";
    }
    renumber();
    if (next && next.querySelector("input")) next.querySelector("input").focus();
    form.dispatchEvent(new Event("change", { bubbles: true }));
  });
})();
