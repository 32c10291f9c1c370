"""The rows of an entry's dependency tables, which the pages build as HTML themselves (not
the template): every value from the data escaped, in its cell."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from anthology_kg.engine import open_engine
from anthology_kg.site import build_site

TITLE = '<b>Hybrid</b>Flow "&" co\'s'
COMMENT = "</td><script>alert(\"x\")</script> & 'rests' <on>"
REST = " a codebase the record could not name until now"  # the comment's own end


class Rows(HTMLParser):
    """The cells of the rows of each dependency table: their text, and the tags in them."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[tuple[str, list[str]]]]] = {}
        self.table: str | None = None
        self.cell: tuple[list[str], list[str]] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.table = dict(attrs).get("class")
            self.tables.setdefault(self.table or "", [])
        elif self.table and tag == "tr":
            self.tables[self.table].append([])
        elif self.table and tag == "td":
            self.cell = ([], [])
        elif self.cell is not None:
            self.cell[1].append(tag)

    def handle_endtag(self, tag):
        if tag == "table":
            self.table = None
        elif tag == "td" and self.table and self.cell is not None:
            self.tables[self.table][-1].append(("".join(self.cell[0]), self.cell[1]))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[0].append(data)


def rows(page: Path, table: str) -> list[list[tuple[str, list[str]]]]:
    parser = Rows()
    parser.feed(page.read_text("utf-8"))
    return [row for row in parser.tables[table] if row]


def test_a_title_and_a_citation_comment_are_text_of_their_cells(bundled_copy, tmp_path):
    root = bundled_copy

    def literal(text: str) -> str:
        return text.replace("\\", "\\\\").replace('"', '\\"')

    # The record states no title for the seed entry: the copy is given one.
    identifier = 'dcterms:identifier "ARXIV-2409.19256" ;'
    for name, old, new in (
        ("ARXIV-2409.19256", identifier, f'{identifier} dcterms:title "{literal(TITLE)}" ;'),
        ("LIT-168", "the record’s claim that DAPO is reproducible rests on", literal(COMMENT)),
    ):
        path = root / "data" / f"{name}.ttl"
        written = path.read_text("utf-8")
        assert old in written
        path.write_text(written.replace(old, new), "utf-8")
    site = build_site(open_engine("fast", root=root, validates=True), tmp_path / "site").root

    supported = ("obtains support from " + COMMENT + REST, ["span", "span"])
    assert rows(site / "entries" / "LIT-168.html", "rests-on")[-1] == [
        ("CODEBASE-verl (which this entry rests on)", ["a", "span"]),
        ("described in", ["span"]),
        (f"ARXIV-2409.19256 {TITLE}", ["a", "span"]),
        supported,
    ]
    assert rows(site / "entries" / "ARXIV-2409.19256.html", "rested-on-by")[1:] == [
        [
            ("DAPO is reproducible", ["a"]),
            ("LIT-168", ["a"]),
            ("rests on", ["span"]),
            ("CODEBASE-verl (which rests on this entry)", ["a", "span"]),
            supported,
        ],
        [
            ("LIT-168", ["a"]),
            ("LIT-168", ["a"]),
            ("released on", ["span"]),
            ("CODEBASE-verl (which rests on this entry)", ["a", "span"]),
            supported,
        ],
    ]
