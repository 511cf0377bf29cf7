"""The rule catalogue: each rule's code, name, severity, since-version and scope, without
importing the rule modules.

Selecting rules (``--select``, the configuration), keying the result cache and reporting
cached results need only these; importing the rule modules (55) would import the parser and
the session model (Lark) too. :func:`fountain_audit.lint.rules.all_rules` builds its rules
from :data:`RULES` and imports a rule's module (its docstring, ``check`` and visitors) when
they are first used. The rule modules stay the source: ``tests/test_catalog.py`` checks that
this table is what they declare, and ``python -m fountain_audit.lint.catalog`` prints it anew
(paste it here after adding or changing a rule).
"""

from __future__ import annotations

#: Every session kind (:attr:`fountain_audit.model.session.Session.kind`), and the session-like ones.
ALL = ("fragment", "hand-off", "memory", "screenplay", "session")
SESSION_LIKE = ("fragment", "session")

#: ``(module, CODE, NAME, SEVERITY, SINCE, SCOPE)`` per rule, in registry order
#: (:data:`fountain_audit.lint.rules.RULE_MODULES`); severity by name, scope sorted. Then
#: ``PREPARED``: the modules that define a ``prepare`` (the linter runs it before parsing; the
#: other modules are not imported for it, so a file is linted without importing the rules
#: outside its scope: start-up, issue 9).
RULES = (
    ('unused_suppression', 'A101', 'unused-suppression', 'warning', '1.0', ALL),
    ('invalid_suppression', 'A102', 'invalid-suppression', 'warning', '1.0', ALL),
    ('invalid_utf8', 'E101', 'invalid-utf8', 'error', '1.0', ALL),
    ('nul_byte', 'E102', 'control-character', 'warning', '1.0', ALL),
    ('byte_order_mark', 'E103', 'byte-order-mark', 'info', '1.0', ALL),
    ('binary_file', 'E104', 'binary-file', 'error', '1.0', ALL),
    ('empty_file', 'E105', 'empty-file', 'info', '1.0', ALL),
    ('bidi_control', 'E106', 'bidi-control-character', 'warning', '1.0', ALL),
    ('unclosed_note', 'F101', 'unclosed-note', 'error', '1.0', ALL),
    ('unclosed_boneyard', 'F102', 'unclosed-boneyard', 'error', '1.0', ALL),
    ('stray_boneyard_close', 'F103', 'stray-boneyard-close', 'warning', '1.0', ALL),
    ('boneyard_hides_scenes', 'F104', 'boneyard-hides-scenes', 'error', '1.2', SESSION_LIKE),
    ('missing_title', 'S101', 'missing-title', 'warning', '1.0', ('session',)),
    ('missing_author', 'S102', 'missing-author', 'error', '1.0', ('session',)),
    ('missing_fade_in', 'S103', 'missing-fade-in', 'warning', '1.0', ('session',)),
    ('missing_the_end', 'S104', 'missing-the-end', 'warning', '1.0', ('session',)),
    ('session_cut_short', 'S108', 'session-cut-short', 'info', '1.0', ('session',)),
    ('malformed_scene_heading', 'H101', 'malformed-scene-heading', 'error', '1.0', ('fragment', 'hand-off', 'session')),
    ('loose_scene_timestamp', 'H102', 'loose-scene-timestamp', 'info', '1.0', SESSION_LIKE),
    ('unknown_scene_kind', 'H103', 'unknown-scene-kind', 'warning', '1.0', SESSION_LIKE),
    ('ext_without_routing', 'H104', 'ext-without-routing', 'warning', '1.2', SESSION_LIKE),
    ('malformed_note', 'N101', 'malformed-note', 'error', '1.0', SESSION_LIKE),
    ('tool_arguments_not_json', 'N102', 'tool-arguments-not-json', 'warning', '1.2', SESSION_LIKE),
    ('rag_before_dialogue', 'P101', 'rag-before-dialogue', 'error', '1.2', SESSION_LIKE),
    ('tools_between_forward_and_reply', 'P102', 'tools-between-forward-and-reply', 'error', '1.2', SESSION_LIKE),
    ('recall_before_first_turn', 'P103', 'recall-before-first-turn', 'warning', '1.2', SESSION_LIKE),
    ('recall_outside_recall_scene', 'P104', 'recall-outside-recall-scene', 'error', '1.2', SESSION_LIKE),
    ('author_not_uppercase', 'S105', 'author-not-uppercase', 'warning', '1.0', ('session',)),
    ('content_after_the_end', 'S106', 'content-after-the-end', 'error', '1.0', ('session',)),
    ('timestamps_backwards', 'S107', 'timestamps-backwards', 'warning', '1.0', SESSION_LIKE),
    ('int_scene_names_remote_route', 'H105', 'int-scene-names-remote-route', 'error', '1.2', SESSION_LIKE),
    ('missing_model_or_workspace', 'H106', 'missing-model-or-workspace', 'warning', '1.0', SESSION_LIKE),
    ('glued_scene_heading', 'H107', 'glued-scene-heading', 'warning', '1.0', ALL),
    ('forwarding_target_mismatch', 'T101', 'forwarding-target-mismatch', 'error', '1.0', SESSION_LIKE),
    ('unanswered_turn', 'T102', 'unanswered-turn', 'warning', '1.0', SESSION_LIKE),
    ('several_exchanges_in_scene', 'T103', 'several-exchanges-in-scene', 'info', '1.0', SESSION_LIKE),
    ('character_not_uppercase', 'T104', 'character-not-uppercase', 'warning', '1.0', SESSION_LIKE),
    ('unfulfilled_mention', 'T105', 'unfulfilled-mention', 'info', '1.0', SESSION_LIKE),
    ('turn_without_user_input', 'T106', 'turn-without-user-input', 'warning', '1.0', SESSION_LIKE),
    ('score_out_of_range', 'N103', 'score-out-of-range', 'warning', '1.2', SESSION_LIKE),
    ('note_in_wrong_scene', 'N104', 'note-in-wrong-scene', 'error', '1.2', SESSION_LIKE),
    ('tool_actor_not_participant', 'N105', 'tool-actor-not-participant', 'warning', '1.2', SESSION_LIKE),
    ('chunk_result_sequence', 'N106', 'chunk-result-sequence', 'error', '1.3', SESSION_LIKE),
    ('synthesis_not_last', 'N107', 'synthesis-not-last', 'warning', '1.3', SESSION_LIKE),
    ('rag_source_without_rag', 'N108', 'rag-source-without-rag', 'error', '1.2', SESSION_LIKE),
    ('empty_rag_source', 'N109', 'empty-rag-source', 'info', '1.2', SESSION_LIKE),
    ('audit_note_inside_text', 'N110', 'audit-note-inside-text', 'warning', '1.2', SESSION_LIKE),
    ('second_note_on_line', 'N111', 'second-note-on-line', 'error', '1.2', SESSION_LIKE),
    ('misspelt_note_kind', 'N112', 'misspelt-note-kind', 'warning', '1.2', SESSION_LIKE),
    ('disguised_note_kind', 'N113', 'disguised-note-kind', 'error', '1.2', SESSION_LIKE),
    ('legacy_prose_tool_call', 'L101', 'legacy-prose-tool-call', 'info', '1.0', SESSION_LIKE),
    ('legacy_stats_note', 'L102', 'legacy-stats-note', 'info', '1.0', SESSION_LIKE),
    ('reply_reads_as_structure', 'R101', 'reply-reads-as-structure', 'warning', '1.0', SESSION_LIKE),
    ('secret_in_session', 'V101', 'secret-in-session', 'error', '1.0', ALL),
    ('home_path_in_session', 'V102', 'home-path-in-session', 'info', '1.0', ALL),
)
PREPARED = frozenset({'nul_byte', 'secret_in_session', 'home_path_in_session'})


def generate() -> str:
    """The :data:`RULES` table as Python source, read from the rule modules themselves."""
    import importlib

    from fountain_audit.lint.rules import RULE_MODULES

    lines = ["RULES = ("]
    for m in RULE_MODULES:
        mod = importlib.import_module(f"fountain_audit.lint.rules.{m}")
        scope = tuple(sorted(mod.SCOPE))
        named = {ALL: "ALL", SESSION_LIKE: "SESSION_LIKE"}.get(scope, repr(scope))
        lines.append(f"    ({m!r}, {mod.CODE!r}, {mod.NAME!r}, {str(mod.SEVERITY)!r}, {mod.SINCE!r}, {named}),")
    lines.append(")")
    prepared = [m for m in RULE_MODULES if hasattr(importlib.import_module(f"fountain_audit.lint.rules.{m}"), "prepare")]
    lines.append(f"PREPARED = frozenset({{{', '.join(map(repr, prepared))}}})")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(generate(), end="")
