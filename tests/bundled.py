"""What the bundled anthology's stored queries are, as several test modules expect them
(written out, not read from the queries or data/: the tests compare the code with these)."""

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

#: The ES arm's algorithm and its stated unknown of a framework, as data/ writes them.
ES_GAP = """    ak:algorithm ak:ES ;
    ak:notStated [
        a ak:StatedUnknown ;
        ak:lookedIn id:ARXIV-2409.19256 ;
        ak:unknownProperty ak:trainedWith
    ] ."""
