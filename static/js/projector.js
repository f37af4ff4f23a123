/* Projector mode: show the ranking one screenful at a time, turning the page by itself.
 *
 * The ranking partial is swapped by htmx whenever the standings move; the page we were
 * on is kept across swaps, so a new result never sends the room back to page 1.
 * Pages turn every PAGE_SECONDS; a ranking that fits on the screen does not turn.
 */
(function () {
  "use strict";
  var PAGE_SECONDS = 10;
  var page = 0;

  function rows() {
    return Array.prototype.slice.call(document.querySelectorAll("#ranking tbody tr"));
  }

  function perPage() {
    var table = document.querySelector("#ranking table");
    var first = rows()[0];
    if (!table || !first) return 1;
    var head = table.tHead ? table.tHead.getBoundingClientRect().height : 0;
    var top = table.getBoundingClientRect().top + head;
    var room = window.innerHeight - top - 8;
    return Math.max(1, Math.floor(room / first.getBoundingClientRect().height));
  }

  function show() {
    var all = rows();
    all.forEach(function (row) { row.hidden = false; });
    var size = perPage();
    var pages = Math.max(1, Math.ceil(all.length / size));
    if (page >= pages) page = 0;
    all.forEach(function (row, i) { row.hidden = Math.floor(i / size) !== page; });
    var label = document.querySelector(".projector-page");
    if (label) label.textContent = pages > 1 ? label.dataset.pageLabel + " " + (page + 1) + " / " + pages : "";
  }

  function turn() {
    page += 1;  // show() wraps round to page 1 after the last one
    show();
  }

  document.addEventListener("DOMContentLoaded", show);
  document.body.addEventListener("htmx:afterSwap", show);
  window.addEventListener("resize", show);
  setInterval(turn, PAGE_SECONDS * 1000);
})();
