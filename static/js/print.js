/* Print buttons: any element with data-print prints the page (no inline onclick, which the
 * site's Content-Security-Policy refuses). */
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-print]");
    if (button) { window.print(); }
  });
})();
