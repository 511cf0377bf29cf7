"""``python -m fountain_audit`` runs the command-line interface."""

from .cli import main

main()
