// Client-side search over the prebuilt index (assets/search-index.js): every word typed
// must begin a word of the entry. Results are built with DOM calls, never as HTML text.
(function () {
  "use strict";
  var input = document.getElementById("q");
  var list = document.getElementById("search-results");
  var count = document.getElementById("search-count");
  var rows = window.ANTHOLOGY_SEARCH;
  if (!input || !list || !rows) return;
  var script = document.querySelector('script[src$="assets/search.js"]');
  var root = script.getAttribute("src").replace(/assets\/search\.js$/, "");
  var padded = rows.map(function (row) { return " " + row[5] + " "; });

  function words(text) { return text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) || []; }

  function rank(row, terms) {
    var id = row[0].toLowerCase(), title = row[3].toLowerCase();
    var score = 0;
    terms.forEach(function (t) {
      if (id.indexOf(t) >= 0) score -= 4;
      if (title.indexOf(t) >= 0) score -= 2;
    });
    return score;
  }

  function run() {
    var terms = words(input.value);
    while (list.firstChild) list.removeChild(list.firstChild);
    if (!terms.length) { count.textContent = ""; return; }
    var hits = [];
    for (var i = 0; i < rows.length; i++) {
      var ok = terms.every(function (t) { return padded[i].indexOf(" " + t) >= 0; });
      if (ok) hits.push(rows[i]);
    }
    hits.sort(function (a, b) { return rank(a, terms) - rank(b, terms) || (a[0] < b[0] ? -1 : 1); });
    count.textContent = hits.length + " found" + (hits.length > 200 ? ", first 200 shown" : "");
    hits.slice(0, 200).forEach(function (row) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = root + row[1];
      a.textContent = row[0];
      a.title = row[2];
      li.appendChild(a);
      if (row[4]) { var by = document.createElement("span"); by.className = "byline"; by.textContent = " " + row[4]; li.appendChild(by); }
      if (row[3]) li.appendChild(document.createTextNode(" — " + row[3]));
      list.appendChild(li);
    });
  }

  input.addEventListener("input", run);
  // Enter searches here: the form is not sent anywhere (the pages allow no form action).
  if (input.form) input.form.addEventListener("submit", function (event) { event.preventDefault(); run(); });
  var initial = new URLSearchParams(window.location.search).get("q");
  if (initial) { input.value = initial; }
  if (input.value) run();
})();
