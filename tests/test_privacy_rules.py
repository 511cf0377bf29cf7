"""V101 secret-in-session and V102 home-path-in-session on a session seeded with fake
credentials of 14 kinds (tests/privacy_session.py), the [privacy] allow list, and no
false positives on our samples and the shared reference material."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from fountain_audit.lint.config import Config, ConfigError, apply_settings
from fountain_audit.lint.linter import Selection, lint_text
from fountain_audit.parse.source import read_path
from fountain_audit.privacy.detect import find_home_paths, find_secrets
from fountain_audit.privacy.redact import Redactor
from tests import privacy_session
from tests.conftest import SAMPLES, SHARED

TEXT, VALUES = privacy_session.build()


def position(text: str, needle: str, start: int = 0) -> tuple[int, int, int]:
    """(1-based line, column, offset) of ``needle`` in ``text``, found without the tool."""
    off = text.index(needle, start)
    line = text.count("\n", 0, off) + 1
    return line, off - (text.rfind("\n", 0, off) + 1) + 1, off


def expected_secrets() -> list[tuple[int, int, int, int, str]]:
    """(line, column, end_line, end_column, kind) of every placed secret, read off the text."""
    out = []
    for name, value in VALUES.items():
        start = 0
        while value in TEXT[start:]:
            line, col, off = position(TEXT, value, start)
            end_line, end_col, _ = position(TEXT, value[-1], off + len(value) - 1)
            kind = privacy_session.KINDS[name]
            if TEXT.startswith("://admin:", off - len("://admin:")):  # (the keyword password again, in a
                kind = "basic-auth"                                    # URL, holding '#': read as a URL's)
            out.append((line, col, end_line, end_col + 1, kind))
            start = off + len(value)
    return sorted(out)


def test_every_secret_is_flagged_at_its_exact_span():
    found = [d for d in lint_text(TEXT, "s.spmd", Selection.build(select=["V101"]))]
    got = sorted((d.line, d.column, d.end_line, d.end_column, re.search(r"\((\S+)\) in the", d.message).group(1))
                 for d in found)
    assert got == expected_secrets()
    assert len({k for *_, k in got}) >= 12
    assert len(got) == 15  # the keyword password twice (shell note, psql URL), the rest once
    assert {d.severity.name for d in found} == {"ERROR"}


def test_secrets_sit_in_every_place_the_issue_names():
    lines = TEXT.splitlines()
    places = {line for line, *_ in expected_secrets()}
    assert 4 in places                                  # title page
    assert lines[22].startswith("Deploy with my token")  # user line (23)
    assert 23 in places and 30 in places and 33 in places and 34 in places and 47 in places and 62 in places
    assert lines[29].startswith("[[tool: deploy(")      # tool arguments and tool error (30)
    assert lines[61].startswith("[[shell: DB_PASSWORD")  # a multi-line shell note (62-63)
    assert lines[46].startswith("-----BEGIN RSA PRIVATE KEY-----")  # shell output, a 5-line block


def test_the_message_names_the_kind_and_never_the_secret():
    for d in lint_text(TEXT, "s.spmd", Selection.build(select=["V101"])):
        assert re.fullmatch(r".+ \([a-z0-9-]+\) in the session: \S{0,8}…\(\d+ chars\); revoke it and share only "
                            r"a redacted copy", d.message), d.message
    for value in VALUES.values():
        for d in lint_text(TEXT, "s.spmd", Selection.build()):
            assert value[8:] not in d.message and value not in d.message


def test_github_token_message_exactly():
    d = next(d for d in lint_text(TEXT, "s.spmd", Selection.build(select=["V101"])) if "GitHub" in d.message)
    assert d.message == ("GitHub token (github-token) in the session: ghp_…(40 chars); "
                         "revoke it and share only a redacted copy")
    assert (d.line, d.column, d.end_column) == (23, 22, 62)


@pytest.mark.parametrize("fmt", ["full", "concise", "json", "json-lines", "github", "sarif", "junit", "gitlab"])
def test_no_output_format_of_lint_shows_a_secret(tmp_path, fmt):
    path = tmp_path / "s.spmd"
    path.write_text(TEXT, encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "fountain_audit", "lint", "--isolated", "--output-format", fmt,
                        str(path)], capture_output=True, text=True)
    assert r.returncode == 1, r.stderr
    assert "V101" in r.stdout
    for name, value in VALUES.items():
        for piece in [value] + value.splitlines():
            assert piece[6:] not in r.stdout, (fmt, name)
    if fmt == "full":  # the code frame masks the secret: prefix, then stars, carets still under it
        assert "4 | Contact: alerts bot " + "*" * 45 in r.stdout


def test_home_paths_flagged_but_not_the_workspace():
    found = lint_text(TEXT, "s.spmd", Selection.build(select=["V102"]))
    got = [(d.line, d.column, d.end_column, d.message) for d in found]
    assert got == [
        (18, 22, 33, "home directory path /home/alice names a user account"),     # RAG store
        (20, 15, 26, "home directory path /home/alice names a user account"),     # rag-source
        (30, 250, 261, "home directory path /home/alice names a user account"),   # key_file in tool args
        (35, 19, 33, "home directory path C:/Users/alice names a user account"),  # reply text
        (35, 50, 62, "home directory path /Users/alice names a user account"),
    ]
    assert {d.severity.name for d in found} == {"INFO"}


def test_home_path_spellings():
    text = 'a \\/home\\/bob\\/x b C:\\\\Users\\\\Carol\\\\y c /USERS/dave/z d /home/Shared/q e /homework/x'
    assert [h.text for h in find_home_paths(text)] == ["\\/home\\/bob", "C:\\\\Users\\\\Carol", "/USERS/dave"]


def test_home_path_written_again_on_other_lines():
    """A path written on many lines (a session's scene descriptions) is matched once per line
    text and context (issue 9): each line reads as it does alone, whatever came before it,
    including the three code points before the separator that the pattern looks at."""
    lines = ["Workspace: /home/bench/p.", "-I/home/bench/p", "Workspace: /home/bench/p.", "x/home/bench/p",
             "a-I/home/bench/p", ".-I/home/bench/p", "a-I/home/bench/p", "Workspace: /home/bench/p.", "/home/bench",
             "in /root/x", "in ~/root/x", "in /root/x"]
    text = "\n".join(lines)
    assert [(h.start, h.end, h.text) for h in find_home_paths(text)] == [
        (11, 22, "/home/bench"), (28, 39, "/home/bench"), (53, 64, "/home/bench"),
        (103, 114, "/home/bench"), (145, 156, "/home/bench"), (160, 171, "/home/bench"), (175, 180, "/root"),
        (198, 203, "/root")]
    starts = [sum(len(x) + 1 for x in lines[:k]) for k in range(len(lines))]
    alone = [(s + h.start, s + h.end) for s, line in zip(starts, lines) for h in find_home_paths(line)]
    assert alone == [(h.start, h.end) for h in find_home_paths(text)]


@pytest.mark.parametrize("text", [
    "password: required",                       # prose, no credential
    "Set PASSWORD=${DB_PASSWORD} in the env",   # a reference
    "the secret: <your token here>",
    "api_key = \"xxxxxxxxxxxx\"",                # a placeholder
    "-----BEGIN RSA PRIVATE KEY----- is how the file starts",  # a mention, no key body
    "commit 4f2c9ab0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6 and sha256:" + "ab" * 32,
    "https://example.com/a:b@c",                # no user:password@ form (reserved chars)
    "token: abcdefgh",                          # one character class
])
def test_no_secret_in_ordinary_text(text):
    assert find_secrets(text) == []


def test_keyword_secret_needs_a_credential_like_value():
    assert [s.value for s in find_secrets("DB_PASSWORD=Qx7fakefake#9 now")] == ["Qx7fakefake#9"]
    assert find_secrets("DB_PASSWORD=hunter2") == []  # too short to call


def test_allow_list_from_config_silences_a_known_token():
    cfg = Config()
    apply_settings(cfg, {"privacy": {"allow": ["^AKIA", "/home/alice"]}})
    sel = Selection(tuple(cfg.rules()), tuple(cfg.privacy_allow))
    codes = [(d.code, d.message.split(" (")[0]) for d in lint_text(TEXT, "s.spmd", sel) if d.code.startswith("V")]
    assert ("V101", "AWS access key") not in codes
    assert ("V101", "GitHub token") in codes
    assert [c for c in codes if c[0] == "V102"] == [("V102", "home directory path C:/Users/alice names a user account"),
                                                     ("V102", "home directory path /Users/alice names a user account")]


def test_allow_list_is_validated():
    for bad, msg in [({"allow": "x"}, "must be a list"), ({"allow": ["("]}, "invalid regular expression"),
                     ({"deny": []}, "unknown key")]:
        with pytest.raises(ConfigError, match=msg):
            apply_settings(Config(), {"privacy": bad})


def test_allow_list_from_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.fountain-audit.privacy]\nallow = ["^ghp_"]\n')
    (tmp_path / "s.spmd").write_text(TEXT, encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "fountain_audit", "lint", "--output-format", "json", "s.spmd"],
                       capture_output=True, text=True, cwd=tmp_path)
    msgs = [d["message"] for d in json.loads(r.stdout)["diagnostics"] if d["code"] == "V101"]
    assert len(msgs) == 14 and not any("GitHub" in m for m in msgs)


def test_inline_suppression_works_for_v101():
    text = "INT. SHELL 2026-06-24 10:02:30\n\n/* fountain-audit: disable-next=V101 */\nALICE\n! export K=AKIAIOSFODNN7EXAMPLE\n"
    assert [d.code for d in lint_text(text, "x", Selection.build())] == []


def _corpus_files():
    from pathlib import Path
    root = Path(__file__).parents[1] / "samples"
    files = sorted(root.rglob("*.spmd"))
    if SHARED is not None:
        for sub in ("corpus", "cases"):
            files += sorted(p for p in (SHARED / sub).rglob("*") if p.is_file() and p.suffix in (".spmd", ".fountain"))
    return files


def test_no_error_level_false_positives_on_samples_and_shared():
    sel = Selection.build(select=["V"])
    errors, infos = [], []
    for p in _corpus_files():
        if p.name.startswith("V10"):
            continue  # the violation samples of these rules
        for d in lint_text(read_path(p), str(p), sel):
            (errors if d.code == "V101" else infos).append(f"{p}:{d.line}:{d.column} {d.message}")
    assert errors == []
    assert infos == []  # home paths in the material are all Workspace: paths


def test_needle_index_answers_as_substring_search(monkeypatch):
    """``Needles`` (one Aho-Corasick pass per form of the text, privacy.needles) gives the answers
    of ``needle in hay`` (an occurrence overlapping another needle's included) for every plugin needle: alone, inside other text, next to non-ASCII characters (``?`` in the
    bytes it reads), in other cases, overlapping itself, with one character missing (absent), and
    in a text whose folded form is a ``str`` (U+0130, searched needle by needle)."""
    from fountain_audit.privacy import needles as needles_module
    from fountain_audit.privacy.detect import _NEEDLES, PLUGINS, _folded
    from fountain_audit.privacy.needles import Needles

    monkeypatch.setattr(needles_module, "AUTOMATON_MIN", 0)  # (short texts here: read by the automaton too)

    cases = []
    for plugin in PLUGINS:
        for needle in plugin.needles:
            variants = [needle, needle.upper(), needle.lower(), needle.swapcase()]
            variants += [needle[:k] + needle[k + 1:] for k in range(len(needle))]  # one character dropped
            variants += [needle[:k] + "é" + needle[k:] for k in range(1, len(needle))]
            for v in variants:
                for text in (v, f"x{v}y", f"é{v}—", f"{v[:-1]}\n{v[-1:]}", f"{v} and {v}", f"aw{v}", f"{v}s",
                             v + v[1:], f"\u0130{v}"):
                    cases.append((plugin, needle, text))
    assert len(cases) > 3600
    starts = 0
    for plugin, needle, text in cases:
        raw = text.encode("ascii", "replace")
        low = _folded(text, raw)
        hay = low if plugin.lower else raw
        word = needle.encode() if type(hay) is bytes else needle
        want = [i for i in range(len(hay)) if hay.startswith(word, i)]
        needles = Needles(raw, low, _NEEDLES)
        assert needles.present(needle, plugin.lower) == bool(want), (plugin.kind, needle, text)
        starts += len(want)
    assert starts > 1000


def test_invisible_character_test_answers_as_substring_tests():
    """``_holds_invisible`` (a search of the text's UTF-8 form, or of a Latin-1 text itself) gives
    the answer of ``any(c in text for c in INVISIBLE's characters)`` on random texts of ASCII,
    Latin-1, two-byte and astral characters, lone surrogates and the invisible characters
    themselves, short and long (the one-byte form given either way, as the callers give it)."""
    import random

    from fountain_audit.privacy import detect
    from fountain_audit.privacy.detect import _INVISIBLE_CHARS, _holds_invisible, _one_byte_form
    from fountain_audit.untrusted import CONTROL_CODES

    invisible = tuple(map(chr, CONTROL_CODES)) + _INVISIBLE_CHARS
    rnd = random.Random(7)
    # neighbours of the invisible characters (same UTF-8 leading bytes, same UCS-2 low bytes)
    near = [chr(ord(c) + d) for c in invisible for d in (-1, 1) if ord(c) + d >= 0] + ["\u2014", "\u201c", "\u00b7", "\u00e9"]
    near = [c for c in near if c not in invisible]
    pool = list("abc?\\\n -") + near + ["\U0001f600", "\ud800", "\udc00", "\u0100"]
    checked = 0
    for trial in range(1500):
        n = rnd.choice([3, 40, 5000, 9000])
        chars = [rnd.choice(pool) for _ in range(n)]
        if rnd.random() < 0.4:
            chars[rnd.randrange(n)] = rnd.choice(invisible)
        if rnd.random() < 0.3:  # a Latin-1 text
            chars = [c if ord(c) < 256 else "x" for c in chars]
        text = "".join(chars)
        want = any(c in text for c in invisible)
        for raw in (_one_byte_form(text), text.encode("ascii", "replace")):
            assert _holds_invisible(text, raw) == want, (trial, text[:60])
            checked += 1
    assert checked == 3000
    assert detect._SMALL_TEXT < 5000  # (the long texts take the UTF-8 path)


OPENAI_PROJECT_KEY = ("sk-proj-Qw3rTy7uIoPa5sDfGh1jKlZx9cVbNm2QwErTyUiOp0AsDfGhJkL" "T3BlbkFJ"
                      "Zx8cVbNm4QwErTyUiOp6AsDfGhJkLzXcVbNm1QwErTyU")


def test_openai_key_is_found_to_the_end_of_the_token():
    """detect-secrets' pattern stops 20 characters after T3BlbkFJ: the rest of the key is part of it."""
    found = find_secrets(f'{{"k":"{OPENAI_PROJECT_KEY}"}}')
    assert [(s.start, s.end, s.kind, s.value) for s in found] == [(6, 117, "openai-key", OPENAI_PROJECT_KEY)]


@pytest.mark.parametrize("key", [
    "sk-proj-" + "Qw3rTy7uIoPa5sDfGh1jKlZx9cVbNm2QwErTy_UiOp0-AsDfGhJkL" * 3,
    "sk-svcacct-Qw3rTy7uIoPa5sDfGh1jKlZx9cVbNm2QwErTyUiOp",
    "sk-admin-Qw3rTy7uIoPa5sDfGh1jKlZx9cVbNm2QwErTyUiOp",
])
def test_openai_prefixed_keys_without_the_marker(key):
    assert [(s.start, s.end, s.kind) for s in find_secrets(f"OPENAI={key} next")] == \
        [(7, 7 + len(key), "openai-key")]


@pytest.mark.parametrize("text", [
    "sk-proj-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",      # a placeholder
    "sk-proj-your-project-key-goes-here",           # prose
    "sk-proj-Qw3rTy7uIoPa5sDf",                     # too short
    "ask-proj-Qw3rTy7uIoPa5sDfGh1jKlZx9cVbNm2QwE",  # not a key's start
])
def test_openai_prefixed_non_keys(text):
    assert find_secrets(text) == []


def test_openai_project_key_is_redacted_whole():
    from fountain_audit.privacy.redact import redact_session

    text = (SAMPLES / "clean-session.spmd").read_text(encoding="utf-8").replace(
        '"limit":5', f'"limit":5,"k":"{OPENAI_PROJECT_KEY}"')
    out = redact_session(text)
    assert out.problem is None
    assert '"limit":5,"k":"<redacted:openai-key>"}) — ok]]' in out.text
    assert "T3BlbkFJ" not in out.text and "QwErTyU" not in out.text


@pytest.mark.parametrize("url, password", [
    ("https://user:Tr0ub4dor&3xQz@example.com/x", "Tr0ub4dor&3xQz"),  # RFC 3986 sub-delimiters
    ("https://deploy:b!c*d+e=f9@git.example.com", "b!c*d+e=f9"),
    ("https://user:Tr0ub4dor3xQz@example.com/x", "Tr0ub4dor3xQz"),    # (the detector's own case)
])
def test_basic_auth_password_with_sub_delimiters(url, password):
    start = url.index(password)
    assert [(s.start, s.end, s.kind, s.value) for s in find_secrets(url)] == \
        [(start, start + len(password), "basic-auth", password)]


@pytest.mark.parametrize("text", [
    'url = "https://"+user+":"+pw+"@"+host',
    "url=`https://${user}:${pw}@host`",
    "git clone https://user:$TOKEN@host/repo",
])
def test_basic_auth_code_and_references_are_no_password(text):
    assert find_secrets(text) == []


_RANDOM = "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9fG1hJ3kL5mN7pQ9rS1tU3vW5xY7zA9bC1dE3fG5hJ7kL9mN1pQ3rS5t-U7v_Ab3C"
GITHUB_FINE_GRAINED = "github_pat_11ABCDEFG0123456789abc_" + _RANDOM[:59]  # 22 + "_" + 59
ANTHROPIC_KEY = "sk-ant-api03-" + _RANDOM[-93:] + "AA"
GOOGLE_KEY = "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"
HF_TOKEN = "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"
AI_TOKENS = [(GITHUB_FINE_GRAINED, "github-token", "github_pat_…(93 chars)"),
             (ANTHROPIC_KEY, "anthropic-key", "sk-ant-…(108 chars)"),
             ("sk-ant-admin01-" + ANTHROPIC_KEY[13:], "anthropic-key", "sk-ant-…(110 chars)"),
             (GOOGLE_KEY, "google-api-key", "AIza…(39 chars)"),
             (HF_TOKEN, "huggingface-token", "hf_…(37 chars)")]


@pytest.mark.parametrize("token, kind, masked", AI_TOKENS, ids=lambda x: x[:12])
@pytest.mark.parametrize("context", ["{}", "export TOKEN={}", '{{"api_key":"{}"}}', "my token is {}.", "({})",
                                     "Authorization: Bearer {}", "https://x.example/api?key={}&q=1"])
def test_github_fine_grained_and_ai_provider_tokens(token, kind, masked, context):
    text = context.format(token)
    found = find_secrets(text)
    start = text.index(token)
    assert [(s.start, s.end, s.kind, s.value) for s in found] == [(start, start + len(token), kind, token)]
    assert found[0].masked() == masked


@pytest.mark.parametrize("token, kind, masked", AI_TOKENS, ids=lambda x: x[:12])
def test_ai_provider_tokens_are_taken_to_the_end_of_the_token(token, kind, masked):
    longer = token + "9Zz-x_Q"
    assert [(s.kind, s.value) for s in find_secrets(f'"{longer}"')] == [(kind, longer)]


def test_an_anthropic_key_holding_the_openai_marker_is_an_anthropic_key():
    key = ANTHROPIC_KEY[:40] + "T3BlbkFJ" + ANTHROPIC_KEY[48:]
    assert [(s.kind, s.value) for s in find_secrets(f"ANTHROPIC_API_KEY={key}")] == [("anthropic-key", key)]


@pytest.mark.parametrize("text", [
    "github_pat_" + "x" * 82,                                # a placeholder
    "github_pat_11ABCDEFG0123456789_abc",                    # too short
    "my_github_pat_11ABCDEFG0123456789abc_" + GITHUB_FINE_GRAINED[34:],  # inside an identifier
    "sk-ant-api03-your-anthropic-key-goes-here-please-1234",  # prose
    "sk-ant-api03-" + "X" * 95,
    "sk-ant-api03-aB3dE5fG7hJ9",                             # too short
    "task-ant-api03-" + ANTHROPIC_KEY[13:],                  # not a key's start
    "AIzaSomething", "AIza" + "a" * 35, "the AIzaBotWasHere",
    "base64 data MIIBIjAN/AIza" + GOOGLE_KEY[4:],            # inside base64
    "hf_hub_download(repo_id=...)", "from hf_transfer import x",
    "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",                 # an identifier: 34 letters, 5 capitals
    "hf_" + "abcdefghij" * 4,                                # one case, 40 letters
    "use the_hf_" + HF_TOKEN[3:],                            # inside an identifier
    "hf_" + HF_TOKEN[3:] + "Q",                              # 35 letters: no Hugging Face token
    "skeleton key and hf_ and sk-ant- and AIza and github_pat_ alone",
])
def test_no_ai_provider_token_in_ordinary_text(text):
    assert find_secrets(text) == []


def test_github_fine_grained_and_ai_provider_tokens_are_redacted_whole():
    from fountain_audit.privacy.redact import redact_session

    extra = ",".join(f'"k{i}":"{t}"' for i, (t, _, _) in enumerate(AI_TOKENS))
    text = (SAMPLES / "clean-session.spmd").read_text(encoding="utf-8").replace('"limit":5', f'"limit":5,{extra}')
    out = redact_session(text)
    assert out.problem is None and out.counts.secrets == len(AI_TOKENS)
    want = ",".join(f'"k{i}":"<redacted:{k}>"' for i, (_, k, _) in enumerate(AI_TOKENS))
    assert f'"limit":5,{want}}}) — ok]]' in out.text
    for token, _, _ in AI_TOKENS:
        assert token[-12:] not in out.text and token[8:20] not in out.text


@pytest.mark.parametrize("text, found", [
    ("cat /root/.ssh/id_rsa", ["/root"]),
    ("cd /root && ls", ["/root"]),
    ('{"path":"\\/root\\/notes.txt"}', ["\\/root"]),
    ("see /root.", ["/root"]),
    ("/home/root/x", ["/home/root"]),
    ("/rootfs /root.txt /var/root /ROOT/x \\root x/root ~/root C:/root ../root /roots", []),
    # after a list's or a host's colon, not a drive's (adversarial trial, stop 38)
    ("PATH=/usr/bin:/root/.local/bin", ["/root"]),
    ("scp host:/root/.ssh/id_rsa .", ["/root"]),
    ("D:/root ab:/root", ["/root"]),
])
def test_root_is_a_home_directory(text, found):
    """/root is root's home on Linux: reported (user root) like /home/<user>, in either slash
    spelling JSON gives it; not a longer name, another directory's root, or \\root."""
    assert [(h.text, h.user) for h in find_home_paths(text)] == [(f, "root") for f in found]


def test_root_home_paths_flagged_but_not_the_workspace():
    text = (SAMPLES / "clean-session.spmd").read_text(encoding="utf-8").replace(
        "/home/margot/src/tidewater", "/root/src/tidewater").replace(
        '"cmd":"make test"', '"cmd":"make -C /root/src/tidewater test && cat /root/.netrc"')
    found = lint_text(text, "s.spmd", Selection.build(select=["V102"]))
    line = text[:text.index("/root/.netrc")].count("\n") + 1
    assert [(d.line, d.message) for d in found] == [(line, "home directory path /root names a user account")]


def test_a_provider_token_longer_than_its_pattern_is_redacted_whole():
    """detect-secrets reads ``ghp_`` + 36 and ``sk_live_`` + 24 characters: a longer token (Stripe's
    run to 99) was redacted with its tail left (``<redacted:github-token>xR``)."""
    from fountain_audit.privacy.detect import find_secrets
    from fountain_audit.privacy.redact import Redactor

    github = "ghp_" + "Zq3Vx9LmTt2Rk8Wp4Yh7Nb1Cd6Fg0Js5Ea2QxR"  # 38 after the prefix
    stripe = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc" + "Xk2Lp9Qw3Er5Ty7Ui0Op"
    text = f"a {github}. b {stripe}, c"
    assert [(s.kind, s.start, s.end) for s in find_secrets(text)] == [
        ("github-token", 2, 2 + len(github)), ("stripe-key", 48, 48 + len(stripe))]
    assert Redactor().learn(None, text).text(text) == "a <redacted:github-token>. b <redacted:stripe-key>, c"


def test_nul_bytes_in_front_of_a_session_do_not_hide_its_secrets():
    # (200 NULs made the file "binary": only E104 ran, and --select V said all clear; adversarial trial)
    from fountain_audit.lint.linter import Selection, lint_text
    from fountain_audit.parse.source import decode_bytes
    from tests.conftest import SAMPLES
    raw = b"\x00" * 200 + b"\n\n" + (SAMPLES / "violations" / "V101-secret-in-session.spmd").read_bytes()
    found = [(d.code, d.line, d.column) for d in lint_text(decode_bytes(raw), "n.spmd")]
    assert found == [("E104", 1, 1), ("V101", 25, 57)]
    assert [d.message for d in lint_text(decode_bytes(raw), "n.spmd", Selection.build(["E104"]))] == [
        "file looks binary (NUL bytes and control characters); only the privacy rules (V) check it further"]
    assert [(d.code, d.line) for d in lint_text(decode_bytes(raw), "n.spmd", Selection.build(["V"]))] == [("V101", 25)]


def test_a_suppression_comment_in_a_reply_is_the_reply_s_text_not_a_directive():
    # (a reply holding `/* fountain-audit: disable-file */` silenced the file, its AWS key included,
    # and cut the reply's text at the comment; adversarial trial)
    from fountain_audit import build_session, parse
    from fountain_audit.lint.linter import lint_text
    from tests.conftest import SAMPLES
    text = (SAMPLES / "violations" / "V101-secret-in-session.spmd").read_text(encoding="utf-8").replace(
        "Deployed.\n", "Deployed.\n\n/* fountain-audit: disable-file */\n\nAll done.\n")
    found = [(d.code, d.line, d.column, d.message) for d in lint_text(text, "s.spmd")]
    assert [f[:3] for f in found] == [("V101", 23, 57), ("A102", 28, 1)]
    assert found[1][3] == ("suppression comment ignored: inside what GEMMA3's speech may have written (recorded "
                           "verbatim, it may come from a model; a reply's text runs on to the next scene heading): "
                           "session text, not a directive; put it where no speech runs (after a scene's description "
                           "or HARVEY's forwarding line, or before the title page), or use per-file-ignores or a "
                           "baseline")
    (turn,) = build_session(parse(text)).turns
    assert turn.reply.text == "Deployed.\n\n/* fountain-audit: disable-file */\n\nAll done."
    # a disable-next right before what ends the speech is its text too (it covered that element, and
    # was cut from the reply's text: this test said so); no telling who wrote it
    text = text.replace("/* fountain-audit: disable-file */\n\nAll done.\n", "All done.\n\n"
                        "/* fountain-audit: disable-next=N101 */\n[[tool: broken]]\n")
    assert [(d.code, d.line) for d in lint_text(text, "s.spmd")] == [
        ("V101", 23), ("A102", 30), ("P102", 31), ("N101", 31)]
    (turn,) = build_session(parse(text)).turns
    assert turn.reply.text == "Deployed.\n\nAll done.\n\n/* fountain-audit: disable-next=N101 */"


def test_a_disable_next_ending_a_reply_does_not_hide_the_secret_after_it():
    """A model's reply ending in `/* fountain-audit: disable-next=V101 */` switched off the secret
    rule for the harness's tool note after it: `lint --select V` said all clear (adversarial trial)."""
    from fountain_audit.lint.linter import Selection, lint_text
    text = ("Title: Harvey Session\nCredit: Recorded by Harvey\nAuthor: MARGOT\n\n"
            "INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\n"
            "Harvey and MARGOT are in chat mode. Model: QWEN. Workspace: /w.\n\n"
            "MARGOT\nDeploy.\n\nHARVEY\nForwarding to QWEN.\n\nQWEN\nSure.\n/* fountain-audit: disable-next=V101 */\n\n"
            "[[tool: run_shell({\"cmd\":\"curl -H 'Authorization: Bearer Zk8pQ2mXv7LtR4nWb9Yc3Hs7'\"}) — ok]]\n\n"
            "THE END.\n")
    assert [(d.code, d.line, d.column) for d in lint_text(text, "s.spmd", Selection.build(["V"]))] == [
        ("V101", 19, 58)]
    assert [(d.code, d.line) for d in lint_text(text, "s.spmd", Selection.build(["A", "V"]))] == [
        ("A102", 17), ("V101", 19)]


@pytest.mark.parametrize("text, value", [
    ('{"password":"Zq8vR2mX k9pLwT4s"}', "Zq8vR2mX k9pLwT4s"),
    ('{"password":"Zq8vR2mXk9pLwT4\\"s"}', 'Zq8vR2mXk9pLwT4\\"s'),
    ('{"password":"Zq8vR2mXk9pL\\\\wT4s"}', "Zq8vR2mXk9pL\\\\wT4s"),
    ('{"password":"\U0001F600Zq8vR2mXk9pLwT4s"}', "\U0001F600Zq8vR2mXk9pLwT4s"),
    ('{"password":"\\ud83d\\ude00Zq8vR2mXk9pLwT4s"}', "\\ud83d\\ude00Zq8vR2mXk9pLwT4s"),
    ('{"db_pass": "Zq8vR2mX k9pL\\twT4s", "user": "bob"}', "Zq8vR2mX k9pL\\twT4s"),
    ('{"access_token": "Zq8vR2mXk9pL wT4s"}', "Zq8vR2mXk9pL wT4s"),
    ('{\\"password\\":\\"Zq8vR2mX k9pLwT4s\\"}', "Zq8vR2mX k9pLwT4s"),
])
def test_a_json_string_after_a_keyword_is_the_secret_whole(text, value):
    # up to its closing unescaped quote: blanks, escaped quotes and backslashes, emoji are part of it
    # (they cut the value short, or hid it, and its tail was left in redacted output: adversarial trial)
    start = text.index(value)
    assert [(s.start, s.end, s.kind, s.value) for s in find_secrets(text)] == [
        (start, start + len(value), "keyword-secret", value)]
    assert Redactor(paths=False).text(text) == text.replace(value, "<redacted:keyword-secret>")


@pytest.mark.parametrize("text", [
    '{"password_hint": "name of your first pet"}', '{"password": "hello world"}', '{"api_key": "${API_KEY}"}',
    '{"token": "Photosynthesis"}', '{"next_page_token": "Xy7Zq8vR2mXk9pLw"}'
])
def test_a_json_string_after_a_keyword_that_is_no_credential(text):
    assert find_secrets(text) == []


# --------------------------------------------------------------------------- a JSON member across lines
# (adversarial trial: a tool note's arguments may span lines, and a line end between a keyword's
# name, its colon and its value hid the value from V101 and from every --redact: the detectors
# read one line at a time)

#: The tester's arguments: two keyword secrets, each value on the line after its name and colon.
SPLIT_ARGS = '{"query":"x","password":\n"Zq8#Lm4$Tx9!VbQ2","token":\n"a8F3kL9mQ2xZ7vB4nR6t"}'
SPLIT_PASSWORD, SPLIT_TOKEN = "Zq8#Lm4$Tx9!VbQ2", "a8F3kL9mQ2xZ7vB4nR6t"
#: The same arguments spelt otherwise: the colon on the value's line, the name JSON-escaped.
SPLIT_SPELLINGS = {
    "colon after the name": SPLIT_ARGS,
    "colon before the value": SPLIT_ARGS.replace('":\n"', '"\n:"'),
    "escaped name": SPLIT_ARGS.replace('"password"', '"pass\\u0077ord"'),
}


def _split_session(args: str, newline: str = "\n") -> str:
    from tests.conftest import CLEAN_TOOL_ARGS

    text = (SAMPLES / "clean-session.spmd").read_text(encoding="utf-8").replace(CLEAN_TOOL_ARGS, args)
    return text.replace("\n", newline)


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
@pytest.mark.parametrize("spelling", list(SPLIT_SPELLINGS))
def test_v101_finds_keyword_secrets_whose_value_is_on_the_next_line(spelling, newline):
    text = _split_session(SPLIT_SPELLINGS[spelling], newline)
    col = 3 if spelling == "colon before the value" else 2  # (after `:"` or `"`)
    found = [(d.code, d.line, d.column, d.end_line, d.end_column, re.search(r"\((\S+)\) in the", d.message).group(1))
             for d in lint_text(text, "s.spmd", Selection.build(select=["V"]))]
    assert found == [("V101", 38, col, 38, col + 16, "keyword-secret"),
                     ("V101", 39, col, 39, col + 20, "keyword-secret")]


@pytest.mark.parametrize("text, values", [
    ('{"password":\n"Zq8#Lm4$Tx9!VbQ2"}', ["Zq8#Lm4$Tx9!VbQ2"]),
    ('{"password"\n:"Zq8#Lm4$Tx9!VbQ2"}', ["Zq8#Lm4$Tx9!VbQ2"]),
    ('{"password":\r\n"Zq8#Lm4$Tx9!VbQ2"}\r\n', ["Zq8#Lm4$Tx9!VbQ2"]),
    ('{"password"\r\n:\r\n"Zq8#Lm4$Tx9!VbQ2"}\r\n', ["Zq8#Lm4$Tx9!VbQ2"]),
    ('{\n  "password" \t\n\n\t :  \n    "Zq8#Lm4$Tx9!VbQ2"\n}', ["Zq8#Lm4$Tx9!VbQ2"]),  # any JSON whitespace
    ('{"api-key":\n"Zq8vR2mX k9pLwT4s"}', ["Zq8vR2mX k9pLwT4s"]),   # taken whole, blank included
    ('{"db_pass":\n"Zq8vR2mXk9pLwT4\\"s"}', ['Zq8vR2mXk9pLwT4\\"s']),  # an escaped quote in it
    ('{"pass\\u0077ord":\n"Zq8#Lm4$Tx9!VbQ2"}', ["Zq8#Lm4$Tx9!VbQ2"]),
    ('{"pass\\u0077ord":\n"Zq8#Lm4\\u0024Tx9!VbQ2"}', ["Zq8#Lm4\\u0024Tx9!VbQ2"]),  # escapes in the value too
    ('{"access_token":\n"a8F3kL9mQ2xZ7vB4nR6t"}', ["a8F3kL9mQ2xZ7vB4nR6t"]),
    # JSON in a JSON string, its line break a \n escape: read decoded, reported at its spelling
    ('"{\\"password\\":\\n\\"Zq8#Lm4$Tx9!VbQ2\\"}"', ["Zq8#Lm4$Tx9!VbQ2"]),
    # escaped JSON on two lines that follow one another
    ('"{\\"password\\":\n\\"Zq8#Lm4$Tx9!VbQ2\\"}"', ["Zq8#Lm4$Tx9!VbQ2"]),
])
def test_a_keyword_secret_across_lines_is_found_at_its_value(text, values):
    start, expected = 0, []
    for value in values:
        start = text.index(value, start)
        expected.append((start, start + len(value), "keyword-secret", value))
    assert [(s.start, s.end, s.kind, s.value) for s in find_secrets(text)] == expected
    redacted = text
    for value in values:
        redacted = redacted.replace(value, "<redacted:keyword-secret>")
    assert Redactor(paths=False).text(text) == redacted


@pytest.mark.parametrize("text", [
    "The password:\nWe rotate it every quarter, Zq8#Lm4 says the wiki",  # prose after a keyword
    "password:\nZq8#Lm4$Tx9!VbQ2 is not JSON",                           # no JSON member: as before
    'the "password":\nwas "hello world" in the notes',
    '{"password":\n"hello world"}', '{"password_hint":\n"name of your first pet"}',
    '{"api_key":\n"${API_KEY}"}', '{"next_page_token":\n"Xy7Zq8vR2mXk9pLw"}', '{"token":\n"Photosynthesis"}',
    '{"password":\n\n"Zq8#Lm4$Tx9!VbQ2\n"}',              # no JSON string: a line end in it
    '{"query":\n"Zq8#Lm4$Tx9!VbQ2"}',                      # not a keyword
    # escaped lines that do not follow one another in the file are no member
    '"{\\"password\\":\nplain line\n\\"Zq8#Lm4$Tx9!VbQ2\\"}"',
])
def test_no_keyword_secret_across_lines_in_prose_or_non_credentials(text):
    assert find_secrets(text) == []
    assert Redactor(paths=False).text(text) == text


def test_json_members_across_lines_scale_linearly():
    """Many members each with a line end between name and value, one of them a keyword's: the
    pass that reads members across lines is one regex scan (10x the members: ≤ 11x the time)."""
    from tests.conftest import cpu_best_of_3

    def text(n):
        return '{"password":\n"Zq8#Lm4$Tx9!VbQ2",' + '"k":\n"v",' * n + '"pwd"\n:\n"v"}'

    def scan(t):
        found = find_secrets(t + " ")  # (a new string: find_secrets keeps what it found in the last)
        assert [s.value for s in found] == ["Zq8#Lm4$Tx9!VbQ2"]

    small, large = text(20_000), text(200_000)
    scan(small)
    ratios = []
    for _ in range(2):  # one retry (a busy machine)
        ratios.append(cpu_best_of_3(scan, large) / cpu_best_of_3(scan, small))
        if ratios[-1] <= 11:
            return
    pytest.fail(f"10x the members took {ratios} x the time")


# --------------------------------------------------------------------------- UTF-16 files

_UTF16_LINE = "token ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5 at /home/bob/x"


def _utf16_session(tmp_path, encoding: str, bom: bytes = b""):
    """The clean sample with a token and a home path on line 31, saved as UTF-16 (new-user trial:
    such a file passed `lint --select V` with "All clear")."""
    lines = (SAMPLES / "clean-session.spmd").read_text(encoding="utf-8").split("\n")
    lines.insert(30, _UTF16_LINE)
    path = tmp_path / f"{encoding}.spmd"
    path.write_bytes(bom + "\n".join(lines).encode(encoding))
    return path


@pytest.mark.parametrize("encoding, bom", [("utf-16", b""), ("utf-16-be", b"\xfe\xff")])
def test_a_utf16_file_has_its_secrets_and_home_paths_found_in_its_utf16_text(tmp_path, encoding, bom):
    path = _utf16_session(tmp_path, encoding, bom)
    text = read_path(path)
    found = [(d.code, d.line, d.column, d.message) for d in lint_text(text, str(path), Selection.build())]
    where = " (read as UTF-16: lines and columns as an editor reading the file as UTF-16 shows them)"
    assert found == [
        ("E104", 1, 1, "file is UTF-16 text, not UTF-8: re-encode it as UTF-8 to check it as a session; only the "
                       "privacy rules (V) check it, in its UTF-16 text"),
        ("V101", 31, 7, "GitHub token (github-token) in the session: ghp_…(40 chars); revoke it and share only a "
                        "redacted copy" + where),
        ("V102", 31, 51, "home directory path /home/bob names a user account" + where)]


def test_no_view_of_a_utf16_file_shows_its_secret(tmp_path):
    """Read as UTF-8, the token is `g\\0h\\0p\\0_\\0…`: the code frames of `lint` (with or without
    --redact) and `show --redact` must not print it (show printed it, NULs as `\\x00`)."""
    from click.testing import CliRunner
    from fountain_audit.cli import main
    from fountain_audit.privacy.redact import mask
    path = _utf16_session(tmp_path, "utf-16")
    secret = "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"
    for args in (["lint", "--output-format", "full", str(path)], ["lint", "--redact", "--output-format", "full", str(path)],
                 ["show", "--redact", str(path), "L31"], ["show", "--redact", "--format", "json", str(path), "L31"]):
        r = CliRunner().invoke(main, args)
        shown = r.output.replace("\\x00", "").replace("\\u0000", "").replace("\x00", "")
        assert r.exit_code in (0, 1), (args, r.output)
        assert ("<redacted:github-token>" if "--redact" in args else "ghp_****") in shown, args
        assert secret[:12] not in shown, args
    narrow = read_path(path)
    assert "\x00".join(secret) in narrow and "\x00".join(secret) not in mask(narrow)


@pytest.mark.parametrize("text, found", [
    ("文件位于/home/alice/notes.txt。", [(4, 15, "alice")]),  # Chinese prose: no blank before the path
    ("é/home/bob", [(1, 10, "bob")]),
    ("see /home/alice文件", [(4, 15, "alice")]),
    ("x/home/bob and a.b/home/bob", []),  # after an ASCII word or a dot: part of another path
    ("/home/" + "q" * 320 + "zz rest", [(0, 328, "q" * 320 + "zz")]),  # read whole past the 300-character window
    # non-ASCII user names, read whole (they were cut at the first non-ASCII letter; adversarial trial)
    ("Open C:\\Users\\Jürgen\\plan.txt", [(5, 20, "Jürgen")]),
    ("C:\\Users\\李明\\a.txt", [(0, 11, "李明")]),
    ("and /Users/Ørjan/x", [(4, 16, "Ørjan")]),
    ("/home/josé.garcía/x", [(0, 17, "josé.garcía")]),
    ("x /rootéx/y and /root/y", [(16, 21, "root")]),  # /rootéx is no /root
    ("/Users/Ju\u0308rgen/x", [(0, 14, "Ju\u0308rgen")]),  # decomposed (macOS), a combining mark inside
    ("/home/\u0930\u093e\u0939\u0941\u0932/x", [(0, 11, "\u0930\u093e\u0939\u0941\u0932")]),  # Devanagari vowel signs
    ("/home/\u0bae\u0bc1\u0bb0\u0bc1/x", [(0, 10, "\u0bae\u0bc1\u0bb0\u0bc1")]),  # Tamil
])
def test_home_paths_after_non_ascii_letters_and_long_user_names(text, found):
    """A home path right after a CJK or accented letter went unflagged and unredacted (the word
    boundary was Unicode's), a user name past 300 characters was cut, and one holding a non-ASCII
    letter was cut there (adversarial trials). A Latin name ends at a CJK letter."""
    assert [(h.start, h.end, h.user) for h in find_home_paths(text)] == found


def test_token_runs_answer_as_a_run_search():
    """``_TokenRuns.holds(n)`` (the pre-check that skips Discord, Telegram and Twilio scans) answers
    as a search for ``n`` token characters in a row: ASCII letters, digits, ``_``, ``-``, and ``?``
    or a byte from 0x80 (a character the one-byte form replaced, possibly a Unicode digit)."""
    import re

    from fountain_audit.privacy.detect import _TokenRuns

    run = re.compile(rb"[A-Za-z0-9_\-?\x80-\xff]+")
    cases = [b"a" * 26, b"a" * 27, b"a" * 13 + b"." + b"a" * 13, b"x-y_z" * 6, b"?" * 35, b"\xe9" * 34 + b"1",
             b"A" * 33 + b" ", b"", b"...:::", b"ab\ncd" * 20]
    assert len(cases) == 10
    for raw in cases:
        longest = max((len(m) for m in run.findall(raw)), default=0)
        runs = _TokenRuns(raw)
        for n in (1, 26, 27, 34, 35):
            assert runs.holds(n) is (longest >= n), (raw, n)
    assert [_TokenRuns(raw).holds(27) for raw in cases] == [False, True, False, True, True, True, True, False,
                                                            False, False]


def test_run_checked_plugins_still_find_their_tokens():
    """A Telegram bot token, a Discord bot token (one holding an Arabic-Indic digit, which ``\\d``
    reads) and a Twilio key are found where they are (the run pre-check lets their scans run),
    and nothing where no run is long enough."""
    from fountain_audit.privacy.detect import find_secrets

    telegram = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ"
    discord = "MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze\u0663b7Cq4se7kKWs"
    twilio = "AC" + "0123456789abcdef" * 2
    text = f"bot: {telegram}\nsee {discord} there\nsid {twilio}\n" + "plain words. no: tokens here\n" * 200
    found = [(s.kind, s.start, s.end) for s in find_secrets(text)]
    assert found == [("telegram-token", 5, 50), ("discord-token", 55, 114), ("twilio-key", 125, 159)]
    assert find_secrets("plain words. no: tokens here\n" * 200) == []


@pytest.mark.parametrize("text, found", [
    ("/Users\\/Users/bob", [(0, 13, "Users")]),  # one path, not two overlapping ones
    ("a /home/home/carol b", [(2, 12, "home")]),
    ("/U\u017fers/bob and /ho\u212ae/x", []),  # long s, KELVIN SIGN: no /Users, no /home for the system
    ("/U\u017fers/bob and /Users/bob \u0130", [(15, 25, "bob")]),  # (İ: the text read by the regex alone)
])
def test_home_paths_one_per_path_in_either_reading(text, found):
    """The fast reading of home paths (from each ``home``/``users``/``root``) and the plain one
    (``HOME_RE.finditer``, for a text whose lower case changes its length) find the same paths:
    none overlapping (``/Users\\/Users/bob`` was two V102 findings), none a system would not read
    as a home directory (``ſ`` for ``s``)."""
    from fountain_audit.privacy import detect

    assert [(h.start, h.end, h.user) for h in find_home_paths(text)] == found
    assert detect._home_paths_fast(text, text.encode("ascii", "replace").lower()) == detect._home_paths_slow(text)


def test_nested_home_path_spellings_are_one_finding():
    text = ("Title: x\n\nFADE IN:\n\nINT. HARVEY AND ALICE TALKING 2026-06-24 10:00:00\n\nALICE\n"
            "see /U\u017fers/bob/x and /Users\\/Users/bob\n")
    found = lint_text(text, "s.spmd", Selection.build(select=["V102"]))
    assert [(d.code, d.line, d.column, d.end_column) for d in found] == [("V102", 8, 22, 35)]


@pytest.mark.parametrize("line, values", [
    ("Set it: password=changeme password=Hw7kQ9zLm2xPv4", ["Hw7kQ9zLm2xPv4"]),
    ('export API_KEY=TODO; export DB_PASSWORD=Hw7kQ9zLm2xPv5', ["Hw7kQ9zLm2xPv5"]),
    ("api-key: none password: Hw7kQ9zLm2xPv7", ["Hw7kQ9zLm2xPv7"]),
    ("password=Hw7kQ9zLm2xPv4 secret=Zq8nT3vBx5Lm9Kp2", ["Hw7kQ9zLm2xPv4", "Zq8nT3vBx5Lm9Kp2"]),
    ("password=changeme secret=none api_key=TODO", []),
    # a quoted value holding a keyword (Secret, Pwd): the piece reads on past it (adversarial trial)
    ('export API_KEY=TODO; export DB_PASSWORD="SuperSecret#2024x"', ["SuperSecret#2024x"]),
    ("user: admin, password: 'none', db_password: 'MyPwd!Winter2024'", ["MyPwd!Winter2024"]),
])
def test_every_keyword_assignment_on_a_line_is_read(line, values):
    """The keyword detector reads only the first match of each of its regexes on a line: a later
    assignment after a first value that is no credential (``changeme``, ``TODO``, ``none``) was
    never read, by lint, redact or --redact (adversarial trial)."""
    from fountain_audit.privacy.detect import find_secrets

    found = find_secrets(line)
    assert [(s.kind, s.value) for s in found] == [("keyword-secret", v) for v in values]
    assert [s.start for s in found] == [line.index(v) for v in values]


def test_later_keyword_values_are_read_in_linear_time():
    """Many assignments on one line (``password=changeme `` repeated): each piece between two
    keywords is read once."""
    from tests.test_scaling import _assert_linear

    from fountain_audit import memos
    from fountain_audit.privacy.detect import find_secrets

    def scan(text):
        memos.forget()
        return find_secrets(text)

    small, large = ("password=changeme " * n + "password=Hw7kQ9zLm2xPv4" for n in (2_000, 16_000))
    assert [s.value for s in scan(large)] == ["Hw7kQ9zLm2xPv4"]
    _assert_linear(scan, small, large, "later keyword assignments")


def test_fast_home_path_search_answers_as_the_whole_pattern():
    """``_home_paths_fast`` (the pattern read only where ``home``/``users``/``root`` follows a
    separator) finds what ``HOME_RE.finditer`` finds, on 20,000 random texts of path parts, user
    names in several scripts, ``ſ``, KELVIN SIGN and glued paths (``/home/C:\\Users\\bob``: a
    match starting inside the one before was dropped, not read on from its end)."""
    import random

    from fountain_audit.privacy.detect import _folded, _home_paths_fast, _home_paths_slow

    parts = ["/home/", "/Users/", "C:\\Users\\", "\\/home\\/", "/root", "/", "\\", "alice", "Jürgen", "李明", "文件",
             "é", "ſ", " ", "\n", ".", "-", "_", "x", "Ørjan", "users", "home", "root", "~", ":", "\u212a", "C"]
    rnd = random.Random(7)
    texts = ["".join(rnd.choice(parts) for _ in range(rnd.randint(1, 12))) for _ in range(20_000)]
    found = 0
    for t in texts:
        fast = [(h.start, h.end, h.user) for h in _home_paths_fast(t, _folded(t))]
        assert fast == [(h.start, h.end, h.user) for h in _home_paths_slow(t)], t
        found += len(fast)
    assert found > 8_000


def test_secrets_of_one_line_of_escaped_json_in_linear_time():
    """A JSON string holding JSON with many keyword members on one line: each secret found was
    mapped back to its spelling by decoding the whole line again (1,000 members 6.2 s, 4,000
    74 s; adversarial trial). 500 and 4,000 members."""
    from tests.test_scaling import _assert_linear

    from fountain_audit import memos
    from fountain_audit.privacy.detect import find_secrets

    def line(n):
        return '{\\"a\\": \\"x\\"' + "".join(', \\"password%d\\": \\"Hw7kPq9Zr2Lx8Vb%d\\"' % (i, i)
                                                 for i in range(n)) + "}"

    def scan(text):
        memos.forget()
        return find_secrets(text)

    small, large = line(500), line(4_000)
    found = scan(large)
    assert len(found) == 4_000 and found[0].value == "Hw7kPq9Zr2Lx8Vb0"
    _assert_linear(scan, small, large, "escaped JSON members")


def test_a_directive_after_what_a_reply_may_have_written_is_its_text():
    """A reply that wrote `CUT TO:`, a stats line, a route step or a tool note and then
    `/* fountain-audit: disable=V */` ended its speech there, and the directive silenced V101 for
    the next turn's tool note (adversarial trial): what a reply may have written runs on to the
    next scene heading. After HARVEY's forwarding line, where the recorder's own words stand,
    a directive still applies; in a plain screenplay a speech is its dialogue element."""
    from fountain_audit.lint.linter import Selection, lint_text
    head = ("Title: Harvey Session\nCredit: Recorded by Harvey\nAuthor: MARGOT\n\n"
            "INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\n"
            "Harvey and MARGOT are in chat mode. Model: QWEN. Workspace: /w.\n\n"
            "MARGOT\nDeploy.\n\nHARVEY\nForwarding to QWEN.\n\nQWEN\nSure.\n\n")  # QWEN at line 15
    tool = "[[tool: run_shell({\"cmd\":\"curl -H 'Authorization: Bearer Zk8pQ2mXv7LtR4nWb9Yc3Hs7'\"}) — ok]]\n"
    later = "/* fountain-audit: disable=V */\n\nMARGOT\nnext\n\nHARVEY\nForwarding to QWEN.\n\n" + tool
    for forged in ("CUT TO:\n\n", "FADE OUT.\n\n", "Ollama (x:1b) · 12 tokens · 1.2s\n\n",
                   "Routing to LIGHTHOUSE.\n\nOllama (x:1b) · 12 tokens · 1.2s\n\n", "[[tool: ls() — ok]]\n\n",
                   "HARVEY\nForwarding to QWEN.\n\n", "MARGOT\nthanks\n\n", ""):
        text = head + forged + later + "\nQWEN\nok\n\nTHE END.\n"
        line = 18 + forged.count("\n")  # the directive's line
        found = [(d.code, d.line) for d in lint_text(text, "s.spmd", Selection.build(["V", "A"]))]
        assert found == [("A102", line), ("V101", line + 8)], forged
    # the next scene heading ends what the reply may have written
    scene2 = ("INT. HARVEY AND MARGOT TALKING 2026-08-03 14:21:00\n\n"
              "Harvey and MARGOT are in chat mode. Model: QWEN. Workspace: /w.\n\n")
    text = head + "CUT TO:\n\n" + scene2 + "MARGOT\nnext\n\nHARVEY\nForwarding to QWEN.\n\n" \
        "/* fountain-audit: disable-next=V101 */\n" + tool + "\nQWEN\nok\n\nTHE END.\n"
    assert [(d.code, d.line) for d in lint_text(text, "s.spmd", Selection.build(["V", "A"]))] == []
    # ... but not one glued to the reply's last line (that line's text)
    glued = text.replace("CUT TO:\n\nINT. HARVEY", "Done. INT. HARVEY").replace(
        "/* fountain-audit: disable-next=V101 */\n", "")
    glued = glued.replace("Harvey and MARGOT are in chat mode. Model: QWEN. Workspace: /w.\n\nMARGOT\nnext",
                          "/* fountain-audit: disable=V101 */\n\nMARGOT\nnext", 1)
    assert [d.code for d in lint_text(glued, "s.spmd", Selection.build(["V", "A"]))] == ["A102", "V101"]
    # a plain screenplay: a comment after a speech is the writer's
    play = "INT. HOUSE - DAY\n\nBOB\nHello.\n\n/* fountain-audit: disable-next=V101 */\nBOB types: " \
        "curl -H 'Authorization: Bearer Zk8pQ2mXv7LtR4nWb9Yc3Hs7'\n"
    assert [d.code for d in lint_text(play, "p.fountain", Selection.build(["V", "A"]))] == []
    assert [d.code for d in lint_text(play.replace("fountain-audit:", "note:"), "p.fountain",
                                      Selection.build(["V", "A"]))] == ["V101"]


def test_disable_file_among_the_scenes_is_ignored():
    """A reply that forged a scene heading and then `/* fountain-audit: disable-file */` silenced
    the whole file, the secret before it included: `disable-file` applies only before the first
    scene heading, where no reply is recorded (A102 otherwise)."""
    from fountain_audit.lint.linter import Selection, lint_text
    text = ("Title: Harvey Session\nCredit: Recorded by Harvey\nAuthor: MARGOT\n\n"
            "INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\n"
            "Harvey and MARGOT are in chat mode. Model: QWEN. Workspace: /w.\n\n"
            "MARGOT\nDeploy.\n\nHARVEY\nForwarding to QWEN.\n\n"
            "[[tool: run_shell({\"cmd\":\"curl -H 'Authorization: Bearer Zk8pQ2mXv7LtR4nWb9Yc3Hs7'\"}) — ok]]\n\n"
            "QWEN\nSure.\n\nINT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:40\n\n"
            "/* fountain-audit: disable-file */\n\nTHE END.\n")
    selection = Selection.build(["V", "A"])
    found = [(d.code, d.line, d.message) for d in lint_text(text, "s.spmd", selection)]
    assert found == [("V101", 15, "bearer token (bearer-token) in the session: …(24 chars); revoke it and share "
                                   "only a redacted copy"),
                     ("A102", 22, "suppression comment ignored: disable-file after the first scene heading, where "
                                  "replies are recorded (a reply may have written it, THE END. too): put it before "
                                  "the first scene heading (or the title page), or use per-file-ignores or a "
                                  "baseline")]
    # before the first scene heading it covers the file
    moved = text.replace("/* fountain-audit: disable-file */\n\n", "")
    assert lint_text(moved.replace("INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31",
                                   "/* fountain-audit: disable-file */\n\nINT. HARVEY AND MARGOT TALKING "
                                   "2026-08-03 14:20:31"), "s.spmd", selection) == []
    # after THE END. it does not: a reply can write THE END. (in a file cut short, the forged one
    # is the end marker: adversarial trial)
    forged = moved.replace("THE END.\n", "") + "\nTHE END.\n\n/* fountain-audit: disable-file */\n"
    assert [d.code for d in lint_text(forged, "s.spmd", selection)] == ["V101", "A102"]


def _chat(minute: str, user: str, reply: str, tools: str = "") -> str:
    """A chat scene of MARGOT and LLAMA at 14:MINUTE (for the tests below)."""
    return (f"\n\nINT. HARVEY AND MARGOT TALKING 2026-08-03 14:{minute}:00\n\n"
            "Harvey and MARGOT are in chat mode. Model: LLAMA. Workspace: /srv/w.\n\n"
            f"MARGOT\n{user}\n\nHARVEY\nForwarding to LLAMA.\n\n{tools}LLAMA\n{reply}\n\n")


_HEAD = "Title: Harvey Session\nAuthor: MARGOT\n\nFADE IN:\n"
_TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
_LEAK = _chat("30", "read it", "done", '[[tool: read_file({"token":"%s"}) — ok]]\n\n' % _TOKEN)  # V101
_OFF = "/* fountain-audit: disable=V101 */"


@pytest.mark.parametrize("name, text", [
    # a reply ends its speech with CUT TO: and a heading of no Harvey kind, then the directive
    ("heading of no Harvey kind", _HEAD + _chat("21", "hi", f"ok\n\nCUT TO:\n\nINT. MEMORY - notes\n\n{_OFF}")
     + _LEAK + "\nTHE END.\n"),
    ("scene heading without its timestamp", _HEAD + _chat("21", "hi", f"ok\n\n[[tool: x() — ok]]\n\n"
                                                          f"INT. HARVEY AND MARGOT TALKING\n\n{_OFF}")
     + _LEAK + "\nTHE END.\n"),
    # the user's input writes a forwarding line of HARVEY, then the directive
    ("user forges the forwarding line", _HEAD + _chat("30", f"read it\n\nHARVEY\nForwarding to LLAMA.\n\n{_OFF}", "done",
                                                      '[[tool: read_file({"token":"%s"}) — ok]]\n\n' % _TOKEN)
     + "\nTHE END.\n"),
    # a pipeline's reply is HARVEY's: one reading `Forwarding to LLAMA.` is still a reply
    ("pipeline reply", _HEAD + "\n\nINT. PIPELINE STEP1.MD STEP 1/2 2026-08-03 14:22:00\n\n"
     "MARGOT executes /pipeline 80% step1.md step2.md.\nModel: ollama (llama). Workspace: /srv/w.\n\n"
     f"MARGOT\ndo step one\n\nHARVEY\nForwarding to LLAMA.\n\n{_OFF}\n\n[[confidence: 0.90 — threshold met]]\n\n"
     "CUT TO:\n" + _LEAK + "\nTHE END.\n"),
    # a skill's description paragraphs are the skill's text
    ("skill description", _HEAD + "\n\nINT. SKILL GO-REVIEW 2026-08-03 14:22:00\n\n"
     f"Harvey executes the go-review skill.\n\nReviews Go code.\n\n{_OFF}\n\nGO-REVIEW\nbody\n\n" + _LEAK
     + "\nTHE END.\n"),
    # a directive right under a cue (no blank line before it) continues the cue's paragraph
    ("directive under a cue", _HEAD + _chat("21", "hi", f"{_OFF}\nyour token is {_TOKEN}") + "\nTHE END.\n"),
])
def test_session_text_cannot_switch_the_secret_rule_off(name, text):
    """Adversarial trial (second): session text still switched V101 off, with no diagnostic, by
    ending its speech with what the builder reads as a new scene or a new speaker. Each shape now
    gets A102 for the directive and V101 for the token."""
    from fountain_audit.lint.linter import Selection, lint_text
    found = [d.code for d in lint_text(text, "s.spmd", Selection.build(["V101", "A102"]))]
    assert found.count("A102") == 1 and found.count("V101") == 1, (name, found)


def test_an_enable_applies_even_in_session_text():
    """An `enable` can only turn checks back on, so it applies wherever it stands: a region
    opened where no speech runs can end after the user's answer in an agent-mode scene, which is
    HARVEY's speech (the proposal and its files come from the model)."""
    from fountain_audit.lint.linter import Selection, lint_text
    agent = ("\n\nINT. AGENT MODE 2026-08-03 14:22:00\n\n/* fountain-audit: disable=N101 */\n\n"
             "HARVEY\nHarvey proposes to write 1 file(s).\n\nHARVEY\nWrite a.txt?\n\nMARGOT\nyes\n\n"
             "[[write: broken]]\n\n/* fountain-audit: enable=N101 */\n\n[[write: broken2]]\n")
    found = [(d.code, d.line) for d in lint_text(_HEAD + agent + "\nTHE END.\n", "s.spmd",
                                                 Selection.build(["N101", "A"]))]
    assert found == [("N101", 24)]


def test_a_text_dense_with_home_words_is_read_in_one_pass():
    """`./home` 150,000 times on one line took 16 s of lint and 41 s of redact (adversarial trial,
    stop 38): each word searched 400 code points around it. Past one word after a separator per
    625 code points (and 1,000 words), the fast search gives up (``None``) and the pattern reads
    the text once; the paths found are the same."""
    from fountain_audit.privacy import detect
    dense = "./home/x " * 2_000 + "see /home/alice/a " + "x/root/ " * 2_000
    assert detect._home_paths_fast(dense, detect._folded(dense)) is None
    assert [(h.start, h.end, h.user) for h in find_home_paths(dense)] == [(18_004, 18_015, "alice")]
    sparse = "./home/x " * 900 + "see /home/alice/a"
    assert [(h.start, h.end) for h in detect._home_paths_fast(sparse, detect._folded(sparse))] == [(8_104, 8_115)]
