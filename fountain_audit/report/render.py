"""Page data to HTML: Jinja2 templates with autoescaping, CSS and the one script inline, and a
strict Content-Security-Policy (no network, no inline script but ours, pinned by its hash).

A page needs nothing beyond its own file to be viewed: no CDN, no font, no image.
"""

from __future__ import annotations

import base64
import functools
import hashlib
from importlib import resources
from typing import Any

from fountain_audit import __version__
from fountain_audit.report.collect import SCENE_KIND_LABELS, SessionPage
from fountain_audit.report.markdown import render_markdown


def _asset(name: str) -> str:
    return resources.files("fountain_audit.report").joinpath("templates", name).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def _env():
    from jinja2 import Environment, FunctionLoader, StrictUndefined

    env = Environment(loader=FunctionLoader(lambda name: _asset(name)), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    from markupsafe import Markup

    env.filters["markdown"] = lambda text: Markup(render_markdown(text or ""))
    env.filters["pct"] = lambda x: f"{100 * x:.3f}"
    env.globals["kind_labels"] = SCENE_KIND_LABELS
    return env


def _csp(script: str) -> str:
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return ("default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; font-src 'none'; "
            f"connect-src 'none'; script-src 'sha256-{digest}'; base-uri 'none'; form-action 'none'")


def _page(template: str, **context: Any) -> str:
    script = _asset("report.js")
    return _env().get_template(template).render(css=_asset("report.css"), script=script, csp=_csp(script),
                                                version=__version__, **context)


def render_session(page: SessionPage, index_href: str | None = None) -> str:
    """The HTML page (a ``str``) for one session; ``index_href`` links back to an index page."""
    rows = len(page.timeline)
    row_h = 18 if rows <= 300 else 4
    return _page("session.html.j2", page=page, index_href=index_href, row_h=row_h,
                 timeline_height=max(rows, 1) * row_h + 24)


def render_index(pages: list[tuple[SessionPage, str]]) -> str:
    """The index page (a ``str``): one sortable row per ``(page, href)``."""
    return _page("index.html.j2", pages=pages)
