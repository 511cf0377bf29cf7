"""Layer 2 — the Harvey session model read from the Fountain AST (scenes, speeches, turns,
typed audit notes). Knows only :mod:`fountain_audit.parse`."""
