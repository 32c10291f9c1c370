"""Of a shape's several ``sh:message`` values, a result shows one with no language tag,
else an English one, else the first by tag: the same on both engines, whatever order
the values sort or are read in (hunt11 finding 11)."""

from __future__ import annotations

import pyoxigraph as ox
from conftest import own_shapes, validated_alike

from anthology_kg.rules import preferred_message

SHAPES = """@prefix ex: <http://ex.org/> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
ex:S a sh:NodeShape ; sh:targetClass ex:T ;
  sh:property [ sh:path ex:name ; sh:minCount 1 ;
      sh:message "need a name"@en, "Name fehlt"@de, "A name"@en-GB ] ,
    [ sh:path ex:code ; sh:minCount 1 ; sh:message "Code fehlt"@de, "no code" ] .
"""


def test_a_result_shows_the_message_without_a_tag_else_the_english_one(tmp_path):
    args = own_shapes(tmp_path, SHAPES, "<http://ex.org/a> a <http://ex.org/T> .\n")
    text = validated_alike(*args)
    assert "] need a name (" in text and "] no code (" in text


def test_the_choice_does_not_hang_on_the_order_read():
    messages = [
        ox.Literal("Z", language="de"),
        ox.Literal("b", language="en-gb"),
        ox.Literal("a", language="fr"),
        ox.Literal("c", language="en"),
    ]
    assert preferred_message(messages) == ox.Literal("c", language="en")
    assert preferred_message(reversed(messages)) == ox.Literal("c", language="en")
    assert preferred_message(messages[:1] + messages[2:3]) == ox.Literal("Z", language="de")
    assert preferred_message([]) is None
