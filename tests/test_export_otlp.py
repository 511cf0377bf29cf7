"""`fountain-audit export --to otlp-json`: parsed with the official OTLP protobuf classes."""

from __future__ import annotations

import contextlib
import json
import re

import pytest
from click.testing import CliRunner

from fountain_audit.cli import main
from tests.conftest import SAMPLES, shared_files, shared_path

pytest.importorskip("opentelemetry.proto.collector.trace.v1.trace_service_pb2")
from google.protobuf import json_format  # noqa: E402
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest  # noqa: E402

from fountain_audit.export.send import to_protobuf  # noqa: E402

CLEAN = SAMPLES / "clean-session.spmd"
SAMPLE_FILES = sorted(p for p in SAMPLES.rglob("*") if p.suffix in (".spmd", ".fountain"))
FALLBACK = "2026-01-01T00:00:00Z"


def run(*args: str, input: bytes | None = None):
    return CliRunner().invoke(main, ["export", *args], input=input)


def export(*paths, extra: tuple[str, ...] = ()) -> dict:
    r = run("--to", "otlp-json", *extra, *map(str, paths))
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def attrs(span) -> dict:
    """Attributes of a protobuf span as Python values."""
    out = {}
    for kv in span.attributes:
        which = kv.value.WhichOneof("value")
        out[kv.key] = getattr(kv.value, which) if which != "array_value" else [
            v.string_value for v in kv.value.array_value.values]
    return out


def tree(message) -> list[tuple[str, str | None]]:
    spans = [sp for rs in message.resource_spans for ss in rs.scope_spans for sp in ss.spans]
    by_id = {sp.span_id: sp for sp in spans}
    return [(sp.name, by_id[sp.parent_span_id].name if sp.parent_span_id else None) for sp in spans]


def test_the_fixture_parses_the_same_way():
    """The reference OTLP/JSON fixture goes through the same conversion (hex ids → bytes)."""
    doc = json.loads(shared_path("interop", "otel", "examples", "anthropic-span-traces.json").read_text())
    m = to_protobuf(doc)
    sp = m.resource_spans[0].scope_spans[0].spans[0]
    assert sp.trace_id.hex() == "138cb1ae0fff80600f2ef6b0a78b2ff4" and sp.name == "chat claude-sonnet-4-5"


@pytest.mark.parametrize("path", [*SAMPLE_FILES, *shared_files()], ids=lambda p: p.name)
def test_every_session_parses_with_the_official_protobuf_classes(path):
    r = run("--to", "otlp-json", str(path))
    if ": nothing to export" in r.stderr:  # empty, blank or binary: refused, and said so
        assert r.exit_code == 2
        return
    if r.exit_code == 2:
        assert re.search("no scene heading has a (valid )?timestamp", r.stderr)
        doc = export(path, extra=("--fallback-time", FALLBACK))
    else:
        assert r.exit_code == 0, r.output
        doc = json.loads(r.stdout)
    # strict: an unknown field or a wrongly typed value fails the parse
    message = to_protobuf(doc)
    assert isinstance(message, ExportTraceServiceRequest)
    (rs,) = message.resource_spans
    spans = [sp for ss in rs.scope_spans for sp in ss.spans]
    assert {sp.trace_id for sp in spans} == {spans[0].trace_id} and len(spans[0].trace_id) == 16
    ids = [sp.span_id for sp in spans]
    assert all(len(i) == 8 for i in ids) and len(set(ids)) == len(ids)
    roots = [sp for sp in spans if not sp.parent_span_id]
    service = {a.key: a.value.string_value for a in rs.resource.attributes}["service.name"]
    # the harness's invocation only where the file records the harness (a plain screenplay: none)
    assert ([sp.name for sp in roots], service) in ((["invoke_agent harvey"], "harvey"), (["session"], "unknown_service"))
    for sp in spans:
        assert not sp.parent_span_id or sp.parent_span_id in ids
        assert sp.end_time_unix_nano >= sp.start_time_unix_nano > 0
        a = attrs(sp)
        if sp.name.startswith("chat"):
            assert a["gen_ai.operation.name"] == "chat" and sp.kind == 3
        if sp.name.startswith("execute_tool"):
            assert a["gen_ai.operation.name"] == "execute_tool"
            assert (sp.status.code == 2) == (a.get("harvey.tool.status") == "error")
    # and back: the protobuf message's JSON (base64 ids) round-trips
    again = json_format.Parse(json_format.MessageToJson(message), ExportTraceServiceRequest())
    assert again == message


