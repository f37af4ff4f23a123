/* The round's clock: every element with `data-clock-ends` (an ISO timestamp, the end of
 * the round) counts down the time left in its `.clock-left`, once a second.
 *
 * The server's time is the truth: the element also carries `data-clock-now`, the server's
 * time when it wrote the element, and the difference with this device's time when the
 * element first shows is kept, so that a phone set a few minutes wrong still shows the
 * right time left. Past the end, `.clock-left` reads `data-over-label` ("Temps écoulé")
 * and the element takes the class `clock-over` (red). The pages ask the server for the
 * clock again now and then (htmx swaps the element): a new element, a new offset.
 */
(function () {
  "use strict";

  function pad(n) { return n < 10 ? "0" + n : String(n); }

  function label(ms) {
    var total = Math.ceil(ms / 1000);
    var hours = Math.floor(total / 3600);
    var minutes = Math.floor((total % 3600) / 60);
    var seconds = total % 60;
    return hours ? hours + ":" + pad(minutes) + ":" + pad(seconds) : minutes + ":" + pad(seconds);
  }

  function tick() {
    var clocks = document.querySelectorAll("[data-clock-ends]");
    Array.prototype.forEach.call(clocks, function (clock) {
      var ends = Date.parse(clock.dataset.clockEnds);
      var serverNow = Date.parse(clock.dataset.clockNow);
      if (isNaN(ends)) return;
      if (clock.dataset.clockOffset === undefined) {
        clock.dataset.clockOffset = String(isNaN(serverNow) ? 0 : serverNow - Date.now());
      }
      var left = ends - (Date.now() + Number(clock.dataset.clockOffset));
      var out = clock.querySelector(".clock-left");
      if (!out) return;
      if (left <= 0) {
        out.textContent = clock.dataset.overLabel || "0:00";
        clock.classList.add("clock-over");
      } else {
        out.textContent = label(left);
        clock.classList.remove("clock-over");
      }
    });
  }

  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);
  window.setInterval(tick, 1000);
})();
