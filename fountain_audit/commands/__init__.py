"""Command bodies and what they share, as plain functions that do not import click.

:mod:`fountain_audit.cli` builds the click commands on top of them; ``fountain-audit lint``
also runs from here without click (:mod:`fountain_audit.commands.fast`), for start-up time.
"""