def test_clean_session_span_tree_and_attributes():
    message = to_protobuf(export(CLEAN))
    root = "invoke_agent harvey"
    q, d = "chat qwen2.5-coder:7b", "chat devstral:24b"
    assert tree(message) == [
        (root, None), ("context-recall", root),
        (q, root), ("execute_tool search_notes", q), ("execute_tool run_shell", q), ("execute_tool write_file", q),
        (q, root), ("execute_tool add_memory", q),
        ("chunk-analysis", root),
        (q, root), ("execute_tool read_file", q),
        ("shell", root),
        (d, root), ("execute_tool read_file", d), ("execute_tool list_files", d),
        ("chat", root),  # the EXT route to LIGHTHOUSE: an endpoint, its model not recorded
        ("agent-mode", root), ("skill", root), (d, root), (d, root),
        ("scene chat", root)]  # s13: a chat scene with no turn, only the pipeline-stopped note
    spans = list(message.resource_spans[0].scope_spans[0].spans)
    assert spans[0].end_time_unix_nano == 1785767405 * 10**9  # the last heading, 2026-08-03T14:30:05Z
    chat = spans[2]
    a = attrs(chat)
    assert {k: a[k] for k in ("gen_ai.operation.name", "gen_ai.provider.name", "gen_ai.request.model",
                              "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens", "harvey.id",
                              "harvey.actor", "harvey.user.actor")} == {
        "gen_ai.operation.name": "chat", "gen_ai.provider.name": "ollama", "gen_ai.request.model": "qwen2.5-coder:7b",
        "gen_ai.usage.input_tokens": 2412, "gen_ai.usage.output_tokens": 186, "harvey.id": "t1",
        "harvey.actor": "agent:qwen2.5-coder", "harvey.user.actor": "human:margot"}
    assert chat.start_time_unix_nano == 1785766831 * 10**9  # 2026-08-03T14:20:31Z
    assert chat.end_time_unix_nano - chat.start_time_unix_nano == 11_904_000_000  # stats: 11.904s
    assert json.loads(a["gen_ai.input.messages"]) == [{"role": "user", "parts": [
        {"type": "text", "content": "What did we agree at the July retro, and does the test suite pass?"}]}]
    assert [(e.name, attrs(e).get("harvey.rag.top_score")) for e in chat.events] == [
        ("harvey.rag", 0.79), ("harvey.rag_source", None), ("harvey.rag_source", None), ("harvey.memory_tool", None)]
    failed = spans[4]
    assert failed.status.code == 2 and failed.status.message == "exit status 2"
    assert attrs(failed)["error.type"] == "_OTHER" and attrs(failed)["gen_ai.tool.call.id"] == "t1.tool2"
    assert spans[3].status.code == 0 and "error.type" not in attrs(spans[3])
    assert [attrs(s)["gen_ai.tool.call.id"] for s in spans if s.name.startswith("execute_tool")] == [
        "t1.tool1", "t1.tool2", "t1.tool3", "t2.tool1", "t3.tool1", "t4.tool1", "t4.tool2"]
    recall = spans[1]
    assert [(e.name, attrs(e)["harvey.recall.score"]) for e in recall.events] == [
        ("harvey.recall", 1.0), ("harvey.recall", 0.81)]
    lighthouse = attrs(spans[15])
    assert "gen_ai.provider.name" not in lighthouse and "gen_ai.usage.input_tokens" not in lighthouse
    # (was gen_ai.request.model "LIGHTHOUSE" and span "chat LIGHTHOUSE": the route's name as the model)
    assert {k: v for k, v in lighthouse.items() if k.startswith(("gen_ai.request", "harvey.route", "server."))} == {
        "harvey.route.endpoint": "LIGHTHOUSE"}
    assert (lighthouse["harvey.id"], lighthouse["harvey.forwarding.target"], lighthouse["harvey.actor"]) == (
        "t5", "LIGHTHOUSE", "agent:lighthouse")
    assert [attrs(s).get("gen_ai.request.model") for s in spans if s.name.startswith("chat")] == [
        "qwen2.5-coder:7b", "qwen2.5-coder:7b", "qwen2.5-coder:7b", "devstral:24b", None, "devstral:24b",
        "devstral:24b"]
    r = attrs(spans[0])
    assert (r["gen_ai.agent.name"], r["gen_ai.usage.input_tokens"], r["gen_ai.usage.output_tokens"]) == (
        "harvey", 2412 + 1870 + 3105 + 1544, 186 + 12 + 24 + 19)
    assert spans[0].end_time_unix_nano == spans[-1].end_time_unix_nano


def test_two_exports_are_byte_identical_and_ids_come_from_content(tmp_path):
    a = run("--to", "otlp-json", str(CLEAN))
    b = run("--to", "otlp-json", str(CLEAN))
    assert a.stdout_bytes == b.stdout_bytes
    copy = tmp_path / "copy.spmd"
    copy.write_bytes(CLEAN.read_bytes())
    c = export(copy)
    ids = lambda d: [(s["traceId"], s["spanId"]) for s in d["resourceSpans"][0]["scopeSpans"][0]["spans"]]
    assert ids(c) == ids(json.loads(a.stdout))  # the same content, wherever it lives
    copy.write_bytes(CLEAN.read_bytes() + b"\n")
    assert ids(export(copy))[0][0] != ids(c)[0][0]
    copy.write_bytes(CLEAN.read_bytes())  # the same content twice: two traces, the first with the usual ids
    both = export(CLEAN, SAMPLES / "violations" / "T103-several-exchanges-in-scene.spmd", copy)
    traces = [rs["scopeSpans"][0]["spans"][0]["traceId"] for rs in both["resourceSpans"]]
    assert len(traces) == 3 and len(set(traces)) == 3 and traces[0] == ids(c)[0][0]
    to_protobuf(both)


