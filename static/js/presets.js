/* The tournament form's presets (templates/tournaments/tournament_form_options.html):
 * choosing a preset sets every rule option and setting it names; changing an option
 * shows the preset as "modified" (or as the preset the options now are). The server
 * does the same without this script (tournaments/forms.py): this only keeps the page in
 * step as the director clicks. The fieldset is redrawn by htmx when the game changes,
 * so everything is found again at each event. */
(function () {
  "use strict";

  function presets(fieldset) {
    var data = fieldset.querySelector("#preset-data");
    return data ? JSON.parse(data.textContent) : [];
  }

  function control(fieldset, name) {
    return fieldset.querySelector("[name='option_" + name + "']") || fieldset.querySelector("[name='" + name + "']");
  }

  function matches(fieldset, preset) {
    var groups = [preset.options, preset.settings];
    for (var g = 0; g < groups.length; g++) {
      for (var name in groups[g]) {
        var input = control(fieldset, name);
        if (input && input.value !== String(groups[g][name])) { return false; }
      }
    }
    return true;
  }

  document.addEventListener("change", function (event) {
    var target = event.target;
    var fieldset = target.closest && target.closest("#rule-options");
    if (!fieldset) { return; }
    var select = fieldset.querySelector("[data-preset-select]");
    if (!select) { return; }
    var all = presets(fieldset);
    if (target === select) {
      var chosen = all.filter(function (p) { return p.code === select.value; })[0];
      if (!chosen) { return; }
      [chosen.options, chosen.settings].forEach(function (values) {
        for (var name in values) {
          var input = control(fieldset, name);
          if (input && !input.disabled) { input.value = String(values[name]); }
        }
      });
      select.dataset.last = chosen.name;
      return;
    }
    var found = all.filter(function (p) { return matches(fieldset, p); })[0];
    if (found) {
      select.value = found.code;
      select.dataset.last = found.name;
      return;
    }
    var modified = select.querySelector("[data-modified]");
    var current = all.filter(function (p) { return p.code === select.value; })[0];
    var base = current ? current.name : select.dataset.last;
    if (modified && base) {
      modified.textContent = select.dataset.modifiedTemplate.replace("%(preset)s", base);
    }
    select.value = "";
  });
})();
