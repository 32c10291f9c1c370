"""Authoring and browsing: `new`, the pre-commit hooks, the static site."""

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import FIXTURES, REPO, run_cli

GOLDEN = Path(__file__).parent / "golden" / "new"


@pytest.fixture
def anthology(bundled_copy, monkeypatch):
    monkeypatch.chdir(bundled_copy)
    return bundled_copy


@pytest.mark.parametrize(
    ("args", "identifier"),
    [
        (["lit", "LIT-169", "--title", "A new method"], "LIT-169"),
        (
            [
                "reference",
                "ARXIV-2501.01234",
                "--title",
                "A framework",
                "--authors",
                "A et al.",
                "--category",
                "method",
            ],
            "ARXIV-2501.01234",
        ),
        (["adr", "ADR-040", "--title", "Admit surveys"], "ADR-040"),
        (["sota", "SOTA-200"], "SOTA-200"),
        (["note", "NOTE-001"], "NOTE-001"),
    ],
)
def test_new_writes_the_golden_template(anthology, args, identifier):
    result = run_cli("new", *args)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"wrote data/{identifier}.ttl\n")
    written = (anthology / "data" / f"{identifier}.ttl").read_text(encoding="utf-8")
    assert written == (GOLDEN / f"{identifier}.ttl").read_text(encoding="utf-8")
    assert run_cli("fmt", "--check").exit_code == 0


def test_new_entry_fails_check_until_the_user_fills_it_in(anthology):
    result = run_cli("new", "lit", "LIT-169", "--title", "A new method")
    assert "to fill in: ak:category (Rule 1 of ADR-032" in result.stdout
    check = run_cli("check")
    assert check.exit_code == 1
    assert check.stdout.startswith("data/LIT-169.ttl:6:1: AK001 Violation [ADR-032] Rule 1")
    path = anthology / "data" / "LIT-169.ttl"
    path.write_text(
        path.read_text("utf-8").replace(
            "    ak:readingStatus ak:unread .",
            "    ak:category ak:method ;\n    ak:readingStatus ak:unread .",
        ),
        encoding="utf-8",
    )
    assert run_cli("check").exit_code == 0


def test_new_with_a_category_passes_check(anthology):
    result = run_cli("new", "reference", "ARXIV-2501.01234", "--title", "T", "--category", "method")
    assert result.stdout.splitlines()[-1] == "ARXIV-2501.01234 passes check"
    assert run_cli("check").exit_code == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["lit", "LIT-168"], "already has an entry 'LIT-168'"),
        (["lit", "LIT-1"], "'LIT-1' is not an identifier for a lit entry"),
        (["adr", "LIT-170"], "'LIT-170' is not an identifier for a adr entry"),
        (["sota", "SOTA-201", "--category", "method"], "a sota entry has no category"),
    ],
)
def test_new_refuses_and_writes_nothing(anthology, args, message):
    before = sorted(p.name for p in (anthology / "data").iterdir())
    result = run_cli("new", *args)
    assert result.exit_code == 2 and message in result.stderr
    assert sorted(p.name for p in (anthology / "data").iterdir()) == before


def test_pre_commit_hooks_file_names_fmt_and_check():
    text = (REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert re.search(r"^- id: anthology-kg-fmt$", text, re.M)
    assert "entry: anthology-kg fmt --check" in text
    assert "entry: anthology-kg check" in text


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.sources = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "href" in attrs:
            self.links.append(attrs["href"])
        if "src" in attrs:
            self.sources.append(attrs["src"])


def check_site(root_args, out: Path):
    result = run_cli(*root_args, "site", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    pages = sorted(out.rglob("*.html"))
    assert pages
    for page in pages:
        parser = Links()
        parser.feed(page.read_text(encoding="utf-8"))
        for link in parser.links + parser.sources:
            assert not link.startswith(("http:", "https:", "//")), (page, link)
            target = (page.parent / link.split("#")[0]).resolve()
            assert target.exists(), f"{page.relative_to(out)} links to missing {link}"
    return pages


def test_site_of_the_bundled_anthology(tmp_path):
    pages = check_site([], tmp_path / "site")
    names = {p.relative_to(tmp_path / "site").as_posix() for p in pages}
    assert {
        "index.html",
        "rules.html",
        "graph.html",
        "entries/ARXIV-2409.19256.html",
        "queries/confounders.html",
    } <= names
    entry = (tmp_path / "site" / "entries" / "ARXIV-2409.19256.html").read_text("utf-8")
    assert entry.count("<li>") >= 3 and "HybridFlow’s claim" in entry
    assert "QUESTION-baselines-on-verl" in entry and "No rule is broken." in entry
    graph = (tmp_path / "site" / "graph.svg").read_text("utf-8")
    assert ">LIT-168<" in graph and ">verl<" in graph and ">ARXIV-2409.19256<" in graph
    comparison = (tmp_path / "site" / "graph.html").read_text("utf-8")
    assert comparison.count('<span class="missing">not recorded</span>') == 3


def test_site_of_a_fixture_shows_its_violations(tmp_path):
    check_site(["--root", str(FIXTURES / "rules" / "rule10-bad")], tmp_path / "site")
    rules = (tmp_path / "site" / "rules.html").read_text("utf-8")
    assert "Integrity rule 10: a comparison has fewer than two arms" in rules


def test_site_is_deterministic(tmp_path):
    run_cli("site", "-o", str(tmp_path / "a"))
    run_cli("site", "-o", str(tmp_path / "b"))
    files_a = sorted(
        p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file()
    )
    for rel in files_a:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes(), rel


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (Debian package chromium)")
def test_in_a_real_browser(tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    out = tmp_path / "site"
    run_cli("site", "-o", str(out))
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        page = browser.new_page()
        page.goto((out / "index.html").as_uri())
        page.click("text=ARXIV-2409.19256")
        assert page.url.endswith("entries/ARXIV-2409.19256.html")
        takeaways = page.locator("ol.takeaways li").all_inner_texts()
        assert len(takeaways) == 3 and takeaways[0].startswith("RLHF is a dataflow")
        assert "QUESTION-baselines-on-verl" in page.locator("ul.questions").inner_text()
        page.screenshot(path=str(tmp_path / "entry.png"))
        browser.close()
