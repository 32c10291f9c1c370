"""anthology-kg: a research anthology kept as an RDF knowledge graph."""

import rdflib

__version__ = "0.1.0"

# Keep literals as written: rdflib would otherwise rewrite lexical forms on parse
# ("1.0E6"^^xsd:double becomes "1000000.0"), and the graph must say what the record says.
rdflib.NORMALIZE_LITERALS = False
