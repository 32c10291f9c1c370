"""A file the tool rewrites that is a symbolic link is written through: the link stays and
its target gets the new bytes, as an editor saves a linked file (review3: fmt replaced a
linked data file by a copy, export -o LINK replaced the link; files.write_atomic)."""

from __future__ import annotations

from conftest import run_cli

from anthology_kg.files import write_atomic


def test_write_atomic_writes_through_a_link(tmp_path):
    target = tmp_path / "elsewhere" / "target.txt"
    target.parent.mkdir()
    target.write_text("old\n", encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_atomic(link, "new\n")
    assert link.is_symlink() and link.read_text(encoding="utf-8") == "new\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["target.txt"]  # no .tmp left


def test_fmt_formats_a_linked_data_file_and_keeps_the_link(bundled_copy, tmp_path):
    kept = tmp_path / "kept"
    kept.mkdir()
    data = bundled_copy / "data" / "LIT-168.ttl"
    text = data.read_text(encoding="utf-8")
    (kept / "LIT-168.ttl").write_text(text.replace("    ", "  "), encoding="utf-8")
    data.unlink()
    data.symlink_to(kept / "LIT-168.ttl")
    result = run_cli("--root", str(bundled_copy), "fmt")
    assert result.exit_code == 0 and "1 of 8 file(s) changed" in result.stdout, result.output
    assert data.is_symlink() and (kept / "LIT-168.ttl").read_text(encoding="utf-8") == text


def test_export_to_a_link_writes_its_target(tmp_path):
    target = tmp_path / "graph.nq"
    target.write_text("", encoding="utf-8")
    link = tmp_path / "latest.nq"
    link.symlink_to(target)
    result = run_cli("export", "--format", "nquads", "-o", str(link))
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and target.stat().st_size > 1000


def test_site_to_a_link_writes_the_folder_it_points_to(tmp_path):
    """review3 B9: the link became a real folder, its target stayed empty, and the old
    link stayed beside it as .LINK.old-XXXX for good (rmtree refuses a link)."""
    (tmp_path / "real").mkdir()
    link = tmp_path / "LINK"
    link.symlink_to("real")
    for _ in range(2):  # a first site, then one replacing it
        assert run_cli("site", "-o", str(link)).exit_code == 0
        assert link.is_symlink() and (tmp_path / "real" / "index.html").is_file()
        assert sorted(p.name for p in tmp_path.iterdir()) == ["LINK", "real"]
