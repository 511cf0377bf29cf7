"""Layer 3 — rules over the session model, the linter that runs them, suppressions, the
configuration that selects them, and the runner that lints many files. Produces
:class:`~fountain_audit.lint.diagnostics.Diagnostic` values; never prints."""
