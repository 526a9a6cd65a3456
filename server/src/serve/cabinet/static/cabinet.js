// Progressive enhancement only: every page works without this script.
(function () {
  "use strict";
  // Forms that ask before they act (revoking a key).
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      if (!window.confirm(form.getAttribute("data-confirm"))) e.preventDefault();
    });
  });
  // A secret shown once is selected when focused, ready to copy.
  document.querySelectorAll("input.copy").forEach(function (input) {
    input.addEventListener("focus", function () { input.select(); });
  });
  // Review page: a field's row and its boxes light up together.
  function light(field, on) {
    document.querySelectorAll('[data-field="' + CSS.escape(field) + '"]').forEach(function (el) {
      el.classList.toggle("hot", on);
    });
  }
  document.querySelectorAll("tr.field, rect.box").forEach(function (el) {
    var field = el.getAttribute("data-field");
    ["mouseenter", "focus"].forEach(function (ev) { el.addEventListener(ev, function () { light(field, true); }); });
    ["mouseleave", "blur"].forEach(function (ev) { el.addEventListener(ev, function () { light(field, false); }); });
    if (el.tagName === "TR") {
      el.addEventListener("click", function () {
        var box = document.querySelector('rect.box[data-field="' + CSS.escape(field) + '"]');
        if (box) box.scrollIntoView({ block: "center", behavior: "smooth" });
      });
    }
  });
})();
