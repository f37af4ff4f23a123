/* The referee's page: keep what was typed, send it when the connection is back.
 *
 * Without this script the page still works (plain form posts). With it:
 * - every change to the entry form is saved in localStorage under the table's token,
 *   with the entry's idempotency key (a hidden field the server generated), so a reload,
 *   a closed tab or a dead battery never loses a donne being typed;
 * - a submit that cannot reach the server (no network, server down) is kept as
 *   "queued" and sent again when the connection comes back; the same key makes the
 *   server answer with the stored donne instead of storing it twice;
 * - the defence's card points are filled in from the contract's total as the taker's
 *   are typed (belote at four), and the defence's share shown in tarot;
 * - the answer to a sent donne is brought on screen: its summary, and right under it the
 *   "Confirm for …" buttons when the other side must confirm it (the Send button the
 *   thumb pressed is at the bottom of a form taller than a phone's screen); the focus
 *   goes to that summary;
 * - the phone keeps a journal of the round: every donne the server acknowledged from it
 *   (the entry as sent, its key, the donne number it was stored as), in localStorage
 *   under the table's token, with the tournament and round it was kept for. When the
 *   table sheet (the page polls it) lacks one of them, the server lost it (the laptop
 *   died and a copy of its database was restored): the page sends it again, in donne
 *   order, under the same key, to the journal address of the same table, never to
 *   another round. A donne deleted since stays deleted (the server refuses its key).
 *   The journal goes when the round is closed; one untouched for two days is dropped.
 */
