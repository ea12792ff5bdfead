// Leaving a draft screen with typed but unsent input asks first. Everything sent is already in the draft.
(function () {
  var dirty = false;
  document.querySelectorAll("form[data-draft-guard]").forEach(function (form) {
    form.addEventListener("input", function () {
      dirty = Array.prototype.some.call(document.querySelectorAll("form[data-draft-guard] input[type=text], form[data-draft-guard] textarea"), function (el) {
        return el.value.trim() !== "" && el.value !== el.defaultValue;
      });
    });
    form.addEventListener("submit", function () { dirty = false; });
  });
  window.addEventListener("beforeunload", function (event) {
    if (dirty) {
      event.preventDefault();
      event.returnValue = "";
    }
  });
})();

// The round screen: the board input has the focus after every board (autofocus alone is lost after a
// redirect to a #fragment in some browsers).
(function () {
  var input = document.getElementById("board-input");
  if (input) {
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }
})();
