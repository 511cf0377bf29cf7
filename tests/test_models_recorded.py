"""The models and remote endpoints a session records (fountain_audit.model.models), as the
report's header and the OTLP export show them, and the report's write counts.

Trial findings on samples/clean-session.spmd: the report listed DEVSTRAL and devstral:24b as two
models and the route endpoint LIGHTHOUSE as a model (OTLP: ``gen_ai.request.model``
``LIGHTHOUSE``); "writes 3" counted a skipped and an aborted write as writes.
"""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from fountain_audit.cli import main
from fountain_audit.commands.common import PerReason
from fountain_audit.dump import turn_records
from fountain_audit.model.models import EndpointEntry, ModelEntry, cue_of, is_cue, recorded_models, route_of
from fountain_audit.model.session import build_session
from fountain_audit.parse.fountain import parse
from fountain_audit.report.collect import collect, proposed_writes

from .conftest import SAMPLES, shared_path

CLEAN = SAMPLES / "clean-session.spmd"
HEAD = ("Title: Harvey Session\nCredit: Recorded by Harvey\nAuthor: IVO\nDate: 2026-09-01 10:00:00\n"
        "Draft date: 2026-09-01\n\n\nFADE IN:\n")


def chat(time: str, model: str, reply_cue: str, reply: str = "Done.", stats: str | None = None,
         target: str | None = None) -> str:
    """An INT chat scene as the recorder writes it (§7): description, user, forwarding, reply,
    stats line."""
    out = (f"\n\nINT. HARVEY AND IVO TALKING 2026-09-01 {time}\n\n"
           f"Harvey and IVO are in chat mode. Model: {model}. Workspace: /w.\n\nIVO\nGo.\n\n"
           f"HARVEY\nForwarding to {target or reply_cue}.\n\n{reply_cue}\n{reply}\n\n")
    return out + (f"{stats} · 5 reply + 50 ctx · 1s · 5.0 tok/s\n\n" if stats else "")


def ext(time: str, endpoint: str, routing: str | None = None, stats: str | None = None) -> str:
    """An EXT scene routed to ``endpoint`` (§7 EXT: no stats line, unless ``stats``)."""
    line = routing if routing is not None else f"Harvey routing to {endpoint}. Workspace: /w."
    out = (f"\n\nEXT. {endpoint} AND IVO 2026-09-01 {time}\n\n{line}\n\nIVO\n@{endpoint.lower()} go\n\n"
           f"HARVEY\nForwarding to {endpoint}.\n\n{endpoint}\nDone remotely.\n\n")
    return out + (f"{stats} · 1s\n\n" if stats else "")


def session_of(text: str):
    session = build_session(parse(text))
    return session, list(turn_records(session, "f.spmd"))


def recorded(text: str) -> tuple[list[tuple[list[str], list[str]]], list[tuple[str, list[str], list[str]]]]:
    """(ids, cues) of each model and (name, urls, models) of each endpoint ``text`` records."""
    r = recorded_models(*session_of(text))
    return [(m.ids, m.cues) for m in r.models], [(e.name, e.urls, e.models) for e in r.endpoints]


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def header(tmp_path, text: str) -> tuple[str, str | None]:
    """The report page's Models and Endpoints (``None``: no such row) for a session of ``text``."""
    f = tmp_path / "s.spmd"
    f.write_text(text, encoding="utf-8")
    r = run("report", str(f), "-o", str(tmp_path / "s.html"))
    assert r.exit_code == 0, r.output
    html = (tmp_path / "s.html").read_text(encoding="utf-8")
    models = re.search(r'<dd class="models">([^<]*)</dd>', html).group(1)
    endpoints = re.search(r'<dd class="endpoints">([^<]*)</dd>', html)
    return models, endpoints.group(1) if endpoints else None


def chat_spans(tmp_path, text: str) -> list[dict]:
    """The attributes (and ``name``) of each chat span of ``text``'s OTLP export."""
    f = tmp_path / "s.spmd"
    f.write_text(text, encoding="utf-8")
    r = run("export", "--to", "otlp-json", str(f))
    assert r.exit_code == 0, r.output
    out = []
    for s in json.loads(r.stdout)["resourceSpans"][0]["scopeSpans"][0]["spans"]:
        if s["name"].startswith("chat"):
            a = {kv["key"]: next(iter(kv["value"].values())) for kv in s["attributes"]}
            out.append({"name": s["name"], **a})
    return out


# -- the cue of an id (harvey-recorder-inventory.md §2, extractModelName) -------------------------