def test_redact_paths():
    r = run("--to", "otlp-json", "--redact-paths", str(CLEAN))
    assert r.exit_code == 0 and "/home/margot" not in r.stdout
    assert "/home/margot" in run("--to", "otlp-json", str(CLEAN)).stdout


def test_endpoint_errors_exit_1():
    r = run("--endpoint", "http://127.0.0.1:9/v1/traces", "--timeout", "2", str(CLEAN))
    assert r.exit_code == 1 and "http://127.0.0.1:9/v1/traces: cannot send" in r.stderr


@contextlib.contextmanager
def serving(handler):
    """A local HTTP server answering with ``handler`` (a ``BaseHTTPRequestHandler`` class) on a free
    port of 127.0.0.1, in a thread, while the block runs: yields the port."""
    import http.server
    import threading

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def refusing_server():
    """A local HTTP server that refuses every POST: ``/405`` with http.server's own HTML error
    page, ``/500`` with an HTML page holding a terminal escape, ``/502`` with a protobuf body,
    ``/partial`` with 200 and an OTLP partial success (2 spans rejected)."""
    import http.server

    class Refuse(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if self.path == "/partial":  # 200, but some spans rejected, with a two-line reason
                from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse
                answer = ExportTraceServiceResponse()
                answer.partial_success.rejected_spans = 2
                answer.partial_success.error_message = "span too old\n\x1b[31mdropped"
                data = answer.SerializeToString()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                return
            if self.path == "/405":
                self.send_error(405)
                return
            if self.path == "/500":
                ctype, body = "text/html; charset=utf-8", (
                    "<!DOCTYPE HTML>\n<html><head><title>Oops</title><style>p {}</style></head>\n<body>\n"
                    "<h1>Internal\n  error</h1>\r\n<p>\x1b[2Jspans &amp; \x07more " + "x" * 200 + "</p></body></html>")
            else:
                ctype, body = "application/x-protobuf", "\x08\x03\x12\x04oops"
            data = body.encode()
            self.send_response(int(self.path[1:]))
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    with serving(Refuse) as port:
        yield f"http://127.0.0.1:{port}"


def test_a_refusing_endpoint_gives_status_reason_and_a_short_one_line_excerpt(refusing_server):
    """Not the raw HTML page: the HTTP status and reason, then at most 120 characters of the
    page's text on the same line, with no control character; nothing of a binary body."""
    for path, expected in (
            ("/405", "HTTP 405 Method Not Allowed: Error response Error code: 405 Message: Method Not Allowed. "
                     "Error code explanation: 405 - Specified method is invalid f…"),
            ("/500", "HTTP 500 Internal Server Error: Internal error [2Jspans & more " + "x" * 88 + "…"),
            ("/502", "HTTP 502 Bad Gateway"),
            ("/partial", "2 of 21 spans rejected: span too old [31mdropped")):
        url = refusing_server + path
        r = run("--endpoint", url, "--timeout", "5", str(CLEAN))
        assert r.exit_code == 1
        assert r.stderr == f"fountain-audit: error: {url}: {expected}\n"


@pytest.mark.parametrize("url", ["127.0.0.1:18765", "ftp://x/v1/traces", "http://", "http://[::1", "/v1/traces"])
def test_an_endpoint_that_is_not_an_http_url_is_a_usage_error(url, tmp_path):
    """Nothing is sent or written: exit 2 with click's usage message, as for the other usage errors."""
    out = tmp_path / "traces.json"
    r = run("--endpoint", url, "-o", str(out), str(CLEAN))
    assert r.exit_code == 2 and not out.exists()
    usage, _, error = r.stderr.partition("\n\n")
    assert usage.startswith("Usage: ") and usage.endswith(" export --help' for help.")
    assert error == (f"Error: Invalid value for --endpoint: {url!r}: the endpoint must be an http:// or https:// URL, "
                     "e.g. http://127.0.0.1:4318/v1/traces\n")


def test_legacy_stats_note_gives_usage_and_duration():
    spans = export(SAMPLES / "violations" / "L102-legacy-stats-note.spmd")["resourceSpans"][0]["scopeSpans"][0]["spans"]
    (chat,) = [s for s in spans if s["name"].startswith("chat")]
    assert int(chat["endTimeUnixNano"]) - int(chat["startTimeUnixNano"]) == 1_650_000_000
    assert {"key": "gen_ai.usage.output_tokens", "value": {"intValue": "19"}} in chat["attributes"]


RANGE = "(1970-01-01T00:00:00Z to 2554-07-21T23:34:33.709551615Z)"


def _session(tmp_path, name: str, heading_time: str, stats: str | None = None):
    f = tmp_path / name
    turn = f"MARGOT\nhi\n\nHARVEY\nhello\n\nOllama (q) · {stats}\n\n" if stats else ""
    f.write_text(f"Title: t\nAuthor: A\n\nFADE IN:\n\nINT. HARVEY AND MARGOT TALKING {heading_time}\n\n{turn}THE END.\n",
                 encoding="utf-8")
    return f


def test_a_time_otlp_cannot_carry_is_an_error_for_that_file_only(tmp_path):
    # year 0001 was written as startTimeUnixNano "-62135560800000000000" (and 9999 above 2**64),
    # which the protobuf conversion of --endpoint then refused with a traceback
    files = [_session(tmp_path, "y0001.spmd", "0001-01-01 10:00:00"),
             _session(tmp_path, "y1969.spmd", "1969-12-31 23:59:59"),
             _session(tmp_path, "ok.spmd", "2554-07-21 23:34:33"),
             _session(tmp_path, "y9999.spmd", "9999-12-31 23:59:59")]
    r = run("--to", "otlp-json", *map(str, files))
    assert r.exit_code == 2
    assert r.stderr == "".join(
        f"fountain-audit: error: {tmp_path / name}: the time of scene s1's heading, {t}, is outside what OTLP can "
        f"carry {RANGE}: not exported\n"
        for name, t in [("y0001.spmd", "0001-01-01T10:00:00Z"), ("y1969.spmd", "1969-12-31T23:59:59Z"),
                        ("y9999.spmd", "9999-12-31T23:59:59Z")])
    doc = json.loads(r.stdout)
    m = to_protobuf(doc)  # what --endpoint sends
    assert [rs["resource"]["attributes"][1]["value"]["stringValue"] for rs in doc["resourceSpans"]] == [
        str(tmp_path / "ok.spmd")]
    assert [sp.start_time_unix_nano for sp in m.resource_spans[0].scope_spans[0].spans] == [18446744073 * 10**9] * 2
    late = run("--to", "otlp-json", "--utc-offset", "-00:01", str(files[2]))  # 23:35:33Z: past 2**64 ns
    assert late.exit_code == 2 and late.stderr == (
        f"fountain-audit: error: {files[2]}: the time of scene s1's heading, 2554-07-21T23:34:33-00:01, is outside "
        f"what OTLP can carry {RANGE}: not exported\n")
    assert late.stdout == ""  # (no empty document: it printed {"resourceSpans": []})
    out = tmp_path / "kept.json"
    out.write_text("kept")
    late = run("--to", "otlp-json", "--utc-offset", "-00:01", str(files[2]), "-o", str(out))
    assert late.exit_code == 2 and out.read_text() == "kept"  # (was overwritten by the empty document)


def test_a_hand_off_time_with_an_offset_of_60_minutes_gives_no_time(tmp_path):
    """`+02:60` (H101: no date and time) was read as +03:00 and exported (adversarial trial, stop 33)."""
    f = tmp_path / "h.spmd"
    f.write_text("INT. HAND-OFF - 2026-07-01T16:04:05+02:60\n\nHARVEY\nHanded off.\n", encoding="utf-8")
    r = run("--to", "otlp-json", str(f))
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr == (f"fountain-audit: error: {f}:1:1: no scene heading has a valid timestamp (this one's, "
                        "'2026-07-01T16:04:05+02:60', is no date and time), so the session has no time; pass "
                        "--fallback-time TIME to export it with an explicit time\n")


def test_a_turn_end_is_computed_in_integers_and_never_past_what_otlp_carries(tmp_path):
    ok = _session(tmp_path, "long.spmd", "2026-08-03 14:20:31", "9999999999.9s")
    doc = export(ok)
    chat = doc["resourceSpans"][0]["scopeSpans"][0]["spans"][1]
    assert chat["name"] == "chat q"
    assert (chat["startTimeUnixNano"], chat["endTimeUnixNano"]) == (
        "1785766831000000000", str(1785766831000000000 + 9999999999900000000))  # float: ...900000256
    too_long = _session(tmp_path, "longer.spmd", "2026-08-03 14:20:31", "99999999999.9s")
    r = run("--to", "otlp-json", str(too_long), str(ok))
    assert r.exit_code == 2
    assert r.stderr == (f"fountain-audit: error: {too_long}: turn t1 ends 99999999999.9s (its stats line) after "
                        f"2026-08-03T14:20:31Z, later than OTLP can carry {RANGE}: not exported\n")
    assert json.loads(r.stdout) == doc


def test_output_dash_prints_the_document_also_with_an_endpoint(tmp_path, monkeypatch):
    """With --endpoint the document is printed only with -o: `-o -` prints it (it wrote a file
    named '-')."""
    monkeypatch.chdir(tmp_path)
    plain = run("--to", "otlp-json", str(CLEAN))
    assert (run("--to", "otlp-json", "-o", "-", str(CLEAN)).stdout, plain.exit_code) == (plain.stdout, 0)
    r = run("--endpoint", "http://127.0.0.1:9/v1/traces", "--timeout", "2", "-o", "-", str(CLEAN))
    assert r.exit_code == 1 and "http://127.0.0.1:9/v1/traces: cannot send" in r.stderr
    assert r.stdout == plain.stdout
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("value, message", [
    ("nan", "'nan' is not a number of seconds"),
    ("inf", "inf is not in the range 0.1<=x<=86400.0."),
    ("1e308", "1e+308 is not in the range 0.1<=x<=86400.0."),
])
def test_a_timeout_that_is_not_a_number_of_seconds_is_a_usage_error(value, message):
    """--timeout nan reached the socket (ValueError, a traceback), inf and 1e308 overflowed it."""
    r = run("--endpoint", "http://127.0.0.1:9/v1/traces", "--timeout", value, str(CLEAN))
    assert r.exit_code == 2
    assert r.output.splitlines()[-1] == f"Error: Invalid value for '--timeout': {message}"


def test_a_fallback_time_finer_than_a_microsecond_is_refused():
    """`.123456789` was cut to `.123456` without a word (datetime keeps microseconds)."""
    r = run("--to", "otlp-json", "--fallback-time", "2026-08-03T14:20:00.123456789Z", str(CLEAN))
    assert r.exit_code == 2
    assert r.output.splitlines()[-1] == ("Error: Invalid value for --fallback-time: '2026-08-03T14:20:00.123456789Z' "
                                         "gives 9 digits of a second; times are kept to the microsecond (6 digits)")


def test_the_root_span_holds_every_span_when_heading_times_go_backwards(tmp_path):
    f = tmp_path / "back.spmd"
    turn = "ALICE\n{q}\n\nHARVEY\nForwarding to LLAMA.\n\nLLAMA\nok\n\n"
    f.write_text("Title: A\nAuthor: ALICE\n\nFADE IN:\n\n"
                 "INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n\n" + turn.format(q="one") +
                 "INT. HARVEY AND ALICE TALKING 2026-06-24 10:01:30\n\n" + turn.format(q="two") + "THE END.\n",
                 encoding="utf-8")
    spans = export(f)["resourceSpans"][0]["scopeSpans"][0]["spans"]
    root, children = spans[0], spans[1:]
    assert root["name"] == "invoke_agent harvey"
    assert [(s["name"], s["startTimeUnixNano"]) for s in children] == [
        ("chat LLAMA", "1782295350000000000"), ("chat LLAMA", "1782295290000000000")]  # 10:02:30, 10:01:30 UTC
    assert root["startTimeUnixNano"] == "1782295290000000000"  # the earliest, not the first heading's
    assert all(int(root["startTimeUnixNano"]) <= int(s["startTimeUnixNano"]) and
               int(s["endTimeUnixNano"]) <= int(root["endTimeUnixNano"]) for s in children)


@pytest.mark.parametrize(("url", "shown", "problem"), [
    ("http://a b/", "'http://a b/'",
     "the endpoint must not contain spaces or control characters (found ' '): percent-encode them"),
    ("http://127.0.0.1:9/x\x1b[31my", "'http://127.0.0.1:9/x\\x1b[31my'",
     "the endpoint must not contain spaces or control characters (found '\\x1b'): percent-encode them"),
    ("http://127.0.0.1:9/v1?a\tb", "'http://127.0.0.1:9/v1?***'",
     "the endpoint must not contain spaces or control characters (found '\\t'): percent-encode them"),
    ("http://u:se cret@127.0.0.1:9/x", "'http://u:***@127.0.0.1:9/x'",
     "the endpoint must not contain spaces or control characters (found ' '): percent-encode them"),
    ("http://127.0.0.1:x/", "'http://127.0.0.1:x/'", "the endpoint's port must be a number from 0 to 65535"),
    ("http://127.0.0.1:99999/", "'http://127.0.0.1:99999/'", "the endpoint's port must be a number from 0 to 65535"),
    ("http://127.0.0.1:9/tr\u00e4ces", "'http://127.0.0.1:9/tr\u00e4ces'",
     "the endpoint must be ASCII after the host: percent-encode '\u00e4' (%C3%A4)"),
    ("user:s3cret@127.0.0.1:9", "'user:***@127.0.0.1:9'",
     "the endpoint must be an http:// or https:// URL, e.g. http://127.0.0.1:4318/v1/traces"),
])
def test_an_endpoint_http_client_refuses_is_a_usage_error_shown_escaped_and_masked(url, shown, problem, tmp_path):
    """'http://a b/', or an ESC in the path, ended in an http.client.InvalidURL traceback (exit 1); a non-numeric
    port too, a non-ASCII path in a UnicodeEncodeError. Now a usage error (exit 2) naming the problem, the URL as a
    Python literal (no raw control character), any password masked; nothing written."""
    out = tmp_path / "traces.json"
    r = run("--endpoint", url, "-o", str(out), str(CLEAN))
    assert r.exit_code == 2 and not out.exists()
    usage, _, error = r.stderr.partition("\n\n")
    assert usage.startswith("Usage: ") and usage.endswith(" export --help' for help.")
    assert error == f"Error: Invalid value for --endpoint: {shown}: {problem}\n"
    assert "s3cret" not in r.output and "se cret" not in r.output


@pytest.fixture
def recording_server():
    """A local OTLP/HTTP receiver that accepts every POST and records (path, Authorization header)."""
    import http.server

    seen: list[tuple[str, str | None]] = []

    class Accept(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            seen.append((self.path, self.headers.get("Authorization")))
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    with serving(Accept) as port:
        yield port, seen


def test_credentials_in_the_endpoint_are_sent_as_basic_auth_and_never_printed(recording_server):
    """http://user:pass@127.0.0.1:1/x was sent to the host 'user:pass@127.0.0.1' ('Name or service not known') and
    the password printed on standard error. The userinfo is sent as HTTP basic authentication (percent-decoded) and
    shown masked in every message."""
    import base64
    port, seen = recording_server
    r = run("--endpoint", f"http://al%40ice:p%3Ass@127.0.0.1:{port}/v1/traces", "--timeout", "5", str(CLEAN))
    assert (r.exit_code, r.stderr) == (0, f"fountain-audit: sent 21 spans in 1 trace to "
                                          f"http://al%40ice:***@127.0.0.1:{port}/v1/traces (HTTP 200)\n")
    assert seen == [("/v1/traces", "Basic " + base64.b64encode(b"al@ice:p:ss").decode())]
    r = run("--endpoint", f"http://t0ken@127.0.0.1:{port}/v1/traces", "--timeout", "5", str(CLEAN))
    assert (r.exit_code, r.stderr) == (0, f"fountain-audit: sent 21 spans in 1 trace to "
                                          f"http://***@127.0.0.1:{port}/v1/traces (HTTP 200)\n")
    assert seen[1] == ("/v1/traces", "Basic " + base64.b64encode(b"t0ken:").decode())
    r = run("--endpoint", f"http://127.0.0.1:{port}/v1/traces", "--timeout", "5", str(CLEAN))
    assert r.exit_code == 0 and seen[2] == ("/v1/traces", None)


def test_an_unreachable_endpoint_with_credentials_never_prints_the_password():
    r = run("--endpoint", "http://user:s3cret@127.0.0.1:9/x", "--timeout", "2", str(CLEAN))
    assert (r.exit_code, r.stderr) == (1, "fountain-audit: error: http://user:***@127.0.0.1:9/x: cannot send: "
                                          "[Errno 111] Connection refused\n")
    # (and the values of its query string: a collector's key may ride there, adversarial trial, stop 33)
    r = run("--endpoint", "http://127.0.0.1:9/x?api_key=S3CRETKEY&org=acme&T0KEN#top", "--timeout", "2", str(CLEAN))
    assert (r.exit_code, r.stderr) == (1, "fountain-audit: error: http://127.0.0.1:9/x?api_key=***&org=***&***#***: "
                                          "cannot send: [Errno 111] Connection refused\n")


def _chat_spans(doc: dict) -> list[tuple[str, str, str | None, str | None]]:
    """(harvey.id, span name, gen_ai.request.model, harvey.actor) of each chat span."""
    out = []
    for s in doc["resourceSpans"][0]["scopeSpans"][0]["spans"]:
        if s["name"].startswith("chat"):
            a = {kv["key"]: kv["value"].get("stringValue") for kv in s["attributes"]}
            out.append((a["harvey.id"], s["name"], a.get("gen_ai.request.model"), a.get("harvey.actor")))
    return out


def test_a_reply_under_harveys_cue_takes_the_scenes_model_never_harvey(tmp_path):
    """The spec's examples have HARVEY answer directly under a scene that says `Model:
    llama3:latest`: the span was "chat HARVEY" with gen_ai.request.model "HARVEY" (the harness
    named as the model). The scene's Model: as written is the model; the actor stays the cue's."""
    basic = export(shared_path("corpus", "harvey", "spec", "ff-v1.3-example1-basic.fountain"))
    assert _chat_spans(basic) == [("t1", "chat llama3:latest", "llama3:latest", "tool:harvey")]
    ops = export(shared_path("corpus", "harvey", "spec", "ff-v1.3-example3-file-ops.fountain"))
    assert _chat_spans(ops) == [("t1", "chat llama3:latest", "llama3:latest", "tool:harvey"),
                                ("t2", "chat llama3:latest", "llama3:latest", None),
                                ("t3", "chat llama3:latest", "llama3:latest", "tool:harvey")]
    # nothing records a model (no stats line, Model: or forwarding): left out, as the README says
    f = tmp_path / "bare.spmd"
    f.write_text("Title: t\nAuthor: A\n\nFADE IN:\n\nINT. HARVEY AND MARGOT TALKING 2026-05-04 10:00:00\n\n"
                 "MARGOT\nhi\n\nHARVEY\nhello\n\nTHE END.\n", encoding="utf-8")
    assert _chat_spans(export(f)) == [("t1", "chat", None, "tool:harvey")]


def test_the_root_span_names_harvey_only_when_the_file_records_it():
    """An EXT scene where only the user and CLAUDE speak (the spec's Scenario 4) records no
    harness: the root span had harvey.actor tool:harvey all the same; and its name, agent and
    service were Harvey's for it and for a plain screenplay (new-user trial, stop 29)."""
    def root(doc):
        span = doc["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
        attrs = {kv["key"]: kv["value"].get("stringValue") for kv in span["attributes"]}
        service = {kv["key"]: kv["value"]["stringValue"] for kv in doc["resourceSpans"][0]["resource"]["attributes"]
                   if kv["key"] == "service.name"}["service.name"]
        assert attrs["harvey.id"] == "doc"  # the whole file's id in dump and show (was "session": no id)
        return (span["name"], service, attrs.get("gen_ai.operation.name"), attrs.get("gen_ai.agent.name"),
                attrs.get("harvey.actor"))

    direct = export(shared_path("corpus", "harvey", "spec", "ff-v1.3-scenario4-ext-direct.fragment.fountain"))
    assert root(direct) == ("session", "unknown_service", None, None, None)
    assert _chat_spans(direct) == [("t1", "chat CLAUDE", "CLAUDE", "agent:claude")]
    assert root(export(CLEAN)) == ("invoke_agent harvey", "harvey", "invoke_agent", "harvey", "tool:harvey")
    fish = export(shared_path("corpus", "fountain", "screenplain__Big-Fish.fountain"),
                  extra=("--fallback-time", FALLBACK))
    spans = fish["resourceSpans"][0]["scopeSpans"][0]["spans"]
    assert root(fish) == ("session", "unknown_service", None, None, None)
    assert {kv["value"]["stringValue"] for s in spans[1:] for kv in s["attributes"] if kv["key"] == "harvey.actor"} == {
        "human:user"}


def test_a_hand_off_headings_time_starts_its_span():
    spans = export(shared_path("corpus", "harvey", "other", "handoff-reconstructed.spmd"))[
        "resourceSpans"][0]["scopeSpans"][0]["spans"]
    # 2026-07-01T16:04:05Z
    assert [(s["name"], s["startTimeUnixNano"]) for s in spans] == [
        ("invoke_agent harvey", "1782921845000000000"), ("hand-off", "1782921845000000000")]


def test_the_otlp_text_is_made_span_by_span_with_the_same_bytes():
    # (user trial: `export --to otlp-json` of a 3.6 MB, 3,000-turn session: 7.8 s, 526 MB peak, 145x
    # the input; the whole request was built as Python objects, then as one indented string)
    import sys
    import tracemalloc

    from fountain_audit.export import render
    from fountain_audit.export.common import SessionExport
    from fountain_audit.export.otlp import request_of, request_text
    from fountain_audit.export.timing import Clock
    from fountain_audit.model.session import build_session
    from fountain_audit.parse.fountain import parse
    from fountain_audit.privacy.redact import Redactor
    from tests.conftest import ROOT

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench
    text = bench.generate_session(300_000) + "\ufeff\udcff \x85 \u202e"  # (a lone surrogate, C1, bidi)
    sx = SessionExport("g.spmd", text, build_session(parse(text)), Clock())
    again = SessionExport("g.spmd", text, build_session(parse(text)), Clock())
    tracemalloc.start()
    try:
        pieces = request_text([sx, again])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    out = b"".join(pieces)
    assert out == render(request_of([sx, again]))[1].encode("utf-8")
    assert len(out) > 9_000_000
    # the pieces and little more (about 1.0x the output; the document of objects and its text: 7.7x)
    assert peak < 1.5 * len(out)
    red = Redactor(secrets=True, paths=True)
    red.learn(sx.session, text)
    assert b"".join(request_text([sx], redactor=red)) == render(request_of([sx]), red)[1].encode("utf-8")
    skipped: list = []
    assert b"".join(request_text([], skipped)) == render(request_of([]))[1].encode("utf-8") == \
        b'{\n  "resourceSpans": []\n}\n'


def test_a_token_count_beyond_int64_is_carried_as_its_digits(tmp_path):
    """`9223372036854775808 reply` (and two counts of 5e18 summed on the root span) made the
    protobuf encoder raise: a traceback from `export --endpoint`, and an intValue no OTLP reader
    takes in otlp-json (adversarial trial, stop 33)."""
    turn = ("MARGOT\nq\n\nHARVEY\nForwarding to MISTRAL.\n\nMISTRAL\nr\n\n"
            "Ollama (mistral:7b) · {n} reply + 7 ctx · 1.2s · 1 tok/s\n\n")
    text = ("INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\nHarvey and MARGOT are in chat mode. "
            "Model: MISTRAL. Workspace: /tmp/x.\n\n" + turn.format(n=9223372036854775808)
            + "INT. HARVEY AND MARGOT TALKING 2026-08-03 14:21:31\n\n" + turn.format(n=5000000000000000000)
            + "INT. HARVEY AND MARGOT TALKING 2026-08-03 14:22:31\n\n" + turn.format(n=5000000000000000000))
    (tmp_path / "o.spmd").write_text(text, encoding="utf-8")
    doc = export(tmp_path / "o.spmd")
    message = to_protobuf(doc)  # (raised ParseError: Value out of range)
    kinds = {a["key"]: next(iter(a["value"])) for rs in doc["resourceSpans"] for ss in rs["scopeSpans"]
             for sp in ss["spans"] for a in sp["attributes"] if a["key"] == "gen_ai.usage.output_tokens"
             and a["value"].get("stringValue", a["value"].get("intValue")) == "9223372036854775808"}
    assert kinds == {"gen_ai.usage.output_tokens": "stringValue"}
    spans = {(s.name, attrs(s).get("harvey.id")): attrs(s) for rs in message.resource_spans
             for ss in rs.scope_spans for s in ss.spans}
    got = sorted((name, str(a["gen_ai.usage.output_tokens"]), a["gen_ai.usage.input_tokens"])
                 for (name, _), a in spans.items() if "gen_ai.usage.output_tokens" in a)
    assert got == [("chat mistral:7b", "5000000000000000000", 7), ("chat mistral:7b", "5000000000000000000", 7),
                   ("chat mistral:7b", "9223372036854775808", 7),
                   ("invoke_agent harvey", "19223372036854775808", 21)]


def test_an_error_answer_that_echoes_the_url_never_prints_its_secrets():
    """A collector's 400 answer quoting the request path printed `?api_key=SECRET2` (adversarial
    trial, stop 33); a fragment and a `TOKEN=` parameter were shown unmasked."""
    import http.server

    class Echo(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            body = f"echo {self.path}".encode()
            self.send_response(400)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    with serving(Echo) as port:
        r = run("--endpoint", f"http://127.0.0.1:{port}/bad?api_key=S3CRET2&T0KEN=#fr4g", "--timeout", "5", str(CLEAN))
    assert (r.exit_code, r.stderr) == (1, f"fountain-audit: error: http://127.0.0.1:{port}/bad?api_key=***&***#***: "
                                          "HTTP 400 Bad Request: echo /bad?api_key=***&***=\n")
    assert "S3CRET2" not in r.output and "T0KEN" not in r.output


@pytest.mark.parametrize("offset", ["+02:60", "+24:00", "-0299"])
def test_a_fallback_time_with_no_real_offset_is_refused(offset):
    """`+02:60` was read as +03:00 (adversarial trial, stop 33), as a heading's is no longer."""
    r = run("--to", "otlp-json", "--fallback-time", f"2026-08-03T14:20:00{offset}", str(CLEAN))
    assert r.exit_code == 2
    assert r.output.splitlines()[-1] == (f"Error: Invalid value for --fallback-time: '2026-08-03T14:20:00{offset}': "
                                         f"{offset} is no UTC offset (hours 00-23, minutes 00-59)")


def test_a_stats_line_with_a_number_past_what_python_reads_is_exported(tmp_path):
    """A 5,000-digit count made export die with a ValueError traceback (adversarial trial, stop 33):
    the line is no stats line read."""
    f = tmp_path / "i.spmd"
    f.write_text("INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\nMARGOT\nq\n\nHARVEY\nForwarding to LLAMA3.\n\n"
                 "LLAMA3\nr\n\nOllama (llama3) · " + "9" * 5000 + " reply + 1 ctx · 1.0s · 10 tok/s\n", encoding="utf-8")
    for target in ("otlp-json", "toolpath"):
        r = run("--to", target, str(f))
        assert r.exit_code == 0, r.output


def test_a_stats_line_whose_counts_do_not_read_names_no_model(tmp_path):
    """`Ollama (llama3) · -5 reply + 5 ctx · …` made the span `chat Ollama (llama3) · -5 reply + 5 ctx`
    and that text the request model (second adversarial trial, stop 33): it is no stats line read."""
    f = tmp_path / "neg.spmd"
    f.write_text("INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\nMARGOT\nq\n\nHARVEY\nForwarding to LLAMA3.\n\n"
                 "LLAMA3\nr\n\nOllama (llama3) · -5 reply + 5 ctx · 1.0s · 10 tok/s\n", encoding="utf-8")
    spans = export(f)["resourceSpans"][0]["scopeSpans"][0]["spans"]
    assert [s["name"] for s in spans] == ["invoke_agent harvey", "chat LLAMA3"]
