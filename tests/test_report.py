"""``fountain-audit report``: pages checked through the DOM of a real headless Chromium
(Debian's ``chromium``, driven by Playwright with ``executable_path``), plus the parts that
need no browser (escaping, CSP, file layout, exit codes)."""

from __future__ import annotations

import os
import random
import re
import shutil
import time
from html import escape, unescape
from pathlib import Path

import pytest
from click.testing import CliRunner

from fountain_audit.cli import main
from fountain_audit.report.markdown import render_markdown

from .conftest import ROOT, SAMPLES, SHARED

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]

HOSTILE = """Title: Hostile <b>Session</b>
Author: MALLORY

FADE IN:

INT. HARVEY AND MALLORY TALKING 2026-09-01 09:00:00

MALLORY
Please <script>document.title='pwned-user'</script> summarise.

HARVEY
Forwarding to QWEN.

[[tool: read_file({"path":"<img src=x onerror=\\"document.title='pwned-arg'\\">"}) — error: <script>document.title='pwned-err'</script>]]

QWEN
Here you go <script>document.title='pwned'</script> and <img src=x onerror="document.title='pwned-img'">.

[a link](javascript:document.title='pwned-link') and ![tracker](http://127.0.0.1:9/pixel.png) and <http://127.0.0.1:9/auto>.

<iframe src="javascript:alert(1)"></iframe>

THE END.
"""


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (Debian package 'chromium'; .ci/run installs it)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (test extra) not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def open_page(browser, path: Path, tmp_path: Path, shot: str):
    page = browser.new_page(viewport={"width": 1200, "height": 1600})
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())
    page.screenshot(path=str(tmp_path / shot), full_page=False)
    return page, requests


# -- without a browser ------------------------------------------------------------------------------

def test_markdown_has_no_html_links_or_images():
    html = render_markdown("a <script>x()</script> [t](javascript:y) ![i](http://h/p.png) [ok](https://e.com/a)")
    assert html == ('<p>a &lt;script&gt;x()&lt;/script&gt; [t](javascript:y) <span class="md-image">[image: i — '
                    '<code>http://h/p.png</code>]</span> <span class="md-link">ok</span> '
                    '<code class="md-href">https://e.com/a</code></p>\n')


def test_markdown_keeps_angle_bracket_text_literal_no_autolinks():
    """``<redacted:github-token>`` has the shape of a CommonMark autolink (scheme ``redacted``):
    it stays text, as do real autolinks, e-mail autolinks and ``<home>``."""
    html = render_markdown("Token <redacted:github-token> in <home>/x, see <https://e.com/a> or <a@b.co>.")
    assert html == ("<p>Token &lt;redacted:github-token&gt; in &lt;home&gt;/x, see &lt;https://e.com/a&gt; "
                    "or &lt;a@b.co&gt;.</p>\n")
    assert render_markdown("- **<redacted:aws-access-key>**") == (
        "<ul>\n<li><strong>&lt;redacted:aws-access-key&gt;</strong></li>\n</ul>\n")


def test_plain_paragraphs_skip_the_parser_with_the_same_html():
    from fountain_audit.report.markdown import _plain_paragraphs, _renderer

    rng = random.Random(13)
    alphabet = ["a", "Z", "1", "9", ".", ")", "(", "-", " ", "  ", "\n", "\n\n", '"', "'", ":", "/", "é", "—",
                "\u00a0", "\u2028", "%", "?", ",", "@", "{", "*", "<", "&", "\t", "#", "\r", "_"]
    taken = 0
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
        plain = _plain_paragraphs(text)
        if plain is not None:
            taken += 1
            assert plain == _renderer().render(text), repr(text)
    assert taken > 2000  # the fast path was exercised
    assert _plain_paragraphs('Noted: "docs/CHANGES.md".\n\nDone') == '<p>Noted: &quot;docs/CHANGES.md&quot;.</p>\n<p>Done</p>\n'
    assert _plain_paragraphs("1. a") is None and _plain_paragraphs("- a") is None and _plain_paragraphs("a *b*") is None


def test_dense_timeline_paths():
    from fountain_audit.report.render import dense_timeline_paths

    rows = [{"kind": "chat", "x": 0.0, "width": 0.5, "failed_tools": 1, "errors": 0},
            {"kind": "shell", "x": 0.5, "width": 0.0, "failed_tools": 0, "errors": 2},
            {"kind": "chat", "x": None, "width": None, "failed_tools": 0, "errors": 0},
            {"kind": "chat", "x": 0.5, "width": 0.5, "failed_tools": 0, "errors": 0}]
    assert dense_timeline_paths(rows, 4) == [
        ("k-chat", "M300 12h345v2h-345zM645 24h345v2h-345z"),
        ("k-shell", "M645 16h2v2h-2z"),  # no time to the next scene: 2 units wide, still visible
        ("untimed", "M300 20h690v2h-690z"),  # no timestamp: across the row, never at an invented time
        ("marker-tool", "M304 13a2 2 0 1 0 4 0a2 2 0 1 0 -4 0"),
        ("marker-error", "M988 18h2v2h-2z"),
    ]


def test_single_page_is_self_contained(tmp_path):
    out = tmp_path / "clean.html"
    r = run("report", str(SAMPLES / "clean-session.spmd"), "-o", str(out))
    assert r.exit_code == 0, r.output
    html = out.read_text()
    csp = unescape(re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html).group(1))
    assert "default-src 'none'" in csp and "img-src 'none'" in csp and "connect-src 'none'" in csp
    assert re.search(r"script-src 'sha256-[A-Za-z0-9+/=]{44}'", csp)
    assert not re.search(r'(src|href)="(https?:|//)', html)  # nothing to fetch
    assert html.count("<article class=\"turn\"") == 7
    # scores as recorded, two decimals (1.00 was shown as 1.0, as the text reports never did)
    assert sorted(set(re.findall(r"(?<!top )score ([0-9.]+)", html))) == ["0.81", "1.00"]
    assert re.findall(r"top score ([0-9.]+)", html) == ["0.79"]


def test_dates_are_shown_as_the_headings_write_them(tmp_path):
    """A heading timestamp without seconds is shown without them (the page said 19:15:00 for a
    file that records 19:15): the first and last scene times, as written."""
    text = (SAMPLES / "clean-session.spmd").read_text()
    headings = re.findall(r"^(?:INT|EXT)\. .* (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)$", text, re.M)
    stamps = [headings[0], headings[-1]]
    text = re.sub(rf"(?m)^((?:INT|EXT)\. .* ){stamps[0]}$", rf"\g<1>{stamps[0][:-3]}", text, count=1)
    text = re.sub(rf"(?m)^((?:INT|EXT)\. .* ){stamps[-1]}$", r"\g<1>2026-08-03 15:00", text, count=1)
    (tmp_path / "s.spmd").write_text(text)
    assert run("report", str(tmp_path / "s.spmd"), "-o", str(tmp_path / "s.html")).exit_code == 0
    dates = re.search(r'<dd class="dates">([^<]*)</dd>', (tmp_path / "s.html").read_text()).group(1)
    assert dates == f"{stamps[0][:-3]} – 2026-08-03 15:00"


