// Runs a SPARQL query in the page with Oxigraph's WebAssembly engine, on the anthology's
// data files, ontology and shapes (assets/anthology-data.js). Parameters are bound as RDF terms
// in a VALUES block at the start of the WHERE clause, as the command line does; results
// are built with DOM calls, never as HTML text. Nothing is fetched from the network: the
// engine, the anthology and the index of pages (the site's own scripts, some megabytes at
// 10,000 entries) are read on the first run, not with every page.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live) return;
  var button = document.getElementById("run");
  var status = document.getElementById("live-status");
  var output = document.getElementById("live-result");
  var editor = document.getElementById("query-text");
  // The vendored CodeMirror (assets/codemirror/) highlights the query as it is edited;
  // without it the plain text box works the same.
  var cm = window.CodeMirror ? window.CodeMirror.fromTextArea(editor, {
    mode: "sparql", lineNumbers: true, indentUnit: 4, viewportMargin: Infinity,
    screenReaderLabel: editor.getAttribute("aria-label")  // the name of the box typed in
  }) : null;
  var store = null;
  var IDENTIFIER = "http://purl.org/dc/terms/identifier";
  var PREFIXES = [
    ["ak:", "https://w3id.org/anthology-kg/ns#"], ["id:", "https://w3id.org/anthology-kg/id/"],
    ["aks:", "https://w3id.org/anthology-kg/shapes#"], ["dcterms:", "http://purl.org/dc/terms/"],
    ["rdf:", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"], ["rdfs:", "http://www.w3.org/2000/01/rdf-schema#"],
    ["xsd:", "http://www.w3.org/2001/XMLSchema#"], ["skos:", "http://www.w3.org/2004/02/skos/core#"],
    ["sh:", "http://www.w3.org/ns/shacl#"]
  ];
  var root = document.querySelector('script[src$="assets/query.js"]').getAttribute("src").replace(/assets\/query\.js$/, "");
  var pages = null;
  var loading = null, started = null;
  var LAZY = ["assets/oxigraph-wasm.js", "assets/anthology-data.js", "assets/search-index.js"];

  // The scripts of LAZY, added to the page once: a promise of their having run.
  function load() {
    if (!loading) {
      started = performance.now();
      loading = Promise.all(LAZY.map(function (src) {
        return new Promise(function (resolve, reject) {
          var script = document.createElement("script");
          script.src = root + src;
          script.onload = resolve;
          script.onerror = function () { reject(new Error("cannot read " + src)); };
          document.body.appendChild(script);
        });
      }));
    }
    return loading;
  }

  function engine() {
    if (store) return store;
    var bytes;
    if (Uint8Array.fromBase64) {
      bytes = Uint8Array.fromBase64(window.OXIGRAPH_WASM);
    } else { // browsers without it (Chromium before 140): a character at a time
      var text = atob(window.OXIGRAPH_WASM);
      bytes = new Uint8Array(text.length);
      for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    }
    window.oxigraph.initSync({ module: bytes });
    store = new window.oxigraph.Store();
    var data = window.ANTHOLOGY_DATA;
    // Each data file as the command line loads it, then the ontology and shapes.
    for (var f = 0; f < data.turtle.length; f++) {
      store.load(data.turtle[f], { format: "text/turtle", base_iri: data.base, no_transaction: true });
    }
    store.load(data.ntriples, { format: "application/n-triples", no_transaction: true });
    window.anthologyLoadMs = performance.now() - started;
    return store;
  }

  function sparqlString(value) {
    return '"' + value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")
      .replace(/\r/g, "\\r").replace(/\t/g, "\\t") + '"';
  }

  function term(param) {
    var value = param.value.trim();
    var type = param.getAttribute("data-type");
    var name = param.getAttribute("data-name");
    if (type === "entry") {
      var iri = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : null;
      var found = engine().query("SELECT ?e WHERE { ?e <" + IDENTIFIER + "> " + sparqlString(value) + " }");
      if (found.length) iri = found[0].get("e").value;
      if (!iri || /[\s<>"{}|^`\\]/.test(iri)) throw new Error("parameter " + name + ": no entry " + JSON.stringify(value) + " in the anthology");
      return "<" + iri + ">";
    }
    if (type === "iri") {
      if (!/^([a-z][a-z0-9+.-]*:\/\/|urn:)/i.test(value) || /[\s<>"{}|^`\\]/.test(value)) throw new Error("parameter " + name + ": not an absolute IRI");
      return "<" + value + ">";
    }
    return sparqlString(param.value);
  }

  // The offset of the brace that opens the WHERE clause, outside comments, strings and IRIs.
  function whereBrace(text) {
    var i = 0, n = text.length;
    while (i < n) {
      var c = text[i];
      if (c === "#") { var end = text.indexOf("\n", i); i = end < 0 ? n : end; continue; }
      if (c === '"' || c === "'") {
        var long = text.substr(i, 3) === c + c + c, quote = long ? c + c + c : c, j = i + quote.length;
        while (j < n && text.substr(j, quote.length) !== quote) j += text[j] === "\\" ? 2 : 1;
        i = j + quote.length; continue;
      }
      if (c === "<") { var m = /^<[^\s<>"{}|^`\\]*>/.exec(text.slice(i)); if (m) { i += m[0].length; continue; } }
      if (c === "{" && (/\bWHERE\s*$/i.test(text.slice(0, i)) || !/\bCONSTRUCT\b/i.test(text.slice(0, i)))) return i;
      i++;
    }
    throw new Error("the query has no WHERE clause to bind parameters in");
  }

  // The query's text outside comments, strings and IRIs (where keywords live).
  function code(text) {
    return text.replace(/#[^\n]*|"""[\s\S]*?"""|'\'\'[\s\S]*?'\'\'|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|<[^\s<>"{}|^`\\]*>/g, " ");
  }

  function bound(text) {
    if (/\bSERVICE\b/i.test(code(text))) {
      throw new Error("this query calls a remote service (SERVICE); the page runs queries on the anthology alone");
    }
    var params = Array.prototype.slice.call(live.querySelectorAll("input.param")).filter(function (p) {
      if (p.value.trim() || p.getAttribute("data-required") === "no" && !p.value) return !!p.value.trim();
      throw new Error("parameter " + p.getAttribute("data-name") + " needs a value");
    });
    if (!params.length) return text;
    params.sort(function (a, b) { return a.getAttribute("data-variable") < b.getAttribute("data-variable") ? -1 : 1; });
    var names = params.map(function (p) { return "?" + p.getAttribute("data-variable"); }).join(" ");
    var values = params.map(term).join(" ");
    var brace = whereBrace(text);
    return text.slice(0, brace + 1) + "\n    VALUES (" + names + ") { (" + values + ") }" + text.slice(brace + 1);
  }

  function short(iri) {
    for (var i = 0; i < PREFIXES.length; i++) {
      var p = PREFIXES[i];
      if (iri.indexOf(p[1]) === 0 && /^[\w.-]*$/.test(iri.slice(p[1].length))) return p[0] + iri.slice(p[1].length);
    }
    return "<" + iri + ">";
  }

  function pageOf(iri) {
    if (!pages) {
      pages = {};
      (window.ANTHOLOGY_SEARCH || []).forEach(function (row) { if (row[2]) pages[row[2]] = row[1]; });
    }
    return pages[iri];
  }

  function cell(binding) {
    var td = document.createElement("td");
    if (!binding) return td;
    td.setAttribute("data-value", binding.value);
    td.setAttribute("data-type", binding.type);
    if (binding.type === "uri") {
      var page = pageOf(binding.value);
      var node = document.createElement(page ? "a" : "span");
      if (page) node.href = root + page;
      node.title = binding.value;
      node.textContent = short(binding.value);
      td.appendChild(node);
    } else {
      td.textContent = binding.type === "bnode" ? "_:" + binding.value : binding.value;
    }
    return td;
  }

  function show(json) {
    while (output.firstChild) output.removeChild(output.firstChild);
    if (typeof json.boolean === "boolean") {
      var p = document.createElement("p"); p.className = "answer"; p.textContent = json.boolean ? "yes" : "no";
      output.appendChild(p); return 1;
    }
    var table = document.createElement("table"), head = document.createElement("tr");
    table.className = "answer live";
    json.head.vars.forEach(function (v) { var th = document.createElement("th"); th.textContent = "?" + v; head.appendChild(th); });
    table.appendChild(head);
    json.results.bindings.forEach(function (b) {
      var tr = document.createElement("tr");
      json.head.vars.forEach(function (v) { tr.appendChild(cell(b[v])); });
      table.appendChild(tr);
    });
    output.appendChild(table);
    return json.results.bindings.length;
  }

  function failed(error) {
    status.textContent = "Error: " + (error && error.message ? error.message : String(error));
    live.setAttribute("data-done", "error");
  }

  function run() {
    live.removeAttribute("data-done"); // until this run is done, not the last run's outcome
    status.textContent = store ? "Running…" : "Loading the engine and the anthology…";
    load().then(function () { window.setTimeout(answer, 10); }, failed);
  }

  function answer() {
    try {
      var text = bound(cm ? cm.getValue() : editor.value);
      var began = performance.now();
      var result = engine().query(text, { use_default_graph_as_union: true, results_format: "application/sparql-results+json" });
      if (typeof result !== "string") {
        status.textContent = "This page shows SELECT and ASK answers; CONSTRUCT and DESCRIBE are for the command line.";
        return;
      }
      var count = show(JSON.parse(result));
      var ms = Math.round(performance.now() - began);
      status.textContent = count + " row(s) in " + ms + " ms (engine loaded in " + Math.round(window.anthologyLoadMs) + " ms).";
      live.setAttribute("data-done", "yes");
    } catch (error) {
      failed(error);
    }
  }

  // A link may give the parameters' values (queries/depends-on.html#entry=LIT-168).
  var given = new URLSearchParams(window.location.hash.slice(1));
  Array.prototype.forEach.call(live.querySelectorAll("input.param"), function (p) {
    var value = given.get(p.getAttribute("data-name"));
    if (value !== null) p.value = value;
  });
  button.addEventListener("click", run);
})();
