"""The actor grammar (fountain_audit.model.actors) and actor_ref on dump records."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from fountain_audit.cli import main
from fountain_audit.dump import dump_text
from fountain_audit.model import actors
from fountain_audit.model.actors import Actor
from tests.conftest import SAMPLES, shared_files

ID = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-", min_size=1, max_size=20)
#: toolpath's actorRef pattern (toolpath.schema.json $defs/actorRef) less its `ci` kind.
TOOLPATH_ACTOR = re.compile(r"^(human|agent|tool):[a-zA-Z0-9_.-]+(/[a-zA-Z0-9_.-]+)?$")


@given(st.sampled_from(actors.PREFIXES), ID, st.one_of(st.none(), ID))
def test_format_then_parse_round_trips(prefix, id_, sub):
    a = Actor(prefix, id_, sub)
    s = actors.format(a)
    assert TOOLPATH_ACTOR.match(s)
    assert actors.parse(s) == a
    assert actors.format(actors.parse(s)) == s


@pytest.mark.parametrize("ref, expected", [
    ("human:margot", Actor("human", "margot")),
    ("agent:qwen2.5-coder", Actor("agent", "qwen2.5-coder")),
    ("tool:rustfmt/1.7.0", Actor("tool", "rustfmt", "1.7.0")),
    ("tool:harvey", actors.HARVEY),
])
def test_parse(ref, expected):
    assert actors.parse(ref) == expected
    assert str(expected) == ref


@pytest.mark.parametrize("bad", ["", "harvey", "ci:github", "agent:", "agent:a b", "agent:a/b/c", "agent:a:b",
                                 "agent:a\n", "Human:x", "agent:é", None])
def test_parse_rejects_what_is_outside_the_grammar(bad):
    with pytest.raises(ValueError):
        actors.parse(bad)


@pytest.mark.parametrize("bad", [Actor("ci", "x"), Actor("agent", ""), Actor("agent", "a/b"), Actor("tool", "x", "")])
def test_format_rejects_invalid_actors(bad):
    with pytest.raises(ValueError):
        actors.format(bad)


def test_character_mapping():
    humans = frozenset({"MARGOT"})
    of = actors.of_character
    assert of("MARGOT", humans=humans) == Actor("human", "margot")
    assert of("QWEN2.5-CODER", humans=humans) == Actor("agent", "qwen2.5-coder")
    assert of("LLAMA/3", humans=humans) == actors.UNKNOWN_AGENT
    assert of("GPT:4O", humans=humans) == actors.UNKNOWN_AGENT
    assert of("HARVEY", humans=humans) == actors.HARVEY
    assert of("SHELL", humans=humans, scene_kind="shell") == actors.SHELL
    assert of("CHANGELOG-CHECK", humans=humans, scene_kind="skill") == Actor("tool", "changelog-check")
    # the recorder's notice under a model's cue is the harness speaking, not the model
    assert of("QWEN2.5-CODER", humans=humans, text="[chunk 2 failed: model returned an empty response]") \
        == actors.HARVEY
    assert actors.human("JOHN DOE") == actors.USER
    assert actors.of_tool_note("HARVEY") == actors.HARVEY
    assert actors.of_tool_note("DEVSTRAL") == Actor("agent", "devstral")


def test_clean_session_turn_actors():
    text = (SAMPLES / "clean-session.spmd").read_text(encoding="utf-8")
    turns = [r.to_json() for r in dump_text(text, "s.spmd", shape="turns")]
    got = [(t["user"]["actor_ref"], t["forwarding"] and t["forwarding"]["actor_ref"], t["reply"]["actor_ref"],
            [c["actor_ref"] for c in t["tool_calls"]]) for t in turns]
    assert got == [
        ("human:margot", "tool:harvey", "agent:qwen2.5-coder", ["tool:harvey"] * 3),
        ("human:margot", "tool:harvey", "agent:qwen2.5-coder", ["tool:harvey"]),
        ("human:margot", "tool:harvey", "agent:qwen2.5-coder", ["tool:harvey"]),
        ("human:margot", "tool:harvey", "agent:devstral", ["agent:devstral", "agent:devstral"]),
        ("human:margot", "tool:harvey", "agent:lighthouse", []),
        ("human:margot", None, "tool:harvey", []),   # pipeline steps: HARVEY's own cue
        ("human:margot", None, "tool:harvey", []),
    ]
    assert [a["actor_ref"] for a in turns[0]["actions"]] == ["tool:harvey", "human:margot"]


def _speeches(turn):
    for key in ("user", "forwarding", "reply"):
        if turn[key]:
            yield turn[key]
    yield from turn["actions"]


@pytest.mark.parametrize("path", [*sorted(SAMPLES.rglob("*.spmd")), *shared_files()],
                         ids=lambda p: p.name)
def test_every_actor_ref_follows_the_grammar_and_harness_lines_are_never_agents(path):
    r = CliRunner().invoke(main, ["dump", "--turns", str(path)])
    assert r.exit_code == 0, r.output
    turns = [t for t in json.loads(r.stdout)["records"] if t["record"] == "turn"]  # not undecodable_bytes
    r = CliRunner().invoke(main, ["dump", str(path)])
    calls = [c for c in json.loads(r.stdout)["records"] if c["record"] == "tool_call"]
    for t in turns:
        for sp in _speeches(t):
            assert TOOLPATH_ACTOR.match(sp["actor_ref"]), sp
            assert actors.format(actors.parse(sp["actor_ref"])) == sp["actor_ref"]
            if sp["character"].strip().upper() == "HARVEY":
                assert sp["actor_ref"] == "tool:harvey"
        if t["forwarding"]:
            assert t["forwarding"]["actor_ref"] == "tool:harvey"
        calls += t["tool_calls"]
    for c in calls:
        assert TOOLPATH_ACTOR.match(c["actor_ref"])
        assert (c["actor_ref"] == "tool:harvey") == (c["actor"].upper() == "HARVEY")


#: One turn whose tool notes carry each kind of prefix: the session's human (MARGOT), the
#: shell, the harness, the model the turn was forwarded to and that replied (MISTRAL), a name
#: the file records nowhere else (PHI4), and no prefix at all.
TOOL_PREFIXES = """Title: t
Author: MARGOT

