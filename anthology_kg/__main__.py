"""``python -m anthology_kg`` runs the command line."""

from .cli import run

run()
