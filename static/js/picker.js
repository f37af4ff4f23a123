/* A long <select> of players, searchable: typing in the box just above it keeps only the
 * options that hold every word typed, accents and case aside ("helene" finds Hélène).
 * Without JavaScript the box stays hidden and the select works as it is.
 *
 * Markup: <input type="search" data-filters="ID-OF-THE-SELECT" hidden>.
 */
(function () {
  "use strict";

  function fold(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
      .replace(/œ/gi, "oe").replace(/æ/gi, "ae").toLowerCase();
  }

  function wire(box) {
    var select = document.getElementById(box.dataset.filters);
    if (!select) return;
    box.hidden = false;
    var options = Array.prototype.slice.call(select.options);
    options.forEach(function (option) { option.dataset.folded = fold(option.text); });
    box.addEventListener("input", function () {
      var words = fold(box.value).split(/\s+/).filter(Boolean);
      var shown = [];
      options.forEach(function (option) {
        // The empty choice ("a new player") always stays.
        var keep = !option.value || words.every(function (w) { return option.dataset.folded.indexOf(w) !== -1; });
        option.hidden = !keep;
        option.disabled = !keep;
        if (keep && option.value) shown.push(option);
      });
      // One match left: pick it, so Enter registers the player the director was after.
      if (shown.length === 1) select.value = shown[0].value;
      else if (select.selectedOptions.length && select.selectedOptions[0].hidden) select.value = "";
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("input[data-filters]").forEach(wire);
  });
})();
