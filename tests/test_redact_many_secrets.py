"""Lines of many secrets give what the straightforward code gave: the redacted text
(:func:`~fountain_audit.privacy.redact.redact_text`, whose upper-casing of a placeholder alone
on its line no longer reads the whole line per replacement), the messages with secrets masked
(:class:`~fountain_audit.privacy.redact.SecretMasker`, which no longer tries every secret of
the file on every message; its reference is the per-secret loop it keeps, ``_hide``) and the lint excerpts and fingerprints (one excerpt per line, not
per finding). The references below are the former per-replacement and per-secret code."""

from __future__ import annotations

import random
import string

import pytest

from fountain_audit import lint
from fountain_audit.lint.fingerprint import EXCERPT_MAX
from fountain_audit.privacy import redact
from fountain_audit.privacy.detect import Secret, find_secrets

HEAD = ("Title: Harvey Session\nCredit: Recorded by Harvey\nAuthor: MARGOT\n\n"
        "INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\n"
        "Harvey and MARGOT are in chat mode. Model: QWEN. Workspace: /w.\n\nMARGOT\n")
UPPER = string.ascii_uppercase + string.digits
LETTERS = string.ascii_letters + string.digits


def _secret(rnd: random.Random, kind: str) -> str:
    """One secret of ``kind``, distinct or repeated as the kind goes."""
    if kind == "aws":
        return "AKIA" + "".join(rnd.choice(UPPER) for _ in range(16))
    if kind == "basic":
        return "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="
    if kind == "jwt":
        return "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
    if kind == "password":
        return "password=" + "".join(rnd.choice(LETTERS) for _ in range(12)) + "!1a"
    return f"/home/alice{rnd.randint(0, 6)}/proj"


KINDS = ["aws", "basic", "jwt", "password", "home"]


def _session(n: int, seed: int, sep: str) -> str:
    """A session whose last line (``sep=" "``) or last ``n`` lines (``sep="\\n"``, some of them
    an upper-case key alone, some with blanks around it) hold ``n`` secrets of every kind."""
    rnd = random.Random(seed)
    parts = [_secret(rnd, rnd.choice(KINDS)) for _ in range(n)]
    if sep == "\n":
        parts = [rnd.choice(["", " ", "\t"]) + p + rnd.choice(["", " ", "\r"]) for p in parts]
    return HEAD + sep.join(parts) + "\n"


def _alone_upper_reference(text: str, r) -> bool:
    s = text[r.start:r.end]
    b = text.rfind("\n", 0, r.start) + 1
    e = text.find("\n", r.end)
    line = text[b:e if e >= 0 else len(text)]
    return line.strip() == s and any(c.isalpha() for c in s) and not any(c.islower() for c in s)


#: The former per-secret loop: every secret of the file tried on the string, in turn (still
#: the masker's way for the secrets it tries, and for a string whose case mapping changes lengths).
_hide_reference = redact._hide


def _excerpt_reference(content: str) -> str:
    text = content.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return text if len(text) <= EXCERPT_MAX else text[:EXCERPT_MAX].rstrip() + "…"


SIZES = [1, 2, 3, 10, 50, 200, 2000]


@pytest.mark.parametrize("sep", [" ", "\n"], ids=["one line", "a line each"])
@pytest.mark.parametrize("n", SIZES)
def test_redacted_text_is_the_reference(n, sep, monkeypatch):
    text = _session(n, n, sep)
    fast = redact.redact_text(text)
    monkeypatch.setattr(redact, "_alone_upper", _alone_upper_reference)
    assert fast == redact.redact_text(text)


@pytest.mark.parametrize("line", ["AKIAIOSFODNN7EXAMPLE", " AKIAIOSFODNN7EXAMPLE\t", "\u2028AKIAIOSFODNN7EXAMPLE\r",
                                  "x AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE y", "AKIAIOSFODNN7EXAMPLE",
                                  "AKIAIOSFODNN7EXAMPLE AKIAIOSFODNN7EXAMPLE", "password=HUNTER2HUNTER2!1A"])