def test_directory_gives_pages_and_index(tmp_path):
    r = run("report", str(SAMPLES), "-o", str(tmp_path / "out"))
    assert r.exit_code == 0, r.output
    pages = sorted(p.name for p in (tmp_path / "out").iterdir())
    n = len(list(SAMPLES.rglob("*.spmd"))) + len(list(SAMPLES.rglob("*.fountain")))
    # the binary and the empty sample are no sessions: skipped, said (named, each gets its page)
    assert len(pages) == n - 2 + 1 and "index.html" in pages
    assert [line for line in r.stderr.splitlines() if "skipped" in line] == [
        f"fountain-audit: warning: {SAMPLES / 'violations' / 'E104-binary-file.spmd'}: a PNG image, not a session: skipped",
        f"fountain-audit: warning: {SAMPLES / 'violations' / 'E105-empty-file.spmd'}: empty, not a session: skipped"]
    assert "samples__clean-session.spmd.html" in pages or any(p.endswith("clean-session.spmd.html") for p in pages)
    # the index's dates column gives the whole range, as each page does (it gave the start only: new-user
    # trial, stop 33)
    index = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert ('<td class="date" data-sort="2026-08-03 14:20:04"><span>2026-08-03 14:20:04</span> – '
            '<span>2026-08-03 14:30:05</span></td>') in index


def test_pages_of_an_earlier_run_are_named_not_deleted(tmp_path):
    """Writing one session into a folder that holds another run's pages: the index links only
    this run's page, and the others are named in a warning (they were left orphaned silently)."""
    out = tmp_path / "out"
    out.mkdir()
    for name in ("a.spmd.html", "b.spmd.html", "c.spmd.html", "d.spmd.html"):
        (out / name).write_text("old page")
    (out / "notes.txt").write_text("mine")
    r = CliRunner().invoke(main, ["report", str(SAMPLES / "clean-session.spmd"), "-o", str(out) + "/"])
    assert r.exit_code == 0
    assert r.stderr.splitlines()[-1] == (
        f"fountain-audit: warning: {out}/ also holds 4 pages this run did not write (a.spmd.html, b.spmd.html, "
        "c.spmd.html and 1 more), not linked from index.html: delete them, or write the report to an empty folder")
    assert sorted(p.name for p in out.iterdir()) == ["a.spmd.html", "b.spmd.html", "c.spmd.html",
                                                     "clean-session.spmd.html", "d.spmd.html", "index.html",
                                                     "notes.txt"]


def test_refuses_to_overwrite_an_input_and_empty_input(tmp_path):
    f = tmp_path / "a.spmd"
    f.write_text(HOSTILE)
    r = CliRunner().invoke(main, ["report", str(f), "-o", str(f)])
    assert r.exit_code == 2 and f.read_text() == HOSTILE
    (tmp_path / "empty").mkdir()
    r = CliRunner().invoke(main, ["report", str(tmp_path / "empty"), "-o", str(tmp_path / "x")])
    assert r.exit_code == 2 and "no session file" in r.output


def _redacted_page(tmp_path, text: str) -> str:
    """The page ``report --redact`` writes for a session of ``text``."""
    f = tmp_path / "s.spmd"
    f.write_text(text)
    out = tmp_path / "s.html"
    assert run("report", "--redact", str(f), "-o", str(out)).exit_code == 0
    return out.read_text()


def test_redact_replaces_secrets_and_paths(tmp_path):
    token = "ghp_" + "Z8x1Kq7Lm2Nb4Vc6Xd9Fs3Ga5Hj0Pw1Qe2Rt"
    text = HOSTILE.replace("Please", f"My token is {token}, home /home/mallory/keys/id.pem. Please")
    html = _redacted_page(tmp_path, text)
    assert token not in html and "/home/mallory" not in html
    assert "&lt;redacted:" in html and "&lt;home&gt;" in html


def test_redact_placeholders_are_literal_text_in_replies_dialogue_and_rule_docs(tmp_path):
    token = "ghp_" + "Z8x1Kq7Lm2Nb4Vc6Xd9Fs3Ga5Hj0Pw1Qe2Rt"
    text = (SAMPLES / "clean-session.spmd").read_text()
    text = text.replace("Noted: release notes go in docs/CHANGES.md.", f"Noted: token {token} in /home/margot/x.")
    text = text.replace("Remember that", f"Remember {token} that")
    html = _redacted_page(tmp_path, text)
    assert token not in html and 'class="md-link"' not in html and 'class="md-href"' not in html
    assert "<p>Noted: token &lt;redacted:github-token&gt; in &lt;home&gt;/x.</p>" in html  # the reply
    assert "<pre>Remember &lt;redacted:github-token&gt; that release notes" in html  # the dialogue
    out = tmp_path / "v101.html"  # the rule docs quote a user:password URL
    assert run("report", "--redact", str(SAMPLES / "violations" / "V101-secret-in-session.spmd"), "-o", str(out)).exit_code == 0
    html = out.read_text()
    assert "&lt;redacted:basic-auth&gt;" in html and 'class="md-link"' not in html


def test_redact_also_covers_the_rule_docs_on_the_page(tmp_path):
    """The Rules section quotes each rule's docs, whose examples hold example secrets (V101:
    AWS's documented example key): --redact replaces them too, so the page holds no secret."""
    out = tmp_path / "v101.html"
    sample = SAMPLES / "violations" / "V101-secret-in-session.spmd"
    assert run("report", str(sample), "-o", str(out)).exit_code == 0
    assert "AKIAIOSFODNN7EXAMPLE" in out.read_text()  # the docs' example, shown when not redacting
    assert run("report", "--redact", str(sample), "-o", str(out)).exit_code == 0
    html = out.read_text()
    assert "AKIAIOSFODNN7EXAMPLE" not in html and 'id="rule-V101"' in html


def test_page_names_do_not_depend_on_how_the_paths_were_typed(tmp_path, monkeypatch):
    (tmp_path / "sessions").mkdir()
    (tmp_path / "sessions" / "a.spmd").write_text((SAMPLES / "clean-session.spmd").read_text())
    monkeypatch.chdir(tmp_path)
    for given, out in ((str(tmp_path / "sessions"), "abs"), ("sessions", "rel"), ("./sessions/../sessions", "dots")):
        assert run("report", given, "-o", out).exit_code == 0
        assert sorted(p.name for p in (tmp_path / out).iterdir()) == ["a.spmd.html", "index.html"]


def test_a_secret_in_a_file_name_is_redacted_in_page_names_titles_and_the_index(tmp_path):
    token = "ghp_" + "Z8x1Kq7Lm2Nb4Vc6Xd9Fs3Ga5Hj0Pw1Qe2Rt"
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / f"{token}.spmd").write_text((SAMPLES / "clean-session.spmd").read_text())
    assert run("report", "--redact", str(tmp_path / "in"), "-o", str(tmp_path / "out")).exit_code == 0
    pages = sorted((tmp_path / "out").iterdir())
    assert [p.name for p in pages] == ["_redacted_github-token_.spmd.html", "index.html"]
    assert not any(token in p.read_text() for p in pages)


@pytest.mark.parametrize("name", ["out.txt", "pages.v2"])
def test_an_output_name_with_another_suffix_is_a_directory(tmp_path, name):
    """README: -o names one page when it ends in .html/.htm (or is -, a device ...); "otherwise it
    is a folder, created if missing". `-o pages.v2` and `-o out.txt` were a usage error (exit 2)."""
    r = run("report", str(SAMPLES / "clean-session.spmd"), "-o", str(tmp_path / name))
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in (tmp_path / name).iterdir()) == ["clean-session.spmd.html", "index.html"]
    (tmp_path / "file.txt").write_text("mine")  # an existing file that is no page name: still refused
    r = run("report", str(SAMPLES / "clean-session.spmd"), "-o", str(tmp_path / "file.txt"))
    assert r.exit_code == 2 and "exists and is not a directory" in r.output
    assert (tmp_path / "file.txt").read_text() == "mine"


