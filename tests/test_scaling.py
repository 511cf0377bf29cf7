"""Linear time on the adversarial shapes (issue 9 and issue 14 items 20 and 24): lint,
``dump --turns`` (session model, provenance, JSON), ``provenance`` and ``show`` (the text
formats) of 8× the input take at most 16× the time.

The shapes are the benchmark's (``benchmarks/bench.py`` ``SHAPES``: one long line, unclosed
``[[``, unclosed ``/*``, cues without dialogue, a long non-forwarding HARVEY reply, "Routing to
X" lines in a reply, ``THE END.`` lines each followed by content, many unanswered turns in one
scene, ``disable-next`` before flagged lines, alternating ``disable``/``enable``);
``python benchmarks/bench.py`` times them at 1× and
10×. The diff's shapes are in ``test_diff_scaling.py``. A ratio, not a time: best of 3 at n and
at 8n in CPU time (time.process_time), one retry for a loaded machine; a quadratic shape gives
about 64×.
"""

from __future__ import annotations

import importlib.util
import io

import pytest

from fountain_audit import lint
from fountain_audit.audit.provenance import render_text as provenance_text, session_provenance
from fountain_audit.audit.show import render_text as show_text, show_document, source_lines
from fountain_audit.dump import JsonWriter, dump_session
from fountain_audit.model.session import build_session
from fountain_audit.parse.fountain import parse

from .conftest import ROOT, cpu_best_of_3