FADE IN:

INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31

Harvey and MARGOT are in chat mode. Model: MISTRAL. Workspace: /srv/hive.

MARGOT
check the hive log

HARVEY
Forwarding to MISTRAL.

[[MARGOT.tool: read_file({"path":"a.go"}) — ok]]

[[SHELL.tool: run({"cmd":"ls"}) — ok]]

[[HARVEY.tool: read_file({"path":"b.go"}) — ok]]

[[MISTRAL.tool: read_file({"path":"c.go"}) — ok]]

[[PHI4.tool: read_file({"path":"d.go"}) — ok]]

[[tool: read_file({"path":"e.go"}) — ok]]

MISTRAL
The log is clean.
"""
#: (actor as written, actor_ref) of each tool note of TOOL_PREFIXES, in order: no agent is made
#: up from a prefix (MARGOT is the session's human, SHELL the shell, PHI4 unknown to the file).
TOOL_PREFIX_ACTORS = [("MARGOT", "human:margot"), ("SHELL", "tool:shell"), ("HARVEY", "tool:harvey"),
                      ("MISTRAL", "agent:mistral"), ("PHI4", "agent:unknown"), ("HARVEY", "tool:harvey")]


def test_tool_note_prefix_actor_in_dump_records_and_turns():
    calls = [r.to_json() for r in dump_text(TOOL_PREFIXES, "s.spmd")]
    assert [(c["actor"], c["actor_ref"]) for c in calls] == TOOL_PREFIX_ACTORS
    (turn,) = [r.to_json() for r in dump_text(TOOL_PREFIXES, "s.spmd", shape="turns")]
    assert [(c["actor"], c["actor_ref"]) for c in turn["tool_calls"]] == TOOL_PREFIX_ACTORS
    # the same actors as the turn's speeches give those characters
    assert turn["user"]["actor_ref"] == "human:margot"
    assert turn["reply"]["actor_ref"] == "agent:mistral"


def test_tool_note_prefix_actor_in_otlp_export(tmp_path):
    path = tmp_path / "s.spmd"
    path.write_text(TOOL_PREFIXES, encoding="utf-8")
    r = CliRunner().invoke(main, ["export", "--to", "otlp-json", str(path)])
    assert r.exit_code == 0, r.output
    spans = [sp for rs in json.loads(r.stdout)["resourceSpans"] for ss in rs["scopeSpans"] for sp in ss["spans"]]
    got = []
    for sp in spans:
        attrs = {a["key"]: a["value"] for a in sp["attributes"]}
        if attrs.get("gen_ai.operation.name") == {"stringValue": "execute_tool"}:
            got.append(attrs["harvey.actor"]["stringValue"])
    assert got == [ref for _, ref in TOOL_PREFIX_ACTORS]


def test_tool_note_prefix_actor_as_the_file_records_it():
    humans, models = frozenset({"ALICE"}), frozenset({"MISTRAL"})
    of = actors.of_tool_note
    assert of("alice", humans=humans, models=models) == Actor("human", "alice")
    assert of("SHELL", humans=humans, models=models) == actors.SHELL
    assert of("HARVEY", humans=humans, models=models) == actors.HARVEY
    assert of(None, humans=humans, models=models) == actors.HARVEY
    assert of("Mistral", humans=humans, models=models) == Actor("agent", "mistral")
    assert of("PHI4", humans=humans, models=models) == actors.UNKNOWN_AGENT
    # a prefix naming a cue of the file gets that cue's actor (a tool note makes the file
    # Harvey's, where BOB's cue is a model's)
    text = "Title: t\nAuthor: ALICE\n\nINT. KITCHEN - DAY\n\nBOB\nHi.\n\n[[BOB.tool: x({}) — ok]]\n"
    assert [c.actor_ref for c in dump_text(text, "s.spmd")] == ["agent:bob"]


def test_names_are_compared_in_ascii_capitals_only():
    """`[[ſhell.tool:]]` (U+017F long s) was tool:shell: Unicode upper-cases ſ to S, so the prefix
    read as SHELL, an actor the file does not record (adversarial trial). Names are upper-cased in
    ASCII only, and an id is made only of a name that is one as written (a Kelvin sign K
    lower-cases to k)."""
    from fountain_audit.model.names import upper_ascii
    assert [upper_ascii(n) for n in ("margot", "ſhell", "ﬁle", "straße", "ırc", "Qwen2.5")] == [
        "MARGOT", "ſHELL", "ﬁLE", "STRAßE", "ıRC", "QWEN2.5"]
    humans, models = frozenset({"ALICE", "SAM"}), frozenset({"MISTRAL", "FIX"})
    of = actors.of_tool_note
    assert [of(n, humans=humans, models=models) for n in ("ſhell", "ſam", "ﬁx", "harvey", "ſHELL")] == [
        actors.UNKNOWN_AGENT, actors.UNKNOWN_AGENT, actors.UNKNOWN_AGENT, actors.HARVEY, actors.UNKNOWN_AGENT]
    assert actors.of_character("ſHELL", humans=humans) == actors.UNKNOWN_AGENT
    assert actors.of_character("ſAM", humans=humans) == actors.UNKNOWN_AGENT
    assert actors.human("\u212aEN") == actors.USER and actors.agent("\u212aEN") == actors.UNKNOWN_AGENT
    assert actors.tool("\u212aEN", "skill") == Actor("tool", "skill") and actors.human("Ken") == Actor("human", "ken")
    text = ("Title: t\nAuthor: ſam\n\nINT. HARVEY AND SAM TALKING 2026-01-01 10:00:00\n\n"
            "SAM\nHi.\n\nHARVEY\nForwarding to MISTRAL.\n\n[[ſhell.tool: run() — ok]]\n\n[[shell.tool: run() — ok]]\n\n"
            "@ſhell\nout\n\nTHE END.\n")
    assert [(c.actor, c.actor_ref) for c in dump_text(text, "s.spmd")] == [
        ("ſhell", "agent:unknown"), ("shell", "tool:shell")]
    (turn,) = [r.to_json() for r in dump_text(text, "s.spmd", shape="turns")]
    assert (turn["user"]["character"], turn["user"]["actor_ref"]) == ("SAM", "human:sam")  # the heading's human
    assert (turn["reply"]["character"], turn["reply"]["actor_ref"]) == ("ſhell", "agent:unknown")  # no SHELL cue
