"""Page data to HTML: Jinja2 templates with autoescaping, CSS and the one script inline, and a
strict Content-Security-Policy (no network, no inline script but ours, pinned by its hash).

A page needs nothing beyond its own file to be viewed: no CDN, no font, no image.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import re
from importlib import resources
from typing import Any

from fountain_audit import __version__
from fountain_audit.audit.provenance import score_text
from fountain_audit.report.collect import SCENE_KIND_LABELS, SessionPage
from fountain_audit.report.markdown import render_markdown


#: Detailed timeline rows (an ``<a>`` per scene with its label) up to this many scenes; above,
#: the dense form: one ``<path>`` per scene kind, rows found by the page's script.
DETAILED_ROWS = 300

_BETWEEN_TAGS = re.compile(r">\n\s*(?=<|\{%)")


def _asset(name: str) -> str:
    return resources.files("fountain_audit.report").joinpath("templates", name).read_text(encoding="utf-8")


def _compact(source: str) -> str:
    """Template source without the line breaks after a tag that ends its line when a tag or a
    ``{% ... %}`` block follows: each would be a text node in the page's DOM, once per card.
    Only the template's own text is touched, never session text (which reaches the page
    through ``{{ }}``)."""
    return _BETWEEN_TAGS.sub(">", source)


def _template_source(name: str) -> str:
    return _compact(_asset(name)) if name.endswith(".j2") else _asset(name)


def _environment_class():
    from jinja2 import Environment

    class PageEnvironment(Environment):
        """``x.name`` on a ``dict`` looks up the key first (the page data is dicts), the
        attribute only when there is no such key; Jinja's default order tries the attribute
        first and raises and catches an ``AttributeError`` for every key lookup."""

        def getattr(self, obj: Any, attribute: str) -> Any:
            if type(obj) is dict:
                try:
                    return obj[attribute]
                except KeyError:
                    pass
            return super().getattr(obj, attribute)

    return PageEnvironment


@functools.lru_cache(maxsize=1)
def _env():
    from jinja2 import FunctionLoader, StrictUndefined

    from markupsafe import Markup

    from fountain_audit.untrusted import page_safe

    def visible(value: Any) -> Any:
        """Every ``{{ }}`` output (session text, file names, rendered Markdown) with control
        characters and bidi controls shown as escapes (:func:`page_safe`)."""
        if isinstance(value, Markup):
            return Markup(page_safe(value))
        return page_safe(value) if isinstance(value, str) else value

    env = _environment_class()(loader=FunctionLoader(_template_source), autoescape=True, finalize=visible,
                               undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)

    env.filters["markdown"] = lambda text: Markup(render_markdown(text or ""))
    env.filters["pct"] = lambda x: f"{100 * x:.3f}"
    env.filters["score"] = score_text
    env.filters["lines"] = span_lines
    env.filters["anchor"] = anchor
    env.globals["kind_labels"] = SCENE_KIND_LABELS
    return env


def anchor(ident: str) -> str:
    """An element's id (``t3.tool2``, ``recall:ID``...) as the page's HTML ``id`` attribute and the
    fragment of a link to it: a recall id is the session's own text and may hold blanks, which an
    HTML id may not (``recall:weekly notes``); each whitespace character and ``%`` is written
    ``%XX`` (its UTF-8 bytes), so distinct ids stay distinct and a link's fragment is the attribute
    as written (a browser matches the fragment as written before decoding it). Ids without either
    character (every id fountain-audit makes itself) are unchanged."""
    if "%" not in ident and not any(c.isspace() for c in ident):
        return ident
    from urllib.parse import quote
    return "".join(quote(c, safe="") if c == "%" or c.isspace() else c for c in ident)


def span_lines(span: dict[str, Any]) -> str:
    """``L74`` for a span on one line, ``L74–75`` for a span over several (1-based lines)."""
    line, end = span["line"], span["end_line"]
    return f"L{line}" if end == line else f"L{line}–{end}"


def _csp(script: str) -> str:
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return ("default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; font-src 'none'; "
            f"connect-src 'none'; script-src 'sha256-{digest}'; base-uri 'none'; form-action 'none'")


def _page(template: str, **context: Any) -> str:
    """The rendered page, ending in a newline, well-formed Unicode: a lone surrogate (an undecodable input byte, a
    JSON ``\\ud800`` escape in tool arguments) is written as U+FFFD, so the page encodes as UTF-8."""
    from fountain_audit.parse.source import well_formed

    script = _asset("report.js")
    html = well_formed(_env().get_template(template).render(css=_asset("report.css"), script=script,
                                                            csp=_csp(script), version=__version__, **context))
    # Jinja drops the template's final newline: a page ends with one, as a text file does (the
    # shell prompt after `report -o -` was on the line of </html>)
    return html if html.endswith("\n") else html + "\n"


def _num(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def dense_timeline_paths(timeline: list[dict[str, Any]], row_h: int, top: int = 12) -> list[tuple[str, str]]:
    """The dense timeline as SVG paths: ``(class, d)`` for each scene kind present (``k-chat``
    ...), ``untimed`` (scenes without a timestamp, drawn across the row), ``marker-tool``
    (failed tool calls: circles) and ``marker-error`` (error diagnostics: squares). Row ``i``
    spans y ``top + i * row_h`` to ``+ row_h - 2`` in a 1000-wide view box; bars start at x 300
    and are 690 wide for the whole time span. ``d`` holds only numbers and path commands."""
    h = row_h - 2
    r = max(row_h / 3, 2)
    m = max(row_h - 6, 2)
    bars: dict[str, list[str]] = {}
    tools: list[str] = []
    errors: list[str] = []
    for i, row in enumerate(timeline):
        y = top + i * row_h
        if row["x"] is None:
            cls, x, w = "untimed", 300.0, 690.0
        else:
            cls, x, w = f"k-{row['kind']}", 300 + 690 * row["x"], max(690 * row["width"], 2)
        bars.setdefault(cls, []).append(f"M{_num(x)} {y}h{_num(w)}v{h}h-{_num(w)}z")
        if row["failed_tools"]:
            cx = 300 + 690 * (row["x"] or 0) + 6 - r
            tools.append(f"M{_num(cx)} {_num(y + h / 2)}a{_num(r)} {_num(r)} 0 1 0 {_num(2 * r)} 0"
                         f"a{_num(r)} {_num(r)} 0 1 0 -{_num(2 * r)} 0")
        if row["errors"]:
            errors.append(f"M{_num(990 - m)} {y + 2}h{_num(m)}v{_num(m)}h-{_num(m)}z")
    out = [(cls, "".join(d)) for cls, d in bars.items()]
    out += [(cls, "".join(d)) for cls, d in (("marker-tool", tools), ("marker-error", errors)) if d]
    return out


def render_session(page: SessionPage, index_href: str | None = None) -> str:
    """The HTML page (a ``str``) for one session; ``index_href`` links back to an index page.

    Up to :data:`DETAILED_ROWS` scenes, the timeline has one link per scene (18 units high,
    labelled); above, it is dense (4 units a row, one path per scene kind, see
    :func:`dense_timeline_paths`) and the page's script maps a pointer position to the scene."""
    rows = len(page.timeline)
    if rows <= DETAILED_ROWS:
        timeline = {"row_h": 18, "rows": None, "paths": []}
    else:
        timeline = {"row_h": 4, "rows": rows, "paths": dense_timeline_paths(page.timeline, 4)}
    timeline["height"] = max(rows, 1) * timeline["row_h"] + 24
    return _page("session.html.j2", page=page, index_href=index_href, timeline=timeline)


def render_index(pages: list[tuple[SessionPage, str]]) -> str:
    """The index page (a ``str``): one sortable row per ``(page, href)``."""
    return _page("index.html.j2", pages=pages)
