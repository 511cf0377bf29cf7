"""`export --endpoint` against a real trace backend: Arize Phoenix, started here on 127.0.0.1.

Needs the `phoenix` extra (`pip install '.[test,phoenix]'`; .ci/run installs it). The server
runs with its own empty working directory (SQLite), telemetry off, on free loopback ports, and
is stopped at the end. Spans are read back through Phoenix's REST API.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from fountain_audit.cli import main
from tests.conftest import SAMPLES

pytest.importorskip("phoenix.server.main", reason="the 'phoenix' extra is not installed")

CLEAN = SAMPLES / "clean-session.spmd"
START_TIMEOUT = 180  # seconds: Phoenix migrates its SQLite database on first start
READ_TIMEOUT = 60


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str):
    with urllib.request.urlopen(url, timeout=10) as r:  # noqa: S310 - loopback only
        return r.status, r.read()


@pytest.fixture(scope="module")
def phoenix(tmp_path_factory):
    work = tmp_path_factory.mktemp("phoenix")
    port, grpc = _free_port(), _free_port()
    env = {**os.environ, "PHOENIX_WORKING_DIR": str(work), "PHOENIX_HOST": "127.0.0.1",
           "PHOENIX_PORT": str(port), "PHOENIX_GRPC_PORT": str(grpc), "PHOENIX_TELEMETRY_ENABLED": "false"}
    env.pop("PHOENIX_SQL_DATABASE_URL", None)
    env.pop("PHOENIX_COLLECTOR_ENDPOINT", None)
    log = (work / "server.log").open("wb")
    proc = subprocess.Popen([sys.executable, "-m", "phoenix.server.main", "serve"], env=env, stdout=log,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(f"phoenix exited with {proc.returncode}:\n{_tail(work / 'server.log')}")
            try:
                if _get(base + "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"phoenix did not start in {START_TIMEOUT}s:\n{_tail(work / 'server.log')}")
            time.sleep(0.5)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def _tail(path: Path) -> str:
    return path.read_bytes()[-3000:].decode("utf-8", "replace")


def _spans(base: str, project: str = "default") -> list[dict]:
    out, cursor = [], None
    while True:
        url = f"{base}/v1/projects/{project}/spans?limit=100" + (f"&cursor={cursor}" if cursor else "")
        status, body = _get(url)
        page = json.loads(body)
        out += page["data"]
        cursor = page.get("next_cursor")
        if not cursor:
            return out


def test_clean_session_round_trips_through_phoenix(phoenix, tmp_path):
    sent = tmp_path / "sent.json"
    r = CliRunner().invoke(main, ["export", "--endpoint", f"{phoenix}/v1/traces", "-o", str(sent), str(CLEAN)])
    assert r.exit_code == 0, r.output
    doc = json.loads(sent.read_text(encoding="utf-8"))
    ours = doc["resourceSpans"][0]["scopeSpans"][0]["spans"]
    assert r.stderr == (f"fountain-audit: wrote {sent}\n"  # (-o says what it wrote, as report -o: stop 38)
                        f"fountain-audit: sent {len(ours)} spans in 1 trace to {phoenix}/v1/traces (HTTP 200)\n")

    deadline = time.monotonic() + READ_TIMEOUT  # Phoenix ingests asynchronously
    while True:
        theirs = [s for s in _spans(phoenix) if s["context"]["trace_id"] == ours[0]["traceId"]]
        if len(theirs) >= len(ours) or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert len(theirs) == len(ours) == 21  # 20 + s13, a chat scene holding only a note

    def shape(spans, span_id, parent, name, status):
        by_id = {span_id(s): s for s in spans}
        return sorted((name(s), name(by_id[parent(s)]) if parent(s) else None, status(s)) for s in spans)

    sent_tree = shape(ours, lambda s: s["spanId"], lambda s: s.get("parentSpanId"), lambda s: s["name"],
                      lambda s: "ERROR" if s["status"].get("code") == 2 else "UNSET")
    phoenix_tree = shape(theirs, lambda s: s["context"]["span_id"], lambda s: s.get("parent_id"),
                         lambda s: s["name"], lambda s: s["status_code"])
    assert phoenix_tree == sent_tree
    by_name = {}
    for s in theirs:
        by_name.setdefault(s["name"], []).append(s)
    (failed,) = by_name["execute_tool run_shell"]
    assert failed["status_code"] == "ERROR" and failed["status_message"] == "exit status 2"
    assert failed["attributes"]["gen_ai.tool.call.id"] == "t1.tool2"
    assert failed["attributes"]["error.type"] == "_OTHER"
    (root,) = by_name["invoke_agent harvey"]
    assert root["parent_id"] is None
    assert {s["context"]["span_id"] for s in by_name["chat qwen2.5-coder:7b"]} \
        == {s["spanId"] for s in ours if s["name"] == "chat qwen2.5-coder:7b"}  # the ids we derived
    chat = next(s for s in by_name["chat qwen2.5-coder:7b"] if s["attributes"].get("harvey.id") == "t1")
    assert chat["attributes"]["gen_ai.usage.input_tokens"] == 2412
    # the EXT route to LIGHTHOUSE: an endpoint, its model not recorded (the span was "chat
    # LIGHTHOUSE" with gen_ai.request.model "LIGHTHOUSE")
    (route,) = [s for s in theirs if s["attributes"].get("harvey.id") == "t5"]
    assert (route["name"], route["attributes"].get("gen_ai.request.model"), route["attributes"]["harvey.route.endpoint"]) \
        == ("chat", None, "LIGHTHOUSE")
    assert {s["attributes"].get("gen_ai.request.model") for s in theirs if s["name"].startswith("chat")} == {
        "qwen2.5-coder:7b", "devstral:24b", None}
    assert chat["start_time"].startswith("2026-08-03T14:20:31")
