"""The compiler's one error: shapes it cannot translate."""


class Unsupported(Exception):
    """The shapes use SHACL the compiler does not translate (SHACL-AF rules and custom
    targets, or SPARQL it cannot pre-bind); a caller may fall back to pySHACL.
    ``shape``: the shape with targets being compiled when it arose, where known."""

    shape: object | None = None