@pytest.mark.parametrize("model_id, cue", [
    ("devstral:24b", "DEVSTRAL"), ("qwen2.5-coder:7b", "QWEN2.5-CODER"), ("llama3.2:1b", "LLAMA3.2"),
    ("MichelRosselli/apertus:latest", "APERTUS"), ("Ollama (devstral:24b)", "DEVSTRAL"),
    ("anthropic (claude-sonnet-4-20250514)", "CLAUDE-SONNET-4-20250514"), ("mistral", "MISTRAL")])
def test_the_cue_is_derived_from_the_id_as_the_recorder_derives_it(model_id, cue):
    assert cue_of(model_id) == cue


def test_a_name_in_a_cue_position_is_a_cue_only_in_a_cues_form():
    assert [is_cue(n) for n in ("DEVSTRAL", "QWEN2.5-CODER", "llama3:latest", "mistral", "Ollama (x:1b)", "")] == [
        True, True, False, False, False, False]


# -- the clean sample ---------------------------------------------------------------------------

def test_clean_sample_each_model_once_and_lighthouse_an_endpoint():
    r = recorded_models(*session_of(CLEAN.read_text(encoding="utf-8")))
    assert r.models == [ModelEntry(["qwen2.5-coder:7b"], ["QWEN2.5-CODER"]), ModelEntry(["devstral:24b"], ["DEVSTRAL"])]
    assert r.endpoints == [EndpointEntry("LIGHTHOUSE", [], [])]
    assert [m.label for m in r.models] == ["qwen2.5-coder:7b (cue QWEN2.5-CODER)", "devstral:24b (cue DEVSTRAL)"]
    assert [e.label for e in r.endpoints] == ["LIGHTHOUSE (remote route; model not recorded)"]


def test_clean_sample_report_header_and_counts():
    text = CLEAN.read_text(encoding="utf-8")
    session, _ = session_of(text)
    page = collect(session, "clean-session.spmd", text, [])
    assert page.participants == {"human": ["MARGOT"], "agent": ["qwen2.5-coder:7b (cue QWEN2.5-CODER)",
                                                                "devstral:24b (cue DEVSTRAL)"], "tool": ["HARVEY"]}
    assert page.endpoints == ["LIGHTHOUSE (remote route; model not recorded)"]
    c = page.counts
    assert (c.writes_proposed, c.writes_ok, c.writes_skipped, c.writes_aborted, c.writes_error, c.writes_other) == (
        3, 1, 1, 1, 0, 0)


def test_clean_sample_otlp_names_no_endpoint_as_a_model(tmp_path):
    spans = chat_spans(tmp_path, CLEAN.read_text(encoding="utf-8"))
    assert [(s["harvey.id"], s["name"], s.get("gen_ai.request.model"), s.get("harvey.route.endpoint"))
            for s in spans] == [
        ("t1", "chat qwen2.5-coder:7b", "qwen2.5-coder:7b", None), ("t2", "chat qwen2.5-coder:7b", "qwen2.5-coder:7b", None),
        ("t3", "chat qwen2.5-coder:7b", "qwen2.5-coder:7b", None), ("t4", "chat devstral:24b", "devstral:24b", None),
        ("t5", "chat", None, "LIGHTHOUSE"), ("t6", "chat devstral:24b", "devstral:24b", None),
        ("t7", "chat devstral:24b", "devstral:24b", None)]
    assert not any(k.startswith("server.") for s in spans for k in s)  # (the file records no address)


# -- what ties a cue to an id -------------------------------------------------------------------

def test_a_cue_and_an_id_of_different_turns_stay_apart(tmp_path):
    """DEVSTRAL answers in one turn without a stats line; devstral:24b is named by a pipeline
    step HARVEY answers: nothing in the file ties them (the same derivation is no tie)."""
    text = HEAD + chat("10:00:00", "DEVSTRAL", "DEVSTRAL") + (
        "\n\nINT. PIPELINE A.MD STEP 1/1 2026-09-01 10:01:00\n\nIVO executes /pipeline 70% a.md.\n"
        "Model: Ollama (devstral:24b). Workspace: /w.\n\nIVO\nLint.\n\nHARVEY\nClean.\n\n") + "\nTHE END.\n"
    assert recorded(text) == ([([], ["DEVSTRAL"]), (["devstral:24b"], [])], [])
    assert header(tmp_path, text) == ("DEVSTRAL (cue; id not recorded); devstral:24b", None)


