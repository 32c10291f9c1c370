"""What the bundled anthology's stored queries are, as several test modules expect them
(written out, not read from the queries: the tests compare the code with these)."""

#: The stored queries, by name, as ``anthology-kg queries`` lists them.
QUERY_NAMES = [
    "backlog",
    "by-category",
    "confounders",
    "depends-on",
    "known-unknowns",
    "open-questions",
    "reproducibility",
    "rules",
    "unread",
]

#: The columns of the ``confounders`` query, in its table's header.
CONFOUNDERS_COLUMNS = [
    "comparison",
    "arm",
    "algorithm",
    "property",
    "checkpoints",
    "question",
    "address",
]
