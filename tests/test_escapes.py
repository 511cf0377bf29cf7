"""Session text never reaches a terminal as control sequences: a reply holding an OSC title
sequence (``\\x1b]0;pwned\\x07``) and a CSI clear-screen (``\\x1b[2J``) is printed escaped by
``show``, ``provenance`` and ``lint --output-format full`` (``diff`` has its own tests)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from fountain_audit.cli import main

HOSTILE = ("INT. HARVEY AND ANA TALKING 2026-09-01 10:00:00\n\nHarvey and ANA are in chat mode. Model: M. "
           "Workspace: /w.\n\nANA\nhi\n\nHARVEY\nForwarding to M.\n\n[[tool: read_file({\"p\":\"\x1b]0;pwned\x07\"}) — ok]]"
           "\n\nM\nfine \x1b]0;pwned\x07 and \x1b[2J gone\r\n\n\nTHE END.\n")
RAW = ("\x1b]", "\x07", "\x1b[2J")
# The same with the sequences in evidence that provenance prints: a RAG store, a rag-source, a tool error.
EVIDENCE = HOSTILE.replace("ANA\nhi", "[[rag: 2 chunks from s\x1b[2J.db, top score 0.50]]\n\n"
                           "[[rag-source: \x1b]0;pwned\x07doc.md]]\n\nANA\nhi").replace(
    "— ok]]", "— error: \x1b[2J boom]]")


def hostile(tmp_path) -> str:
    path = tmp_path / "hostile.spmd"
    path.write_bytes(HOSTILE.encode())
    return str(path)


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_show_escapes(tmp_path):
    for color in ("--color", "--no-color"):
        r = run("show", hostile(tmp_path), "t1.reply", "t1.tool1", color)
        assert r.exit_code == 0
        assert not any(s in r.stdout for s in RAW)
        assert "fine \\x1b]0;pwned\\x07 and \\x1b[2J gone" in r.stdout


def test_lint_full_code_frames_escape(tmp_path):
    for color in ("--color", "--no-color"):
        r = run("lint", "--isolated", "--output-format", "full", color, hostile(tmp_path))
        assert r.exit_code == 0  # (warnings only: N102, E102)
        assert not any(s in r.stdout for s in RAW)
    lines = run("lint", "--isolated", "--output-format", "full", "--no-color", hostile(tmp_path)).stdout.splitlines()
    k = lines.index("14 | fine \\x1b]0;pwned\\x07 and \\x1b[2J gone")
    assert lines[k + 1] == "   |      ^^^^ E102"  # the caret covers the escape of the ESC at column 6


def test_provenance_escapes(tmp_path):
    path = tmp_path / "evidence.spmd"
    path.write_bytes(EVIDENCE.encode())
    for color in ("--color", "--no-color"):
        r = run("provenance", str(path), color)
        assert r.exit_code == 0
        assert not any(s in r.stdout for s in RAW)
    text = run("provenance", str(path), "--no-color").stdout
    assert "rag t1.rag1: 2 chunks from s\\x1b[2J.db, top score 0.50  L5" in text
    assert "t1.rag-source1: \\x1b]0;pwned\\x07doc.md  L7" in text
    assert 'read_file(p="\\u001b]0;pwned\\u0007") → error: \\x1b[2J boom' in text


# -- from the adversarial trial: file names and quotes of secrets ------------------------------------

def test_secret_quoted_by_other_rules_is_masked(tmp_path):
    from click.testing import CliRunner

    from fountain_audit.cli import main as cli_main
    key = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"
    sample = (Path(__file__).parents[1] / "samples" / "clean-session.spmd").read_text()
    text = sample.replace("Author: MARGOT", f"Author: margot {key}").replace(
        "INT. CONTEXT RECALL ", f"INT. CONTEXT RECALL {key} ")
    f = tmp_path / "k.spmd"
    f.write_text(text)
    for fmt in ("concise", "json", "sarif", "github", "junit", "full"):
        out = CliRunner().invoke(cli_main, ["lint", "--isolated", "--output-format", fmt, str(f)]).output
        assert key[8:20].lower() not in out.lower(), fmt
    out = CliRunner().invoke(cli_main, ["lint", "--isolated", str(f)]).output
    assert "S105 [author-not-uppercase] 'Author: margot sk_live_************************' is not upper case " \
           "(the recorder writes 'Author: MARGOT SK_LIVE_************************')" in out


def test_newline_and_escape_in_file_names_stay_on_one_line(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from fountain_audit.cli import main as cli_main
    sample = (Path(__file__).parents[1] / "samples" / "violations" / "P102-tools-between-forward-and-reply.spmd")
    (tmp_path / "a\nfake.spmd:1:1: V101 forged\x1b[2J.spmd").write_bytes(sample.read_bytes())
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(cli_main, ["lint", "--isolated", "--output-format", "concise", "."]).output
    assert out.splitlines()[0].startswith("a\\nfake.spmd:1:1: V101 forged\\x1b[2J.spmd:20:1: P102 ")
    gh = CliRunner().invoke(cli_main, ["lint", "--isolated", "--output-format", "github", "."]).output
    assert "\x1b" not in gh and "forged\\x1b[2J.spmd,line=20" in gh


#: What JSON may carry raw and a terminal acts on: a C1 CSI (U+009B: ``\u009b2J`` clears an xterm),
#: a bidi override and an isolate.
C1_BIDI = ("\u009b", "\u202e", "\u2066")


def test_json_outputs_escape_c1_and_bidi_controls(tmp_path, monkeypatch):
    """JSON escapes C0 controls itself but wrote C1 controls and bidi controls raw (the default
    `dump` output on a terminal cleared it): every JSON output writes them as \\uNNNN escapes,
    the same JSON values."""
    import json

    reply = "yo \u009b2J \u202eevil \u2066x"
    text = HOSTILE.replace("fine \x1b]0;pwned\x07 and \x1b[2J gone\r\n", reply + "\n")
    monkeypatch.chdir(tmp_path)
    name = "a\u202eb.spmd"  # a file name, in every lint format
    Path(name).write_text(text, encoding="utf-8")
    outputs = {
        "dump --turns": run("dump", "--turns", name).stdout,
        "dump jsonl": run("dump", "--records", "all", "--format", "jsonl", name).stdout,
        "show json": run("show", "--format", "json", name, "t1.reply").stdout,
        "provenance json": run("provenance", "--format", "json", name).stdout,
        "export toolpath": run("export", "--to", "toolpath", name).stdout,
        "diff json": run("diff", "--format", "json", name, name).stdout,
    }
    for fmt in ("json", "json-lines", "sarif", "gitlab"):
        outputs[f"lint {fmt}"] = run("lint", "--output-format", fmt, "--select", "E102", name).stdout
    for what, out in outputs.items():
        assert out.strip() and not any(c in out for c in C1_BIDI), what
    assert "\\u202e" in outputs["lint json"] and "yo \\u009b2J \\u202eevil \\u2066x" in outputs["dump --turns"]
    assert json.loads(outputs["dump --turns"])["records"][0]["reply"]["text"] == reply
