"""``validate --endpoint`` (the shapes compiled to SPARQL and run in the store) beside the
local ``check`` and ``validate`` on the same generated anthology, on a real Oxigraph
server and on a real Virtuoso Open Source 7.2; and what travels between them.

    python benchmarks/bench_pushdown.py --entries 10000 --runs 3

Each command runs whole, in a fresh process (start-up, rules, queries, report); each
figure is the median of ``--runs`` wall-clock runs (the store's work is in another
process: CPU time of the client would leave it out). The anthology is published first
(Oxigraph: ``publish --update``, one SPARQL Update, and ``publish --endpoint``, three
Graph Store PUTs, both timed; Virtuoso: the Graph Store with the dba's credentials).
One more run of each remote command goes through a recording proxy (tests/stores.py)
that counts the requests and the bytes each way, beside what a CONSTRUCT of the data
graph (how ``--engine reference`` reads it back) carries. Virtuoso is queried with
``--method form``: it never answers a direct POST, and ``auto`` would wait 3 s to
find that out. The result rows of every run are compared with the local ones.
Nothing is asserted; Virtuoso is left out, saying why, where it is not installed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

TESTS = Path(__file__).resolve().parent.parent / "tests"
sys.path.insert(0, str(TESTS))

from stores import VIRTUOSO, Proxy, free_port, start_virtuoso, stop_virtuoso  # noqa: E402

from anthology_kg.endpoint import Connection, run_remote  # noqa: E402
from anthology_kg.errors import AnthologyError  # noqa: E402
from anthology_kg.server import oxigraph_binary  # noqa: E402
from anthology_kg.triplestore import fetch_graph  # noqa: E402

KEY = ("focus", "path", "value", "shape", "severity", "component")
CLI = [sys.executable, "-m", "anthology_kg"]


def run(command: list[str], env: dict[str, str] | None = None) -> tuple[float, str]:
    """Wall seconds of ``command`` and its standard output (exit 0 or 1: a result)."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(command[2:6])} failed: {done.stderr[-800:]}")
    return seconds, done.stdout


def median(command: list[str], runs: int, env: dict[str, str] | None = None):
    timed = [run(command, env) for _ in range(runs)]
    return statistics.median(t for t, _ in timed), timed[-1][1]


def rows_of(report: str) -> set[tuple]:
    """The report's results, as the rows the tests compare (no file and line)."""
    return {tuple(r[k] for k in KEY) for r in json.loads(report)["results"]}


