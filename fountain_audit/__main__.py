"""``python -m fountain_audit`` runs the command-line interface."""

from fountain_audit.cli.main import main

main()
