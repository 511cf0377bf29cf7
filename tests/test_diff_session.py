"""What the session records besides its turns: the title page (``title-page-changed``) and the
description of a scene with turns (``scene-description-changed``)."""

from __future__ import annotations

import json

import pytest

from fountain_audit.diff import Options, diff_texts, render_unified
from fountain_audit.privacy.redact import redact_text

from .conftest import ROOT

CLEAN = (ROOT / "samples" / "clean-session.spmd").read_text(encoding="utf-8")


def edited(*pairs: tuple[str, str]) -> str:
    """CLEAN with the first occurrence of each ``old`` replaced by ``new``."""
    text = CLEAN
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


def title_changes(result):
    return [(c.category, c.message, c.before, c.after, c.a_pointer, c.b_pointer, c.details)
            for c in result.changes if c.kind == "title-page-changed"]


@pytest.mark.parametrize("old, new, key, category", [
    ("Title: Harvey Session", "Title: Other Session", "Title", "other"),
    ("Credit: Recorded by Harvey", "Credit: Recorded by Mallory", "Credit", "other"),
    ("Model: QWEN2.5-CODER (ollama)", "Model: GPT-4 (openai)", "Model", "model"),
    ("Backend: ollama", "Backend: openai", "Backend", "model"),
    ("Author: MARGOT", "Author: BOB", "Author", "other"),
])
def test_a_changed_title_page_entry_is_one_change(old, new, key, category):
    before, after = old.split(": ", 1)[1], new.split(": ", 1)[1]
    result = diff_texts(CLEAN, edited((old, new)), "a.spmd", "b.spmd")
    assert result.differences
    assert title_changes(result) == [(category, f"title page {key} changed: {before} → {after}", before, after,
                                      None, None, [{"field": key, "before": before, "after": after}])]
    if key != "Author":  # (the author is also who speaks: the turns change too)
        assert [c.kind for c in result.changes] == ["title-page-changed"]
        assert result.patch == []  # the title page is not in the dump --turns document
        assert render_unified(result).splitlines()[2:4] == [
            "@@ title page @@", f"~ title page {key} changed: {before} → {after}"]


def test_title_page_entries_added_and_removed():
    result = diff_texts(CLEAN, edited(("Backend: ollama\n", "Contact: ops@example.org\n")), "a", "b")
    assert title_changes(result) == [
        ("model", "title page Backend removed: ollama", "ollama", None, None, None,
         [{"field": "Backend", "before": "ollama", "after": None}]),
        ("other", "title page Contact added: ops@example.org", None, "ops@example.org", None, None,
         [{"field": "Contact", "after": "ops@example.org", "before": None}])]
    assert [c.kind for c in result.filtered(["model"]).changes] == ["title-page-changed"]
    assert [c.message for c in result.filtered(["other"]).changes] == ["title page Contact added: ops@example.org"]
    assert result.filtered(["tools"]).changes == []


def test_title_page_dates_are_timestamps():
    b = edited(("Date: 2026-08-03 14:20:00", "Date: 2020-01-01 00:00:00"), ("Draft date: 2026-08-03", "Draft date: 2020-01-01"))
    assert not diff_texts(CLEAN, b).differences
    result = diff_texts(CLEAN, b, options=Options(timestamps=True))
    assert [(c.message, c.before, c.after) for c in result.changes] == [
        ("title page Date changed: 2026-08-03 14:20:00 → 2020-01-01 00:00:00", "2026-08-03 14:20:00",
         "2020-01-01 00:00:00"),
        ("title page Draft date changed: 2026-08-03 → 2020-01-01", "2026-08-03", "2020-01-01")]
    # an entry added or removed is a change, timestamps compared or not
    gone = diff_texts(CLEAN, edited(("Draft date: 2026-08-03\n", "")))
    assert [(c.message, c.before, c.after) for c in gone.changes] == [
        ("title page Draft date removed: <timestamp>", "<timestamp>", None)]


def test_title_page_workspace_is_normalised():
    a = edited(("Backend: ollama", "Backend: ollama\nNotes: ran in /home/margot/src/tidewater"))
    # the same text with each side's own workspace path: no difference unless compared
    b = a.replace("/home/margot/src/tidewater", "/home/bob/work")
    assert a.count("/home/margot/src/tidewater") > 2 and not diff_texts(a, b).differences
    result = diff_texts(a, b, options=Options(workspace=True))
    assert [(c.message, c.before, c.after) for c in result.changes if c.kind == "title-page-changed"] == [
        ("title page Notes changed: ran in /home/margot/src/tidewater → ran in /home/bob/work",
         "ran in /home/margot/src/tidewater", "ran in /home/bob/work")]


def test_redacted_title_page_secret_is_not_shown():
    secret = "ghp_" + "1234567890abcdefghijklmnopqrstuvwxyzAB"
    b = edited(("Backend: ollama", f"Backend: ollama {secret}"))
    result = diff_texts(redact_text(CLEAN), redact_text(b))
    [change] = result.changes
    assert change.kind == "title-page-changed" and secret not in json.dumps(change.to_json())
    assert (change.before, change.after) == ("ollama", "ollama <redacted:github-token>")


