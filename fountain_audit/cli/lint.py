"""``fountain-audit lint``, ``rules`` and ``rule``: lint session files, list the rules, explain one.

``lint``'s options are declared in :mod:`fountain_audit.commands.lint_options` and its body is
:func:`fountain_audit.commands.lint.run_lint`; the click command here is built from them (and
serves ``--help``, click's error messages and ``CliRunner``); ``fountain-audit lint`` normally
runs without click (:mod:`fountain_audit.commands.fast`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from fountain_audit.cli.main import Console, Table, env_color, escape
from fountain_audit.commands.common import UsageError
from fountain_audit.commands.lint import run_lint
from fountain_audit.commands.lint_options import CHOICE, COUNT, FLAG, HELP, MULTIPLE, OPTIONS, PATH, SWITCH, Option
from fountain_audit.lint.rules import all_rules
from fountain_audit.untrusted import one_line


def _click_option(opt: Option) -> click.Option:
    """The click option declared by ``opt`` (one row of the lint option table)."""
    kw: dict = {"help": opt.help, "metavar": opt.metavar}
    if opt.kind == FLAG:
        kw["is_flag"] = True
    elif opt.kind == SWITCH:
        kw["default"] = None
    elif opt.kind == MULTIPLE:
        kw["multiple"] = True
    elif opt.kind == CHOICE:
        kw["type"] = click.Choice(opt.choices)
    elif opt.kind == COUNT:
        kw["type"] = _ProcessCount(min=0)
    elif opt.kind == PATH:
        kw["type"] = click.Path(**{**opt.path, **({"path_type": Path} if opt.path.get("path_type") else {})})
    return click.Option([*opt.decls, opt.dest], **kw)


class _ProcessCount(click.IntRange):
    """``--jobs N``: a whole number ≥ 0; ``--jobs x`` reads "'x' is not a valid number of processes"
    (click's own word for the type, "integer range", names no thing the user counts)."""

    name = "number of processes"


#: A usage error the fast path met in :func:`run_lint`: the command reports it instead of running
#: again (set by :func:`fountain_audit.commands.fast.report_usage_error`).
replay_usage_error: str | None = None


def _lint(**params) -> None:
    if replay_usage_error is not None:
        raise click.UsageError(replay_usage_error)
    try:
        run_lint(**params)
    except UsageError as e:
        raise click.UsageError(e.message) from None


#: ``fountain-audit lint`` as a click command, built from the option table of
#: :mod:`fountain_audit.commands.lint_options` (the fast path reads the same table).
lint = click.Command("lint", callback=_lint, help=HELP,
                     params=[click.Argument(["paths"], nargs=-1), *map(_click_option, OPTIONS)])


@click.command("rules")
@click.option("--format", "--output-format", "output_format", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def rules_cmd(output_format):
    """List every rule: code, name, severity, since-version and summary."""
    rules = all_rules()
    if output_format == "json":
        import json
        click.echo(json.dumps([{"code": r.code, "name": r.name, "severity": str(r.severity), "since": r.since,
                                "summary": r.summary} for r in rules], indent=2))
        return
    if not sys.stdout.isatty() and not env_color():  # piped: one plain tab-separated line per rule
        for r in rules:
            click.echo("\t".join((r.code, r.name, str(r.severity), r.since, r.summary.replace("`", ""))))
        return
    table = Table(show_edge=False, header_style="bold")
    for col in ("code", "name", "severity", "since"):
        table.add_column(col, no_wrap=True)
    table.add_column("summary", ratio=1)
    for r in rules:
        table.add_row(r.code, r.name, str(r.severity), r.since, escape(r.summary.replace("`", "")))
    plain = {"color_system": None} if env_color() is False else {}  # NO_COLOR: no ANSI styles at all
    console = Console(**plain)
    if not console.is_terminal:
        console = Console(width=max(console.width, 140), **plain)
    console.print(table)


REFERENCES_NOTE = ("The documents named under References are Harvey's format specification (FOUNTAIN_FORMAT.md), "
                   "its rules catalog, the recorder inventory and the audit-trail design notes; a case is one of "
                   "the peers' fixtures. They are reference material for this project, not part of fountain-audit "
                   "or of its repository.")


@click.command("rule")
@click.argument("rule")
def rule_cmd(rule):
    """Explain one rule (by code or name), with its bad and good examples."""
    for r in all_rules():
        if rule.upper() == r.code or rule.lower() == r.name:
            import inspect
            head = f"# {r.code} {r.name}\n\nSeverity: **{r.severity}** · since format v{r.since}\n\n"
            text = head + inspect.cleandoc(r.doc)
            if "\n## References" in text:
                text += "\n\n" + REFERENCES_NOTE
            if not sys.stdout.isatty() and not env_color():  # piped: the Markdown source, not a padded rendering
                click.echo(text)
                return
            from rich.markdown import Markdown  # only here: it costs 70 ms of start-up

            plain = {"color_system": None} if env_color() is False else {}  # NO_COLOR: no ANSI styles at all
            Console(**plain).print(Markdown(text.encode("utf-8", "backslashreplace").decode()))
            return
    from fountain_audit.lint.selection import closest_rule

    rules = all_rules()
    family = [r.code for r in rules if rule and r.code.startswith(rule.upper())]
    if family:  # a prefix, as --select takes: rule explains one of them
        raise click.UsageError(one_line(f"{rule!r} is a prefix of {len(family)} rule{'s' * (len(family) != 1)} "
                                        f"({', '.join(family)}); 'fountain-audit rule' explains one: "
                                        f"'fountain-audit rule {family[0]}'"))
    if rule.strip().upper() == "ALL":  # a selection (--select ALL), not a rule
        raise click.UsageError(one_line(f"{rule!r} selects every rule (--select ALL); 'fountain-audit rule' "
                                        "explains one: 'fountain-audit rules' lists them"))
    guess = closest_rule(rule, rules)
    hint = f"; did you mean {guess.code} / {guess.name}?" if guess else ""
    raise click.UsageError(one_line(f"unknown rule {rule!r}{hint} (see 'fountain-audit rules')"))
