"""Bytes read as the tool's UTF-8 text: a leading byte order mark read past, a byte that
is no UTF-8 said at its line. Apart from ``sources`` (which loads pyoxigraph) so that
the configuration, read by every command, --help and --version included, loads no RDF
library."""

from __future__ import annotations

from pathlib import Path

from .errors import AnthologyError

#: The UTF-8 byte order mark some editors write at the start of a text file.
_BOM = b"\xef\xbb\xbf"


def without_bom(data: bytes) -> bytes:
    """``data`` without a leading UTF-8 byte order mark: a file that starts with one is
    UTF-8 text all the same (Notepad writes it), which the Turtle parser would refuse
    as a stray character; no line changes, since the mark holds no newline."""
    return data[3:] if data.startswith(_BOM) else data


def decode_utf8(data: bytes, path: Path | str | None) -> str:
    """``data`` as text; bytes that are not UTF-8 are an AnthologyError at their line
    (its line ends CRLF, LF or a lone CR, as the Turtle and TOML parsers count them)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start].replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        raise AnthologyError("not UTF-8 text", path, before.count(b"\n") + 1) from None
