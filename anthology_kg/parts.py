"""The parts of an anthology's graph and the named graph that holds each in a store.

Plain pyoxigraph names, with no RDF library behind them: the loaders, the engines and
the writers share them without importing each other (``terms.py`` gives them too).
"""

from __future__ import annotations

from typing import Final

import pyoxigraph as ox

#: The parts of an anthology's graph: its data, the ontology, the shapes.
PARTS: Final = ("data", "ontology", "shapes")
#: The named graph that holds each part in a pyoxigraph store (and in ``Engine.quads``).
GRAPHS: Final = {part: ox.NamedNode(f"urn:anthology-kg:graph:{part}") for part in PARTS}

#: A term of a pyoxigraph result row or quad.
OxTerm = ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple
