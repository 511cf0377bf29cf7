"""Reply text (Markdown written by a model) to HTML that can load or run nothing.

markdown-it-py in CommonMark mode with raw HTML off (``<script>`` stays text), and renderer
rules that turn links and images into plain text: a link shows its text followed by its target
in a ``<code>`` span, an image shows ``[image: alt — target]``. Autolinks (``<scheme:…>``) and bare
URLs are not linkified: the autolink rule is off, so ``<https://…>`` and a redaction placeholder
such as ``<redacted:github-token>`` (``redacted`` reads as a URI scheme) stay literal text. The result holds no ``href``/``src`` attribute from session text; the page's
Content-Security-Policy is a second guard.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from html import escape

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml

#: Characters with a meaning somewhere in CommonMark (emphasis, code, links, images, HTML,
#: entities, escapes, headings, block quotes, lists, setext underlines, fences, tables of
#: other flavours), control characters, and whitespace other than the space and the line feed.
_MARKUP = re.compile(r"[*_`\[\]<>!&\\#~=+|\x00-\x09\x0b-\x1f\x7f]")
_OTHER_SPACE = re.compile(r"[^\S \n]")
_LIST_ITEM = re.compile(r"\d+[.)]|-")


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
    md.disable("autolink")  # <redacted:KIND> is an autolink to CommonMark: keep it (and <https://…>) as text
    md.add_render_rule("link_open", _link_open)
    md.add_render_rule("link_close", _link_close)
    md.add_render_rule("image", _image)
    return md


def _plain_paragraphs(text: str) -> str | None:
    """The HTML markdown-it gives ``text`` when it is plain paragraphs: no character with a
    Markdown meaning (:data:`_MARKUP`), no whitespace but spaces and line feeds, no line that
    starts or ends with a space or starts like a list item. ``None`` for anything else (the
    parser decides). Same output, checked against the parser in tests/test_report.py."""
    if _MARKUP.search(text) or (not text.isascii() and _OTHER_SPACE.search(text)):
        return None
    out: list[str] = []
    paragraph: list[str] = []
    for line in text.split("\n"):
        if not line:  # a blank line ends a paragraph
            if paragraph:
                out.append(f"<p>{escapeHtml(chr(10).join(paragraph))}</p>\n")
                paragraph = []
        elif line[0] == " " or line[-1] == " " or _LIST_ITEM.match(line):
            return None
        else:
            paragraph.append(line)
    if paragraph:
        out.append(f"<p>{escapeHtml(chr(10).join(paragraph))}</p>\n")
    return "".join(out)


def render_markdown(text: str) -> str:
    """HTML for Markdown ``text`` (a ``str``; lone surrogates from undecodable bytes are shown
    as U+FFFD). Raw HTML is escaped, links and images become text; never raises on input.
    Plain paragraphs (most short replies) skip the parser: see :func:`_plain_paragraphs`."""
    text = text.encode("utf-8", "replace").decode("utf-8")
    html = _plain_paragraphs(text)
    if html is not None:
        return html
    try:
        return _renderer().render(text)
    except RecursionError:  # absurd nesting: show the text as it is
        return f"<pre>{escape(text)}</pre>"


def redacted_view(original: str, redact: Callable[[str], str]) -> str | None:
    """What a page shows for a reply written as Markdown ``original`` when it is shown redacted:
    ``None`` when rendering ``redact(original)`` (the text redacted as written) shows what the
    page must show; otherwise the text a browser would show for ``original``, redacted, which the
    page shows in a ``<pre>`` (the reply loses its formatting, not its secret). Rendering can put
    together what redaction as written cannot see: ``ghp&#95;…``, ``gh*p_…*``, ``/home/m&#97;rgot``
    all show a token or a user's name. ``redact``: the page's redactor (secrets and paths)."""
    if _plain_paragraphs(original) is not None:
        return None  # (nothing in it that rendering changes: what it shows is the text, redacted as written)
    shown = visible_text(render_markdown(original))
    hidden = redact(shown)
    if hidden == shown or visible_text(render_markdown(redact(original))) == hidden:
        return None
    return re.sub(r"\n{3,}", "\n\n", hidden).strip("\n")  # (nested blocks end together)


def visible_text(html: str) -> str:
    """The text a browser shows for ``html`` (markdown-it's output): tags dropped, character
    references decoded, a line break after each block (paragraph, list item, heading, code
    block, quote, table cell)."""
    from html.parser import HTMLParser

    out: list[str] = []

    class _Text(HTMLParser):
        def handle_data(self, data: str) -> None:
            out.append(data)

        def handle_endtag(self, tag: str) -> None:
            if tag in _BLOCKS:
                out.append("\n")

        def handle_startendtag(self, tag: str, attrs) -> None:
            if tag in ("br", "hr"):
                out.append("\n")

    parser = _Text(convert_charrefs=True)
    parser.feed(html)
    parser.close()
    return "".join(out)


_BLOCKS = frozenset({"p", "li", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "td", "th", "tr"})
