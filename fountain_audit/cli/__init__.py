"""The command line: click commands that only wire options to the layers below."""

from fountain_audit.cli.main import main

__all__ = ["main"]
