"""The redaction layer (fountain_audit.privacy.redact) and --redact on dump, diff, show and
lint: on the seeded session of tests/privacy_session.py no secret, no home path and no
spelling of the workspace survives, in any output format; spans still count positions in
the original file."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from fountain_audit.lint.linter import lint_text
from fountain_audit.privacy.redact import Redactor, redact_text
from tests import privacy_session
from tests.conftest import CLEAN_TOOL_ARGS, SAMPLES, clean_session_with_tool_args

TEXT, VALUES = privacy_session.build()
#: Every personal spelling the issue lists, as written in the seeded session.
PERSONAL = ["/home/alice", "\\/home\\/alice", "/Users/alice", "C:/Users/alice", "D:\\\\work\\\\alice",
            "D:\\work\\alice", "fileserver", "alice\\doc", "alice\\\\doc"]


def leaks(out: str) -> list[str]:
    """Secrets (whole, or any line of a multi-line one, or their tail past a shown prefix)
    and personal paths still in ``out``."""
    found = []
    for name, value in VALUES.items():
        for piece in [value] + value.splitlines()[1:-1]:
            if piece in out or piece[8:] in out:
                found.append(name)
    return found + [p for p in PERSONAL if p in out]


def cli(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fountain_audit", *args], capture_output=True, text=True, cwd=cwd)


@pytest.fixture(scope="module")
def session_file(tmp_path_factory):
    d = tmp_path_factory.mktemp("privacy")
    a = d / "a.spmd"
    a.write_text(TEXT, encoding="utf-8")
    b = d / "b.spmd"
    b.write_text(TEXT.replace("Deploy with my token", "Please deploy with my token")
                 .replace("./migrate", "./migrate --dry-run"), encoding="utf-8")
    return a, b


def test_the_seeded_session_holds_what_we_redact(session_file):
    plain = cli("dump", "--turns", str(session_file[0])).stdout
    assert len(set(leaks(plain))) >= 10  # the check below can fail


@pytest.mark.parametrize("shape", [[], ["--turns"], ["--records", "all"], ["--ast"]])
@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_dump_redact(session_file, shape, fmt):
    r = cli("dump", "--redact", "--format", fmt, *shape, str(session_file[0]))
    assert r.returncode == 0, r.stderr
    assert leaks(r.stdout) == []
    docs = [json.loads(line) for line in r.stdout.splitlines()] if fmt == "jsonl" else [json.loads(r.stdout)]
    note = {"secrets": True, "paths": True, "spans": "original"}
    if fmt == "json":
        assert docs[0]["redaction"] == note
    else:
        assert all(d["redaction"] == note for d in docs)


def test_dump_redact_keeps_original_spans(session_file):
    plain = json.loads(cli("dump", "--records", "all", str(session_file[0])).stdout)["records"]
    red = json.loads(cli("dump", "--redact", "--records", "all", str(session_file[0])).stdout)["records"]
    assert [r["span"] for r in red] == [r["span"] for r in plain]
    deploy = next(r for r in red if r.get("name") == "deploy")
    assert deploy["arguments"] == {
        "registry_token": "<redacted:gitlab-token>", "aws_access_key_id": "<redacted:aws-access-key>",
        "aws_secret_access_key": "<redacted:aws-secret-key>",
        "remote": "https://deploy:<redacted:basic-auth>@git.example.com/proj.git", "key_file": "<home>/secret/key.pem"}
    assert deploy["error"] == "card declined for <redacted:stripe-key>"
    rag = next(r for r in red if r["kind"] == "rag")
    assert rag["fields"]["store"] == "<home>/.harvey/store.db"


def test_redact_paths_is_the_path_part_only(session_file):
    out = cli("dump", "--redact-paths", "--turns", str(session_file[0])).stdout
    assert [p for p in PERSONAL if p in out] == []
    assert VALUES["github"] in out


@pytest.mark.parametrize("fmt", ["rich", "unified", "json"])
def test_diff_redact(session_file, fmt):
    r = cli("diff", "--redact", "--format", fmt, *map(str, session_file))
    assert r.returncode == 1, r.stderr
    assert "deploy" in r.stdout.lower()
    assert leaks(r.stdout) == []
    if fmt == "unified":
        assert "<redacted:github-token>" in r.stdout


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("ids", [["doc"], ["s1"], ["s2"], ["t1.tool2"], ["t1.reply"]])
def test_show_redact(session_file, fmt, ids):
    r = cli("show", "--redact", "--format", fmt, str(session_file[0]), *ids)
    assert r.returncode == 0, r.stderr
    assert leaks(r.stdout) == []


def test_show_redact_keeps_line_numbers(session_file):
    out = cli("show", "--redact", str(session_file[0]), "s2").stdout.splitlines()
    assert out[6] == "47 | <redacted:private-key>" and out[12].startswith("53 | [[shell: cat <workspace>/deploy")


@pytest.mark.parametrize("args, expected", [
    (["L49"], "49 | <redacted:private-key>\n"),
    (["s2", "--lines", "8:9"], "48 | <redacted:private-key>\n49 |\n"),
    (["L48", "L51"], "==> L48 <==\n48 | <redacted:private-key>\n\n==> L51 <==\n51 | <redacted:private-key>\n"),
])
def test_show_redact_a_selection_that_starts_inside_a_private_key(session_file, args, expected):
    # the key block is lines 47-51: a selection from its middle holds no header, so the
    # secret must be found in the whole file and masked in the lines shown (adversarial trial)
    r = cli("show", "--redact", str(session_file[0]), *args)
    assert (r.returncode, r.stdout) == (0, expected), r.stderr


def test_show_redact_json_of_a_line_inside_a_private_key(session_file):
    r = cli("show", "--redact", "--format", "json", str(session_file[0]), "L50")
    assert r.returncode == 0, r.stderr
    assert [e["text"] for e in json.loads(r.stdout)["elements"]] == ["<redacted:private-key>\n"]


@pytest.mark.parametrize("fmt", ["full", "concise", "json", "json-lines", "github", "sarif", "junit", "gitlab"])
def test_lint_redact(session_file, fmt):
    r = cli("lint", "--isolated", "--redact", "--output-format", fmt, str(session_file[0]))
    assert r.returncode == 1, r.stderr
    assert leaks(r.stdout) == []
    if fmt == "json":
        d = json.loads(r.stdout)["diagnostics"]
        assert [(x["line"], x["column"]) for x in d if x["code"] == "V101"][:2] == [(4, 21), (23, 22)]


def test_lint_redact_code_frame_carets_under_the_placeholder(session_file):
    out = cli("lint", "--isolated", "--redact", "--select", "V101", "--output-format", "full",
              str(session_file[0])).stdout.splitlines()
    i = out.index("23 | Deploy with my token <redacted:github-token> and post to Slack with "
                  "<redacted:slack-token>, please.")
    assert out[i + 1] == "   |                      " + "^" * len("<redacted:github-token>") + " V101"


@pytest.mark.parametrize("workspace, text, expected", [
    ("C:\\Users\\alice\\proj", "see C:/Users/alice/proj/b.go", "see <workspace>/b.go"),
    ("C:\\Users\\alice\\proj", '{"p":"C:\\\\Users\\\\alice\\\\proj\\\\b.go"}', '{"p":"<workspace>\\\\b.go"}'),
    ("C:\\Users\\alice\\proj", "c:\\users\\ALICE\\proj\\x", "<workspace>\\x"),
    ("/home/alice/proj", '{"p":"\\/home\\/alice\\/proj\\/.env"}', '{"p":"<workspace>\\/.env"}'),
    ("/home/alice/proj", "cd /HOME/ALICE/PROJ && ls /home/alice/projects", "cd <workspace> && ls <home>/projects"),
    ("/home/alice/proj", "D:\\work\\alice\\notes.txt and \\\\fileserver\\alice\\doc",
     "<home>\\notes.txt and <home>\\doc"),
    ("/home/alice/proj", "/Users/alice/Desktop/x.txt", "<home>/Desktop/x.txt"),
])
def test_every_spelling_of_workspace_and_home(workspace, text, expected):
    red = Redactor([workspace])
    assert red.text(text) == expected


def test_a_secret_split_from_its_keyword_is_still_redacted():
    raw = '[[tool: login({"password":"Qx7fakefake#9"}) — ok]]'
    red = Redactor().learn(text=raw)
    assert red({"password": "Qx7fakefake#9"}) == {"password": "<redacted:keyword-secret>"}
    assert Redactor()({"password": "Qx7fakefake#9"}) == {"password": "Qx7fakefake#9"}  # nothing learnt: no keyword


def test_redact_text_upper_cases_the_placeholder_of_an_upper_case_line():
    assert redact_text("X AKIAQ7W2E9R4T6Y1U3I8 y") == "X <redacted:aws-access-key> y"
    assert redact_text("x\n\nAKIAQ7W2E9R4T6Y1U3I8\n") == "x\n\n<REDACTED:AWS-ACCESS-KEY>\n"


@pytest.mark.parametrize("target", ["toolpath", "otlp-json"])
def test_export_redact(session_file, target):
    plain = cli("export", "--to", target, str(session_file[0]))
    assert plain.returncode == 0, plain.stderr
    assert len(set(leaks(plain.stdout))) >= 5  # the check below can fail
    r = cli("export", "--to", target, "--redact", str(session_file[0]))
    assert r.returncode == 0, r.stderr
    assert leaks(r.stdout) == []
    assert "<redacted:github-token>" in r.stdout
    # the file's digest (and the ids made from it) is the redacted copy's, not the original's: one of
    # the original would confirm a guessed secret offline (adversarial trial, stop 37)
    import hashlib
    original = hashlib.sha256(session_file[0].read_bytes()).hexdigest()
    copy = hashlib.sha256(cli("redact", str(session_file[0]), "-o", "-").stdout.encode()).hexdigest()
    assert original in plain.stdout and original not in r.stdout
    assert original[:16] not in r.stdout and copy in r.stdout
    paths_only = cli("export", "--to", target, "--redact-paths", str(session_file[0])).stdout
    copy = hashlib.sha256(cli("redact", "--paths-only", str(session_file[0]), "-o", "-").stdout.encode()).hexdigest()
    assert original not in paths_only and original[:16] not in paths_only and copy in paths_only


# --------------------------------------------------------------------------- fountain-audit redact


def test_redact_writes_a_copy_with_the_same_structure(session_file, tmp_path):
    from fountain_audit.model.session import build_session
    from fountain_audit.parse.fountain import parse
    from fountain_audit.privacy.redact import structure

    out = tmp_path / "shared.spmd"
    before = session_file[0].read_bytes()
    r = cli("redact", str(session_file[0]), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert "15 secret(s), 5 workspace path(s), 7 home path(s) replaced" in r.stderr
    assert session_file[0].read_bytes() == before  # the original is untouched
    text = out.read_text(encoding="utf-8")
    assert leaks(text) == []
    assert structure(text) == structure(TEXT)
    redacted, original = build_session(parse(text)), build_session(parse(TEXT))
    assert [len(t.tool_calls) for t in redacted.turns] == [len(t.tool_calls) for t in original.turns] == [2]
    for note in redacted.notes:
        if note.kind == "tool":
            assert note.fields["arguments_json"] and note.fields["arguments_strict_json"]
            json.loads(note.fields["arguments_text"])
    assert parse(text).render() == text
    lint = cli("lint", "--isolated", "--select", "V", str(out))
    assert lint.returncode == 0 and "All clear" in lint.stdout


def test_redact_in_place_and_stdout(tmp_path):
    a, b = tmp_path / "a.spmd", tmp_path / "b.spmd"
    a.write_text(TEXT, encoding="utf-8")
    b.write_text(TEXT.replace("alice", "bob"), encoding="utf-8")
    expected = cli("redact", str(a)).stdout
    assert leaks(expected) == []
    r = cli("redact", "--in-place", str(a), str(b))
    assert r.returncode == 0, r.stderr
    assert a.read_text(encoding="utf-8") == expected
    assert "/home/bob" not in b.read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir() if ".tmp" in p.name] == []


def test_redact_refuses_an_output_that_is_its_input(tmp_path):
    """-o naming the input (or a link to it) would replace the original: only --in-place does that."""
    a = tmp_path / "a.spmd"
    a.write_text(TEXT, encoding="utf-8")
    (tmp_path / "link.spmd").symlink_to(a)
    for out in (a, tmp_path / "link.spmd"):
        r = cli("redact", str(a), "-o", str(out))
        assert r.returncode == 2
        assert r.stderr == (f"fountain-audit: error: {out}: refusing to write the redacted copy over its "
                            "input (--in-place replaces the file)\n")
        assert a.read_text(encoding="utf-8") == TEXT


def test_redact_usage_and_unreadable(tmp_path):
    a = tmp_path / "a.spmd"
    a.write_text(TEXT, encoding="utf-8")
    assert cli("redact", str(a), str(a)).returncode == 2
    assert cli("redact", "--in-place", "-o", str(tmp_path / "x"), str(a)).returncode == 2
    r = cli("redact", "--in-place", str(tmp_path / "missing.spmd"))
    assert r.returncode == 2 and "no such file or directory" in r.stderr
    r = cli("redact", str(a), "-o", str(a / "x.spmd"))  # (a file where its folder goes)
    assert r.returncode == 2 and f"{a}/x.spmd: cannot write: Not a directory" in r.stderr
    r = cli("redact", str(a), "-o", str(tmp_path / "no" / "dir" / "x.spmd"))  # missing folders are made
    assert r.returncode == 0 and (tmp_path / "no" / "dir" / "x.spmd").read_text(encoding="utf-8") \
        == cli("redact", str(a)).stdout


def test_redact_refuses_a_file_that_changed_since_it_was_read(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from fountain_audit.cli import redact as cmd
    from fountain_audit.privacy import redact as layer

    a = tmp_path / "a.spmd"
    a.write_text(TEXT, encoding="utf-8")
    real = layer.redact_session

    def slow(text, **kw):  # another program writes the file while we redact it
        a.write_text(TEXT + "\n", encoding="utf-8")
        return real(text, **kw)

    monkeypatch.setattr(layer, "redact_session", slow)
    r = CliRunner().invoke(cmd.redact, ["--in-place", str(a)])
    assert r.exit_code == 2 and "changed since it was read" in r.output
    assert a.read_text(encoding="utf-8") == TEXT + "\n"


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_provenance_redact(session_file, fmt):
    plain = cli("provenance", "--format", fmt, str(session_file[0]))
    assert plain.returncode == 0, plain.stderr
    assert leaks(plain.stdout)  # the check below can fail
    r = cli("provenance", "--redact", "--format", fmt, str(session_file[0]))
    assert r.returncode == 0, r.stderr
    assert leaks(r.stdout) == []


def test_a_secret_split_across_ast_tokens_is_not_dumped_in_pieces(tmp_path):
    """A private key block at the start of a paragraph reads as a character cue plus dialogue:
    two tokens, neither of which holds a whole key. dump --ast --redact masks it in both."""
    from pathlib import Path
    sample = (Path(__file__).parent.parent / "samples" / "clean-session.spmd").read_text(encoding="utf-8")
    key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq3x9Yk2n3mQz8vFq\n-----END RSA PRIVATE KEY-----"
    assert "The test suite does *not* pass yet" in sample
    f = tmp_path / "k.spmd"
    f.write_text(sample.replace("The test suite does *not* pass yet", key), encoding="utf-8")
    r = cli("dump", "--redact", "--ast", "--format", "jsonl", str(f))
    assert r.returncode == 0 and "MIIE" not in r.stdout  # the key body; the cue (its BEGIN line) is a name
    (node,) = [json.loads(line) for line in r.stdout.splitlines() if "redacted:private-key" in line]
    assert [t["type"] for t in node["tokens"]] == ["CHARACTER", "DIALOGUE"]
    assert "".join(t["text"] for t in node["tokens"]) == node["text"]
    assert node["tokens"][0]["text"] == "<redacted:private-key>\n"


def test_redact_into_a_closed_pipe_stops_quietly(tmp_path):
    """`fountain-audit redact big.spmd | true`: the reader goes away; no "None: cannot
    write: Broken pipe" message, status 0 (as dump)."""
    import subprocess
    import sys

    from tests.test_dump import _big_session

    big = tmp_path / "big.spmd"
    big.write_text(_big_session(2000))  # far more than a pipe's buffer
    p = subprocess.Popen([sys.executable, "-m", "fountain_audit", "redact", str(big)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()  # gone before the first write, as `| true`
    assert (p.stderr.read(), p.wait()) == (b"", 0)


# A tool argument that spells a GitHub token and a home path with JSON \u escapes.
ESC_TOKEN = "ghp_Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
ESC_ARGS = r'{"t":"ghp\u005fZ9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2","p":"\u002fhome\u002fbob\u002fx"}'


@pytest.fixture
def escaped_file(tmp_path):
    return clean_session_with_tool_args(tmp_path, ESC_ARGS)


def escaped_leaks(out: str) -> list[str]:
    return [s for s in ("Z9y8X7w6", "u005fZ9", "bob") if s in out]


def test_lint_finds_u_escaped_secret_and_home_path(escaped_file):
    r = cli("lint", "--no-cache", "--select", "V", "--output-format", "concise", str(escaped_file))
    assert r.stdout.splitlines()[:2] == [
        f"{escaped_file}:37:28: V101 [secret-in-session] GitHub token (github-token) in the session: "
        "ghp…(45 chars); revoke it and share only a redacted copy",
        f"{escaped_file}:37:80: V102 [home-path-in-session] home directory path /home/bob names a user account"]


def test_redact_copy_of_u_escaped_secret_and_home_path(escaped_file):
    r = cli("redact", str(escaped_file))
    assert r.returncode == 0, r.stderr
    assert '[[tool: search_notes({"t":"<redacted:github-token>","p":"<home>\\u002fx"}) — ok]]' in r.stdout
    assert escaped_leaks(r.stdout) == []


@pytest.mark.parametrize("args", [
    ["dump", "--redact"], ["dump", "--redact", "--format", "json"], ["show", "--redact", "--format", "json"],
    ["show", "--redact"], ["export", "--redact", "--to", "toolpath"], ["export", "--redact", "--to", "otlp-json"],
    ["lint", "--no-cache", "--redact", "--output-format", "full"], ["lint", "--no-cache", "--redact", "--output-format", "json"],
])
def test_redacted_outputs_hold_no_spelling_of_a_u_escaped_secret(escaped_file, args):
    extra = ["t1.tool1", "t1", "L37"] if args[0] == "show" else []
    if args[:3] == ["dump", "--redact", "--format"]:
        args = ["dump", "--redact"]  # (dump's default is JSON lines)
    unredacted = cli(*[a for a in args if a != "--redact"], str(escaped_file), *extra)
    assert escaped_leaks(unredacted.stdout) != [] or args[0] == "lint"  # the input holds them
    r = cli(*args, str(escaped_file), *extra)
    assert r.stdout and escaped_leaks(r.stdout) == [], (r.stdout, r.stderr)
    assert ESC_TOKEN not in r.stdout and "\\\\u005f" not in r.stdout


def test_u_escaped_keyword_secret_and_its_repeat():
    from fountain_audit.privacy.detect import find_secrets

    text = 'set {"password":"Tr0ub\\u0034dor&3xQz"}\nlater Tr0ub4dor&3xQz again'
    assert [(s.start, s.end, s.kind, s.value) for s in find_secrets(text)] == [
        (17, 36, "keyword-secret", "Tr0ub\\u0034dor&3xQz"), (45, 59, "keyword-secret", "Tr0ub4dor&3xQz")]
    assert redact_text(text) == 'set {"password":"<redacted:keyword-secret>"}\nlater <redacted:keyword-secret> again'


@pytest.mark.parametrize("text", [
    '"\\ud83d\\ude00 ghp\\u005fZ9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"',  # a surrogate pair first
    '"\\u12" "\\uZZZZ" "\\ud83d" "ghp\\u005fZ9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"',  # malformed escapes
])
def test_u_escape_decoding_maps_back_to_the_file(text):
    from fountain_audit.privacy.detect import find_secrets

    found = find_secrets(text)
    assert [(text[s.start:s.end], s.kind) for s in found] == [
        ("ghp\\u005fZ9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2", "github-token")]


# (an escaped home path outside a JSON string, '\\u002fhome\\u002fbob', is found since escapes are
# read on the whole line: tests/test_privacy_escapes.py)
@pytest.mark.parametrize("text", ['"\\u', '"\\u"', '"a\\', '"\\\\u005f"', '\\u002fhome', '"' + "\\u0041" * 5000])
def test_u_escape_decoding_never_raises(text):
    from fountain_audit.privacy.detect import find_home_paths, find_secrets

    assert find_secrets(text) == []
    assert find_home_paths(text) == []


def test_u_escaped_home_path_spans_its_spelling():
    from fountain_audit.privacy.detect import find_home_paths

    text = '{"p":"C:\\u005cUsers\\u005cbob\\\\x","q":"\\u002fhome\\u002fcarol"}'
    assert [(text[h.start:h.end], h.user, h.text) for h in find_home_paths(text)] == [
        ("C:\\u005cUsers\\u005cbob", "bob", "C:\\Users\\bob"), ("\\u002fhome\\u002fcarol", "carol", "/home/carol")]


def test_a_path_found_as_written_is_not_found_again_decoded():
    from fountain_audit.privacy.detect import find_home_paths

    text = '{"a":"\\u00e9 C:\\\\Users\\\\bob"}'
    assert [(h.start, h.end, h.text) for h in find_home_paths(text)] == [(13, 27, "C:\\\\Users\\\\bob")]


def test_redact_refuses_a_file_over_max_file_size_before_reading_it(tmp_path):
    """As dump: a 600 MB (sparse) file is refused at once, not read for minutes."""
    big = tmp_path / "big.spmd"
    with open(big, "wb") as fh:
        fh.truncate(600 * 1024 * 1024)
    for args in (["-o", str(tmp_path / "out.spmd")], ["--in-place"]):
        r = cli("redact", str(big), *args)
        assert (r.returncode, r.stdout) == (2, "")
        assert r.stderr == (f"fountain-audit: error: {big}: cannot read: 600.0 MB (629145600 bytes) is over "
                            "the size limit (max-file-size 512.0 MB (536870912 bytes))\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.spmd"]
    assert big.stat().st_size == 600 * 1024 * 1024


def test_redact_opens_each_file_once(tmp_path, monkeypatch):
    """It checked the file's type through the path, then opened the path again to read it (a
    file swapped in between was read unchecked)."""
    import builtins

    from click.testing import CliRunner

    from fountain_audit.cli import redact as cmd
    from fountain_audit.cli import main as cli_main

    a = tmp_path / "a.spmd"
    a.write_text(TEXT, encoding="utf-8")
    seen: list[str] = []
    real_open, real_os_open = builtins.open, os.open
    monkeypatch.setattr(builtins, "open", lambda p, *a, **k: (seen.append(f"open {p}"), real_open(p, *a, **k))[1])
    monkeypatch.setattr(os, "open", lambda p, *a, **k: (seen.append(f"os.open {p}"), real_os_open(p, *a, **k))[1])
    monkeypatch.setattr(cli_main, "_not_a_file", lambda p: (seen.append(f"check {p}"), None)[1], raising=False)
    r = CliRunner().invoke(cmd.redact, [str(a)])
    assert r.exit_code == 0
    assert [s for s in seen if str(a) in s] == [f"os.open {a}"]


@pytest.mark.parametrize("encoding, what", [("utf-16", "UTF-16 text (little-endian)"),
                                            ("utf-16-be", "binary data")])
def test_redact_refuses_a_file_it_cannot_read_as_text(tmp_path, encoding, what):
    """A UTF-16 session holds its secrets between NUL bytes, which no detector sees: it gave
    '0 secret(s) replaced' and an unredacted copy, exit 0."""
    f = tmp_path / "s16.spmd"
    f.write_bytes(TEXT.encode(encoding))
    before = f.read_bytes()
    for args in (["-o", str(tmp_path / "out.spmd")], ["--in-place"], []):
        r = cli("redact", str(f), *args)
        assert (r.returncode, r.stdout) == (2, "")
        assert r.stderr == (f"fountain-audit: error: {f}: {what}, not a session transcript: not redacted "
                            "(nothing written)\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s16.spmd"] and f.read_bytes() == before


def test_redact_in_place_refuses_a_file_with_other_hard_links(tmp_path):
    """The rename replaced h1 only: h2, the same file, kept every secret."""
    h1, h2, c = tmp_path / "h1.spmd", tmp_path / "h2.spmd", tmp_path / "c.spmd"
    h1.write_text(TEXT, encoding="utf-8")
    os.link(h1, h2)
    c.write_text(TEXT, encoding="utf-8")
    r = cli("redact", "--in-place", str(h1), str(c))
    assert r.returncode == 2
    assert r.stderr.splitlines()[0] == (
        f"fountain-audit: error: {h1}: has 2 hard links; replacing it would leave the unredacted text under "
        "the other 1 name(s): left as it is (redact it with -o)")
    assert r.stderr.splitlines()[1:] == [f"fountain-audit: {c}: 15 secret(s), 5 workspace path(s), 7 home path(s) "
                                         "replaced",
                                         "fountain-audit: 1 file redacted in place (1 with replacements): 15 secret(s), "
                                         "5 workspace path(s), 7 home path(s) replaced"]
    assert h1.read_text(encoding="utf-8") == h2.read_text(encoding="utf-8") == TEXT
    assert os.stat(h1).st_ino == os.stat(h2).st_ino and os.stat(h1).st_nlink == 2
    assert leaks(c.read_text(encoding="utf-8")) == []


def test_redact_output_dash_is_standard_output(tmp_path):
    """`-o -` wrote the copy to a file named '-'."""
    a = tmp_path / "a.spmd"
    a.write_text(TEXT, encoding="utf-8")
    plain = cli("redact", str(a), cwd=tmp_path)
    assert plain.returncode == 0 and leaks(plain.stdout) == [] and plain.stdout
    assert (cli("redact", str(a), "-o", "-", cwd=tmp_path).stdout, plain.stderr) == (plain.stdout, "")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.spmd"]


def test_root_home_is_redacted_and_the_workspace_under_it_is_the_workspace():
    from fountain_audit.privacy.redact import redact_session

    text = (SAMPLES / "clean-session.spmd").read_text(encoding="utf-8").replace(
        "/home/margot/src/tidewater", "/root/src/tidewater").replace(
        '"cmd":"make test"', '"cmd":"make -C /root/src/tidewater test && cat /root/.netrc /var/root/x"')
    out = redact_session(text)
    assert out.problem is None
    assert '"cmd":"make -C <workspace> test && cat <home>/.netrc /var/root/x"' in out.text
    assert "/root" not in out.text.replace("/var/root", "")
    assert redact_text('ls /root /srv/www/root "\\/root\\/.ssh"') == 'ls <home> /srv/www/root "<home>\\/.ssh"'


def test_redact_of_a_directory_needs_a_folder_for_the_copies_or_in_place(tmp_path):
    """`redact DIR` was a usage error whose hint gave a find command that exited 0 when a file
    could not be redacted (new-user trial). A directory is searched as lint searches it; without
    -o FOLDER or --in-place it is a usage error, nothing read or written."""
    d = tmp_path / "sessions"
    d.mkdir()
    a = d / "a.spmd"
    a.write_text(TEXT, encoding="utf-8")
    for args in ([str(d)], [f"{d}/"]):
        r = cli("redact", *args)
        assert (r.returncode, r.stdout) == (2, "") and r.stderr.startswith("Usage: ")
        assert r.stderr.endswith(f"\n\nError: {args[0]}: a directory: give -o FOLDER for the redacted copies (the "
                                 "originals untouched), or --in-place to overwrite each original with its redacted "
                                 "copy (no unredacted file is kept)\n")
    r = cli("redact", str(d), str(a), "-o", str(tmp_path / "out"))
    assert r.returncode == 2 and r.stderr.endswith(
        "Error: -o with a directory takes that one directory: its copies go to -o FOLDER under their paths relative "
        "to it (redact each other path on its own)\n")
    r = cli("redact", str(d), "-o", str(d / "copies"))
    assert r.returncode == 2 and r.stderr.endswith(
        f"Error: {d / 'copies'}: inside {d}: the copies would be redacted again by the next run; choose a folder "
        "outside it\n")
    assert a.read_text(encoding="utf-8") == TEXT and not (tmp_path / "out").exists() and not (d / "copies").exists()


def test_redact_of_a_directory_writes_each_copy_under_the_folder(tmp_path):
    """`redact DIR -o OUT` writes each session file's copy to OUT under its path relative to DIR
    (nested folders, a name with a blank and a quote), leaves the originals as they were, goes on
    past a file it cannot redact and exits 2 for it; `--in-place DIR` overwrites them all."""
    d = tmp_path / "it's mine"
    (d / "sub").mkdir(parents=True)
    for name in ("a.spmd", "sub/b c.fountain"):
        (d / name).write_text(TEXT, encoding="utf-8")
    (d / "sub" / "z.spmd").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    (d / "sub" / "plain.spmd").write_text("INT. KITCHEN - DAY\n\nNothing secret.\n", encoding="utf-8")
    r = cli("redact", str(d), "-o", str(tmp_path / "out"))
    assert r.returncode == 2
    # (a line per copy with replacements, none for the unchanged one, then the totals: new-user trial, stop 33)
    assert r.stderr.splitlines() == [
        f"fountain-audit: {tmp_path / 'out' / 'a.spmd'}: 15 secret(s), 5 workspace path(s), 7 home path(s) replaced",
        f"fountain-audit: {tmp_path / 'out' / 'sub' / 'b c.fountain'}: 15 secret(s), 5 workspace path(s), 7 home "
        "path(s) replaced",
        f"fountain-audit: error: {d / 'sub' / 'z.spmd'}: a PNG image, not a session transcript: not redacted "
        "(nothing written)",
        "fountain-audit: 3 redacted copies written (2 with replacements): 30 secret(s), 10 workspace path(s), "
        "14 home path(s) replaced"]
    assert (tmp_path / "out" / "sub" / "plain.spmd").read_text(encoding="utf-8") == \
        "INT. KITCHEN - DAY\n\nNothing secret.\n"
    for name in ("a.spmd", "sub/b c.fountain"):
        assert (d / name).read_text(encoding="utf-8") == TEXT  # the original untouched
        copy = (tmp_path / "out" / name).read_text(encoding="utf-8")
        assert VALUES["github"] not in copy and "<redacted:github-token>" in copy
    assert sorted(p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*") if p.is_file()) \
        == ["a.spmd", "sub/b c.fountain", "sub/plain.spmd"]
    # into a folder that exists (the second run, or one made first)
    r = cli("redact", str(d), "-o", str(tmp_path / "out"))
    assert r.returncode == 2 and "Invalid value" not in r.stderr
    assert "<redacted:github-token>" in (tmp_path / "out" / "a.spmd").read_text(encoding="utf-8")
    # the copy of one file is not written over a folder
    r = cli("redact", str(d / "a.spmd"), "-o", str(tmp_path / "out"))
    assert (r.returncode, r.stderr.splitlines()[-1]) == (2, f"Error: {tmp_path / 'out'}: a directory: -o names the "
                                                            "copy of the one FILE (the copies of a directory's files, "
                                                            "or of several files, go to -o FOLDER)")
    (d / "sub" / "z.spmd").unlink()
    r = cli("redact", "--in-place", str(d))
    assert r.returncode == 0, r.stderr
    assert "<redacted:github-token>" in (d / "sub" / "b c.fountain").read_text(encoding="utf-8")


def test_a_secret_in_a_file_name_is_replaced_in_its_copys_name(tmp_path):
    """`redact DIR -o OUT` shares the copies' names too: a token in a file name becomes
    `redacted-KIND` (two names that differed only in it do not overwrite each other), standard error
    says so even for a copy whose text had nothing replaced; `--paths-only` keeps secrets, names too
    (noted at stop 36: the copy kept the name)."""
    token = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
    other = "ghp_Zz9dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
    d = tmp_path / "in"
    (d / "sub").mkdir(parents=True)
    plain = "INT. KITCHEN - DAY\n\nNothing secret.\n"
    for name in (f"notes-{token}.spmd", f"sub/{other}.spmd", "sub/notes.spmd"):
        (d / name).write_text(plain, encoding="utf-8")
    r = cli("redact", str(d), "-o", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    assert sorted(p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*") if p.is_file()) \
        == ["notes-redacted-github-token.spmd", "sub/notes.spmd", "sub/redacted-github-token.spmd"]
    assert token not in r.stderr and other not in r.stderr
    assert r.stderr.splitlines()[0] == (f"fountain-audit: {tmp_path / 'out' / 'notes-redacted-github-token.spmd'}: 0 "
                                        "secret(s), 0 workspace path(s), 0 home path(s) replaced (a secret in its file "
                                        "name replaced too)")
    (d / "sub" / f"notes-{token}.spmd").write_text(plain, encoding="utf-8")  # the same name once redacted
    r = cli("redact", str(d), "-o", str(tmp_path / "out2"))
    assert sorted(p.name for p in (tmp_path / "out2" / "sub").iterdir()) == [
        "notes-redacted-github-token.spmd", "notes.spmd", "redacted-github-token.spmd"]
    (d / "sub" / "notes-redacted-github-token.spmd").write_text(plain.replace("KITCHEN", "HALL"), encoding="utf-8")
    r = cli("redact", str(d), "-o", str(tmp_path / "out3"))
    assert sorted(p.name for p in (tmp_path / "out3" / "sub").iterdir()) == [
        "notes-redacted-github-token-2.spmd", "notes-redacted-github-token.spmd", "notes.spmd",
        "redacted-github-token.spmd"]
    # (the file that holds no secret keeps its name: the renamed copy is numbered)
    assert (tmp_path / "out3" / "sub" / "notes-redacted-github-token-2.spmd").read_text(encoding="utf-8") == plain
    assert "HALL" in (tmp_path / "out3" / "sub" / "notes-redacted-github-token.spmd").read_text(encoding="utf-8")
    assert f"{tmp_path / 'out3' / 'sub' / 'notes-redacted-github-token-2.spmd'}: 0 secret(s)" in r.stderr
    r = cli("redact", "--paths-only", str(d), "-o", str(tmp_path / "out4"))
    assert (tmp_path / "out4" / f"notes-{token}.spmd").is_file()


def test_several_files_without_in_place_say_how_to_keep_the_originals(tmp_path):
    a, b = tmp_path / "a.spmd", tmp_path / "b.spmd"
    for f in (a, b):
        f.write_text(TEXT, encoding="utf-8")
    for args in ([str(a), str(b)], [str(a), str(b), "-o", str(tmp_path / "out")]):  # (a file name: no folder)
        r = cli("redact", *args)
        assert (r.returncode, r.stdout) == (2, "")
        # (it said to "name their directory with -o FOLDER", what `-o out/` then did not do: adversarial trial)
        assert r.stderr.endswith(
            "\n\nError: several files: without --in-place, redact writes the copy of one FILE (to -o OUT or standard "
            "output). To keep the originals, name a folder for the copies: -o FOLDER/ (each copy under its file's "
            "name) (--in-place instead overwrites each original with its redacted copy: no unredacted file is kept)\n")
    assert a.read_text(encoding="utf-8") == TEXT and not (tmp_path / "out").exists()


def test_several_files_into_a_folder_each_under_its_name(tmp_path):
    """`redact a.spmd b.spmd -o FOLDER/` (or a folder that exists): a copy each, under its file's
    name; two files of one name, or a folder holding the files, are refused (nothing written)."""
    a, b = tmp_path / "a.spmd", tmp_path / "sub" / "b.spmd"
    b.parent.mkdir()
    for f in (a, b):
        f.write_text(TEXT, encoding="utf-8")
    r = cli("redact", str(a), str(b), "-o", str(tmp_path / "out") + "/")
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["a.spmd", "b.spmd"]
    assert VALUES["github"] not in (tmp_path / "out" / "b.spmd").read_text(encoding="utf-8")
    (tmp_path / "there").mkdir()
    assert cli("redact", str(a), str(b), "-o", str(tmp_path / "there")).returncode == 0
    assert sorted(p.name for p in (tmp_path / "there").iterdir()) == ["a.spmd", "b.spmd"]
    (tmp_path / "sub" / "a.spmd").write_text(TEXT, encoding="utf-8")
    r = cli("redact", str(a), str(tmp_path / "sub" / "a.spmd"), "-o", str(tmp_path / "two") + "/")
    assert r.returncode == 2 and f"two files named a.spmd: one copy in {tmp_path / 'two'}/ would replace the other" \
        in r.stderr and not (tmp_path / "two").exists()
    r = cli("redact", str(a), str(b), "-o", str(tmp_path))
    assert r.returncode == 2 and f"{tmp_path}: holds {a}: its copy would replace it" in r.stderr
    assert a.read_text(encoding="utf-8") == TEXT


def test_redact_to_a_terminal_escapes_control_sequences(tmp_path):
    """On a terminal (a real pseudo-terminal here) the copy's ESC/OSC sequences are shown
    escaped; through a pipe the copy is exact."""
    import subprocess
    import sys

    from .test_hardening import on_terminal

    f = tmp_path / "esc.spmd"
    f.write_bytes(b"Title: T\n\nINT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n\nALICE\n"
                  b"hi \x1b]0;owned\x07 \x1b[2J there\n")
    piped = subprocess.run([sys.executable, "-m", "fountain_audit", "redact", str(f)], capture_output=True)
    assert piped.returncode == 0 and piped.stdout == f.read_bytes()
    shown = on_terminal(["redact", str(f)], tmp_path)
    assert "\x1b" not in shown and "\x07" not in shown
    assert "hi \\x1b]0;owned\\x07 \\x1b[2J there" in shown


_CUE_KEY = """Title: Harvey Session
Author: ALICE

FADE IN:

INT. HARVEY AND ALICE TALKING 2026-06-24 10:00:00

Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: /tmp/ws.

ALICE
hi

HARVEY
Forwarding to AKIAZ7QK3M9VX2HP4RTW.

AKIAZ7QK3M9VX2HP4RTW
yo

THE END.
"""


@pytest.mark.parametrize("args", [("dump", "--turns"), ("export", "--to", "otlp-json"), ("export", "--to", "toolpath")],
                         ids=lambda a: " ".join(a))
def test_a_secret_as_a_cue_is_redacted_from_its_lower_case_actor_ref(tmp_path, args):
    """An actor ref is its cue lower-cased (agent:akiaz7…): the redactor matched the secret only
    as written, so --redact printed it in every actor ref (the otlp harvey.actor attribute)."""
    f = tmp_path / "s.spmd"
    f.write_text(_CUE_KEY, encoding="utf-8")
    r = cli(*args, "--redact", str(f))
    assert r.returncode == 0, r.stderr
    assert "akiaz7qk3m9vx2hp4rtw" not in r.stdout.lower() and "<redacted:" in r.stdout


def test_choosing_replacements_is_linear_and_as_before():
    """Many matches in one string (a reply of 20,000 home paths): each candidate was checked
    against every span chosen before it (quadratic: 50 s of CPU). The choice itself is
    unchanged: higher priority first, then the earliest, then the longest; no two overlap."""
    import random

    from fountain_audit.privacy.redact import Replacement, choose

    from .test_scaling import _assert_linear

    def reference(cands):  # the choice as it was made before (quadratic)
        cands = sorted(cands, key=lambda c: (c[1], c[0], -(c[2].end - c[2].start)))
        chosen = []
        for _, _, r in cands:
            if all(r.end <= c.start or r.start >= c.end for c in chosen):
                chosen.append(r)
        return sorted(chosen)

    rng = random.Random(7)
    for _ in range(500):
        cands = []
        for _ in range(rng.randrange(1, 30)):
            a, level = rng.randrange(60), rng.randrange(4)
            cands.append((a, level, Replacement(a, a + rng.randrange(1, 12), f"<{level}>", "home")))
        assert choose(list(cands)) == reference(cands)

    def redact(text):
        red = Redactor(secrets=False, paths=True).learn(None, text)
        assert red.text(text).count("<home>") == text.count("/home/")

    paths = lambda n: "".join(f"/home/u{k}/x\n" for k in range(n))  # noqa: E731
    _assert_linear(redact, paths(1_000), paths(8_000), "home paths in one string")


def test_user_paths_are_found_as_by_the_alternation_of_every_name():
    """The paths naming a known user are those the former expression found (an alternation of
    every user name after up to six path segments, any capitals), on random path-like text; a
    segment that ends in a blank ends the path (`cp /tmp/a.txt /srv/bob/a`: another one starts
    after it; adversarial trial, stop 36)."""
    import random
    import re

    from fountain_audit.privacy.detect import SEP

    users = {"alice", "Bob", "c.d", "e$f", "john smith"}
    old = re.compile(r"(?<![A-Za-z0-9_.$-])(?:[A-Za-z]:" + SEP + r"+|" + SEP + r"{1,2})(?:[\w.$ -]{0,63}[\w.$-]" + SEP
                     + r"+){0,6}?(?:" + "|".join(re.escape(u) for u in sorted(users, key=len, reverse=True))
                     + r")(?![\w.-])", re.I)
    red = Redactor(secrets=False, paths=True)
    red._add_users(users)
    pieces = ["/", "\\", "//", "C:", "alice", "ALICE", "bob", "x", " ", "$", ".", "-", "c.d", "e$f", "john smith",
              "home", "a" * 70, "\n", "é"]
    rng = random.Random(11)
    for _ in range(3000):
        s = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 14)))
        assert list(red._user_paths(s)) == [m.span() for m in old.finditer(s)], repr(s)


def test_a_url_naming_a_known_user_is_not_taken_for_a_path():
    """`https://bob:…@host` became `https:<home>:…` once /home/bob was seen (the URL's `//bob` read
    as a path naming the user): a URL's authority is left to the URL rules (its password is a
    basic-auth secret); paths naming the user are still replaced."""
    t = ("ws /home/bob/x; curl https://bob:S3cr3tPa55w0rd@example.com/x; git clone https://bob@github.com/r; "
         'j "https:\\/\\/bob@h"; p /srv/bob/data; PATH=/usr/bin:/srv/bob/bin; unc //bob/share')
    assert Redactor().learn(None, t).text(t) == (
        "ws <home>/x; curl https://bob:<redacted:basic-auth>@example.com/x; git clone https://bob@github.com/r; "
        'j "https:\\/\\/bob@h"; p <home>/data; PATH=/usr/bin:<home>/bin; unc <home>/share')


def test_a_string_read_before_the_redactor_learns_is_read_again_after():
    # (Redactor.replacements keeps what it found in short strings; learning empties that memo)
    red = Redactor()
    assert [red.text("Zq8vLm3xT9qP"), red.text("/srv/alice/notes")] == ["Zq8vLm3xT9qP", "/srv/alice/notes"]
    red.learn(text='password = "Zq8vLm3xT9qP"\n')  # a secret, learnt from the raw text
    assert red.text("Zq8vLm3xT9qP") == "<redacted:keyword-secret>"
    assert red.text("/srv/alice/notes") == "/srv/alice/notes"
    red.learn(text="see /home/alice/x\n")  # a user name
    assert red.text("/srv/alice/notes") == "<home>/notes"
    red.add(["/srv/work"])  # a workspace
    assert red.text("/srv/work/a.go") == "<workspace>/a.go"
    assert red.counts.secrets == 1 and red.counts.home == 1 and red.counts.workspace == 1
    red.text("Zq8vLm3xT9qP")  # a repeat is counted again (a replacement made), though not read again
    assert red.counts.secrets == 2


def test_dump_redact_reads_each_distinct_short_string_once(tmp_path, monkeypatch):
    from fountain_audit.privacy import redact
    calls = []
    original = redact.Redactor._replacements
    monkeypatch.setattr(redact.Redactor, "_replacements", lambda self, s: calls.append(s) or original(self, s))
    text = "".join(f"[[tool: read_file({{\"path\":\"f{i}.go\"}}) — ok]]\n\n" for i in range(50))
    red = redact.Redactor().learn(text=text)
    out = [red({"kind": "tool", "name": "read_file", "arguments": {"path": f"f{i}.go"}}) for i in range(50)]
    assert out[3] == {"kind": "tool", "name": "read_file", "arguments": {"path": "f3.go"}}
    assert len(calls) == len(set(calls)) == 6 + 50  # the 6 keys and names once, each path once


def test_redact_in_place_refuses_a_symlink(tmp_path):
    # (replacing the link would leave the secrets in the file it names)
    a = tmp_path / "a.spmd"
    a.write_text(TEXT, encoding="utf-8")
    (tmp_path / "link.spmd").symlink_to(a)
    r = cli("redact", "--in-place", str(tmp_path / "link.spmd"))
    assert r.returncode == 2
    assert r.stderr == (f"fountain-audit: error: {tmp_path / 'link.spmd'}: is a symbolic link; replacing it would "
                        "leave the unredacted text in the file it names: left as it is (redact that file)\n")
    assert a.read_text(encoding="utf-8") == TEXT and (tmp_path / "link.spmd").is_symlink()


#: A keyword secret in one file (``password: X``), its value alone in the other: only the first
#: shows it to be a secret (adversarial trial).
_QUESTION = "What did we agree at the July retro, and does the test suite pass?"
_PASSWORD = "Zq8vR2mXk9pLwT4s"


@pytest.fixture
def keyword_pair(tmp_path):
    base = (SAMPLES / "clean-session.spmd").read_text(encoding="utf-8")
    assert _QUESTION in base
    a, b = tmp_path / "kwA.spmd", tmp_path / "kwB.spmd"
    a.write_text(base.replace(_QUESTION, f"my password: {_PASSWORD} ok"), encoding="utf-8")
    b.write_text(base.replace(_QUESTION, f"my old one was {_PASSWORD} ok"), encoding="utf-8")
    return a, b


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_diff_redact_pools_the_secrets_of_both_sides(keyword_pair, order):
    a, b = (str(keyword_pair[k]) for k in order)
    r = cli("diff", "--redact", "--format", "unified", a, b)
    assert r.returncode == 1, r.stderr
    assert _PASSWORD not in r.stdout
    changed = [line for line in r.stdout.splitlines() if line.startswith("~ user changed")]
    assert changed == (["~ user changed (MARGOT): my [-password:-]{+old one was+} <redacted:keyword-secret> ok"]
                       if order == (0, 1) else
                       ["~ user changed (MARGOT): my [-old one was-]{+password:+} <redacted:keyword-secret> ok"])


def test_diff_redact_pools_standard_input_too(keyword_pair):
    a, b = keyword_pair
    r = subprocess.run([sys.executable, "-m", "fountain_audit", "diff", "--redact", "--format", "json", str(a), "-"],
                       input=b.read_text(encoding="utf-8"), capture_output=True, text=True)
    assert r.returncode == 1, r.stderr
    assert _PASSWORD not in r.stdout and "<redacted:keyword-secret>" in r.stdout


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_report_redact_pools_the_secrets_of_all_inputs(keyword_pair, tmp_path, order):
    out = tmp_path / "out"
    r = cli("report", "--redact", *(str(keyword_pair[k]) for k in order), "-o", str(out) + "/")
    assert r.returncode == 0, r.stderr
    pages = {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()}
    assert sorted(pages) == ["index.html", "kwA.spmd.html", "kwB.spmd.html"]
    assert [n for n, html in pages.items() if _PASSWORD in html] == []
    assert "my old one was &lt;redacted:keyword-secret&gt; ok" in pages["kwB.spmd.html"]


_NAME_TOKEN = "ghp_iK2ZWeqhFWCEPyYngFb51yBMWXaSCrUZoL8g"


@pytest.mark.parametrize("args, expected", [
    (["export", "--redact", "--to", "toolpath", "nots_{T}.spmd"],
     "fountain-audit: error: nots_<redacted:github-token>.spmd:13:1: no scene heading has a timestamp, so the "
     "session has no time; pass --fallback-time TIME to export it with an explicit time\n"),
    (["dump", "--redact", "empty_{T}.spmd"],
     "fountain-audit: warning: empty_<redacted:github-token>.spmd: empty: no records\n"),
    (["dump", "--redact-paths", "missing_{T}.spmd"],  # (the path part: a token in a name stays)
     "fountain-audit: error: missing_{T}.spmd: no such file or directory\n"),
    (["show", "--redact", "empty_{T}.spmd", "t1"],
     "fountain-audit: warning: empty_<redacted:github-token>.spmd: empty\n"
     "fountain-audit: error: empty_<redacted:github-token>.spmd: unknown id 't1': the file has no turns\n"),
    (["show", "--redact", "missing_{T}.spmd", "t1"],
     "fountain-audit: error: missing_<redacted:github-token>.spmd: no such file or directory\n"),
    (["lint", "--redact", "missing_{T}.spmd"],
     "fountain-audit: error: missing_<redacted:github-token>.spmd: no such file or directory\n"),
    (["lint", "--redact-paths", "/home/alice/missing.spmd"],
     "fountain-audit: error: <home>/missing.spmd: no such file or directory\n"),
])
def test_redact_masks_secrets_in_file_names_in_messages(tmp_path, args, expected):
    # the output was redacted, the messages on standard error named the file raw (adversarial trial)
    nots = (SAMPLES / "clean-session.spmd").read_text(encoding="utf-8")
    nots = re.sub(r"(INT\.|EXT\.)([^\n]*?) \d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d)?", r"\1\2", nots)
    (tmp_path / f"nots_{_NAME_TOKEN}.spmd").write_text(nots, encoding="utf-8")
    (tmp_path / f"empty_{_NAME_TOKEN}.spmd").write_text("", encoding="utf-8")
    r = cli(*(a.replace("{T}", _NAME_TOKEN) for a in args), cwd=tmp_path)
    assert r.stderr == expected.replace("{T}", _NAME_TOKEN)


def test_redacted_messages_end_with_the_command(tmp_path):
    # in-process (CliRunner): the stream is put back when the command ends
    import sys as system
    from click.testing import CliRunner
    from fountain_audit.cli import main

    before = system.stderr
    r = CliRunner().invoke(main, ["dump", "--redact", str(tmp_path / f"missing_{_NAME_TOKEN}.spmd")])
    assert r.exit_code == 2 and _NAME_TOKEN not in r.output and "<redacted:github-token>" in r.output
    assert system.stderr is before


@pytest.mark.parametrize("order", [(1, 0), (0, 1)])
def test_dump_redact_learns_every_input_before_writing(keyword_pair, order):
    # kwB first: its records were written before kwA, which shows the value to be a secret, was read
    r = cli("dump", "--turns", "--redact", *(str(keyword_pair[k]) for k in order))
    assert r.returncode == 0, r.stderr
    users = [t["user"]["text"] for t in json.loads(r.stdout)["records"] if t.get("user") and "ok" in t["user"]["text"]]
    assert sorted(users) == ["my old one was <redacted:keyword-secret> ok", "my password: <redacted:keyword-secret> ok"]


_KEY_LINE = "Qr7TgW3oPf1iUz0sYx4Ck9Dn2Lb6Ma8Hv5Ej3Gt7Ru1Qp0Wo9In8Ux2Zy6Tk4Sm"
_KEY_REPEATED = f"""Title: Key Session
Author: ALICE
Date: 2026-08-03 14:20:00


INT. HARVEY AND ALICE TALKING 2026-08-03 14:20:31

ALICE
Here is my key:
-----BEGIN RSA PRIVATE KEY-----
MIIEowIBAAKCAQEA7bq3x9Yk2n3mQz8vFqLp0aZt4Rw1sXy9uV2cN6mB8dKe5hJ
{_KEY_LINE}
-----END RSA PRIVATE KEY-----

HARVEY
The second line was {_KEY_LINE} as you wrote, MII and ----- too.
"""


def test_a_private_key_line_quoted_elsewhere_is_a_secret_too(tmp_path):
    # (only the key block was found: a reply quoting one 64-character line of its body kept it
    # in show --redact, report --redact, export --redact and redact)
    from click.testing import CliRunner

    from fountain_audit.cli import main
    from fountain_audit.privacy.detect import find_secrets
    path = tmp_path / "k.spmd"
    path.write_text(_KEY_REPEATED)
    found = find_secrets(_KEY_REPEATED)
    assert [(s.kind, s.value) for s in found][1:] == [("private-key", _KEY_LINE)]
    assert found[0].value.startswith("-----BEGIN RSA PRIVATE KEY-----\nMIIE")
    r = CliRunner().invoke(main, ["show", "--redact", str(path), "t1.reply"])
    assert r.output.splitlines()[-1] == "16 | The second line was <redacted:private-key> as you wrote, MII and ----- too."
    r = CliRunner().invoke(main, ["redact", str(path)])
    assert _KEY_LINE not in r.output and r.output.count("<redacted:private-key>") == 2
    assert "as you wrote, MII and ----- too." in r.output
    r = CliRunner().invoke(main, ["export", "--redact", "--to", "toolpath", str(path)])
    assert r.exit_code == 0 and _KEY_LINE not in r.output and "<redacted:private-key>" in r.output
    r = CliRunner().invoke(main, ["report", "--redact", "-o", str(tmp_path / "r.html"), str(path)])
    page = (tmp_path / "r.html").read_text()
    assert r.exit_code == 0 and _KEY_LINE not in page
    r = CliRunner().invoke(main, ["lint", "--select", "V101", "--format", "concise", str(path)])
    assert [line.split(": V101")[0] for line in r.output.splitlines() if "V101" in line] == \
        [f"{path}:10:1", f"{path}:16:21"]


# --------------------------------------------------------------------------- a JSON member across lines
# (adversarial trial: a keyword's value on the line after its name or colon, in a tool note's
# arguments, was printed by dump/show/export/report --redact and kept by `redact`)
_SPLIT_PASSWORD, _SPLIT_TOKEN = "Zq8#Lm4$Tx9!VbQ2", "a8F3kL9mQ2xZ7vB4nR6t"
_SPLIT_ARGS = f'{{"query":"x","password":\n"{_SPLIT_PASSWORD}","token":\n"{_SPLIT_TOKEN}"}}'
_SPLIT_SPELLINGS = {
    "colon after the name": _SPLIT_ARGS,
    "colon before the value": _SPLIT_ARGS.replace('":\n"', '"\n:"'),
    "escaped name": _SPLIT_ARGS.replace('"password"', '"pass\\u0077ord"'),
}


def _split_file(tmp_path, spelling: str, newline: str = "\n"):
    path = clean_session_with_tool_args(tmp_path, _SPLIT_SPELLINGS[spelling])
    if newline != "\n":
        path.write_bytes(path.read_bytes().replace(b"\n", newline.encode()))
    return path


def _split_leaks(out: str) -> list[str]:
    return [s for s in (_SPLIT_PASSWORD, _SPLIT_TOKEN, "Zq8#", "a8F3kL9", "Tx9!VbQ2", "R6t") if s in out]


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
@pytest.mark.parametrize("spelling", list(_SPLIT_SPELLINGS))
def test_redact_copy_of_keyword_secrets_whose_value_is_on_the_next_line(tmp_path, spelling, newline):
    path = _split_file(tmp_path, spelling, newline)
    out = tmp_path / "out.spmd"
    r = cli("redact", str(path), "-o", str(out))
    assert r.returncode == 0, r.stderr  # (the copy parsed to the same structure)
    expected = _SPLIT_SPELLINGS[spelling].replace(_SPLIT_PASSWORD, "<redacted:keyword-secret>") \
        .replace(_SPLIT_TOKEN, "<redacted:keyword-secret>").replace("\n", newline)
    copy = out.read_bytes().decode("utf-8")
    assert f"[[tool: search_notes({expected}) — ok]]" in copy
    # the rest as in the redacted copy of the sample itself (its workspace and home paths replaced)
    clean = tmp_path / "clean.spmd"
    clean.write_bytes((SAMPLES / "clean-session.spmd").read_bytes().replace(b"\n", newline.encode()))
    r = cli("redact", str(clean), "-o", str(tmp_path / "clean-out.spmd"))
    assert r.returncode == 0, r.stderr
    assert copy == (tmp_path / "clean-out.spmd").read_bytes().decode("utf-8").replace(CLEAN_TOOL_ARGS, expected)


@pytest.mark.parametrize("args", [
    ["dump", "--redact"], ["dump", "--redact", "--format", "json"], ["show", "--redact", "--format", "json"],
    ["show", "--redact"], ["export", "--redact", "--to", "toolpath"], ["export", "--redact", "--to", "otlp-json"],
    ["lint", "--no-cache", "--redact", "--output-format", "full"], ["report", "--redact"],
])
@pytest.mark.parametrize("spelling", list(_SPLIT_SPELLINGS))
def test_redacted_outputs_hold_no_keyword_secret_whose_value_is_on_the_next_line(tmp_path, spelling, args):
    path = _split_file(tmp_path, spelling)
    extra = ["t1.tool1", "t1", "L37"] if args[0] == "show" else []
    if args[0] == "report":
        extra = ["-o", str(tmp_path / "r.html")]

    def output(*a):
        r = cli(*a, str(path), *extra)
        return r.stdout + (Path(extra[1]).read_text(encoding="utf-8") if args[0] == "report" else ""), r

    unredacted, _ = output(*[a for a in args if a != "--redact"])
    assert _split_leaks(unredacted) != [] or args[0] == "lint"  # the input holds them
    out, r = output(*args)
    assert out and _split_leaks(out) == [], (out, r.stderr)
    assert "redacted:keyword-secret" in out


def test_redact_names_standard_input_by_stdin_filename(tmp_path):
    """``redact -`` takes ``--stdin-filename`` as every command that reads ``-`` does (README): its
    messages name the file by it; given without ``-`` it is not used, with a warning."""
    from click.testing import CliRunner

    from fountain_audit.cli import main
    r = CliRunner().invoke(main, ["redact", "-", "--stdin-filename", "in/x.spmd", "-o", str(tmp_path / "o.spmd")],
                           input=b"\x00\x01 binary")
    assert (r.exit_code, r.stderr) == (2, "fountain-audit: error: in/x.spmd: binary data, not a session transcript: "
                                          "not redacted (nothing written)\n")
    assert not (tmp_path / "o.spmd").exists()
    src = tmp_path / "s.spmd"
    src.write_text("Title: Harvey Session\nAuthor: A\n\nFADE IN:\n\nINT. HARVEY AND A TALKING 2026-06-24 10:00:00\n\n"
                   "A\nhi\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["redact", str(src), "--stdin-filename", "x", "-o", str(tmp_path / "c.spmd")])
    assert r.exit_code == 0
    assert r.stderr.splitlines()[0] == ("fountain-audit: warning: --stdin-filename only applies when one of the files "
                                        "is '-' (standard input); it is not used")


def test_redact_a_macos_disk_home_and_a_windows_xp_profile():
    """``/Volumes/<disk>/Users/<user>`` and ``C:\\Documents and Settings\\<user>`` are home paths
    (adversarial trial, stop 37): their prefixes are replaced as ``/home/<user>``'s are."""
    text = 'See C:\\Documents and Settings\\alice\\x and "/Volumes/Macintosh HD/Users/Bob Jones/y".\n'
    assert redact_text(text) == 'See <home>\\x and "<home>/y".\n'


@pytest.mark.parametrize("workspace", ["/home", "/Users/", "C:\\Users"])
def test_a_workspace_that_holds_every_home_hides_none(workspace):
    """With `Workspace: /home`, every home path was the workspace's: V102 said nothing and redact
    wrote `<workspace>/alice/.ssh/id_rsa`, the user's name left in (adversarial trial, stop 38)."""
    text = ("Title: Harvey Session\nAuthor: ALICE\n\nFADE IN:\n\nINT. HARVEY AND ALICE TALKING 2026-08-03 14:20:31\n\n"
            f"Harvey and ALICE are in chat mode. Model: LLAMA. Workspace: {workspace}.\n\nALICE\nRun it.\n\n"
            "HARVEY\nForwarding to LLAMA.\n\n[[tool: read_file({\"path\":\"/home/alice/.ssh/id_rsa\"}) — ok]]\n\n"
            "LLAMA\nSee /Users/bob/x and C:\\Users\\carol\\y\n\nTHE END.\n")
    out = redact_text(text)
    assert "alice/" not in out and "bob" not in out and "carol" not in out
    assert '"path":"<home>/.ssh/id_rsa"' in out and "See <home>/x and <home>\\y" in out
    codes = [(d.code, d.line) for d in lint_text(text) if d.code == "V102"]
    assert codes == [("V102", 16), ("V102", 19), ("V102", 19)]


def test_a_service_account_s_name_is_not_looked_for_in_other_paths():
    """`/home/app` taught the redactor the user `app`, which then replaced `/usr/src/app/main.py`,
    `WORKDIR /app` and `-v /var/lib/data:/data` with `<home>` (adversarial trial, stop 38): a name
    that is a common folder's is not looked for in other paths; a person's still is."""
    text = "Your home is /home/app.\nBuild: /usr/src/app/main.py, WORKDIR /app, -v /var/lib/data:/data, /home/data\n"
    assert redact_text(text) == ("Your home is <home>.\nBuild: /usr/src/app/main.py, WORKDIR /app, "
                                 "-v /var/lib/data:/data, <home>\n")
    assert redact_text("See /home/alice/x and /srv/alice/y\n") == "See <home>/x and <home>/y\n"


def test_a_home_path_that_runs_into_a_secret_is_still_replaced():
    """In a process's command line (`/proc/PID/cmdline`: NUL between the arguments) the user name
    ran on over the NUL into the token after it; the home path lost to the secret and
    `/home/zelda` was left in the redacted copy (adversarial trial, stop 38)."""
    text = "The process runs: deploy\x00/home/zelda\x00--token\x00ghp_Zq8XvN2kLm4Rt7Yp1Wc9Hd3Fb6Gj5Ks0Ae2U\x00\n"
    assert redact_text(text) == "The process runs: deploy\x00<home><redacted:github-token>\x00\n"
