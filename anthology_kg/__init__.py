"""anthology-kg: a research anthology kept as an RDF knowledge graph."""

__version__ = "0.1.0"