def test_undecodable_bytes_and_escaped_lone_surrogates_become_replacement_characters(tmp_path):
    """A byte that is not UTF-8 (in the text or the file name) and a JSON "\\ud800" escape in tool
    arguments decode to lone surrogates: the page is still written, with U+FFFD for each."""
    text = (SAMPLES / "clean-session.spmd").read_text(encoding="utf-8")
    assert '{"cmd":"make test"}' in text
    data = text.replace('{"cmd":"make test"}', '{"cmd":"\\ud800"}').encode("utf-8").replace(b"flaky harbour", b"fl\xffaky harbour", 1)
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a\udcff.spmd").write_bytes(data)  # the file name holds byte 0xff
    assert run("report", str(tmp_path / "in"), "-o", str(tmp_path / "out")).exit_code == 0
    for page in (tmp_path / "out").iterdir():
        html = page.read_bytes().decode("utf-8")  # strict: well-formed UTF-8
        assert not any("\ud800" <= c <= "\udfff" for c in html)
    page = next(p for p in (tmp_path / "out").iterdir() if p.name != "index.html")
    assert page.read_text(encoding="utf-8").count("\ufffd") >= 2  # the 0xff byte and the \\ud800 escape


# -- in Chromium --------------------------------------------------------------------------------------

def test_clean_session_in_browser(browser, tmp_path):
    out = tmp_path / "clean.html"
    assert run("report", str(SAMPLES / "clean-session.spmd"), "-o", str(out)).exit_code == 0
    page, requests = open_page(browser, out, tmp_path, "clean.png")
    assert page.locator("article.turn").count() == 7
    counts = {k: page.locator(f"#count-{k}").inner_text()
              for k in ("turns", "tools", "tools-ok", "tools-error", "rag", "recall", "writes-proposed", "writes-ok",
                        "writes-skipped", "writes-aborted", "writes-error", "errors")}
    # (the agent-mode scene: 3 files proposed; docs/CHANGES.md ok, docs/announce.txt skipped (no
    # backup), README.md aborted: "writes 3" counted all three as writes)
    assert counts == {"turns": "7", "tools": "7", "tools-ok": "6", "tools-error": "1", "rag": "1", "recall": "2",
                      "writes-proposed": "3", "writes-ok": "1", "writes-skipped": "1", "writes-aborted": "1",
                      "writes-error": "0", "errors": "0"}
    failed = page.locator('[id="t1.tool2"]')
    assert failed.locator(".badge").inner_text() == "error"
    assert failed.locator(".error-text").inner_text() == "exit status 2"
    arguments, toggle = failed.locator("pre"), failed.locator("button.toggle")
    assert not arguments.is_visible() and toggle.get_attribute("aria-expanded") == "false"  # collapsed
    toggle.click()
    assert arguments.is_visible() and toggle.get_attribute("aria-expanded") == "true"
    assert arguments.inner_text() == '{\n  "cmd": "make test"\n}'
    toggle.click()
    assert not arguments.is_visible()
    assert page.locator("svg.timeline a.tl-row").count() == 13
    page.locator('svg.timeline a[data-scene="s8"]').click()  # the timeline scrolls to the scene
    page.wait_for_function("location.hash === '#s8'")
    assert page.evaluate("Math.abs(document.getElementById('s8').getBoundingClientRect().top) < 5")
    assert requests == [out.as_uri()]


def test_violation_diagnostic_sits_at_its_element(browser, tmp_path):
    out = tmp_path / "p102.html"
    sample = SAMPLES / "violations" / "P102-tools-between-forward-and-reply.spmd"
    assert run("report", str(sample), "-o", str(out)).exit_code == 0
    page, _ = open_page(browser, out, tmp_path, "p102.png")
    diag = page.locator('[id="t1.tool1"] li.diag')
    assert diag.count() == 1
    assert diag.get_attribute("data-code") == "P102" and diag.get_attribute("data-line") == "20"
    assert page.locator("#count-errors").inner_text() == "1"
    assert page.locator("#rule-P102").count() == 1  # the code links to the rule's docs on the page
    assert page.locator('svg.timeline a[data-scene="s1"] rect.marker-error').count() == 1
    assert page.locator(".counts li").last.inner_text() == "lint: 1 error, 0 warnings, 0 infos"


def test_hostile_session_executes_nothing(browser, tmp_path):
    f = tmp_path / "hostile.spmd"
    f.write_text(HOSTILE)
    out = tmp_path / "hostile.html"
    assert run("report", str(f), "-o", str(out)).exit_code == 0
    page, requests = open_page(browser, out, tmp_path, "hostile.png")
    page.wait_for_timeout(300)
    assert page.title() == f"{f} — fountain-audit report"
    assert page.evaluate("document.scripts.length") == 1  # ours only
    assert page.locator("img, iframe, [onerror]").count() == 0
    assert page.locator("a[href^='javascript']").count() == 0
    reply = page.locator('[id="t1.reply"] .md').inner_text()
    assert "<script>document.title='pwned'</script>" in reply
    assert "javascript:document.title='pwned-link'" in reply
    assert "and <http://127.0.0.1:9/auto>." in reply  # an autolink stays the text it was
    assert "<script>document.title='pwned-err'</script>" in page.locator('[id="t1.tool1"] .error-text').inner_text()
    assert "Hostile <b>Session</b>" in page.locator("h1").inner_text()
    assert requests == [out.as_uri()]


def test_index_page_sorts(browser, tmp_path):
    out = tmp_path / "site"
    assert run("report", str(SAMPLES), "-o", str(out)).exit_code == 0
    page, _ = open_page(browser, out / "index.html", tmp_path, "index.png")
    rows = page.locator("#sessions tbody tr")
    n = rows.count()
    assert n == len(list(SAMPLES.rglob("*.spmd"))) - 2  # (the binary and the empty sample are skipped: no session)
    page.locator("#sessions th").nth(9).click()
    page.locator("#sessions th").nth(9).click()  # descending
    first = [int(rows.nth(i).locator("td").nth(9).inner_text()) for i in range(n)]
    assert first == sorted(first, reverse=True) and first[0] >= 1
    href = rows.nth(0).locator("a").get_attribute("href")
    assert (out / href).is_file()


def test_index_table_fits_a_1280_pixel_window_and_never_widens_the_page(browser, tmp_path):
    """The index's twelve columns fit a 1280-pixel window (a path breaks anywhere, a date range at
    its dash); in a narrower one the table scrolls inside its box and the page itself does not."""
    out = tmp_path / "site"
    assert run("report", str(SAMPLES), "-o", str(out)).exit_code == 0
    sizes = "[document.documentElement.scrollWidth, document.documentElement.clientWidth, " \
            "document.querySelector('.wide').scrollWidth, document.querySelector('.wide').clientWidth]"
    for width, table_fits in ((1280, True), (800, False)):
        page = browser.new_page(viewport={"width": width, "height": 900})
        page.goto((out / "index.html").as_uri())
        page_w, window_w, table_w, box_w = page.evaluate(sizes)
        assert page_w == window_w == width
        assert (table_w <= box_w) is table_fits, (width, table_w, box_w)
        page.close()


