from fountain_audit.untrusted import terminal_safe
from tests.conftest import SAMPLES


def test_terminal_sequences_are_escaped():
    assert terminal_safe("a\x1b]0;pwned\x07b\x1b[2J") == "a\\x1b]0;pwned\\x07b\\x1b[2J"


def test_c1_bidi_cr_and_undecodable_bytes():
    assert terminal_safe("x\x9by\u202ez\rw\udcf0") == "x\\x9by\\u202ez\\x0dw\\xf0"


def test_text_layout_is_kept():
    assert terminal_safe("tab\there\r\nnext line — ünïcode") == "tab\there\r\nnext line — ünïcode"


def test_direction_marks_and_invisible_characters():
    # direction marks (LRM, RLM, ALM), zero width space, soft hyphen, zero width no-break space
    assert terminal_safe("a\u200eb\u200fc\u061cd\u200be\u00adf\ufeffg") == \
        "a\\u200eb\\u200fc\\u061cd\\u200be\\u00adf\\ufeffg"


def test_tag_characters():
    assert terminal_safe("x\U000e0001\U000e0041\U000e007fy") == "x\\U000e0001\\U000e0041\\U000e007fy"
    # the rest of U+E0000-U+E0FFF is default-ignorable too (variation selectors supplement, unassigned)
    assert terminal_safe("\U000e0080\U000e0100\U000e0fff\U000e1000") == "\\U000e0080\\U000e0100\\U000e0fff\U000e1000"


def test_show_and_diff_escape_invisible_characters(tmp_path):
    from click.testing import CliRunner

    from fountain_audit.cli import main

    text = (SAMPLES / "clean-session.spmd").read_text(encoding="utf-8")
    odd = "r\u200ee\u200ft\u061cr\u200bo\u00ad\ufeff\U000e0041"
    changed = tmp_path / "odd.spmd"
    changed.write_text(text.replace("docs/retro-2026-07.md", f"docs/{odd}-2026-07.md"), encoding="utf-8")
    shown = CliRunner().invoke(main, ["show", str(changed), "L27"])
    assert shown.output == ("27 | [[rag-source: docs/r\\u200ee\\u200ft\\u061cr\\u200bo\\u00ad\\ufeff\\U000e0041"
                            "-2026-07.md]]\n")
    diffed = CliRunner().invoke(main, ["diff", str(SAMPLES / "clean-session.spmd"), str(changed)])
    assert "docs/r\\u200ee\\u200ft\\u061cr\\u200bo\\u00ad\\ufeff\\U000e0041-2026-07.md" in diffed.output
    assert not any(c in diffed.output + shown.output for c in "\u200e\u200f\u061c\u200b\u00ad\ufeff\U000e0041")


INVISIBLE = "\u180e\u2060\u2061\u2064\u206a\u206f\ufff9\ufffb\U0001bca0\U0001d173\U0001d17a"


def test_every_invisible_format_character_is_escaped_but_the_joiners():
    # (show, provenance and the report printed these raw; adversarial trial)
    assert terminal_safe("a" + INVISIBLE + "b") == (
        "a\\u180e\\u2060\\u2061\\u2064\\u206a\\u206f\\ufff9\\ufffb\\U0001bca0\\U0001d173\\U0001d17ab")
    # the zero width joiner and non-joiner build emoji sequences and words of several scripts
    assert terminal_safe("👩\u200d💻 می\u200cخواهم") == "👩\u200d💻 می\u200cخواهم"


DEFAULT_IGNORABLE = "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180f\u2800\u3164\ufe00\ufe0d\uffa0\ufff0\ufff8"


def test_hangul_fillers_and_the_other_default_ignorable_characters_are_escaped():
    # (show t1.user printed the Hangul fillers, U+17B4, U+034F and the braille blank raw; adversarial trial)
    assert terminal_safe("a" + DEFAULT_IGNORABLE + "b") == (
        "a\\u034f\\u115f\\u1160\\u17b4\\u17b5\\u180b\\u180f\\u2800\\u3164\\ufe00\\ufe0d\\uffa0\\ufff0\\ufff8b")
    # the presentation selectors stay: emoji need them (U+26A0 U+FE0F is the warning sign as emoji)
    assert terminal_safe("\u26a0\ufe0f \u2709\ufe0e") == "\u26a0\ufe0f \u2709\ufe0e"
    from click.testing import CliRunner

    from fountain_audit.cli import main
    text = ("Title: A\nAuthor: ALICE\n\nINT. HARVEY AND ALICE TALKING 2026-06-24 10:00:00\n\nALICE\n"
            "x" + DEFAULT_IGNORABLE + "y\n")
    shown = CliRunner().invoke(main, ["show", "-", "t1.user"], input=text)
    assert shown.exit_code == 0
    assert shown.output == ("6 | ALICE\n7 | x\\u034f\\u115f\\u1160\\u17b4\\u17b5\\u180b\\u180f\\u2800\\u3164\\ufe00"
                            "\\ufe0d\\uffa0\\ufff0\\ufff8y\n")
    dumped = CliRunner().invoke(main, ["dump", "--turns", "-"], input=text)
    assert ('"text": "x\\u034f\\u115f\\u1160\\u17b4\\u17b5\\u180b\\u180f\\u2800\\u3164\\ufe00\\ufe0d'
            '\\uffa0\\ufff0\\ufff8y"') in dumped.stdout


