"""The site's pictures are well-formed XML whatever a label holds (hunt2 F5): a control
character, NUL or U+FFFF, which XML 1.0 cannot carry, is written as the text report
writes it (``\\x01``), by Graphviz's layout and by the layered one."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET

from conftest import run_cli

from anthology_kg.resources import bundled_dir

ID = "https://w3id.org/anthology-kg/id/"
LABELS = {"CODEBASE-c0": "ctl\x01\x02\x08\x0b\x0c\x1b end", "CODEBASE-c1": "nul\x00x\uffff"}
SHOWN = {"CODEBASE-c0": r"ctl\x01\x02\x08\x0b\x0c\x1b end", "CODEBASE-c1": r"nul\x00x\uffff"}


def turtle_string(text: str) -> str:
    return '"' + "".join(f"\\u{ord(c):04X}" if not c.isprintable() else c for c in text) + '"'


def test_pictures_with_control_characters_in_labels_are_well_formed(tmp_path, layout):
    root = tmp_path / "anthology"
    shutil.copytree(bundled_dir() / "data", root / "data")
    lines = ["@prefix ak: <https://w3id.org/anthology-kg/ns#> ."]
    lines.append("@prefix dcterms: <http://purl.org/dc/terms/> .")
    lines.append("@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .")
    for n, (identifier, label) in enumerate(LABELS.items()):
        lines.append(
            f'<{ID}{identifier}> a ak:Codebase ; dcterms:identifier "{identifier}" ; '
            f"rdfs:label {turtle_string(label)} ; ak:describedIn <{ID}LIT-168> ."
        )
        lines.append(
            f"<{ID}LIT-168-x{n}> a ak:ReproducibilityClaim ; rdfs:label {turtle_string(label)} ; "
            f"ak:restsOn <{ID}{identifier}> ."
        )
        lines.append(f"<{ID}LIT-168> ak:makesClaim <{ID}LIT-168-x{n}> .")
    (root / "data" / "CODEBASE-c.ttl").write_text("\n".join(lines) + "\n", "utf-8")
    out = tmp_path / "site"
    result = run_cli("--root", str(root), "site", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert ("Graphviz" in (out / "graph.html").read_text("utf-8")) == (layout == "dot")

    graph = ET.parse(out / "graph.svg").getroot()  # raises on a character XML cannot hold
    titles = {"".join(t.itertext()) for t in graph.iter("{http://www.w3.org/2000/svg}title")}
    for identifier, shown in SHOWN.items():
        assert shown in titles
        page = (out / "entries" / f"{identifier}.html").read_text("utf-8")
        [svg] = re.findall(r"<svg\b.*?</svg>", page, re.S)
        assert shown in {
            "".join(t.itertext()) for t in ET.fromstring(svg).iter() if "title" in t.tag
        }
        assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]", svg)