def big_session(size: int = 5_000_000) -> str:
    """A recorder-shaped session of about ``size`` bytes: the clean sample's scenes repeated."""
    unit = (SAMPLES / "clean-session.spmd").read_text()
    head, _, body = unit.partition("FADE IN:")
    body = body.rsplit("THE END.", 1)[0]
    return head + "FADE IN:" + body * (size // len(body) + 1) + "THE END.\n"


def test_large_session_renders_and_opens(browser, tmp_path):
    """A 5 MB session gives a page that opens with every turn card (times: benchmarks/report.py)."""
    f = tmp_path / "big.spmd"
    text = big_session()
    f.write_text(text)
    out = tmp_path / "big.html"
    assert run("report", str(f), "-o", str(out)).exit_code == 0
    page = browser.new_page()
    page.goto(out.as_uri(), wait_until="load", timeout=300_000)
    assert page.evaluate("document.querySelectorAll('article.turn').length") == int(
        page.locator("#count-turns").inner_text()) > 1000
    # the dense timeline: one path per scene kind and marker, no element per scene
    scenes = page.evaluate("document.querySelectorAll('section.scene').length")
    svg = page.locator("svg.timeline.dense")
    assert svg.get_attribute("data-rows") == str(scenes) > "1000"
    assert svg.locator("a").count() == 0
    assert sorted(svg.locator("path").evaluate_all("ps => ps.map(p => p.getAttribute('class'))")) == sorted(
        ["k-context-recall", "k-chat", "k-chunk-analysis", "k-shell", "k-ext-chat", "k-agent-mode", "k-skill",
         "k-pipeline", "marker-tool"])
    failed = svg.locator("path.marker-tool").get_attribute("d")
    assert failed.count("M") == int(page.locator("#count-tools-error").inner_text())  # a circle per failed call
    # pointing at row 15 names scene s15 (the clean sample's s2, second copy); a click goes there
    y = page.evaluate("(() => { const s = document.querySelector('svg.timeline.dense'); "
                      "return (12 + 14 * 4 + 1) * s.getBoundingClientRect().height / s.viewBox.baseVal.height; })()")
    svg.hover(position={"x": 600, "y": y})
    assert page.locator(".tl-caption").inner_text().startswith("s15 INT. HARVEY AND MARGOT TALKING")
    svg.click(position={"x": 600, "y": y})
    page.wait_for_function("location.hash === '#s15'")
    assert page.evaluate("Math.abs(document.getElementById('s15').getBoundingClientRect().top) < 5")


def test_evidence_basis_per_turn_comes_from_provenance(browser, tmp_path):
    out = tmp_path / "site"
    samples = [SAMPLES / "clean-session.spmd", SAMPLES / "violations" / "L101-legacy-prose-tool-call.spmd",
               SAMPLES / "violations" / "P104-recall-outside-recall-scene.spmd"]
    assert run("report", *map(str, samples), "-o", str(out)).exit_code == 0
    bases = {}
    pages = sorted(p for p in out.glob("*.html") if p.name != "index.html")
    assert [p.name for p in pages] == ["clean-session.spmd.html",  # named below the inputs' common folder
                                       "violations__L101-legacy-prose-tool-call.spmd.html",
                                       "violations__P104-recall-outside-recall-scene.spmd.html"]
    for html in pages:
        page, _ = open_page(browser, html, tmp_path, html.stem + ".png")
        bases[html.stem.split("__")[-1]] = page.evaluate(
            "Array.from(document.querySelectorAll('article.turn')).map("
            "a => a.id + '=' + a.querySelector('.evidence').dataset.basis)")
    assert bases == {
        "clean-session.spmd": ["t1=recorded", "t2=recorded", "t3=recorded", "t4=recorded", "t5=unknown",
                               "t6=unknown", "t7=unknown"],
        "L101-legacy-prose-tool-call.spmd": ["t1=unknown"],
        "P104-recall-outside-recall-scene.spmd": ["t1=none-recorded"],
    }
    page, _ = open_page(browser, out / "clean-session.spmd.html", tmp_path, "rag.png")
    rag = page.locator('[id="t1.rag1"]')
    assert rag.locator('[id="t1.rag-source2"]').inner_text().startswith(
        "t1.rag-source2 source papers/tide-models.pdf — Harmonic Tide Prediction (doi 10.5555/tide.2031)")
    assert "remote route (EXT.)" in page.locator('[id="t5"] .evidence .who').text_content()  # off screen: not laid out


def test_report_usage_errors(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    r = CliRunner().invoke(main, ["report", str(SAMPLES / "clean-session.spmd"), "-o",
                                  str(tmp_path / "file" / "no" / "x.html")])
    assert (r.exit_code, r.stderr) == (2, f"fountain-audit: error: {tmp_path / 'file' / 'no'}: cannot create "
                                          "directory: Not a directory\n")
    r = CliRunner().invoke(main, ["report", str(SAMPLES / "clean-session.spmd"),
                                  str(SAMPLES / "violations" / "P102-tools-between-forward-and-reply.spmd"),
                                  "-o", str(tmp_path / "two.html")])
    assert r.exit_code == 2 and "one page takes one file, and the paths hold 2 session files (.spmd, .fountain); give -o a directory (e.g. -o pages/) for a page per session and an index" in r.output
    assert not (tmp_path / "two.html").exists()


def test_empty_and_binary_files_found_in_a_folder_are_skipped_as_export_skips_them(tmp_path):
    """New-user trial: a PNG named x.spmd in a folder got a page (exit 0) where export skipped it."""
    (tmp_path / "mix").mkdir()
    (tmp_path / "mix" / "a.spmd").write_text((SAMPLES / "clean-session.spmd").read_text(encoding="utf-8"),
                                             encoding="utf-8")
    (tmp_path / "mix" / "x.spmd").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (tmp_path / "mix" / "e.spmd").write_bytes(b"")
    (tmp_path / "mix" / "w.spmd").write_bytes(b" \n\n")
    r = run("report", str(tmp_path / "mix"), "-o", str(tmp_path / "out"))
    assert r.exit_code == 0
    assert r.stderr.splitlines() == [
        f"fountain-audit: warning: {tmp_path / 'mix' / 'e.spmd'}: empty, not a session: skipped",
        f"fountain-audit: warning: {tmp_path / 'mix' / 'w.spmd'}: blank (only white space), not a session: skipped",
        f"fountain-audit: warning: {tmp_path / 'mix' / 'x.spmd'}: a PNG image, not a session: skipped",
        f"fountain-audit: wrote 1 page and index.html to {tmp_path / 'out'}"]
    assert sorted(os.listdir(tmp_path / "out")) == ["a.spmd.html", "index.html"]
    (tmp_path / "mix" / "a.spmd").unlink()
    r = run("report", str(tmp_path / "mix"), "-o", str(tmp_path / "out2"))
    assert r.exit_code == 2 and r.stderr.endswith(
        f"fountain-audit: error: no session to report in {tmp_path / 'mix'}: 3 files found, none a Harvey session "
        "(see the warnings above)\n")


def test_binary_and_plain_files_say_what_they_are(tmp_path):
    out = tmp_path / "bin.html"
    assert run("report", str(SAMPLES / "violations" / "E104-binary-file.spmd"), "-o", str(out)).exit_code == 0
    assert "a PNG image, not a session transcript" in out.read_text()  # as dump and export say it
    assert run("report", str(SAMPLES / "violations" / "E105-empty-file.spmd"), "-o", str(out)).exit_code == 0
    assert 'E105-empty-file.spmd</code> · empty</p>' in out.read_text()  # not "a plain screenplay"


def test_a_scene_that_goes_back_in_time_is_a_tick_not_a_bar():
    """S107: the second scene's heading (10:05) is earlier than the first's (11:00); its duration is
    unknown, so its row is a tick (width 0) at its time, not a bar over the scenes it went back over
    (it was drawn from 10:05 to 12:00, across s1's time)."""
    from fountain_audit.model.session import build_session
    from fountain_audit.parse.fountain import parse
    from fountain_audit.report.collect import collect

    heads = ["11:00:00", "10:05:00", "12:00:00"]
    text = "".join(f"INT. HARVEY AND ALICE TALKING 2026-06-24 {h}\n\nALICE\nHi.\n\nHARVEY\nForwarding to LLAMA.\n\n"
                   "LLAMA\nHello.\n\n" for h in heads)
    page = collect(build_session(parse(text)), "s.spmd", text, [])
    assert [(r["id"], round(r["x"], 4), round(r["width"], 4)) for r in page.timeline] == [
        ("s1", 0.4783, 0.0), ("s2", 0.0, 0.0), ("s3", 1.0, 0.0)]  # s1: the next heading is earlier


CONTROLS_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _controls_session(tmp_path):
    text = (SAMPLES / "clean-session.spmd").read_text(encoding="utf-8")
    text = text.replace("What did we agree at the July retro",
                        "What did \x1b]8;;http://evil\x07we\x1b]8;;\x07 agree\x07 at \u202eorter\x1b[2J the July retro", 1)
    text = text.replace("Forwarding to QWEN2.5-CODER.", "Forwarding to QWEN2.5-CODER.\x9b31m\u200f", 1)
    f = tmp_path / "ctl\x1b[31m\u202e.spmd"
    f.write_text(text, encoding="utf-8")
    return f


def test_control_and_bidi_characters_are_visible_escapes_in_the_page(tmp_path):
    f = _controls_session(tmp_path)
    out = tmp_path / "ctl.html"
    r = run("report", str(f), "-o", str(out))
    assert r.exit_code == 0, r.output
    html = out.read_text(encoding="utf-8")
    assert CONTROLS_RE.findall(html) == []
    assert f"<title>{tmp_path}/ctl\\x1b[31m\\u202e.spmd — fountain-audit report</title>" in html
    assert ("What did \\x1b]8;;http://evil\\x07we\\x1b]8;;\\x07 agree\\x07 at \\u202eorter\\x1b[2J the July retro"
            in html)
    assert "Forwarding to QWEN2.5-CODER.\\x9b31m\\u200f" in html


def test_control_characters_in_the_browser(browser, tmp_path):
    f = _controls_session(tmp_path)
    out = tmp_path / "ctl.html"
    assert run("report", str(f), "-o", str(out)).exit_code == 0
    page, requests = open_page(browser, out, tmp_path, "ctl.png")
    assert page.title() == f"{tmp_path}/ctl\\x1b[31m\\u202e.spmd — fountain-audit report"
    assert "agree\\x07 at \\u202eorter\\x1b[2J the July" in page.locator("body").inner_text()
    assert requests == [out.as_uri()]


def test_output_dash_is_the_one_page_on_standard_output(tmp_path, monkeypatch):
    """`-o -` made a directory named '-' with a page and an index in it."""
    monkeypatch.chdir(tmp_path)
    clean = str(SAMPLES / "clean-session.spmd")
    run("report", clean, "-o", "page.html")
    r = CliRunner().invoke(main, ["report", clean, "-o", "-"])
    assert (r.exit_code, r.stderr) == (0, "")
    assert r.stdout == (tmp_path / "page.html").read_text(encoding="utf-8")
    (tmp_path / "page.html").unlink()
    two = CliRunner().invoke(main, ["report", clean, str(SAMPLES / "violations" / "A101-unused-suppression.spmd"), "-o", "-"])
    assert two.exit_code == 2 and two.stdout == ""
    assert "Error: -o -: one page takes one file, and the paths hold 2 session files" in two.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_screenplay_names_no_harness_it_does_not_mention(tmp_path):
    """A plain screenplay's page said "Harness HARVEY" (HARVEY was added to any file with scenes):
    the recorder is named only for a Harvey file."""
    play = tmp_path / "play.fountain"
    play.write_text("INT. KITCHEN - DAY\n\nMAYA\nCoffee?\n\nEXT. GARDEN - NIGHT\n\nThe wind.\n", encoding="utf-8")
    out = tmp_path / "play.html"
    assert run("report", str(play), "-o", str(out)).exit_code == 0
    assert "<dt>Harness</dt><dd>none</dd>" in out.read_text()
    session = SAMPLES / "clean-session.spmd"
    assert run("report", str(session), "-o", str(out)).exit_code == 0
    assert "<dt>Harness</dt><dd>HARVEY</dd>" in out.read_text()


def test_the_scenes_model_is_listed_when_harvey_answers_under_its_own_cue(tmp_path):
    """The spec's Example 1 (`Model: llama3:latest`, HARVEY answers directly) said "Models none
    recorded": only a model's own cue was listed. A turn no model's cue answered lists the model
    the turn records (as the export names it)."""
    out = tmp_path / "basic.html"
    f = SHARED / "corpus" / "harvey" / "spec" / "ff-v1.3-example1-basic.fountain"
    if not f.exists():
        pytest.skip("reference data not present")
    assert run("report", str(f), "-o", str(out)).exit_code == 0
    assert '<dt>Models</dt><dd class="models">llama3:latest</dd>' in out.read_text()
    # the pipeline steps of the clean sample are answered under HARVEY's cue; their Model: names
    # devstral:24b, the model DEVSTRAL's stats line names (one model, with its id and its cue);
    # LIGHTHOUSE is a route's endpoint, not a model (was "QWEN2.5-CODER, DEVSTRAL, LIGHTHOUSE,
    # devstral:24b")
    assert run("report", str(SAMPLES / "clean-session.spmd"), "-o", str(out)).exit_code == 0
    assert ('<dt>Models</dt><dd class="models">qwen2.5-coder:7b (cue QWEN2.5-CODER); devstral:24b (cue DEVSTRAL)'
            '</dd><dt>Endpoints</dt><dd class="endpoints">LIGHTHOUSE (remote route; model not recorded)</dd>'
            in out.read_text())


def test_the_harness_is_named_only_when_the_file_records_it(tmp_path):
    """The spec's Scenario 4 (EXT. CLAUDE AND RSDOIEL, no HARVEY anywhere) said "Harness
    HARVEY": HARVEY was added to every Harvey file with scenes."""
    spec = SHARED / "corpus" / "harvey" / "spec"
    if not spec.exists():
        pytest.skip("reference data not present")
    out = tmp_path / "page.html"

    def harness(path) -> str:
        assert run("report", str(path), "-o", str(out)).exit_code == 0
        return re.search(r"<dt>Harness</dt><dd>([^<]*)</dd>", out.read_text()).group(1)

    assert harness(spec / "ff-v1.3-scenario4-ext-direct.fragment.fountain") == "none"
    assert harness(spec / "ff-v1.3-context-recall-reference.fragment.fountain") == "HARVEY"  # the recorder's scene
    assert harness(spec / "ff-v1.3-example1-basic.fountain") == "HARVEY"  # a HARVEY cue


def test_a_hand_off_headings_time_is_the_pages_date(tmp_path):
    """A hand-off (`INT. HAND-OFF - 2026-07-01T16:04:05Z`) said "Dates not recorded"."""
    f = SHARED / "corpus" / "harvey" / "other" / "handoff-reconstructed.spmd"
    if not f.exists():
        pytest.skip("reference data not present")
    out = tmp_path / "h.html"
    assert run("report", str(f), "-o", str(out)).exit_code == 0
    assert '<dt>Dates</dt><dd class="dates">2026-07-01T16:04:05Z – 2026-07-01T16:04:05Z</dd>' in out.read_text()
    # with local heading times beside it: no common clock, so only the local ones are placed
    mixed = tmp_path / "m.spmd"
    mixed.write_text("Title: t\nAuthor: A\n\nFADE IN:\n\nINT. SHELL 2026-07-01 10:00:00\n\nA\n! ls\n\n"
                     "[[shell: ls — exit 0]]\n\nINT. HAND-OFF - 2026-07-01T16:04:05Z\n\nHARVEY\nBye.\n\n"
                     "INT. SHELL 2026-07-01 10:05:00\n\nA\n! pwd\n\n[[shell: pwd — exit 0]]\n\nTHE END.\n",
                     encoding="utf-8")
    assert run("report", str(mixed), "-o", str(out)).exit_code == 0
    assert '<dt>Dates</dt><dd class="dates">2026-07-01 10:00:00 – 2026-07-01 10:05:00</dd>' in out.read_text()


def test_symlinks_planted_in_the_output_folder_are_replaced_not_written_through(tmp_path):
    # (pages/index.html -> ../victim.txt: the victim got the index page; adversarial trial)
    (tmp_path / "sessions").mkdir()
    shutil.copy(SAMPLES / "clean-session.spmd", tmp_path / "sessions")
    pages = tmp_path / "pages"
    pages.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("victim content\n")
    (pages / "index.html").symlink_to("../victim.txt")
    (pages / "clean-session.spmd.html").symlink_to("../victim2.txt")  # dangling: would create it
    r = run("report", str(tmp_path / "sessions"), "-o", str(pages))
    assert r.exit_code == 0
    assert victim.read_text() == "victim content\n" and not (tmp_path / "victim2.txt").exists()
    assert sorted(p.name for p in pages.iterdir()) == ["clean-session.spmd.html", "index.html"]
    assert not any(p.is_symlink() for p in pages.iterdir())
    assert "<html" in (pages / "index.html").read_text()


def test_one_page_to_a_device_or_standard_output_and_an_existing_file_is_a_usage_error(tmp_path):
    # (-o /dev/null and -o /dev/stdout exited 2, "cannot create directory: File exists"; adversarial trial)
    import subprocess
    import sys
    sample = str(SAMPLES / "clean-session.spmd")
    cmd = [sys.executable, "-m", "fountain_audit", "report", sample, "-o"]
    r = subprocess.run(cmd + ["/dev/null"], capture_output=True, text=True)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "fountain-audit: wrote /dev/null\n")
    r = subprocess.run(cmd + ["/dev/stdout"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.startswith("<!DOCTYPE html>") and r.stdout.rstrip().endswith("</html>")
    (tmp_path / "notes").write_text("mine\n")
    r = subprocess.run(cmd + [str(tmp_path / "notes")], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.endswith(
        f"Error: -o {tmp_path / 'notes'}: exists and is not a directory; for one page give a name ending in .html "
        "(or a device such as /dev/stdout), for a page per session a directory\n")
    assert (tmp_path / "notes").read_text() == "mine\n"
    r = subprocess.run(cmd[:-1] + [str(SAMPLES), "-o", "/dev/null"], capture_output=True, text=True)
    assert r.returncode == 2 and "-o /dev/null: one page takes one file" in r.stderr


def test_standard_input_gets_a_page_named_stdin_or_after_stdin_filename(tmp_path, monkeypatch):
    """``cat s.spmd | report - -o dir/`` wrote a page named ``-.html``: it is ``stdin.html``, or
    named after --stdin-filename (as lint, dump and export take it), which also names the file
    on the page and in the lint diagnostics (per-file-ignores match it)."""
    monkeypatch.chdir(tmp_path)
    text = (SAMPLES / "violations" / "P102-tools-between-forward-and-reply.spmd").read_text(encoding="utf-8")
    r = CliRunner().invoke(main, ["report", "-", "-o", "pages/"], input=text)
    assert (r.exit_code, r.stderr) == (0, "fountain-audit: wrote 1 page and index.html to pages/\n")
    assert sorted(os.listdir("pages")) == ["index.html", "stdin.html"]
    index = Path("pages/index.html").read_text(encoding="utf-8")
    assert 'href="stdin.html"' in index
    # the page's title and the index's link name it as its file does, not '-'
    assert "<title>stdin — fountain-audit report</title>" in Path("pages/stdin.html").read_text(encoding="utf-8")
    assert re.search(r'href="stdin.html"[^>]*>stdin</a>', index), index
    assert ">-</a>" not in index
    Path("fountain-audit.toml").write_text('[per-file-ignores]\n"archive/*.spmd" = ["P102"]\n', encoding="utf-8")
    for name, page, p102 in (("./sessions/a.spmd", "sessions__a.spmd.html", True),
                             ("archive/b.spmd", "archive__b.spmd.html", False)):
        r = CliRunner().invoke(main, ["report", "-", "--stdin-filename", name, "-o", "named/"], input=text)
        assert r.exit_code == 0, r.output
        assert page in os.listdir("named") and "stdin.html" not in os.listdir("named")
        html = Path("named", page).read_text(encoding="utf-8")
        assert f"<title>{name} — fountain-audit report</title>" in html
        assert ('data-code="P102"' in html) is p102
    r = CliRunner().invoke(main, ["report", "-", "--stdin-filename", "s.spmd", "-o", "one.html"], input=text)
    assert r.exit_code == 0 and "<title>s.spmd — fountain-audit report</title>" in Path("one.html").read_text("utf-8")
    r = CliRunner().invoke(main, ["report", str(SAMPLES / "clean-session.spmd"), "--stdin-filename", "s.spmd",
                                  "-o", "clean.html"])
    assert (r.exit_code, r.stderr.splitlines()[0]) == (0, "fountain-audit: warning: --stdin-filename only applies when "
                                                          "one of the paths is '-' (standard input); it is not used")


def test_a_page_output_in_missing_folders_creates_them(tmp_path):
    """``-o missing/dir/session.html`` failed ("cannot write ...: No such file or directory") while
    ``-o missing/dir/`` was created: the page's folders are created too (as ruff's
    --output-file), and the page is written atomically (no temporary file left)."""
    out = tmp_path / "some" / "missing" / "dir" / "session.html"
    r = CliRunner().invoke(main, ["report", str(SAMPLES / "clean-session.spmd"), "-o", str(out)])
    assert (r.exit_code, r.stderr) == (0, f"fountain-audit: wrote {out}\n")
    assert os.listdir(out.parent) == ["session.html"]
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    # nothing is created when there is nothing to write
    r = CliRunner().invoke(main, ["report", str(tmp_path / "nope.spmd"), "-o", str(tmp_path / "other" / "s.html")])
    assert r.exit_code == 2 and not (tmp_path / "other").exists()


def test_pages_end_with_a_newline(tmp_path):
    """A page (and the index) ended in `</html>` with no newline: the next output followed it on
    the same line."""
    r = run("report", str(SAMPLES / "clean-session.spmd"), "-o", "-")
    assert r.exit_code == 0 and r.stdout.endswith("</html>\n") and not r.stdout.endswith("\n\n")
    assert run("report", str(SAMPLES / "clean-session.spmd"), "-o", str(tmp_path / "p")).exit_code == 0
    for name in ("clean-session.spmd.html", "index.html"):
        assert (tmp_path / "p" / name).read_bytes().endswith(b"</html>\n")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_write_errors_name_the_file_first_as_lint_does():
    """report said `cannot write /dev/full: ...`, export `cannot write X: ...`, lint `/dev/full: cannot write: ...`."""
    clean = str(SAMPLES / "clean-session.spmd")
    expected = "fountain-audit: error: /dev/full: cannot write: No space left on device\n"
    for args in (("lint", clean, "-o", "/dev/full"), ("report", clean, "-o", "/dev/full"),
                 ("export", "--to", "toolpath", clean, "-o", "/dev/full")):
        r = CliRunner().invoke(main, list(args))
        assert (r.exit_code, r.stderr) == (2, expected), args


def test_the_unreadable_note_basis_badge_has_a_colour_of_its_own(tmp_path):
    # (the page styled basis-recorded, -none-recorded and -unknown, not -unreadable-note: its
    # badge took the muted grey of unknown)
    import re

    from click.testing import CliRunner

    from fountain_audit.cli import main
    from tests.conftest import SAMPLES
    base = (SAMPLES / "clean-session.spmd").read_text(encoding="utf-8")
    old = '[[DEVSTRAL.tool: read_file({"path":"tides/predict.py"}) — ok]]\n\n[[DEVSTRAL.tool: list_files() — ok]]\n\n'
    (tmp_path / "s.spmd").write_text(base.replace(old, '[[tol: read_file({"path":"a"}) — ok]]\n\n'), encoding="utf-8")
    r = CliRunner().invoke(main, ["report", str(tmp_path / "s.spmd"), "-o", str(tmp_path / "s.html")])
    assert r.exit_code == 0, r.output
    page = (tmp_path / "s.html").read_text(encoding="utf-8")
    assert '<span class="basis badge basis-unreadable-note">unreadable-note</span>' in page
    rules = dict(re.findall(r"\.badge\.basis-([a-z-]+) \{ background: ([^;]+); \}", page))
    assert rules == {"recorded": "var(--ok)", "none-recorded": "var(--warning)", "unknown": "var(--muted)",
                     "unreadable-note": "#6a1b9a"}


def test_a_plain_screenplay_in_a_folder_is_skipped_as_export_skips_it(tmp_path):
    """report of ../shared/corpus/harvey wrote pages for its 7 profile-template screenplays, which
    export and dump skip as not sessions (new-user trial): said and skipped; named, it has its page."""
    play = "Title: Tiny\nAuthor: Jo\n\nINT. KITCHEN\n\nANN\nMore?\n"
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "play.fountain").write_text(play, encoding="utf-8")
    out = tmp_path / "pages"
    r = CliRunner().invoke(main, ["report", str(tmp_path / "in"), "-o", str(out)])
    warning = (f"fountain-audit: warning: {tmp_path / 'in' / 'play.fountain'}: a plain screenplay (no Harvey scene or "
               "note), not a session: skipped\n")
    assert (r.exit_code, r.stderr) == (2, warning + f"fountain-audit: error: no session to report in {tmp_path / 'in'}: "
                                       "1 file found, none a Harvey session (see the warnings above)\n")
    assert not out.exists() or os.listdir(out) == []  # (the folder is made before the files are read)
    shutil.copy(SAMPLES / "clean-session.spmd", tmp_path / "in")
    r = CliRunner().invoke(main, ["report", str(tmp_path / "in"), "-o", str(out)])
    assert (r.exit_code, sorted(os.listdir(out))) == (0, ["clean-session.spmd.html", "index.html"])
    assert r.stderr.startswith(warning)
    r = CliRunner().invoke(main, ["report", str(tmp_path / "in" / "play.fountain"), "-o", str(tmp_path / "p.html")])
    assert r.exit_code == 0 and (tmp_path / "p.html").exists()

def test_a_recorded_turn_with_an_unreadable_note_is_marked_incomplete(tmp_path):
    # (new-user trial: 'recorded' for a turn that also holds '[[tol: read_file(…)]]': the page showed
    # the green badge alone, the evidence list incomplete without a word)
    out = tmp_path / "n112.html"
    r = CliRunner().invoke(main, ["report", str(SAMPLES / "violations" / "N112-misspelt-note-kind.spmd"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    assert '<span class="basis badge basis-recorded">recorded</span>' in page
    assert re.findall(r'<p class="incomplete">.*?</p>', page) == [
        '<p class="incomplete"><b>incomplete</b>: 1 note in this turn could not be read: <a href="#t1.unknown1">'
        '<code>t1.unknown1</code></a> <span class="ids">L25</span> (lint <code>N112</code> misspelt-note-kind)</p>']
    assert 'id="t1.unknown1"' in page  # (the link's target: the note, shown with the turn's other notes)
    # an unclosed note has no id of its own: its line alone, no link
    out = tmp_path / "f101.html"
    r = CliRunner().invoke(main, ["report", str(SAMPLES / "violations" / "F101-unclosed-note.spmd"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert re.findall(r'<p class="incomplete">.*?</p>', out.read_text(encoding="utf-8")) == [
        '<p class="incomplete"><b>incomplete</b>: 1 note in this turn could not be read: <span class="ids">L17</span> '
        '(lint <code>F101</code> unclosed-note)</p>']
    # a session without such a note has no marker
    out = tmp_path / "clean.html"
    assert CliRunner().invoke(main, ["report", str(SAMPLES / "clean-session.spmd"), "-o", str(out)]).exit_code == 0
    assert 'class="incomplete"' not in out.read_text(encoding="utf-8").replace(".evidence .incomplete", "")


def test_an_empty_rag_source_says_no_source_written(tmp_path):
    """``[[rag-source: ]]`` (N109): the page says no source was written, not an empty ``<code>``."""
    text = (SAMPLES / "clean-session.spmd").read_text()
    first = re.search(r"^\[\[rag-source: [^\n]*\]\]$", text, re.M)
    assert first  # the sample cites its sources
    (tmp_path / "s.spmd").write_text(text[:first.start()] + "[[rag-source: ]]" + text[first.end():])
    assert run("report", str(tmp_path / "s.spmd"), "-o", str(tmp_path / "s.html")).exit_code == 0
    html = (tmp_path / "s.html").read_text()
    assert html.count('source <span class="muted">(no source written)</span>') == 1
    assert "<code></code>" not in html


@pytest.mark.parametrize("written, pre", [
    (r"ghp\_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5", 0),  # a Markdown backslash escape: found as written
    ("ghp&#95;aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5", 1),  # a character reference
    ("ghp_aB3dE5fG7hI9jK1l&#x4d;3nO5pQ7rS9tU1vW3xY5", 1),  # a hexadecimal one inside it
    ("gh*p_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5*", 1),  # emphasis splitting it across tags
])
def test_redact_catches_a_secret_the_markdown_rendering_puts_back_together(tmp_path, written, pre):
    """The reply is redacted as written, where the last three spellings are no token; rendered,
    the page showed the working token (adversarial trial). With --redact the shown text is
    checked: such a reply is shown as its visible text, redacted, in a <pre>. A Markdown backslash
    escape (``ghp\\_…``) is read by the secret detectors themselves (V101 reports it), so that reply
    is redacted as written and keeps its formatting."""
    from fountain_audit.report.markdown import redacted_view, render_markdown, visible_text

    text = (SAMPLES / "clean-session.spmd").read_text()
    line = next(x for x in text.splitlines() if x.startswith("The test suite does *not* pass yet"))
    (tmp_path / "s.spmd").write_text(text.replace(line, "Here: " + written))
    r = run("report", "--redact", str(tmp_path / "s.spmd"), "-o", str(tmp_path / "r.html"))
    assert r.exit_code == 0, r.output
    html = (tmp_path / "r.html").read_text()
    assert "aB3dE5fG7hI9jK1" not in html
    assert html.count('<pre class="md-redacted">') == pre and "Here: &lt;redacted:github-token&gt;" in html
    assert "ghp_aB3dE5fG7hI9jK1" in visible_text(render_markdown("Here: " + written))  # (what the page showed)
    # a redacted reply whose rendering shows nothing to hide keeps its formatting
    from fountain_audit.privacy.redact import Redactor
    assert redacted_view("a *b* c\n", Redactor()) is None and render_markdown("a *b* c\n") == "<p>a <em>b</em> c</p>\n"


@pytest.mark.parametrize("written, shown", [
    ("/home/&#109;argot/notes", "<home>/notes"), ("/Users/&#x61;lice/x", "<home>/x"), ("/&#104;ome/bob/x", "<home>/x"),
    ("/home/m&#97;rgot/src/tidewater/a.go", "<workspace>/a.go"),
])
def test_redact_catches_a_home_path_the_markdown_rendering_puts_back_together(tmp_path, written, shown):
    """`/home/m&#97;rgot` is `/home/m` and more, as written; rendered, the page showed
    `<home>argot/…` or the whole name (adversarial trial). Such a reply is shown as the text its
    rendering shows, redacted, in a <pre>: no part of the user's name."""
    text = (SAMPLES / "clean-session.spmd").read_text()
    line = next(x for x in text.splitlines() if x.startswith("The test suite does *not* pass yet"))
    (tmp_path / "s.spmd").write_text(text.replace(line, "See " + written + " *now*"))
    r = run("report", "--redact", str(tmp_path / "s.spmd"), "-o", str(tmp_path / "r.html"))
    assert r.exit_code == 0, r.output
    html = (tmp_path / "r.html").read_text()
    assert html.count('<pre class="md-redacted">') == 1 and f"See {escape(shown)} now" in html
    assert not re.search(r"argot|alice|bob|_got", html.split('<pre class="md-redacted">', 1)[1].split("</pre>")[0])


def test_redact_reads_a_markdown_escape_in_a_home_path_itself(tmp_path):
    """`/home/mar\\_got` renders as `/home/mar_got`: the redactor now reads Markdown escapes in a
    home path (stop 35), so the reply is redacted as written and keeps its formatting (it was
    shown in a <pre> as its rendering, redacted)."""
    text = (SAMPLES / "clean-session.spmd").read_text()
    line = next(x for x in text.splitlines() if x.startswith("The test suite does *not* pass yet"))
    (tmp_path / "s.spmd").write_text(text.replace(line, "See /home/mar\\_got/x *now*"))
    r = run("report", "--redact", str(tmp_path / "s.spmd"), "-o", str(tmp_path / "r.html"))
    assert r.exit_code == 0, r.output
    html = (tmp_path / "r.html").read_text()
    assert '<pre class="md-redacted">' not in html and "See &lt;home&gt;/x <em>now</em>" in html
    assert not re.search(r"mar\\?_got", html)


def test_notes_outside_every_scene_are_on_the_page_and_every_link_lands(tmp_path):
    """A [[model switch:]] after FADE IN:, before the first scene: the turn cards link to
    #s0.model-switch1 and the page had no such element, nor the model's name (new-user trial);
    a fragment of RAG notes before any scene counted "RAG retrievals 1" and showed none."""
    text = (SAMPLES / "clean-session.spmd").read_text()
    switched = text.replace("FADE IN:\n", "FADE IN:\n\n[[model switch: llama3:8b (ollama) at 2026-06-24 10:00:00]]\n", 1)
    (tmp_path / "s.spmd").write_text(switched)
    assert run("report", str(tmp_path / "s.spmd"), "-o", str(tmp_path / "s.html")).exit_code == 0
    html = (tmp_path / "s.html").read_text()
    assert ('<li id="s0.model-switch1"><span class="ids">s0.model-switch1</span> [[model switch: llama3:8b (ollama) at '
            '2026-06-24 10:00:00]] <span class="ids">L12</span></li>') in html
    ids = set(re.findall(r' id="([^"]+)"', html))
    assert {h for h in re.findall(r' href="#([^"]+)"', html)} - ids == set()
    # (the header's models name it: the chat scenes after it say QWEN2.5-CODER, no cue of llama3:8b)
    assert re.search(r'<dd class="models">[^<]*; llama3:8b</dd>', html)
    fragment = tmp_path / "f.fountain"
    fragment.write_text("[[rag: 3 chunks from sparqlset.db, top score 0.87]]\n[[rag-source: README.md]]\n")
    assert run("report", str(fragment), "-o", str(tmp_path / "f.html")).exit_code == 0
    html = (tmp_path / "f.html").read_text()
    assert '<li id="s0.rag1"><span class="ids">s0.rag1</span> [[rag: 3 chunks from sparqlset.db, top score 0.87]]' in html
    assert '<li id="s0.rag-source1"><span class="ids">s0.rag-source1</span> [[rag-source: README.md]]' in html


def test_humans_without_a_chat_turn_are_the_people_the_file_records(tmp_path):
    """A session with no chat turn (a shell scene only) listed its human as "unknown" although
    its title page names the Author who speaks there (new-user trial): the people the file
    records (Author:, a chat heading's human), as the exports name them."""
    session = tmp_path / "shell.spmd"
    session.write_text("Title: Harvey Session\nCredit: Recorded by Harvey\nAuthor: MARGOT\n\nFADE IN:\n\n"
                       "INT. SHELL 2026-08-03 14:20:31\n\nMARGOT\n! git log\n\nSHELL\nok\n\nTHE END.\n", encoding="utf-8")
    out = tmp_path / "page.html"
    r = run("report", str(session), "-o", str(out))
    assert r.exit_code == 0, r.output
    assert re.findall(r'<dd class="humans">([^<]*)', out.read_text(encoding="utf-8")) == ["MARGOT"]


def test_a_screenplays_author_is_shown_as_written():
    """`Author: John August` was shown as 'JOHN AUGUST' (new-user trial, stop 33)."""
    from fountain_audit.model.session import build_session
    from fountain_audit.parse.fountain import parse
    from fountain_audit.report.collect import collect
    text = "Title: Fish\nAuthor: John August\n\nFADE IN:\n\nINT. RIVER - DAY\n\nA fish swims.\n"
    page = collect(build_session(parse(text)), "f.fountain", text, [])
    assert page.participants["human"] == ["John August"]


def test_recall_ids_with_blanks_make_valid_html_ids_whose_links_land(browser, tmp_path):
    """A recall id is the session's own text: ``[[recall: weekly notes (preference) …]]`` made the
    element ``id="recall:weekly notes"``, which HTML does not allow (noted at stop 35). Each blank
    and ``%`` in an id is written ``%XX`` in the attribute and in the links to it, which a browser
    follows; ids without them are unchanged."""
    text = (SAMPLES / "clean-session.spmd").read_text().replace(
        "preference_52aa07 (preference)", "weekly notes\u3000100% (preference)")
    (tmp_path / "s.spmd").write_text(text, encoding="utf-8")
    out = tmp_path / "s.html"
    assert run("report", str(tmp_path / "s.spmd"), "-o", str(out)).exit_code == 0
    html = out.read_text(encoding="utf-8")
    ids = re.findall(r' id="([^"]+)"', html)
    assert [i for i in ids if any(c.isspace() for c in i)] == []
    assert ids.count("recall:weekly%20notes%E3%80%80100%25") == 1 and "recall:workspace_profile_8c41d2" in ids
    assert set(re.findall(r' href="#([^"]+)"', html)) - set(ids) == set()
    assert '<a href="#recall:weekly%20notes%E3%80%80100%25"><code>recall:weekly notes\u3000100%</code></a>' in html
    page, _ = open_page(browser, out, tmp_path, "recall-id.png")
    page.locator('a[href="#recall:weekly%20notes%E3%80%80100%25"]').first.click()
    page.wait_for_function("location.hash === '#recall:weekly%20notes%E3%80%80100%25'")
    target = page.locator(":target")
    assert target.count() == 1 and target.get_attribute("id") == "recall:weekly%20notes%E3%80%80100%25"
