/* The door's tablet (tournaments/door_views.py): back to the search a few seconds after an
 * answer (data-door-return, data-seconds), or after a minute left on a name picked; a
 * receipt's link scanned into the search field is cleared once it found its registration
 * (the link is personal: the next player must not see it). */
(function () {
  "use strict";
  var IDLE_SECONDS = 60;

  function goBack(url, seconds) {
    var timer = window.setTimeout(function () { window.location.assign(url); }, seconds * 1000);
    return timer;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var done = document.querySelector("[data-door-return]");
    if (done) {
      goBack(done.getAttribute("data-door-return"), parseInt(done.getAttribute("data-seconds"), 10) || 8);
      return;
    }
    var card = document.querySelector(".door-card");
    var back = document.querySelector(".door-back");
    if (card && back) {
      var timer = goBack(back.getAttribute("href"), IDLE_SECONDS);
      ["pointerdown", "keydown"].forEach(function (kind) {
        document.addEventListener(kind, function () {
          window.clearTimeout(timer);
          timer = goBack(back.getAttribute("href"), IDLE_SECONDS);
        });
      });
    }
  });

  document.addEventListener("htmx:afterSwap", function () {
    var field = document.getElementById("door-q");
    if (field && field.value.indexOf("soiree/") !== -1) { field.value = ""; }
  });
})();
