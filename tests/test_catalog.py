"""The rule catalogue (fountain_audit/lint/catalog.py) is what the rule modules declare."""

from __future__ import annotations

import importlib

from fountain_audit.lint import catalog
from fountain_audit.lint.rules import RULE_MODULES, _load, all_rules


def test_catalog_is_what_the_rule_modules_declare():
    # a new or changed rule: run `python -m fountain_audit.lint.catalog` and paste its table
    modules = [importlib.import_module(f"fountain_audit.lint.rules.{m}") for m in RULE_MODULES]
    assert [row[0] for row in catalog.RULES] == list(RULE_MODULES)
    assert [(r.code, r.name, r.severity, r.since, r.scope) for r in all_rules()] == \
        [(m.CODE, m.NAME, m.SEVERITY, m.SINCE, frozenset(m.SCOPE)) for m in modules]
    assert catalog.generate() in open(catalog.__file__, encoding="utf-8").read()


def test_a_catalogue_rule_reads_its_module_when_used():
    for rule, m in zip(all_rules(), RULE_MODULES):
        direct = _load(importlib.import_module(f"fountain_audit.lint.rules.{m}"))
        assert (rule.doc, rule.visits) == (direct.doc, direct.visits)
        assert rule.check is importlib.import_module(f"fountain_audit.lint.rules.{m}").__dict__.get("check", rule.check)
    p102 = next(r for r in all_rules() if r.code == "P102")
    info = p102.replace(severity=p102.severity.INFO)
    assert (info.code, str(info.severity), info.doc) == ("P102", "info", p102.doc)
    assert p102 != info and p102 == next(r for r in all_rules() if r.code == "P102")


def test_rules_pickle_by_module():
    import pickle
    rule = all_rules()[0]
    back = pickle.loads(pickle.dumps(rule))
    assert back == rule and back.doc == rule.doc
