"""Privacy — secrets and personal paths in session text: :mod:`.detect` finds them (for the
``V`` lint rules and the reports), :mod:`.redact` replaces them in every output asked to be
shareable (``--redact`` on lint, dump, diff, show and report) and in ``fountain-audit redact``'s
copies. Works on text and the session model; never parses, never prints."""
