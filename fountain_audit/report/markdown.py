"""Reply text (Markdown written by a model) to HTML that can load or run nothing.

markdown-it-py in CommonMark mode with raw HTML off (``<script>`` stays text), and renderer
rules that turn links and images into plain text: a link shows its text followed by its target
in a ``<code>`` span, an image shows ``[image: alt — target]``. Autolinks and bare URLs are not
linkified. The result holds no ``href``/``src`` attribute from session text; the page's
Content-Security-Policy is a second guard.
"""

from __future__ import annotations

import functools
from html import escape

from markdown_it import MarkdownIt


def _link_open(self, tokens, idx, options, env):
    href = tokens[idx].attrGet("href") or ""
    env.setdefault("hrefs", []).append(href)
    return '<span class="md-link">'


def _link_close(self, tokens, idx, options, env):
    href = env["hrefs"].pop() if env.get("hrefs") else ""
    return f'</span> <code class="md-href">{escape(href)}</code>' if href else "</span>"


def _image(self, tokens, idx, options, env):
    token = tokens[idx]
    alt = escape(self.renderInlineAsText(token.children or [], options, env))
    src = escape(token.attrGet("src") or "")
    return f'<span class="md-image">[image: {alt} — <code>{src}</code>]</span>'


@functools.lru_cache(maxsize=1)
def _renderer() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.add_render_rule("link_open", _link_open)
    md.add_render_rule("link_close", _link_close)
    md.add_render_rule("image", _image)
    return md


def render_markdown(text: str) -> str:
    """HTML for Markdown ``text`` (a ``str``; lone surrogates from undecodable bytes are shown
    as U+FFFD). Raw HTML is escaped, links and images become text; never raises on input."""
    text = text.encode("utf-8", "replace").decode("utf-8")
    try:
        return _renderer().render(text)
    except RecursionError:  # absurd nesting: show the text as it is
        return f"<pre>{escape(text)}</pre>"
