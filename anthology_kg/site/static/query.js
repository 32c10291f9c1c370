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

  var XSD = "http://www.w3.org/2001/XMLSchema#";
  // A SPARQL number, as the command line reads a grlc _number value (queries._NUMBER).
  var NUMBER = /^[+-]?(?:([0-9]+)|([0-9]*\.[0-9]+)|(?:[0-9]+\.?[0-9]*|\.[0-9]+)[eE][+-]?[0-9]+)$/;

  // The IRI of the entry a value names (the command line's resolve_entry).
  function entryIri(name, value) {
    var iri = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : null;
    var found = engine().query("SELECT ?e WHERE { ?e <" + IDENTIFIER + "> " + sparqlString(value) + " }");
    if (found.length) iri = found[0].get("e").value;
    if (!iri || /[\s<>"{}|^`\\]/.test(iri)) throw new Error("parameter " + name + ": no entry " + JSON.stringify(value) + " in the anthology");
    return "<" + iri + ">";
  }

  // The value as the term one spelling of the parameter takes (queries._term): an IRI,
  // a number, a literal in a language or of a datatype, or a plain string.
  function term(name, spelling, raw) {
    var value = raw.trim();
    if (spelling.kind === "iri") {
      if (!/^([a-z][a-z0-9+.-]*:\/\/|urn:)/i.test(value) || /[\s<>"{}|^`\\]/.test(value)) throw new Error("parameter " + name + ": not an absolute IRI");
      return "<" + value + ">";
    }
    if (spelling.kind === "number") {
      var number = NUMBER.exec(raw);
      if (!number) throw new Error("parameter " + name + ": " + JSON.stringify(raw) + " is not a number");
      return sparqlString(raw) + "^^<" + XSD + (number[1] ? "integer" : number[2] ? "decimal" : "double") + ">";
    }
    if (spelling.lang) return sparqlString(raw) + "@" + spelling.lang;
    if (spelling.datatype) {
      if (!wellFormed(spelling, raw)) {
        throw new Error("parameter " + name + ": " + JSON.stringify(raw) + " is not a valid " + spelling.datatype.replace(XSD, "xsd:"));
      }
      return sparqlString(raw) + "^^<" + spelling.datatype + ">";
    }
    return sparqlString(raw);
  }

  // Whether the value is one of the spelling's datatype, by the rule the command line
  // checks (queries.lexical_rule: its pattern whole, a date a day of its month, an
  // integer within its bounds); any value where the page carries no rule.
  function wellFormed(rule, raw) {
    if (!rule.pattern) return true;
    var found = new RegExp("^(?:" + rule.pattern + ")$").exec(raw);
    if (!found) return false;
    if (rule.calendar) {
      var year = +found[1], month = +found[2], day = +found[3];
      var leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
      if (year === 0 || day > [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]) return false;
    }
    if (rule.min !== undefined || rule.max !== undefined) {
      var value = BigInt(raw.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, "").replace(/^\+/, ""));
      if (rule.min !== undefined && value < BigInt(rule.min)) return false;
      if (rule.max !== undefined && value > BigInt(rule.max)) return false;
    }
    return true;
  }

  // The terminals of the query's own syntax, as the command line reads them
  // (sparql_text._TOKEN): a string, IRI, variable or name whole (a keyword in one is
  // none), whitespace and comments left out; each [start, end, keyword in capitals or null].
  var TOKEN = /(\s+|#[^\n\r]*)|"""(?:[^"\\]|\\.|"(?!""))*"""|'''(?:[^'\\]|\\.|'(?!''))*'''|"(?:[^"\\\n\r]|\\.)*"|'(?:[^'\\\n\r]|\\.)*'|<(?:[^<>"{}|^`\\\x00-\x20]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})*>|[?$][\p{L}\p{N}_\-\u00b7\u0300-\u036f\u203f-\u2040]+|_:[\p{L}\p{N}_\-\u00b7\u0300-\u036f\u203f-\u2040.]*|(?:\p{L}[\p{L}\p{N}_\-\u00b7\u0300-\u036f\u203f-\u2040.]*)?:(?:[\p{L}\p{N}_\-\u00b7\u0300-\u036f\u203f-\u2040.:]|%[0-9A-Fa-f]{2}|\\[_~.\-!$&'()*+,;=\/?#@%])*|[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|(\p{L}+)/uy;

  function terminals(text) {
    var found = [], i = 0;
    while (i < text.length) {
      TOKEN.lastIndex = i;
      var m = TOKEN.exec(text);
      if (!m || !m[0].length) { found.push([i, i + 1, null]); i++; continue; }
      if (!m[1]) found.push([i, i + m[0].length, m[2] ? m[2].toUpperCase() : null]);
      i += m[0].length;
    }
    return found;
  }

  var FORMS = { SELECT: 1, CONSTRUCT: 1, DESCRIBE: 1, ASK: 1 };
  var AFTER_WHERE = { GROUP: 1, HAVING: 1, ORDER: 1, LIMIT: 1, OFFSET: 1, VALUES: 1 };

  // The query's form (SELECT, CONSTRUCT, DESCRIBE, ASK) and the index of the terminal
  // after it; null when a brace comes first (sparql_text.query_form).
  function form(text, tokens) {
    for (var k = 0; k < tokens.length; k++) {
      if (FORMS[tokens[k][2]]) return { word: tokens[k][2], next: k + 1 };
      if (text[tokens[k][0]] === "{") return null;
    }
    return null;
  }

  // The index of the terminal "{" opening the WHERE clause of the query or sub-SELECT
  // whose form keyword ends before terminal k: the first brace outside the parentheses of
  // its projection ((EXISTS { … } AS ?x)); -1 when a solution modifier comes first.
  function clauseBrace(text, tokens, k) {
    for (var depth = 0; k < tokens.length; k++) {
      var c = text[tokens[k][0]];
      if (c === "(") depth++;
      else if (c === ")") depth--;
      else if (depth === 0 && c === "{") return k;
      else if (depth === 0 && AFTER_WHERE[tokens[k][2]]) return -1;
    }
    return -1;
  }

  // The offsets of the braces the command line binds parameters after
  // (sparql_text.with_values): the WHERE clause's, past a CONSTRUCT's template, and each
  // sub-SELECT's (which sees only what it projects).
  function braces(text, tokens, shape) {
    var k = shape ? shape.next : 0;
    if (shape && shape.word === "CONSTRUCT" && k < tokens.length && text[tokens[k][0]] === "{") {
      for (var depth = 0; k < tokens.length; k++) {
        var c = text[tokens[k][0]];
        if (c === "{") depth++;
        else if (c === "}" && --depth === 0) { k++; break; }
      }
    }
    var where = clauseBrace(text, tokens, k);
    if (where < 0) throw new Error("the query has no WHERE clause to bind parameters in");
    var found = [tokens[where][0]];
    for (var j = where + 1; j < tokens.length; j++) {
      if (tokens[j][2] !== "SELECT") continue;
      var inner = clauseBrace(text, tokens, j + 1);
      if (inner >= 0) found.push(tokens[inner][0]);
    }
    return found;
  }

  // Whether the query calls a remote service: the keyword SERVICE among its terminals.
  function callsService(tokens) {
    return tokens.some(function (t) { return t[2] === "SERVICE"; });
  }

  // The query to run: the parameters' values bound as the command line binds
  // them (queries.bind_params): each variable a value is bound to (every spelling of its
  // parameter's name) with the term it takes there, in a VALUES block.
  function bound(text) {
    var tokens = terminals(text), shape = form(text, tokens);
    if (callsService(tokens)) {
      throw new Error("this query calls a remote service (SERVICE); the page runs queries on the anthology alone");
    }
    var params = Array.prototype.slice.call(live.querySelectorAll("input.param")).filter(function (p) {
      if (p.value.trim() || p.getAttribute("data-required") === "no" && !p.value) return !!p.value.trim();
      throw new Error("parameter " + p.getAttribute("data-name") + " needs a value");
    });
    // (a CONSTRUCT or DESCRIBE runs unbound: the page shows SELECT and ASK answers only)
    if (!params.length || shape && (shape.word === "CONSTRUCT" || shape.word === "DESCRIBE")) return text;
    var values = {};
    params.forEach(function (p) {
      var name = p.getAttribute("data-name"), raw = p.value;
      var choices = JSON.parse(p.getAttribute("data-choices") || "[]");
      if (choices.length && choices.indexOf(raw) < 0) {
        throw new Error("parameter " + name + ": " + JSON.stringify(raw) + " is not one of " + choices.join(", "));
      }
      var entry = p.getAttribute("data-type") === "entry" ? entryIri(name, raw.trim()) : null;
      JSON.parse(p.getAttribute("data-spellings")).forEach(function (spelling) {
        values[spelling.variable] = entry || term(name, spelling, raw);
      });
    });
    var names = Object.keys(values).sort();
    var block = " VALUES (" + names.map(function (n) { return "?" + n; }).join(" ") + ") { (" +
      names.map(function (n) { return values[n]; }).join(" ") + ") }";
    braces(text, tokens, shape).sort(function (a, b) { return b - a; }).forEach(function (at) {
      text = text.slice(0, at + 1) + block + text.slice(at + 1);
    });
    return text;
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
