"""Sending an OTLP/JSON request to a collector over OTLP/HTTP, as protobuf.

The request is turned into the official ``opentelemetry-proto`` message with
``google.protobuf.json_format`` (OTLP/JSON writes trace and span ids in hex where protobuf's
JSON mapping expects base64, so ids are converted first) and POSTed as
``application/x-protobuf``, the encoding every OTLP/HTTP receiver accepts (Phoenix accepts
only this one).
"""

from __future__ import annotations

import base64
import copy
import re
import urllib.error
import urllib.request
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from fountain_audit import __version__


class SendError(Exception):
    """The collector could not be reached or did not accept the request (message says why)."""


@dataclass(frozen=True, slots=True)
class SendResult:
    """``status``: the HTTP status; ``spans``/``traces``: what the request held."""

    status: int
    spans: int
    traces: int


def _b64(hex_id: str) -> str:
    return base64.b64encode(bytes.fromhex(hex_id)).decode("ascii")


def to_protobuf(request: dict[str, Any]):
    """The ``ExportTraceServiceRequest`` protobuf message of an OTLP/JSON request dict.

    Raises ``google.protobuf.json_format.ParseError`` (a ``ValueError``) for a request the
    official message does not accept, ``ValueError`` for an id that is not hex.
    """
    from google.protobuf import json_format
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    doc = copy.deepcopy(request)
    for rs in doc.get("resourceSpans", []):
        for ss in rs.get("scopeSpans", []):
            for sp in ss.get("spans", []):
                for key in ("traceId", "spanId", "parentSpanId"):
                    if sp.get(key):
                        sp[key] = _b64(sp[key])
                for link in sp.get("links", []):
                    for key in ("traceId", "spanId"):
                        if link.get(key):
                            link[key] = _b64(link[key])
    return json_format.ParseDict(doc, ExportTraceServiceRequest())


#: How much of an error answer's body is read, and how many characters of it are quoted.
_BODY_READ = 65536
EXCERPT_CHARS = 120
_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f]")


