"""Layer 4 — diagnostics to text and machine formats (concise, full, json, json-lines, github,
sarif, junit, gitlab). Reporters never parse."""