def test_a_stats_line_ties_only_the_cue_its_id_derives_to(tmp_path):
    """MISTRAL replies and the stats line names llama3.2:1b: the same turn, but LLAMA3.2 is
    that id's cue, not MISTRAL (the file contradicts itself; neither is made the other)."""
    text = HEAD + chat("10:00:00", "MISTRAL", "MISTRAL", stats="Ollama (llama3.2:1b)") + \
        chat("10:01:00", "LLAMA3.2", "LLAMA3.2", stats="Ollama (llama3.2:1b)") + "\nTHE END.\n"
    assert recorded(text) == ([([], ["MISTRAL"]), (["llama3.2:1b"], ["LLAMA3.2"])], [])
    assert header(tmp_path, text)[0] == "MISTRAL (cue; id not recorded); llama3.2:1b (cue LLAMA3.2)"


def test_a_model_switch_ties_its_id_to_the_model_the_next_chat_scene_names(tmp_path):
    """No stats line: the [[model switch:]] (since cf4aa0d it sets the recorder's model name) and
    the next scene's Model: DEVSTRAL tie devstral:24b to DEVSTRAL."""
    text = HEAD + chat("10:00:00", "QWEN2.5-CODER", "QWEN2.5-CODER") + \
        "\n[[model switch: devstral:24b (ollama) at 2026-09-01 10:00:30]]\n" + \
        chat("10:01:00", "DEVSTRAL", "DEVSTRAL") + "\nTHE END.\n"
    assert recorded(text) == ([([], ["QWEN2.5-CODER"]), (["devstral:24b"], ["DEVSTRAL"])], [])


def test_a_switch_the_recorder_did_not_name_the_scene_after_stays_apart():
    """Before cf4aa0d the switch did not update the model name: the scenes after it still say
    QWEN-CODING (epoch c7aef7d); phi-mini's cue would be PHI-MINI."""
    text = HEAD + "\n[[model switch: phi-mini (llamafile) at 2026-09-01 09:59:00]]\n" + \
        chat("10:00:00", "QWEN-CODING", "QWEN-CODING") + "\nTHE END.\n"
    assert recorded(text) == ([([], ["QWEN-CODING"]), (["phi-mini"], [])], [])


def test_two_ids_with_one_cue_are_one_entry():
    text = HEAD + chat("10:00:00", "LLAMA3.2", "LLAMA3.2", stats="Ollama (llama3.2:1b)") + \
        chat("10:01:00", "LLAMA3.2", "LLAMA3.2", stats="Ollama (llama3.2:3b)") + "\nTHE END.\n"
    r = recorded_models(*session_of(text))
    assert [m.label for m in r.models] == ["llama3.2:1b, llama3.2:3b (cue LLAMA3.2)"]


# -- remote endpoints ---------------------------------------------------------------------------

def test_a_route_with_a_url_gives_the_server_address_and_no_model(tmp_path):
    text = HEAD + ext("10:00:00", "PI2", "Harvey routing to PI2 at ollama://192.168.1.2:11434. Workspace: /w.") + \
        "\nTHE END.\n"
    assert recorded(text) == ([], [("PI2", ["ollama://192.168.1.2:11434"], [])])
    assert header(tmp_path, text) == ("none recorded", "PI2 at ollama://192.168.1.2:11434 (remote route; model not "
                                                        "recorded)")
    (span,) = chat_spans(tmp_path, text)
    assert {k: v for k, v in span.items() if k.startswith(("gen_ai.request", "gen_ai.provider", "harvey.route",
                                                           "server.")) or k == "name"} == {
        "name": "chat", "harvey.route.endpoint": "PI2", "harvey.route.url": "ollama://192.168.1.2:11434",
        "server.address": "192.168.1.2", "server.port": "11434"}


def test_a_routes_model_is_the_one_its_turn_records(tmp_path):
    """A stats line in the EXT scene (the recorder writes none there) names the endpoint's model."""
    text = HEAD + ext("10:00:00", "NODE1", stats="Ollama (mistral:7b)") + "\nTHE END.\n"
    assert recorded(text) == ([], [("NODE1", [], ["mistral:7b"])])
    assert header(tmp_path, text) == ("none recorded", "NODE1 (remote route; model mistral:7b)")
    (span,) = chat_spans(tmp_path, text)
    assert (span["name"], span["gen_ai.request.model"], span["gen_ai.provider.name"], span["harvey.route.endpoint"]) == (
        "chat mistral:7b", "mistral:7b", "ollama", "NODE1")