class _PageText(HTMLParser):
    """The text of an HTML page outside ``<head>``, ``<script>`` and ``<style>``."""

    _HIDDEN = frozenset({"head", "title", "script", "style"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag in self._HIDDEN:
            self.hidden += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self._HIDDEN and self.hidden:
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def body_excerpt(body: bytes, content_type: str = "") -> str:
    """A short one-line excerpt of an error answer's ``body`` for a message: the text of an
    HTML page (tags, head and scripts left out), or a text/JSON body as it is; runs of
    whitespace and C0/C1 control characters (line feeds, ESC ...) become one space,
    and at most :data:`EXCERPT_CHARS` characters are kept (``…`` marks a cut). Empty for an
    empty body or a binary one (protobuf ...)."""
    kind = content_type.split(";", 1)[0].strip().lower()
    text = body.decode("utf-8", "replace")
    if "html" in kind or (not kind and text.lstrip()[:1] == "<"):
        page = _PageText()
        try:
            page.feed(text)
            page.close()
            text = "".join(page.parts)
        except Exception:  # noqa: BLE001 - the parser is lenient; never fail over an error page
            text = ""
    elif kind and not (kind.startswith("text/") or "json" in kind or "xml" in kind):
        return ""  # binary: its bytes mean nothing on a terminal
    text = " ".join(_CONTROLS.sub(" ", text).split())
    return text if len(text) <= EXCERPT_CHARS else text[:EXCERPT_CHARS - 1].rstrip() + "…"


#: A URL's scheme (optional), ``//`` (optional) and authority (``user:password@host:port``: up to
#: the first ``/``, ``?`` or ``#``, as ``urllib.parse.urlsplit`` reads it).
_AUTHORITY = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*:)?(?://)?(?P<authority>[^/?#]*)")
#: What ``http.client`` refuses anywhere in a URL (and ``urlsplit`` silently drops: tab, line feed).
_NOT_IN_URL = re.compile(r"[\x00-\x20\x7f-\x9f]")


def _userinfo(url: str) -> tuple[int, int, str, str] | None:
    """Where ``url``'s userinfo is: ``(start, end, userinfo, host_and_port)`` (``end`` is the
    index after the ``@``), or ``None`` when there is none. The userinfo ends at the authority's
    last ``@``, as ``urlsplit`` reads it."""
    m = _AUTHORITY.match(url)
    authority = m.group("authority") if m else ""
    if "@" not in authority:
        return None
    userinfo, _, host = authority.rpartition("@")
    return m.start("authority"), m.start("authority") + len(userinfo) + 1, userinfo, host


def masked(url: str) -> str:
    """``url`` with the password of its userinfo shown as ``***`` (``http://user:***@host/x``), or
    the whole userinfo when it has no password (a token: ``http://***@host/x``), and each value of
    its query string as ``***`` (``?api_key=***&org=***``, a bare ``?TOKEN`` or ``?TOKEN=`` as
    ``?***``: a collector's key may ride there; it was printed in error messages, adversarial
    trial), and its fragment as ``#***``: credentials are never printed. Any other URL is
    returned as it is."""
    found = _userinfo(url)
    if found is not None:
        start, end, userinfo, _ = found
        user, colon, _ = userinfo.partition(":")
        url = url[:start] + (f"{user}:***@" if colon else "***@") + url[end:]
    query = url.find("?")
    if query < 0:
        return url
    fragment = url.find("#", query)
    tail = "" if fragment < 0 else "#***"  # (a fragment is never sent, but may hold a token too)
    params = url[query + 1:fragment if fragment >= 0 else len(url)]
    shown = "&".join(p.partition("=")[0] + "=***" if p.partition("=")[2] else "***" if p else p  # (a bare one,
                     for p in params.split("&"))                                                 # `TOKEN=`, may be a token)
    return url[:query + 1] + shown + tail


def url_secrets(url: str) -> list[str]:
    """The parts of ``url`` :func:`masked` hides (a userinfo's password or token, each query
    value, a bare parameter, the fragment), as written and percent-decoded, longest first: what
    must not be printed either when a collector's error answer echoes the request
    (:func:`scrubbed`)."""
    from urllib.parse import unquote
    found = []
    info = _userinfo(url)
    if info is not None:
        user, colon, password = info[2].partition(":")
        found.append(password if colon else user)
    query = url.find("?")
    if query >= 0:
        fragment = url.find("#", query)
        for p in url[query + 1:fragment if fragment >= 0 else len(url)].split("&"):
            name, eq, value = p.partition("=")
            found.append(value if value else name)
    fragment = url.find("#")
    if fragment >= 0:
        found.append(url[fragment + 1:])
    every = {v for f in found if f for v in (f, unquote(f))}
    return sorted(every, key=len, reverse=True)


def scrubbed(message: str, url: str) -> str:
    """``message`` with each of :func:`url_secrets` of ``url`` (3 characters or more) as ``***``."""
    for secret in url_secrets(url):
        if len(secret) >= 3:
            message = message.replace(secret, "***")
    return message


def credentials(url: str) -> tuple[str, tuple[str, str] | None]:
    """``url`` without its userinfo, and the user name and password it held (percent-decoded;
    ``None`` when there is no userinfo; an empty password when none is given)."""
    from urllib.parse import unquote

    found = _userinfo(url)
    if found is None:
        return url, None
    start, end, userinfo, _ = found
    user, _, password = userinfo.partition(":")
    return url[:start] + url[end:], (unquote(user), unquote(password))


def endpoint_problem(url: str) -> str | None:
    """Why ``url`` cannot be an OTLP/HTTP endpoint (``None`` when it can): it must be an
    ``http://`` or ``https://`` URL with a host and, if any, a port number, holding no space or
    control character (which ``http.client`` refuses) and nothing but ASCII after the host
    (percent-encode the rest). A userinfo (``user:password@``) is allowed: :func:`send` sends it as
    HTTP basic authentication."""
    from urllib.parse import quote, urlsplit

    bad = _NOT_IN_URL.search(url)
    if bad is not None:  # (checked first: urlsplit drops tabs and line feeds)
        return f"the endpoint must not contain spaces or control characters (found {bad.group()!r}): percent-encode them"
    try:
        parts = urlsplit(url)
    except ValueError:  # e.g. an unbalanced [ in the host
        parts = None
    if parts is None or parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return "the endpoint must be an http:// or https:// URL, e.g. http://127.0.0.1:4318/v1/traces"
    try:
        parts.port
    except ValueError:
        return "the endpoint's port must be a number from 0 to 65535"
    rest = url[url.index(parts.netloc) + len(parts.netloc):] if parts.netloc else ""
    other = next((c for c in rest if ord(c) > 0x7f), None)
    if other is not None:
        return f"the endpoint must be ASCII after the host: percent-encode {other!r} ({quote(other)})"
    return None


def send(request: dict[str, Any], url: str, timeout: float = 10.0) -> SendResult:
    """POST ``request`` (OTLP/JSON dict) to ``url`` as OTLP/HTTP protobuf.

    A userinfo in ``url`` (``http://user:password@host/...``, percent-encoded) is sent as HTTP
    basic authentication (``Authorization``), not to where a redirect points.

    Raises :class:`SendError` when the URL is not http(s), the collector cannot be reached,
    answers with a non-2xx status, or reports rejected spans (``partial_success``).
    """
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse

    problem = endpoint_problem(url)
    if problem is not None:
        raise SendError(problem)
    message = to_protobuf(request)
    spans = sum(len(ss.spans) for rs in message.resource_spans for ss in rs.scope_spans)
    traces = len({sp.trace_id for rs in message.resource_spans for ss in rs.scope_spans for sp in ss.spans})
    bare, login = credentials(url)  # urllib would take user:password@ for part of the host name
    try:
        req = urllib.request.Request(bare, data=message.SerializeToString(), method="POST", headers={
            "Content-Type": "application/x-protobuf", "User-Agent": f"fountain-audit/{__version__}"})
    except ValueError as e:  # (endpoint_problem let through a URL urllib does not take)
        raise SendError(f"not a usable URL: {e}") from None
    if login is not None:  # HTTP basic authentication; never sent on to where a redirect points
        token = base64.b64encode(f"{login[0]}:{login[1]}".encode("utf-8")).decode("ascii")
        req.add_unredirected_header("Authorization", f"Basic {token}")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 - the user's URL
            status, body = resp.status, resp.read()
    except urllib.error.HTTPError as e:
        try:
            detail = body_excerpt(e.read(_BODY_READ), e.headers.get("Content-Type", "") if e.headers else "")
        except OSError:  # the connection broke while the error body was read
            detail = ""
        raise SendError(f"HTTP {e.code} {e.reason}" + (f": {detail}" if detail else "")) from None
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", e)
        raise SendError(f"cannot send: {reason}") from None
    except ValueError as e:  # http.client.InvalidURL, a host name IDNA cannot encode ...
        raise SendError(f"not a usable URL: {e}") from None
    if body:
        answer = ExportTraceServiceResponse()
        try:
            answer.ParseFromString(body)
        except Exception:  # noqa: BLE001 - a receiver that answers JSON or text: the status said OK
            answer = None
        if answer is not None and answer.partial_success.rejected_spans:
            why = body_excerpt(answer.partial_success.error_message.encode("utf-8", "replace"), "text/plain")
            raise SendError(f"{answer.partial_success.rejected_spans} of {spans} spans rejected"
                            + (f": {why}" if why else ""))
    return SendResult(status, spans, traces)
