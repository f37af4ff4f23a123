/* The hosted ranking's line « en direct depuis la salle, mis à jour il y a N s » (relay/):
 * each element with `data-relay-at` (when the venue's last item arrived) counts its
 * `.relay-seconds` up once a second. Like the round's clock (clock.js), the server's time
 * in `data-relay-now` is the truth: a phone set a few minutes wrong still counts right.
 * A new version of the ranking brings a new line (htmx swaps the fragment).
 */
(function () {
  "use strict";

  function tick() {
    var lines = document.querySelectorAll("[data-relay-at]");
    Array.prototype.forEach.call(lines, function (line) {
      var at = Date.parse(line.dataset.relayAt);
      var serverNow = Date.parse(line.dataset.relayNow);
      if (isNaN(at)) return;
      if (line.dataset.relayOffset === undefined) {
        line.dataset.relayOffset = String(isNaN(serverNow) ? 0 : serverNow - Date.now());
      }
      var out = line.querySelector(".relay-seconds");
      if (!out) return;
      var seconds = Math.max(0, Math.floor((Date.now() + Number(line.dataset.relayOffset) - at) / 1000));
      out.textContent = String(seconds);
    });
  }

  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);
  window.setInterval(tick, 1000);
})();