def test_a_changed_pipeline_description_is_reported():
    old = "MARGOT executes /pipeline 70% lint.md fix.md verify.md."
    result = diff_texts(CLEAN, edited((old, old.replace("70%", "10%"))), "a.spmd", "b.spmd")
    [c] = result.changes
    assert (c.kind, c.category, c.message, c.a_scene, c.b_scene, c.a_pointer, c.b_pointer) == (
        "scene-description-changed", "scenes",
        "scene description changed: INT. PIPELINE LINT.MD STEP 1/3 2026-08-03 14:29:00", 10, 10,
        None, None)  # (not in the dump --turns document: no pointer, like title-page-changed)
    rest = "\nModel: <model>. Workspace: <workspace>."  # (the model: compared per turn)
    assert (c.before, c.after) == (old + rest, old.replace("70%", "10%") + rest)
    assert c.details == [{"field": "text", "before": c.before, "after": c.after,
                          "diff": ["@@ -1,2 +1,2 @@", "-" + old, "+" + old.replace("70%", "10%"),
                                   " Model: <model>. Workspace: <workspace>."]}]
    assert result.summary()["scene_changes"] == 1 and result.patch == []
    steps = diff_texts(CLEAN, edited((old, old.replace(" verify.md", ""))))
    assert [c.kind for c in steps.changes] == ["scene-description-changed"]


def test_a_changed_chat_mode_is_reported():
    old = "Harvey and MARGOT are in chat mode. Model: QWEN2.5-CODER."
    result = diff_texts(CLEAN, edited((old, old.replace("chat mode", "evil mode"))))
    assert [(c.kind, c.message, c.a_scene, c.b_scene) for c in result.changes] == [
        ("scene-description-changed", "scene description changed: INT. HARVEY AND MARGOT TALKING 2026-08-03 14:20:31",
         1, 1)]
    assert result.filtered(["scenes"]).changes == result.changes and result.filtered(["replies"]).changes == []


def test_a_description_change_already_reported_per_turn_is_not_repeated():
    old = "Model: Ollama (devstral:24b). Workspace: /home/margot/src/tidewater.\n\n[[hidden confidence"
    result = diff_texts(CLEAN, edited((old, old.replace("Ollama (devstral:24b)", "OpenAI (gpt-4)"))))
    assert [(c.kind, c.message, c.a_turn, c.b_turn) for c in result.changes] == [
        ("model-changed", "model Ollama (devstral:24b) → OpenAI (gpt-4)", 5, 5)]


def test_a_description_change_has_no_pointer_its_own_hunk_header_and_every_model_normalised():
    # (new-user trial: pointer /records/N/scene, which holds no description, and no patch op;
    # hunk headed "@@ -scene 3 +scene 2 @@" as for a scene without turns; a second `Model:`
    # line shown as "Model: QWEN2.5-CODER" next to "<model>")
    old = "Harvey and MARGOT are in chat mode. Model: QWEN2.5-CODER. Workspace: /home/margot/src/tidewater.\n\nMARGOT\nRemember"
    new = old.replace("tidewater.\n", "tidewater.\nModel: QWEN2.5-CODER. Mode: strict.\n")
    result = diff_texts(CLEAN, edited((old, new)), "a.spmd", "b.spmd")
    [c] = result.changes
    assert (c.kind, c.a_pointer, c.b_pointer, c.a_turn, c.b_turn, result.patch) == (
        "scene-description-changed", None, None, None, None, [])
    assert c.to_json()["pointer"] == {"a": None, "b": None}
    assert render_unified(result).splitlines()[2:7] == [
        "@@ description -scene 3 +scene 3 @@ INT. HARVEY AND MARGOT TALKING 2026-08-03 14:22:10",
        "~ scene description changed: INT. HARVEY AND MARGOT TALKING 2026-08-03 14:22:10",
        "    @@ -1 +1,2 @@",
        "     Harvey and MARGOT are in chat mode. Model: <model>. Workspace: <workspace>.",
        "    +Model: <model>. Mode: strict."]


def test_a_route_in_an_unrecognised_form_reads_not_recorded():
    # (new-user trial: "~ route LIGHTHOUSE → " with nothing after the arrow)
    old = "Harvey routing to LIGHTHOUSE. Workspace"
    result = diff_texts(CLEAN, edited((old, "Harvey routing to BEACON (https://beacon.example/v1). Workspace")),
                        "a.spmd", "b.spmd")
    [c] = [c for c in result.changes if c.kind == "route-changed"]
    assert (c.message, c.before, c.after) == ("route LIGHTHOUSE → not recorded", {"endpoint": "LIGHTHOUSE", "url": None},
                                              {"endpoint": None, "url": None})
    assert "~ route LIGHTHOUSE → not recorded" in render_unified(result).splitlines()
    back = diff_texts(edited((old, "Harvey routing to BEACON (https://beacon.example/v1). Workspace")), CLEAN)
    assert [c.message for c in back.changes if c.kind == "route-changed"] == ["route not recorded → LIGHTHOUSE"]


def test_a_model_switch_change_names_its_kind_once():
    # (new-user trial: "~ model switch model switch: devstral:24b …")
    note = "[[model switch: devstral:24b (ollama) at 2026-08-03 14:25:00]]\n"
    for b, message in ((edited((note, note.replace("24b", "27b"))),
                        "model switch devstral:24b (ollama) at <timestamp> → devstral:27b (ollama) at <timestamp>"),
                       (edited((note, "")), "model switch devstral:24b (ollama) at <timestamp> → (none)")):
        result = diff_texts(CLEAN, b, "a.spmd", "b.spmd")
        [c] = [c for c in result.changes if c.kind == "model-switch-changed"]
        assert c.message == message
        assert "~ " + message in render_unified(result).splitlines()