(function () {
  "use strict";

  var RETRY_MS = 8000;
  var retryTimer = null;

  function form() { return document.getElementById("hand-form"); }
  function banner() { return document.getElementById("offline-banner"); }
  function storageKey(f) { return "atout:entry:" + f.dataset.token + ":" + (f.dataset.mode || "new"); }

  function load(f) {
    try { return JSON.parse(window.localStorage.getItem(storageKey(f)) || "null"); } catch (e) { return null; }
  }
  function store(f, entry) {
    try { window.localStorage.setItem(storageKey(f), JSON.stringify(entry)); } catch (e) { /* private mode: nothing kept */ }
  }
  function forget(f) {
    try { window.localStorage.removeItem(storageKey(f)); } catch (e) { /* nothing to do */ }
  }

  function say(kind) {
    var b = banner();
    if (!b) { return; }
    if (!kind) { b.hidden = true; return; }
    b.textContent = b.dataset[kind] || "";
    b.hidden = false;
  }

  // The entry as name -> list of values (checkbox groups carry several).
  function values(f) {
    var data = {};
    new FormData(f).forEach(function (value, name) {
      if (name === "csrfmiddlewaretoken") { return; }
      (data[name] = data[name] || []).push(String(value));
    });
    return data;
  }

  function typed(data) {
    return Object.keys(data).some(function (name) {
      if (name === "idempotency_key" || name === "expected_number" || name === "mode") { return false; }
      return data[name].some(function (v) { return v !== ""; });
    });
  }

  function save(f, queued) {
    var data = values(f);
    if (!typed(data)) { forget(f); return; }
    var previous = load(f);
    store(f, { data: data, queued: queued === undefined ? Boolean(previous && previous.queued) : queued });
  }

  function restore(f, entry) {
    Array.prototype.forEach.call(f.elements, function (el) {
      if (!el.name || el.name === "csrfmiddlewaretoken" || el.name === "mode") { return; }
      var saved = entry.data[el.name];
      if (el.type === "radio" || el.type === "checkbox") {
        el.checked = Boolean(saved && saved.indexOf(el.value) !== -1);
      } else if (saved !== undefined) {
        el.value = saved[0];
      } else if (el.type !== "hidden") {
        el.value = "";
      }
    });
  }

  function send(f) {
    if (navigator.onLine === false) { return; }
    say("sending");
    if (typeof f.requestSubmit === "function") { f.requestSubmit(); } else { f.submit(); }
  }

  function scheduleRetry() {
    if (retryTimer) { return; }
    retryTimer = window.setInterval(function () {
      var f = form();
      var entry = f && load(f);
      if (!entry || !entry.queued) { window.clearInterval(retryTimer); retryTimer = null; return; }
      send(f);
    }, RETRY_MS);
  }

  // Belote at four: the defence's points follow the taker's until typed by hand.
  function fillDefence(f) {
    var totals = f.dataset.totals ? JSON.parse(f.dataset.totals) : null;
    var taker = f.elements.namedItem("points_taker");
    var defence = f.elements.namedItem("points_defence");
    if (totals && taker && defence && (defence.value === "" || defence.dataset.auto === "1")) {
      var checked = f.querySelector('input[name="contract"]:checked');
      var distinct = Object.keys(totals).map(function (k) { return totals[k]; })
        .filter(function (v, i, all) { return all.indexOf(v) === i; });
      var total = checked ? totals[checked.value] : (distinct.length === 1 ? distinct[0] : null);
      var points = parseInt(taker.value, 10);
      if (total !== null && total !== undefined && !isNaN(points) && String(points) === taker.value.trim()) {
        defence.value = String(total - points);
        defence.dataset.auto = "1";
      } else if (defence.dataset.auto === "1") {
        defence.value = "";
      }
    }
    // Tell the server the defence's points are the page's sum, not the referee's typing:
    // a mistake in them is the taker's points', and is shown there alone.
    var auto = f.elements.namedItem("defence_auto");
    if (auto && defence) { auto.value = defence.dataset.auto === "1" ? "1" : ""; }
    // Tarot à 4 at a table of five: the note names the mort the chips now say.
    var mort = f.querySelector('input[name="mort"]:checked');
    var note = f.querySelector("#mort-note strong");
    if (mort && note) {
      var chip = f.querySelector('label[for="' + mort.id + '"]') || mort.closest("label");
      if (chip) { note.textContent = chip.textContent.trim(); }
    }
    var line = f.querySelector(".defence-points");
    var taken = f.elements.namedItem("points");
    if (line && taken && f.dataset.tarotTotal) {
      var value = parseFloat(String(taken.value).replace(",", "."));
      line.textContent = isNaN(value) ? "" :
        line.dataset.defenceTemplate.replace("{points}", String(Number(f.dataset.tarotTotal) - value).replace(".", ","));
    }
  }

  function newKey() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") { return window.crypto.randomUUID(); }
    return Date.now().toString(36) + Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
  }

  function setUp() {
    var f = form();
    if (!f || f.dataset.ready) { return; }
    f.dataset.ready = "1";
    // The server puts a fresh key in every new form; a form that comes without one (a
    // page kept by the browser, say) gets one here, before anything can be sent.
    var key = f.elements.namedItem("idempotency_key");
    if (key && !key.value) { key.value = newKey(); }
    var entry = load(f);
    var fresh = !typed(values(f));
    if (entry && fresh) {
      restore(f, entry);
      say(entry.queued ? "sending" : "restored");
      if (entry.queued) { send(f); scheduleRetry(); }
    }
    // A form sent back refused keeps the defence's points the page had filled in: they
    // stay the page's, following the taker's as the referee corrects them.
    var auto = f.elements.namedItem("defence_auto");
    var defence = f.elements.namedItem("points_defence");
    if (auto && defence && (auto.value === "1" || auto.value === "True")) { defence.dataset.auto = "1"; }
    fillDefence(f);
    f.addEventListener("input", function (event) {
      if (event.target.name === "points_defence") { delete event.target.dataset.auto; }
      fillDefence(f);
      save(f);
    });
    f.addEventListener("change", function () { fillDefence(f); save(f); });
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("[data-clear-entry]");
    var f = form();
    if (link && f) { forget(f); }
  });

  // The entry being sent: its storage key and its idempotency key.
  var sending = null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var f = form();
    if (f && event.detail.elt === f) {
      // Save before the submit leaves, so that a request lost on the way is kept.
      save(f);
      var key = f.elements.namedItem("idempotency_key");
      sending = { storage: storageKey(f), key: key ? key.value : "", data: values(f) };
    }
  });

  function queue(event) {
    var f = form();
    if (!f || event.detail.elt !== f) { return; }
    save(f, true);
    sending = null;
    say("queued");
    scheduleRetry();
  }
  document.addEventListener("htmx:sendError", queue);
  document.addEventListener("htmx:timeout", queue);
  document.addEventListener("htmx:responseError", function (event) {
    // 5xx: the server or its proxy is down; the key makes a later resend safe.
    if (event.detail.xhr && event.detail.xhr.status >= 500) { queue(event); }
  });

  function showSummary() {
    var notice = document.querySelector("#entry .notice");
    if (!notice) { return; }
    var pending = document.getElementById("pending");
    var last = pending && pending.querySelector("form") ? pending : notice;
    var top = notice.getBoundingClientRect().top;
    var bottom = last.getBoundingClientRect().bottom;
    if (top < 0 || bottom > window.innerHeight) { notice.scrollIntoView({ block: "start" }); }
    // The swap took away the button that had the focus, which would fall back to the top
    // of the page: a keyboard (or screen reader) user lands on the answer instead.
    notice.setAttribute("tabindex", "-1");
    notice.focus({ preventScroll: true });
  }

  document.addEventListener("htmx:afterSwap", function (event) {
    if (!event.detail.target || event.detail.target.id !== "entry") { return; }
    say(null);
    note(sending);
    showSummary();
    var f = form();
    var key = f && f.elements.namedItem("idempotency_key");
    // A sent entry went in when the form comes back fresh (a new key), in another mode,
    // or not at all (the partie is over): what was kept for it can go. A refused or
    // conflicting entry comes back as typed, under its key: keep it, no longer queued.
    // Other swaps (undo, opening a correction) leave a half-typed entry where it is.
    if (sending && (!f || storageKey(f) !== sending.storage || !key || key.value !== sending.key)) {
      try { window.localStorage.removeItem(sending.storage); } catch (e) { /* nothing to do */ }
    }
    sending = null;
    if (!f) { return; }
    if (typed(values(f))) { save(f, false); }
    setUp();
  });

  // -- the journal: donnes the server acknowledged, sent again if it lost them ------------

  var JOURNAL = "atout:journal:";
  var JOURNAL_KEPT_MS = 2 * 24 * 3600 * 1000;
  var journalBusy = false;

  function sheet() { return document.getElementById("sheet"); }
  function journalStatus() { return document.getElementById("journal-status"); }

  function readJournal(token) {
    try { return JSON.parse(window.localStorage.getItem(JOURNAL + token) || "null"); } catch (e) { return null; }
  }
  function writeJournal(token, journal) {
    try {
      if (journal.entries.length) {
        journal.at = Date.now();
        window.localStorage.setItem(JOURNAL + token, JSON.stringify(journal));
      } else {
        window.localStorage.removeItem(JOURNAL + token);
      }
    } catch (e) { /* private mode or full: nothing kept */ }
  }

  function pruneJournals() {
    try {
      for (var i = window.localStorage.length - 1; i >= 0; i--) {
        var name = window.localStorage.key(i);
        if (!name || name.indexOf(JOURNAL) !== 0) { continue; }
        var journal = JSON.parse(window.localStorage.getItem(name) || "null");
        if (!journal || !journal.at || Date.now() - journal.at > JOURNAL_KEPT_MS) { window.localStorage.removeItem(name); }
      }
    } catch (e) { /* nothing to do */ }
  }

  function tell(kind, text) {
    var line = journalStatus();
    if (!line) { return; }
    line.textContent = text || line.dataset[kind] || "";
    line.hidden = !line.textContent;
  }

  // What an answer to the entry form says of a donne: stored (or found stored) under its
  // key as donne n, corrected, or taken back. `sent` is what this phone sent, if anything.
  function note(sent) {
    var s = sheet();
    var notice = document.querySelector("#entry .notice[data-journal-action]");
    if (!s || !s.dataset.token || !notice) { return; }
    var token = s.dataset.token;
    var action = notice.dataset.journalAction;
    var key = notice.dataset.journalKey;
    var journal = readJournal(token) || { tournament: s.dataset.tournament, round: s.dataset.round, entries: [] };
    var entries = journal.entries.filter(function (entry) { return entry.key !== key; });
    var kept = journal.entries.filter(function (entry) { return entry.key === key; })[0];
    if (action === "stored" && sent && sent.key === key) {
      entries.push({ key: key, number: Number(notice.dataset.journalNumber), data: sent.data });
    } else if (action === "corrected" && kept && sent) {
      // The donne goes back as corrected, under the key it was first stored with.
      entries.push({ key: key, number: Number(notice.dataset.journalNumber), data: sent.data });
    } else if (action !== "removed" && kept) {
      entries.push(kept);
    }
    journal.entries = entries;
    writeJournal(token, journal);
  }

  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; } catch (e) { return ""; }
  }

  function body(journal, entry) {
    var data = new FormData();
    Object.keys(entry.data).forEach(function (name) {
      entry.data[name].forEach(function (value) { data.append(name, value); });
    });
    data.set("mode", "new");
    data.set("idempotency_key", entry.key);
    data.set("expected_number", String(entry.number));
    data.set("journal_tournament", journal.tournament);
    data.set("journal_round", String(journal.round));
    return data;
  }

  // The server's answer to a request of this table's (a poll, a resend): a round closed
  // clears the journal; a table it does not know keeps it, and the referee is told.
  function linkState(token, status, state) {
    if (status === 403 && state === "closed") {
      try { window.localStorage.removeItem(JOURNAL + token); } catch (e) { /* nothing to do */ }
      tell(null, "");
    } else if (status === 404 && state === "unknown") {
      tell("unknown");
    }
  }

  // Send the missing donnes again, lowest number first; stop at the first that must wait.
  function resend(s, journal, missing, stored) {
    var token = s.dataset.token;
    var entry = missing.shift();
    if (!entry) { return done(s, stored); }
    var request = { method: "POST", body: body(journal, entry), headers: { "X-CSRFToken": csrf() }, credentials: "same-origin" };
    window.fetch(s.dataset.journal, request).then(function (response) {
      var state = response.headers.get("Atout-Table-Link");
      if (state || response.status >= 500 || response.status === 429) {
        linkState(token, response.status, state);
        return done(s, stored);
      }
      return response.json().then(function (answer) {
        if (answer.outcome === "stored" || answer.outcome === "held") {
          if (answer.outcome === "stored") { stored.push(answer.number); }
          return resend(s, journal, missing, stored);
        }
        if (answer.outcome === "waiting" || answer.outcome === "elsewhere") {
          if (answer.outcome === "waiting") { tell("waiting"); }
          return done(s, stored);
        }
        // Removed here since, another donne in its place, or refused: it stays out.
        var current = readJournal(token);
        if (current) {
          current.entries = current.entries.filter(function (kept) { return kept.key !== entry.key; });
          writeJournal(token, current);
        }
        tell(null, answer.message);
        return resend(s, journal, missing, stored);
      });
    }).catch(function () { done(s, stored); });
  }

  function done(s, stored) {
    journalBusy = false;
    if (!stored.length) { return; }
    tell("recovered");
    // Show the donnes back on the sheet; an untouched entry form aimed at one of them is
    // brought up to the sheet's next donne.
    window.htmx.trigger(s, "journal-sent");
    var f = form();
    var number = f && f.elements.namedItem("expected_number");
    var last = Math.max.apply(null, stored);
    if (f && f.dataset.mode !== "correct" && number && Number(number.value) <= last && !typed(values(f))) {
      window.htmx.ajax("GET", window.location.pathname, { target: "#entry", select: "#entry", swap: "outerHTML" });
    }
  }

  // Compare the journal with the sheet on the page; send again what the sheet lacks.
  function syncJournal() {
    var s = sheet();
    if (journalBusy || !s || !s.dataset.journal || !s.dataset.token || !window.fetch || !window.htmx) { return; }
    var journal = readJournal(s.dataset.token);
    if (!journal || !journal.entries.length) { return; }
    // Kept for this table's round of this tournament, and sent nowhere else.
    if (journal.tournament !== s.dataset.tournament || String(journal.round) !== s.dataset.round) { return; }
    var held = (s.dataset.held || "").split(" ");
    var missing = journal.entries
      .filter(function (entry) { return held.indexOf(entry.key) === -1; })
      .sort(function (a, b) { return a.number - b.number; });
    if (!missing.length) { return; }
    journalBusy = true;
    resend(s, journal, missing, []);
  }

  document.addEventListener("htmx:afterSettle", syncJournal);
  document.addEventListener("htmx:responseError", function (event) {
    var s = sheet();
    var xhr = event.detail.xhr;
    if (s && s.dataset.token && xhr) { linkState(s.dataset.token, xhr.status, xhr.getResponseHeader("Atout-Table-Link")); }
  });

  window.addEventListener("online", function () {
    var f = form();
    var entry = f && load(f);
    if (entry && entry.queued) { send(f); }
    syncJournal();
  });

  function start() {
    pruneJournals();
    setUp();
    syncJournal();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