def test_an_ext_scene_harvey_does_not_route_is_the_models_own(tmp_path):
    """The spec's direct conversation (`CLAUDE and IVO in direct conversation`, no HARVEY): CLAUDE
    is a model (§4 a_ext_direct), as before."""
    text = HEAD + ("\n\nEXT. CLAUDE AND IVO 2026-09-01 10:00:00\n\nCLAUDE and IVO in direct conversation. "
                   "Workspace: /w.\n\nIVO\nExplain.\n\nCLAUDE\nSure.\n\n") + "\nTHE END.\n"
    session, turns = session_of(text)
    assert route_of(turns[0], session.scenes[0]) is None
    assert recorded(text) == ([([], ["CLAUDE"])], [])
    (span,) = chat_spans(tmp_path, text)
    assert (span["name"], span["gen_ai.request.model"], "harvey.route.endpoint" in span) == ("chat CLAUDE", "CLAUDE",
                                                                                              False)


def test_an_int_scene_whose_model_is_a_url_is_a_route(tmp_path):
    """The v1.0 form the spec's Example 4 keeps (lint H105): Model: ollama://… in an INT scene
    names the endpoint, PI4 (the forwarding target) its name; no model is recorded."""
    text = (SAMPLES / "violations" / "H105-int-scene-names-remote-route.spmd").read_text(encoding="utf-8")
    assert recorded(text) == ([], [("PI4", ["ollama://10.0.7.4:11434"], [])])
    (span,) = chat_spans(tmp_path, text)
    assert (span["name"], span.get("gen_ai.request.model"), span["server.address"], span["server.port"]) == (
        "chat", None, "10.0.7.4", "11434")


def test_the_specs_routed_scenarios_are_endpoints():
    for name, endpoint in (("ff-v1.3-scenario2-ext-route.fragment.fountain", ("PI2", ["ollama://192.168.1.2:11434"], [])),
                           ("ff-v1.3-scenario3-ext-cloud.fragment.fountain", ("MISTRAL", [], [])),
                           ("ff-v1.3-example4-routed-ollama.fountain", ("PI2", ["ollama://192.168.1.2:11434"], []))):
        path = shared_path("corpus", "harvey", "spec", name)
        assert recorded(path.read_text(encoding="utf-8"))[1] == [endpoint], name


# -- writes -------------------------------------------------------------------------------------

def test_write_outcomes_are_counted_by_status_and_proposals_by_their_number():
    agent = ("\n\nINT. AGENT MODE 2026-09-01 10:02:00\n\nHARVEY\nHarvey proposes to write 4 file(s).\n\n"
             "HARVEY\nWrite a.md?\n\nIVO\nyes\n\n[[write: a.md — ok]]\n\n"
             "HARVEY\nWrite b.md?\n\nIVO\nno\n\n[[write: b.md — skipped]]\n\n"
             "HARVEY\nWrite c.md?\n\nIVO\nyes\n\n[[write: c.md — error: permission denied]]\n\n"
             "HARVEY\nWrite d.md?\n\nIVO\nquit\n\n[[write: d.md — aborted]]\n\n")
    # the untagged-code fallback: a prompt and its outcome in the chat scene, no proposal (§7)
    fallback = chat("10:03:00", "GEMMA3", "GEMMA3") + "HARVEY\nWrite e.go?\n\nIVO\nyes\n\n[[write: e.go — ok]]\n\n"
    text = HEAD + chat("10:00:00", "GEMMA3", "GEMMA3") + agent + fallback + "[[write: f.md]]\n\n" + "\nTHE END.\n"
    session, _ = session_of(text)
    assert proposed_writes(session) == 5
    c = collect(session, "f.spmd", text, []).counts
    assert (c.writes_proposed, c.writes_ok, c.writes_skipped, c.writes_aborted, c.writes_error, c.writes_other) == (
        5, 2, 1, 1, 1, 1)  # (other: [[write: f.md]] has no status)
    assert (c.writes, c.writes_unproposed) == (6, 1)  # (f.md: no prompt in its scene accounts for it)


def test_the_index_shows_writes_ok_of_proposed(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "c.spmd").write_text(CLEAN.read_text(encoding="utf-8"), encoding="utf-8")
    assert run("report", str(tmp_path / "in"), "-o", str(tmp_path / "out")).exit_code == 0
    index = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert ('<td class="n writes" data-sort="1" title="proposed 3, ok 1, skipped 1, aborted 1, error 0">1 / 3</td>'
            in index)


def test_per_reason_total_counts_every_file_told_of(capsys):
    told = PerReason(", not a session: skipped")
    for name, what in (("a", "x"), ("b", "x"), ("c", "y")):
        told.say(name, what)
    assert told.total == 3
