"""``python -m anthology_kg`` runs the command line."""

from .cli import main

main()