@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_a_key_alone_on_its_line_is_told_as_before(line, where):
    text = {"first": line + "\nrest\n", "middle": HEAD + line + "\nmore\n", "last": HEAD + line}[where]
    for r in redact.session_redactor(text).replacements(text):
        assert redact._alone_upper(text, r) == _alone_upper_reference(text, r), (text, r)


@pytest.mark.parametrize("sep", [" ", "\n"], ids=["one line", "a line each"])
@pytest.mark.parametrize("n", SIZES)
def test_lint_json_is_the_reference(n, sep, monkeypatch):
    """Messages, excerpts and fingerprints as the per-secret and per-finding code gave them."""
    from fountain_audit.lint import fingerprint

    text = _session(n, n + 1, sep)
    fast = [(d.message, d.excerpt, d.fingerprint, d.former_fingerprint)
            for d in fingerprint.assign(lint(text), text, "x.spmd")]
    calls = []
    monkeypatch.setattr(redact.SecretMasker, "hide", lambda self, s: _hide_reference(s, self.secrets))
    monkeypatch.setattr(fingerprint, "excerpt", lambda c: calls.append(c) or _excerpt_reference(c))
    slow = [(d.message, d.excerpt, d.fingerprint, d.former_fingerprint)
            for d in fingerprint.assign(lint(text), text, "x.spmd")]
    assert fast == slow


def test_masking_messages_is_the_reference():
    """Random messages quoting (parts of, in any capitals) random secrets, some sharing their
    probe, some holding a ``*``, against the former per-secret loop."""
    rnd = random.Random(3)
    pool = ["AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLF", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "ghp_" + "a" * 36,
            "pa*ss*word1", "*****xyz", "abc", "İstanbulSecret9", "hunter2hunter2"]
    for _ in range(3000):
        secrets = [Secret(0, 1, "k", "K", v, rnd.randint(0, 6)) for v in rnd.sample(pool, rnd.randint(0, len(pool)))]
        secrets += [Secret(0, 1, "k", "K", "".join(rnd.choice("ab*") for _ in range(rnd.randint(1, 9))),
                           rnd.randint(0, 3)) for _ in range(rnd.randint(0, 12))]
        bits = [rnd.choice(pool + ["x", " ", "'", "*", "ab", "b*a"]) for _ in range(rnd.randint(0, 8))]
        msg = "".join(b.upper() if rnd.random() < 0.2 else b[:rnd.randint(1, len(b))] for b in bits)
        assert redact.SecretMasker(secrets).hide(msg) == _hide_reference(msg, secrets), (msg, secrets)
        assert redact.hide_secrets(msg, secrets) == _hide_reference(msg, secrets)


def test_masking_every_secret_found_in_a_line_of_them():
    text = _session(300, 7, " ")
    secrets = find_secrets(text)
    line = text.splitlines()[-1]
    for s in (line, line[:500].upper(), "quoted: '" + line[40:160] + "'"):
        assert redact.SecretMasker(secrets).hide(s) == _hide_reference(s, secrets)


@pytest.mark.parametrize("sep", [" ", "\n"], ids=["one line", "a line each"])
@pytest.mark.parametrize("n", [1, 3, 50, 400])
def test_code_frame_columns_are_map_column(n, sep):
    """FrameMap.column (by bisection) gives what map_column (a walk of the replacements) gives,
    at every column of every line, one past each line's end included."""
    text = _session(n, n + 2, sep)
    reps = redact._keep_lines(text, redact.session_redactor(text).replacements(text))
    frames = redact.FrameMap(text, reps)
    for line, start in enumerate(frames.starts, 1):
        end = frames.starts[line] if line < len(frames.starts) else len(text) + 1
        for column in range(1, end - start + 1):
            expected = redact.map_column(reps, start + column - 1) - frames.new_starts[line - 1] + 1
            assert frames.column(line, column) == expected, (line, column)