def start_oxigraph() -> tuple[subprocess.Popen, str]:
    port = free_port()
    process = subprocess.Popen(
        [oxigraph_binary(), "serve", "--bind", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            run_remote(f"{base}/query", "SELECT * WHERE { ?s ?p ?o } LIMIT 1", kind="select")
            return process, base
        except AnthologyError:
            time.sleep(0.1)
    raise RuntimeError("the oxigraph server did not start")


def traffic(command: list[str], upstream: str, path: str, env=None) -> tuple[str, str]:
    """Run ``command`` (its endpoint the proxy's URL + ``path``, put in for ``{url}``)
    through a recording proxy: the requests, bytes each way, and the report."""
    proxy = Proxy(upstream)
    try:
        _, out = run([part.replace("{url}", proxy.url + path) for part in command], env)
    finally:
        proxy.close()
    sent = sum(s.size + len(s.path) for s in proxy.requests)
    forms = Counter(query_form(s.text, s.path) for s in proxy.requests)
    counts = ", ".join(f"{forms[form]} {form}" for form in sorted(forms))
    summary = (
        f"{len(proxy.requests)} requests ({counts}; {forms['CONSTRUCT']} CONSTRUCT), "
        f"{sent / 1024:.0f} KiB sent, {proxy.answered / 1024:.0f} KiB answered"
    )
    return summary, out


_IRI = re.compile(r"<[^<>\s]*>")
_COMMENT = re.compile(r"#[^\n]*")
_FORM = re.compile(r"\b(SELECT|ASK|CONSTRUCT|DESCRIBE|INSERT|DELETE|LOAD|CLEAR|DROP)\b", re.I)


def query_form(body: str, path: str) -> str:
    """The form of a request's SPARQL (SELECT, ASK, CONSTRUCT, ...: the first keyword
    after the prologue), read from the body or from the query string of a GET; else
    its HTTP kind (a Graph Store request)."""
    text = body or "".join(parse_qs(urlsplit(path).query).get("query", []))
    found = _FORM.search(_COMMENT.sub("", _IRI.sub("<>", text)))
    return found.group(1).upper() if found else "other"


def construct_bytes(endpoint: str, graph: str, connection=None) -> int:
    """Bytes of the Turtle a CONSTRUCT of the data graph answers (the read-back)."""
    import anthology_kg.endpoint as endpoint_module

    seen: list[int] = []
    request = endpoint_module.request

    def counting(*args, **kwargs):
        answer = request(*args, **kwargs)
        seen.append(len(answer.body))
        return answer

    endpoint_module.request = counting
    try:
        fetch_graph(endpoint, graph, connection)
    finally:
        endpoint_module.request = request
    return sum(seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=10000)
    parser.add_argument("--violations", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="anthology-kg-bench-pushdown-"))
    stores: list[tuple[str, object]] = []
    try:
        root = folder / "anthology"
        from anthology_kg.generate import generate

        generate(args.entries, 1, root, violations=args.violations)
        print(
            f"\n## validate --endpoint: {args.entries:,} entries, {args.violations} planted "
            f"violations; wall seconds, medians of {args.runs} runs; load average "
            + ", ".join(f"{x:.2f}" for x in os.getloadavg()),
            flush=True,
        )
        at = ["--root", str(root)]
        check, _ = median([*CLI, *at, "check"], args.runs)
        local, report = median([*CLI, *at, "validate", "--format", "json"], args.runs)
        local_rows = rows_of(report)
        table = [
            ("`check` (local)", check, f"{len(local_rows)} results"),
            ("`validate` (local)", local, ""),
        ]
        traffic_lines = []
        publish_lines = []

        process, base = start_oxigraph()
        stores.append(("oxigraph", process))
        graph = "urn:bench:data"
        for how, endpoint in (("--update", f"{base}/update"), ("--endpoint", f"{base}/store")):
            seconds, _ = median(
                [*CLI, *at, "publish", how, endpoint, "--replace", "--graph", graph], args.runs
            )
            publish_lines.append(f"- Oxigraph, `publish {how} … --replace`: {seconds:.2f} s")
        remote = [*CLI, *at, "validate", "--format", "json", "--graph", graph, "--endpoint"]
        seconds, out = median([*remote, f"{base}/query"], args.runs)
        same = "equal to local" if rows_of(out) == local_rows else "DIFFERENT from local"
        table.append(("`validate --endpoint` Oxigraph", seconds, same))
        summary, _ = traffic([*remote, "{url}"], base, "/query")
        read_back = construct_bytes(f"{base}/query", graph)
        traffic_lines.append(
            f"- Oxigraph: {summary}; a CONSTRUCT of the data graph answers "
            f"{read_back / 1024:.0f} KiB"
        )

        if VIRTUOSO is None:
            table.append(("`validate --endpoint` Virtuoso", float("nan"), "not installed"))
        else:
            (folder / "virtuoso").mkdir()
            virtuoso = start_virtuoso(folder / "virtuoso")
            stores.append(("virtuoso", virtuoso))
            env = {
                **os.environ,
                "ANTHOLOGY_KG_USER": virtuoso.user,
                "ANTHOLOGY_KG_PASSWORD": virtuoso.password,
            }
            seconds, _ = run(
                [*CLI, *at, "publish", "--endpoint", virtuoso.graph_store, "--replace",
                 "--graph", graph, "--timeout", "600"],
                env,
            )  # fmt: skip
            publish_lines.append(f"- Virtuoso, `publish --endpoint … --replace`: {seconds:.2f} s")
            form = [*remote[:-1], "--method", "form", "--timeout", "600", "--endpoint"]
            seconds, out = median([*form, virtuoso.sparql], args.runs)
            same = "equal to local" if rows_of(out) == local_rows else "DIFFERENT from local"
            table.append(("`validate --endpoint` Virtuoso", seconds, same))
            summary, _ = traffic([*form, "{url}"], virtuoso.base, "/sparql")
            read_back = construct_bytes(virtuoso.sparql, graph, Connection(method="form"))
            traffic_lines.append(
                f"- Virtuoso: {summary}; a CONSTRUCT of the data graph answers "
                f"{read_back / 1024:.0f} KiB"
            )

        print("\n| command | seconds | × `check` | results |\n|---|---|---|---|")
        for name, seconds, note in table:
            print(f"| {name} | {seconds:.2f} | {seconds / check:.2f} | {note} |")
        print("\nWhat travels (one run each, through a recording proxy):")
        print("\n".join(traffic_lines))
        print("\nPublishing the anthology (data, ontology, shapes):")
        print("\n".join(publish_lines))
        sys.stdout.flush()
    finally:
        for kind, store in stores:
            if kind == "virtuoso":
                stop_virtuoso(store)
            else:
                store.terminate()  # type: ignore[attr-defined]
                store.wait(timeout=30)  # type: ignore[attr-defined]
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