_spec = importlib.util.spec_from_file_location("fa_bench", ROOT / "benchmarks" / "bench.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

#: n for each shape: 10-50 ms at n here, so the whole test takes about 10 s. 8n stays under
#: ~150 KB of text: past that, a step in the cost per element (memory caches, ~2× here between
#: 160 and 320 KB) would blur the ratio. Small sizes cannot show a quadratic term with a small
#: constant (Routing to X was 15 s at 4 MB): ``benchmarks/bench.py`` times 1× and 10× of MBs.
SIZES = {"one long line": 250_000, "unclosed [[": 600, "unclosed /*": 700, "cues without dialogue": 800,
         "long HARVEY reply (issue 14)": 600, "Routing to X in a reply (issue 14)": 300,
         "THE END. then content (issue 14)": 300, "unanswered turns in one scene": 300,
         "disable-next before flagged notes (issue 14)": 150,
         "alternating disable/enable (issue 14)": 120}


def work(text: str) -> None:
    lint(text)
    session = build_session(parse(text))
    writer = JsonWriter(io.StringIO(), "json", "turns")
    for rec in dump_session(session, "x.spmd", "turns"):
        writer.write(rec)
    provenance_text(session_provenance(session, "x.spmd"))
    ids = ["doc", "n1", f"L{len(source_lines(text))}"] + (["t1"] if session.turns else [])
    show_text(show_document(session, "x.spmd", ids)[0])


def test_every_shape_has_a_size():
    assert set(SIZES) == set(bench.SHAPES)


@pytest.mark.parametrize("shape", list(SIZES))
def test_linear_time(shape):
    make = bench.SHAPES[shape][0]
    small, large = make(SIZES[shape]), make(8 * SIZES[shape])
    _assert_linear(work, small, large, shape)


def _assert_linear(fn, small, large, what: str, limit: float = 16, tries: int = 2, batch: int = 1) -> None:
    """``fn(large)`` (8× ``small``, or another multiple) takes at most ``limit`` (16) times the
    CPU time of ``fn(small)``, best of 3, with ``tries - 1`` retries (a busy machine). ``batch``:
    ``fn(small)`` is timed over that many calls in a row (divided by it), so that both sides of the
    ratio run about as long and meet as much of the machine's other load (the best of 3 short runs
    meets less of it than the best of 3 long ones, which biases a tight ratio upwards). Timed with
    the garbage collector paused: the ratio is the code's, not the test run's heap."""
    fn(small)  # warm up: grammar tables, caches

    def calls(text: str) -> None:
        for _ in range(batch):
            fn(text)

    import gc

    ratios = []
    for _ in range(tries):
        # The collector paused (after a collection): in a full run the process holds the objects of
        # thousands of tests, and each full collection the large input's allocations set off walks
        # them all, a cost of the test run, not of the code timed (a 10x input read 11.2-11.7x the
        # time in .ci/run, and 10x alone).
        gc.collect()
        gc.disable()
        try:
            ratios.append(cpu_best_of_3(fn, large) / (cpu_best_of_3(calls, small) / batch))
        finally:
            gc.enable()
        if ratios[-1] <= limit:
            return
    pytest.fail(f"{what}: {len(large) / len(small):.0f}x the input took {ratios} x the time")


@pytest.mark.parametrize("shape", ["/* a\n\n", "/* a\n\n*/\n\n/* b\n\n"], ids=["unclosed", "closed then unclosed"])
def test_lexing_unclosed_boneyards_in_linear_time(shape):
    """Each unclosed ``/*`` searched the rest of the text for a ``*/`` (the lexer of 5850866):
    ``python benchmarks/bench.py`` read 84× the time for 10× the input, while lint of the bench
    SHAPES' sizes here stayed under 16× (the search is fast C; the rest of lint hid it). The
    lexer alone, on 4,000 and 32,000 of them."""
    from fountain_audit.parse.lexer import lex
    _assert_linear(lex, shape * 4000, shape * 32000, f"lexing {shape!r}")


def test_a_recorder_note_that_fails_at_its_end_in_linear_time():
    """A tool note of many ``) — error: ]]`` that does not end as the recorder's do (a blank before
    its last ``]]``): the expression reading the recorder's notes in place held the note's end and
    backtracked over each candidate, quadratic (56 KB: 1.9 s of lint; found in the last review).
    1,000 and 8,000 of them."""
    head = "Title: x\n\nFADE IN:\n\nINT. HARVEY AND ALICE TALKING 2026-06-24 10:00:00\n\n"
    small, large = (head + "[[tool: x(" + ") — error: ]]" * n + " ]]\n" for n in (1000, 8000))
    _assert_linear(lint, small, large, "a tool note failing at its end")


#: Exports of many scenes (tester's finding): each scene's span/step read the session's people
#: (``actors.humans_of``, a walk over every scene), so 400 KB of chat headings took 25-35 s.
#: n scenes at n and 8n; ~50 bytes a heading, so 8n is ~100 KB.
EXPORT_SHAPES = {"chat headings": "INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\n",
                 "shell headings": "INT. SHELL 2026-08-03 14:20:31\n\n"}


@pytest.mark.parametrize("target", ["otlp-json", "toolpath"])
@pytest.mark.parametrize("shape", list(EXPORT_SHAPES))
def test_export_linear_time(target, shape):
    from fountain_audit.export.common import SessionExport
    from fountain_audit.export.otlp import request_of
    from fountain_audit.export.timing import Clock
    from fountain_audit.export.toolpath import graph_of

    build = request_of if target == "otlp-json" else graph_of

    def export(text: str) -> None:
        build([SessionExport("x.spmd", text, build_session(parse(text)), Clock())])

    n = 250
    small, large = EXPORT_SHAPES[shape] * n, EXPORT_SHAPES[shape] * (8 * n)
    _assert_linear(export, small, large, f"{target}, {shape}")


def test_swallowed_audit_notes_lint_in_linear_time():
    """N110 on lines a boneyard, section or centered text takes whole, each holding audit notes
    (and an unclosed ``[[``): one search of each element's text."""
    line = ("/**/[[tool: run({}) — ok]] [[x\n\n# act [[rag: 1 chunks from d, top score 0.5]] [[\n\n"
            "> [[tool: c({}) — ok]] <\n\n")
    head = "INT. HARVEY AND ALICE TALKING 2026-06-24 10:02:30\n\n"
    _assert_linear(lambda t: lint(t, select=["N110"]), head + line * 400, head + line * 3200, "swallowed audit notes")


def test_redacting_known_secrets_in_linear_time():
    """``--redact`` looks for every secret the session holds in every string it writes: one
    alternation of all of them (tried at every character) was quadratic in their number (8,000
    distinct secrets: 100 s for ``lint --redact``); a trie of them is tried in steps bounded by
    the longest one."""
    import random
    import string

    from fountain_audit.privacy.redact import Redactor

    rnd = random.Random(1)
    secrets = ["".join(rnd.choice(string.ascii_letters + string.digits) for _ in range(14)) for _ in range(2000)]

    def redact(n: int) -> None:
        red = Redactor().learn(None, "\n".join(f"password={s}" for s in secrets[:n]))
        out = [red.text(f"the value {s} again, and some text around it") for s in secrets[:n]]
        assert out[0].startswith("the value <redacted:")

    _assert_linear(redact, 250, 2000, "known secrets under --redact")


def _secrets_of(text: str) -> None:
    """:func:`~fountain_audit.privacy.detect.find_secrets` of ``text`` read anew (it keeps what it
    found in the text it read last)."""
    from fountain_audit.privacy import detect

    detect._LAST_FOUND = None
    detect.find_secrets(text)


def test_invisible_character_test_in_linear_time():
    """:func:`~fountain_audit.privacy.detect._holds_invisible` on a text of non-ASCII characters
    whose UTF-8 bytes are those of the invisible characters (``—`` and ``“`` share their
    leading bytes): one UTF-8 form and a search of it for each character, whatever the text."""
    from fountain_audit.privacy.detect import _holds_invisible

    def holds(text: str) -> None:
        assert not _holds_invisible(text, text.encode("ascii", "replace"))

    line = "a reply \u2014 \u201cquoted\u201d \u00b7 text \u2026 \u2070 \u00e9\n"
    _assert_linear(holds, line * 2000, line * 16000, "invisible characters")


#: Lines of a run of token prefixes, where every prefix starts a match of its kind.
TOKEN_RUNS = {"GitHub": "ghp_", "GitLab": "glpat-", "Slack": "xoxb-1-a"}


@pytest.mark.parametrize("kind", list(TOKEN_RUNS))
def test_runs_of_token_prefixes_in_linear_time(kind):
    """A token is taken on to the end of its run of token characters (``_RUNS_ON``): each match
    of ``ghp_ghp_ghp_…`` was, so a line of n prefixes took n²/2 steps (80 KB: 18 s for ``lint``).
    40 lines of 250 and of 2,000 characters (10 and 80 KB)."""
    run = TOKEN_RUNS[kind]
    small, large = (("x " + run * (n // len(run)) + " y\n") * 40 for n in (250, 2000))
    _assert_linear(_secrets_of, small, large, f"runs of {run}")


#: A JSON Web Token's header (``{"alg":"HS256"}``) and a dot: ``eyJ`` starts a match of the
#: detector, each taken on to the end of the line.
JWT_PART = "eyJhbGciOiJIUzI1NiJ9."


@pytest.mark.parametrize("end", ["", "a"], ids=["valid chain", "invalid last part"])
def test_chains_of_jwt_parts_in_linear_time(end):
    """Each detector match in ``eyJ….eyJ….eyJ….`` was taken on to the end of the line and its
    whole was decoded (84 KB: 10 s for ``lint``); with a last part that does not decode (``a``),
    every match fell back to its own text after reading the line. 8 lines of 48 and of 384 parts
    (8 and 64 KB)."""
    small, large = (("x " + JWT_PART * n + end + " y\n") * 8 for n in (48, 384))
    _assert_linear(_secrets_of, small, large, f"JWT chains ending {end!r}")


@pytest.mark.parametrize("tail", ["", "!.", ".x"], ids=["no dot", "a dot past the run", "a dot after the run"])
def test_runs_of_jwt_starts_without_a_dot_in_linear_time(tail):
    """``eyJeyJeyJ…`` with no dot after the run: the detector's pattern, tried from each ``eyJ``,
    scanned to the run's end and failed (240 KB: 12 s of ``lint``; adversarial trial); so did a
    search on from an ``eyJ.`` before such a run. Lines of 6,000 and of 48,000 ``eyJ`` (the
    quadratic term is small: 8× the input took 9× the time at 2,000, 16× at 16,000)."""
    small, large = (("eyJ." + "eyJ" * n + tail + " y\n") for n in (6000, 48000))
    _assert_linear(_secrets_of, small, large, f"runs of eyJ then {tail!r}")


def test_jwt_matches_are_the_patterns_matches():
    """:func:`_jwt_matches` finds what ``finditer`` of the detector's pattern finds, on random lines
    of JWT pieces."""
    import random

    from detect_secrets.plugins.jwt import JwtTokenDetector

    from fountain_audit.privacy.detect import _jwt_matches
    (regex,) = JwtTokenDetector().denylist
    pieces = ["eyJ", ".", "a", "-", "_", "=", "!", " ", "+", "/", "Z9", "eyJhbGciOiJIUzI1NiJ9", "e", "y", "J"]
    rnd = random.Random(1)
    for _ in range(5000):
        line = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 30)))
        assert [m.span() for m in _jwt_matches(regex, line)] == [m.span() for m in regex.finditer(line)], line


def _distinct_secrets(kind: str, n: int) -> str:
    """n lines, each holding a distinct secret: a password after a keyword, or a GitHub token."""
    import random
    import string

    rnd = random.Random(1)
    chars = string.ascii_letters + string.digits
    if kind == "passwords":
        return "".join(f"password={''.join(rnd.choice(chars) for _ in range(12))}!1a\n" for _ in range(n))
    return "".join(f"ghp_{''.join(rnd.choice(chars) for _ in range(36))}\n" for _ in range(n))


@pytest.mark.parametrize("kind", ["passwords", "GitHub tokens"])
def test_many_distinct_secrets_in_linear_time(kind):
    """The repeats of the secrets found (``_repeats``, timed alone: the detectors' own linear
    time would blur the ratio) were looked for with one scan of the text per distinct value: n
    secrets on n lines took n² steps (40,000 passwords: 30 s for ``lint``). 500 and 4,000 lines
    (12-20 and 100-160 KB)."""
    from fountain_audit.privacy import detect

    texts = [_distinct_secrets(kind, n) for n in (500, 4000)]
    found = {id(t): detect._plain_secrets(t) for t in texts}
    _assert_linear(lambda t: list(detect._repeats(t, found[id(t)])), *texts, f"distinct {kind}")


def _deep_arguments(depth: int, notes: int = 20) -> str:
    arg = "[" * depth + "1" + "]" * depth
    calls = "".join(f"[[tool: w({arg}) — ok]]\n\n" for _ in range(notes))
    return ("Title: T\nAuthor: ALICE\n\nFADE IN:\n\nINT. HARVEY AND ALICE TALKING 2026-07-01 09:10:00\n\n"
            "Harvey and ALICE are in chat mode. Model: PHI. Workspace: /tmp/ws.\n\nALICE\ngo\n\nHARVEY\n"
            f"Forwarding to PHI.\n\n{calls}PHI\ndone\n\nTHE END.\n")


@pytest.mark.parametrize("args", [("show", "--format", "json", "-", "t1"), ("provenance", "--format", "json", "-"),
                                  ("dump", "--turns", "-"), ("export", "--to", "toolpath", "-"),
                                  ("report", "-", "-o", "-")])
def test_deeply_nested_tool_arguments_give_output_linear_in_the_input(args):
    """Tool-call arguments nested N deep were indented one step per level: N² output (arguments
    950 arrays deep: show --format json 367 MB, 32 s; provenance, export and report ~180 MB;
    adversarial trial). Ten times the depth must give at most ~11 times the output."""
    from click.testing import CliRunner

    from fountain_audit.cli import main
    sizes = []
    for depth in (90, 900):
        text = _deep_arguments(depth)
        r = CliRunner().invoke(main, list(args), input=text)
        assert r.exit_code == 0, r.output[-500:]
        sizes.append((len(text), len(r.stdout)))
    (n, out_n), (n10, out_n10) = sizes
    assert out_n10 / out_n <= 1.1 * n10 / n, sizes


@pytest.mark.parametrize("shape", ["/* a\n\n", "[[ a\n\n", "BOB\n(x\n\n"],
                         ids=["unclosed boneyard", "unclosed note", "cue"])
def test_parsing_with_nodes_made_by_the_lexer_in_linear_time(shape):
    """parse() of a text with no ``*/`` makes its body's nodes as the lexer finds them
    (lexer.lex_nodes): 4,000 and 32,000 unclosed openers or cues."""
    from fountain_audit.parse.fountain import parse
    _assert_linear(parse, shape * 4000, shape * 32000, f"parsing {shape!r}")


@pytest.mark.parametrize("shape", ["x.INT. H 2026-06-24 10:05:00\n", "aINT. ", "x.EXT. "],
                         ids=["a glued heading on every line", "one line of glue candidates", "one line of EXT."])
def test_glued_headings_in_linear_time(shape):
    """Each line with a glued heading looked for its paragraph's end again (16,000 lines: 20 s),
    and GLUED_HEADING_RE read the rest of the line from each ``INT. `` of it (20,000: 21 s):
    adversarial trial. lint of 2,000 and 16,000 of them."""
    _assert_linear(lint, "y\n" + shape * 2000 + "\n", "y\n" + shape * 16000 + "\n", f"lint of {shape!r}")


def _lint_anew(text: str) -> None:
    """lint of ``text`` read anew: the memos of answers read from the text emptied (the secrets
    scan keeps what it found in the text it read last, which made a second call cost nothing)."""
    from fountain_audit.memos import forget

    forget()
    lint(text)


#: Lines of dialogue the secret detectors' patterns read from each of many starts, each scan
#: failing at the line's end (adversarial trial; lint of 8n on main: seconds, quadratic). n and 8n
#: of each: the OpenAI pattern from each ``sk-`` of a run with no marker, or with one it cannot
#: use; the keyword detector's value pattern, whose lookahead read the rest of the line at each
#: ``password=`` not followed by a word character; a token name's value, read from each ``token``
#: of a run of value characters to its end, where ``(`` refuses it (16,000: 18.6 s of lint); the
#: keyword detector's patterns, each reading a word from each keyword in it to the word's end
#: (``password`` 16,000 times: over 460 s of lint, 500 and 4,000 here), and reading a value
#: opened by a backquote, which runs on over backquotes, from each backquote (``"value" ==
#: keyword``) or each one near a keyword (``keyword "value";``) to the line's end.
SECRET_LINES = {"sk-proj- repeated": lambda n: "sk-proj-" * n,
                "sk- repeated, then the OpenAI marker": lambda n: "sk-" * n + "T3BlbkFJ",
                "password=- repeated": lambda n: "password=- " * n,
                "token= repeated, then (": lambda n: "token=" * n + "(",
                "password repeated in one word, then =-": lambda n: "password" * n + "=-",
                "`a repeated, then password=": lambda n: "`a" * n + " password=",
                "password `a repeated": lambda n: "password `a " * n + "="}
#: n of a shape whose quadratic cost on main is too large to wait for at 8 × 2,000.
SECRET_N = {"password repeated in one word, then =-": 500, "`a repeated, then password=": 1000,
            "password `a repeated": 1000}


@pytest.mark.parametrize("shape", list(SECRET_LINES))
def test_secret_patterns_in_linear_time(shape):
    head = "Title: x\n\nFADE IN:\n\nINT. HARVEY AND ALICE TALKING 2026-06-24 10:00:00\n\nALICE\n"
    n = SECRET_N.get(shape, 2000)
    small, large = (head + SECRET_LINES[shape](k) + "\n" for k in (n, 8 * n))
    _assert_linear(_lint_anew, small, large, shape)
    _assert_linear(lambda t: lint(t, ignore=["V"]), small, large, shape + " (V rules ignored)")


#: One line of dialogue holding n secrets (adversarial trial): an AWS key is upper-case, so each
#: of its replacements asks whether it stands alone on its line.
SECRET_RUNS = {"Basic headers": "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ== ", "AWS keys": "AKIAIOSFODNN7EXAMPLE ",
               "AWS keys, passwords, home paths": "AKIAIOSFODNN7EXAMPLE password=HUNTER2hunter2!1a /home/alice/x "}
_CHAT_HEAD = ("Title: x\nAuthor: MARGOT\n\nINT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\n"
              "Harvey and MARGOT are in chat mode. Model: QWEN. Workspace: /w.\n\nMARGOT\n")


@pytest.mark.parametrize("shape", list(SECRET_RUNS))
def test_redacting_a_line_of_secrets_in_linear_time(shape):
    """``redact``'s upper-casing of a placeholder alone on its line sliced and stripped the whole
    line for each replacement (16,000 Basic headers on one line: 18.4 s). redact_text of 2,000
    and 16,000 of them."""
    from fountain_audit.privacy.redact import redact_text
    small, large = (_CHAT_HEAD + SECRET_RUNS[shape] * n + "\n" for n in (2000, 16000))
    _assert_linear(redact_text, small, large, f"redacting a line of {shape}")


@pytest.mark.parametrize("shape", list(SECRET_RUNS))
def test_fingerprints_of_a_line_of_secrets_in_linear_time(shape):
    """Each finding's excerpt re-encoded its whole line (64,000 AWS keys on one line: 15.6 s of
    lint). fingerprint.assign alone (lint's findings made beforehand), 2,000 and 16,000 of them."""
    from fountain_audit.lint.fingerprint import assign
    texts = [_CHAT_HEAD + SECRET_RUNS[shape] * n + "\n" for n in (2000, 16000)]
    found = {id(t): lint(t) for t in texts}
    _assert_linear(lambda t: assign(found[id(t)], t, "x.spmd"), *texts, f"fingerprints of a line of {shape}")


@pytest.mark.parametrize("sep", [" ", "\n"], ids=["one line", "a line each"])
def test_masking_messages_against_many_secrets_in_linear_time(sep):
    """The messages of lint's findings were each searched for every secret of the file: findings
    x secrets (10,000 distinct secrets on one line: 14 s of lint in any format). lint of 1,000 and
    8,000 distinct AWS keys, passwords and home paths, on one line or a line each."""
    import random

    rnd = random.Random(1)
    chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
    parts = [f"AKIA{''.join(rnd.choice(chars) for _ in range(16))}" if i % 3 == 0 else
             f"password={''.join(rnd.choice(chars.lower()) for _ in range(12))}!1a" if i % 3 == 1 else
             f"/home/alice{i % 7}/x" for i in range(8000)]
    small, large = (_CHAT_HEAD + sep.join(parts[:n]) + "\n" for n in (1000, 8000))
    _assert_linear(lint, small, large, f"lint of many secrets, {sep!r} between")


def test_code_frame_columns_of_a_line_of_secrets_in_linear_time():
    """``lint --redact``'s code frames moved each finding's column by walking every replacement
    before it (findings x replacements: 10,000 secrets on one line, lint --redact in the full
    format took minutes). A column at each replacement of 2,000 and 16,000 on one line."""
    from fountain_audit.privacy.redact import FrameMap, session_redactor

    def columns(text: str) -> None:
        reps = session_redactor(text).replacements(text)
        frames = FrameMap(text, reps)
        line = len(frames.starts) - 1
        for r in reps:
            frames.column(line, r.start - frames.starts[line - 1] + 1)

    small, large = (_CHAT_HEAD + SECRET_RUNS["AWS keys"] * n + "\n" for n in (2000, 16000))
    _assert_linear(columns, small, large, "code-frame columns on a line of secrets")


#: Lines of the shapes the searches added for issue "home paths and secret shapes" read (a URL
#: password without a user name, a key in a URL's query string, ``Authorization: Token``, user
#: names holding ``@``, apostrophes and words after blanks), each repeated on one line and on a
#: line each: every match is tried from each of many starts, each failing late.
PRIVACY_SHAPES = {"URL passwords without a user": "redis://:S3cr3tPassw0rd@c ://:a",
                  "query keys": "?key=Zx81Lk29Pq73Mn46Vb05&token=v.&api_key=..a",
                  "query keys, dots": "?key=" + "." * 40,
                  "Token headers": "Authorization: Token 9f8e7d6c5b4a3f2e1d0c9b8a7f6 Authorization: Token a"
                                   + "a" * 16 + "\u00e9",
                  "passphrases": "passphrase=Hw7kP2xQ9vLm passphrase:",
                  "home names with @ and '": "/home/user@corp/x /home/O'Brien@ /Users/a'b@",
                  "home names with blanks": "/Users/John Smith Jones Went/x C:\\Users\\john smith\\Documents",
                  "home names with blanks, no end": "/Users/A B C D E F G H I J",
                  "command-line passwords": "curl -a -b -u x docker login -x -p htpasswd -b -c f u "
                                            "redis-cli -a wget --password smbclient -U a net use /user:"}


@pytest.mark.parametrize("sep", [" ", "\n"], ids=["one line", "a line each"])
@pytest.mark.parametrize("shape", list(PRIVACY_SHAPES))
def test_privacy_shapes_in_linear_time(shape, sep):
    """8× the input takes at most 16× the time: the secrets and home paths of 200 and 1,600 of
    each shape (find_secrets and find_home_paths, read anew), and their redaction (a redactor that
    learnt the users and secrets of the text)."""
    from fountain_audit.privacy import detect
    from fountain_audit.privacy.redact import Redactor

    def scan(text: str) -> None:
        detect._LAST_FOUND = detect._LAST_ESCAPED = None
        detect.find_secrets(text)
        detect.find_home_paths(text)
        Redactor().learn(None, text).text(text)

    # (8x the input within 16x the time, as every other shape here: held to 11x for 10x, one shape
    # read 11.4-19.9x in all six tries inside the full suite, where alone it reads 8-11x and its
    # instruction counts grow 10.3x for 10x, as on 5235efd: the machine's caches, not the code)
    small, large = (sep.join([PRIVACY_SHAPES[shape]] * n) for n in (200, 1600))
    _assert_linear(scan, small, large, shape, tries=6, batch=8)


@pytest.mark.parametrize("head", ["[[x y.write: ", "[[write "])
def test_a_long_write_like_note_is_judged_by_n112_in_linear_time(head):
    """`[[x y.write: a.a.a.…]]`: N112's payload pattern backtracked over every dot, 37 s for a
    40 KB note (adversarial trial, stop 33)."""
    chat = ("INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31\n\nMARGOT\nq\n\nHARVEY\nForwarding to LLAMA3.\n\n"
            "LLAMA3\nr\n\n")
    _assert_linear(lint, chat + head + "a." * 4000 + "]]\n", chat + head + "a." * 32000 + "]]\n", head)


@pytest.mark.parametrize("lead", ["/home/margot", "C:", "\\\\srv"])
def test_runs_of_backslashes_in_linear_time(lead):
    """8× a run of backslashes after a workspace's start, a drive or a share takes at most 16× the
    time to read for the workspace, home paths and a learnt user's paths: ``(?:SEP)+`` tried a run
    of 38 in about 1.6**38 ways (11 s; exponential: adversarial trial, stop 35)."""
    from fountain_audit.privacy import detect
    from fountain_audit.privacy.redact import Redactor

    def scan(text: str) -> None:
        detect._LAST_FOUND = detect._LAST_ESCAPED = None
        detect.workspace_regex(["/home/margot/src/tidewater"]).search(text)
        Redactor(["/home/margot/src/tidewater"]).learn(None, "/home/bob/x " + text).text(text)

    small, large = (lead + "\\" * n + "!" for n in (400, 3200))
    _assert_linear(scan, small, large, f"{lead} and backslashes", tries=4, batch=8)


@pytest.mark.parametrize("shape", ["[\u200b[", "[\u200b[tool: read_file(x) — ok ", "[\u2060[rag: "])
def test_openings_split_by_an_invisible_character_in_linear_time(shape):
    """N113 reads `[` U+200B `[tool: …]]` openings (stop 38): each looked for its `]]` and line
    end from where it stands, over one long line (a quadratic shape). Each is found once."""
    head = ("Title: Harvey Session\nAuthor: BOB\n\nFADE IN:\n\nINT. HARVEY AND BOB TALKING 2026-09-01 09:00:10\n\n"
            "Harvey and BOB are in chat mode. Model: LLAMA. Workspace: /tmp/ws.\n\n")
    _assert_linear(lambda t: lint(t, select=["N113"]), head + shape * 1_000 + "]]\n", head + shape * 8_000 + "]]\n",
                   f"split openings {shape!r}")
