"""``fountain-audit export``: sessions as a toolpath document (:mod:`.toolpath`) or as
OpenTelemetry GenAI traces in OTLP/JSON (:mod:`.otlp`), sent over OTLP/HTTP by :mod:`.send`.

Every export goes through :func:`render`: the one place where the document is redacted and
encoded, so a redaction applies to every target alike.
"""

from __future__ import annotations

from typing import Any

from fountain_audit.dump import Redactor, encode_json

TARGETS = ("toolpath", "otlp-json")


def render(doc: dict[str, Any], redactor: Redactor | None = None) -> tuple[dict[str, Any], str]:
    """``(redacted document, its JSON text)``: indented by two spaces, keys in a fixed order,
    non-ASCII kept, a trailing newline. The same input gives the same bytes."""
    out = redactor(doc) if redactor is not None else doc
    return out, encode_json(out, indent=2) + "\n"
