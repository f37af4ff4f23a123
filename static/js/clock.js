/* The round's clock: every element with `data-clock-ends` (an ISO timestamp, the end of
 * the round) counts down the time left in its `.clock-left`, once a second.
 *
 * The server's time is the truth, and the difference with this device's time is kept on
 * each clock (`data-clock-offset`) when it first shows, so that a phone set a few minutes
 * wrong still shows the right time left. The server's time comes from, in this order:
 * - the clock's own `data-clock-now` (the server's time when the site drew it);
 * - the `Date` header of the answer htmx has just swapped the clock in with (a clock's
 *   file, scoring/live_screens.py, is static: it cannot say the time; the header is in
 *   whole seconds, so the middle of that second is taken);
 * - the `data-clock-now` of a frame around it (the page, drawn by the site, wrapping the
 *   clock's file on its first load), measured once when the page loads.
 * Past the end, `.clock-left` reads `data-over-label` ("Temps écoulé") and the element
 * takes the class `clock-over` (red). The pages ask for the clock again now and then (htmx
 * swaps the element): a new element, a new offset.
 */
(function () {
  "use strict";

  // The server's time less this device's, by the answer htmx is swapping in (null: none).
  var swapped = null;

  function pad(n) { return n < 10 ? "0" + n : String(n); }

  function label(ms) {
    var total = Math.ceil(ms / 1000);
    var hours = Math.floor(total / 3600);
    var minutes = Math.floor((total % 3600) / 60);
    var seconds = total % 60;
    return hours ? hours + ":" + pad(minutes) + ":" + pad(seconds) : minutes + ":" + pad(seconds);
  }

  function offsetFrom(element) {
    if (element.dataset.clockOffset === undefined) {
      var server = Date.parse(element.dataset.clockNow);
      element.dataset.clockOffset = String(isNaN(server) ? 0 : server - Date.now());
    }
    return Number(element.dataset.clockOffset);
  }

  function offsetOf(clock) {
    if (!isNaN(Date.parse(clock.dataset.clockNow))) return offsetFrom(clock);
    if (swapped !== null) return swapped;
    var frame = clock.parentElement && clock.parentElement.closest("[data-clock-now]");
    return frame ? offsetFrom(frame) : 0;
  }

  function tick() {
    // The frames' offsets first, while their time is the page's own (it loads now).
    Array.prototype.forEach.call(document.querySelectorAll("[data-clock-now]:not([data-clock-ends])"), offsetFrom);
    var clocks = document.querySelectorAll("[data-clock-ends]");
    Array.prototype.forEach.call(clocks, function (clock) {
      var ends = Date.parse(clock.dataset.clockEnds);
      if (isNaN(ends)) return;
      if (clock.dataset.clockOffset === undefined) clock.dataset.clockOffset = String(offsetOf(clock));
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

  function afterSwap(event) {
    var xhr = event.detail && event.detail.xhr;
    var date = xhr && xhr.getResponseHeader ? Date.parse(xhr.getResponseHeader("Date") || "") : NaN;
    swapped = isNaN(date) ? null : date + 500 - Date.now();
    try {
      tick();
    } finally {
      swapped = null;
    }
  }

  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", afterSwap);
  window.setInterval(tick, 1000);
})();