def test_json_outputs_write_invisible_characters_as_escapes():
    # (dump and the other JSON outputs wrote DEL, U+FEFF, U+200B, U+00AD and tag characters raw)
    import json

    from click.testing import CliRunner

    from fountain_audit.cli import main
    text = ("Title: A\nAuthor: ALICE\n\nINT. HARVEY AND ALICE TALKING 2026-06-24 10:00:00\n\nALICE\n"
            "x\x7f\ufeff\u200b\xad" + INVISIBLE + "\U000e0041y\u200dz\n")
    r = CliRunner().invoke(main, ["dump", "--turns", "-"], input=text)
    assert r.exit_code == 0
    assert ('"text": "x\\u007f\\ufeff\\u200b\\u00ad\\u180e\\u2060\\u2061\\u2064\\u206a\\u206f\\ufff9\\ufffb'
            '\\ud82f\\udca0\\ud834\\udd73\\ud834\\udd7a\\udb40\\udc41y\u200dz"') in r.stdout
    assert json.loads(r.stdout)["records"][0]["user"]["text"] == text.split("ALICE\n")[-1].rstrip("\n")


def test_usage_errors_escape_the_arguments_they_quote():
    # (click quoted extra arguments raw: a file name holding an OSC sequence retitled the
    # terminal, "Got unexpected extra arguments (esc^[]0;FN^G...)"; adversarial trial)
    from click.testing import CliRunner

    from fountain_audit.cli import main
    name = "esc\x1b]0;FN\x07\u202e.spmd"
    for args in (["rule", "V101", name], ["provenance", "a.spmd", name], ["diff", "a", "b", name]):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2
        assert r.output.endswith("Error: Got unexpected extra argument (esc\\x1b]0;FN\\x07\\u202e.spmd)\n")
    r = CliRunner().invoke(main, ["lint", "--bogus\u202e\x9b"])
    assert r.exit_code == 2
    assert r.output.endswith("Error: No such option '--bogus\\u202e\\x9b'.\n")


def test_a_newline_or_tab_in_a_file_name_forges_no_line_of_an_error(tmp_path):
    # (error messages quoted a file name with terminal_safe, which keeps LF and TAB: `lint
    # $'no\nfile.spmd'` printed "fountain-audit: error: no" and then "file.spmd: no such file or
    # directory" as a line of its own, in every command; click's usage errors the same)
    import subprocess
    import sys

    sample = str(SAMPLES / "clean-session.spmd")
    bad = "no\nfile\t.spmd"
    missing = "fountain-audit: error: no\\nfile\\t.spmd: no such file or directory\n"
    cases = [
        (["lint", bad], missing),
        (["dump", bad], missing),
        (["provenance", bad], missing),
        (["show", bad, "t1"], missing),
        (["redact", bad], missing),
        (["report", "-o", str(tmp_path / "r.html"), bad], missing),
        (["export", "--to", "toolpath", bad], missing),
        (["diff", sample, bad], missing),
        (["show", sample, "t9\nx"], None),
        (["lint", "--baseline", "b\nx.json", sample],
         "fountain-audit: error: b\\nx.json: no such baseline (create it with --update-baseline)\n"),
        (["diff", sample, sample, "x\ny\tz.spmd"], None),
    ]
    for args, expected in cases:
        r = subprocess.run([sys.executable, "-m", "fountain_audit", *args], capture_output=True, text=True,
                           cwd=tmp_path)
        assert r.returncode == 2, (args, r.stderr)
        if expected is not None:
            assert r.stderr == expected, args
    r = subprocess.run([sys.executable, "-m", "fountain_audit", "show", sample, "t9\nx"], capture_output=True,
                       text=True)
    assert r.stderr.startswith(f"fountain-audit: error: {sample}: unknown id 't9\\nx': ")
    assert r.stderr.count("\n") == 1
    r = subprocess.run([sys.executable, "-m", "fountain_audit", "diff", sample, sample, "x\ny\tz.spmd"],
                       capture_output=True, text=True)
    assert r.stderr.endswith("\nError: Got unexpected extra argument (x\\ny\\tz.spmd)\n")


def test_click_s_list_of_choices_keeps_its_tabs():
    """`fountain-audit schema` printed its choices as `\\tast,` (the escaping of what a user
    typed was applied to click's own indentation; new-user trial)."""
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "fountain_audit", "schema"], capture_output=True, text=True)
    assert r.returncode == 2
    assert r.stderr.endswith("Error: Missing argument 'SHAPE'. Choose from:\n"
                             "\tast,\n\tbaseline,\n\tdump,\n\tlint,\n\tprovenance,\n\tshow,\n\tturns\n")
