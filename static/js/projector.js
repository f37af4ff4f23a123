/* Projector mode: show a long list one screenful at a time, turning the page by itself.
 *
 * The page names what it pages with `data-page-items` on <body> (a CSS selector: the
 * ranking's rows, the draw's tables). Items flow in order, one per line or in a grid; a
 * page is the run of items whose boxes fit below the first one of the page.
 *
 * The ranking and a public tournament's draw are swapped by htmx whenever they move (their
 * files, polled), and a private tournament's draw page reloads itself now and then: the
 * page we were on is kept across both (the reload through sessionStorage), so a new
 * result never sends the room back to page 1.
 * Pages turn every PAGE_SECONDS; a list that fits on the screen does not turn.
 */
(function () {
  "use strict";
  var PAGE_SECONDS = 10;
  var STORE_KEY = "atout-projector-page:" + window.location.pathname;
  var page = Number(window.sessionStorage.getItem(STORE_KEY)) || 0;

  function items() {
    var selector = document.body.dataset.pageItems || "#ranking tbody tr";
    return Array.prototype.slice.call(document.querySelectorAll(selector));
  }

  // Where each page starts, as indexes into items(), measured with every item shown.
  function pageStarts(all) {
    if (!all.length) return [0];
    var room = window.innerHeight - all[0].getBoundingClientRect().top - 8;
    var starts = [0];
    var pageTop = all[0].getBoundingClientRect().top;
    all.forEach(function (item, i) {
      var box = item.getBoundingClientRect();
      if (i > starts[starts.length - 1] && box.bottom - pageTop > room) {
        starts.push(i);
        pageTop = box.top;
      }
    });
    return starts;
  }

  function show() {
    var all = items();
    all.forEach(function (item) { item.hidden = false; });
    var starts = pageStarts(all);
    if (page >= starts.length) page = 0;
    var end = page + 1 < starts.length ? starts[page + 1] : all.length;
    all.forEach(function (item, i) { item.hidden = i < starts[page] || i >= end; });
    window.sessionStorage.setItem(STORE_KEY, String(page));
    var label = document.querySelector(".projector-page");
    if (label) {
      label.textContent = starts.length > 1 ? label.dataset.pageLabel + " " + (page + 1) + " / " + starts.length : "";
    }
  }

  function turn() {
    page += 1;  // show() wraps round to page 1 after the last one
    show();
  }

  document.addEventListener("DOMContentLoaded", show);
  document.body.addEventListener("htmx:afterSwap", show);
  window.addEventListener("resize", show);
  setInterval(turn, PAGE_SECONDS * 1000);

  // A page that is not swapped live (a private tournament's draw) reloads itself now and
  // then, so that a draw done again shows on the screen; the page shown is kept (see above).
  var reload = Number(document.body.dataset.reloadSeconds);
  if (reload > 0) {
    window.setTimeout(function () { window.location.reload(); }, reload * 1000);
  }
})();
