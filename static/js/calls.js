// The director's dashboard: a short beep when a table calls the referee (or calls again),
// made with the Web Audio API, no audio file. The mute toggle is kept in localStorage.
// Browsers play nothing before a gesture on the page: the toggle (or any click) is one.
(function () {
  "use strict";
  var KEY = "atout.calls.muted";
  var context = null;
  var seen = null;

  function muted() {
    try { return window.localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }

  function unlock() {
    var Audio = window.AudioContext || window.webkitAudioContext;
    if (!Audio) { return; }
    if (context === null) { context = new Audio(); }
    if (context.state === "suspended") { context.resume(); }
  }

  function beep() {
    if (muted() || context === null || context.state !== "running") { return; }
    var now = context.currentTime;
    [0, 0.25].forEach(function (start) {
      var tone = context.createOscillator();
      var volume = context.createGain();
      tone.type = "sine";
      tone.frequency.value = 880;
      volume.gain.setValueAtTime(0.0001, now + start);
      volume.gain.exponentialRampToValueAtTime(0.3, now + start + 0.02);
      volume.gain.exponentialRampToValueAtTime(0.0001, now + start + 0.18);
      tone.connect(volume);
      volume.connect(context.destination);
      tone.start(now + start);
      tone.stop(now + start + 0.2);
    });
  }

  function showToggle() {
    var button = document.getElementById("calls-sound");
    if (!button) { return; }
    var off = muted();
    button.setAttribute("aria-pressed", off ? "false" : "true");
    button.textContent = off ? button.dataset.off : button.dataset.on;
  }

  // The calls shown now; a beep when one is new (or was pressed again) since the last poll.
  function check() {
    var list = document.getElementById("referee-calls");
    if (!list) { return; }
    var now = {};
    var fresh = false;
    list.querySelectorAll("[data-call]").forEach(function (item) {
      var key = item.getAttribute("data-call");
      now[key] = true;
      if (seen !== null && !seen[key]) { fresh = true; }
    });
    seen = now;
    if (fresh) { beep(); }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("calls-sound");
    if (!button) { return; }
    showToggle();
    button.addEventListener("click", function () {
      unlock();
      try { window.localStorage.setItem(KEY, muted() ? "0" : "1"); } catch (e) { /* private mode: not kept */ }
      showToggle();
    });
    document.addEventListener("pointerdown", unlock, { once: true });
    document.addEventListener("keydown", unlock, { once: true });
    check();
    document.body.addEventListener("htmx:afterSettle", check);
  });
})();
