"""The ``fountain-audit`` command group (click). What its commands share (finding the
session files under the given paths, reading standard input, refusing to write over an
input, colour from the environment) lives in :mod:`fountain_audit.commands.common`, which
does not import click, and is re-exported here. Each command lives in its own module of this package
(``lint``, ``dump``, ``diff``, ``show``, ``provenance``, ``export``, ``report``, ``redact``)
and is imported only when it runs; the commands only wire options to the layers.
"""

from __future__ import annotations

import errno
import sys

import click

from fountain_audit import __version__
# the helpers the command modules import from here (they live in fountain_audit.commands.common,
# which does not import click: `lint` runs without it)
from fountain_audit.commands.common import (SUFFIXES, Console, Table, escape, _dir_excluded, _fail, _force_excluded, _not_a_file,  # noqa: F401
                                            _option_rules, _split, discover, display_path, env_color,
                                            no_session_file, nothing_selected, read_stdin, reader_gone,
                                            refuse_output_over_inputs)

#: Names other command modules import from here, loaded on first use (PEP 562): the
#: configuration and rule selection import the rule catalogue, which ``--help`` does not need.
_LAZY = {"Config": "fountain_audit.lint.config", "ConfigError": "fountain_audit.lint.config",
         "load_config": "fountain_audit.lint.config", "RuleSelectionError": "fountain_audit.lint.selection",
         "Selection": "fountain_audit.lint.selection"}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    return getattr(importlib.import_module(module), name)


_NO_FIXES = ("nothing is fixed: a session file is the audit trail, not rewritten to silence a finding ('redact' "
             "replaces its secrets, in a copy or --in-place)")
#: Options other linters have and fountain-audit has not, with why: said instead of click's guess
#: at a near option name (`--fix`: "Did you mean '--config'?").
OTHER_LINTERS_OPTIONS = {
    "--fix": _NO_FIXES, "--unsafe-fixes": _NO_FIXES, "--show-fixes": _NO_FIXES, "--fix-only": _NO_FIXES,
    "--diff": "to compare two sessions: fountain-audit diff A B",
    "--add-noqa": "a suppression is written in the file: /* fountain-audit: disable-next=CODE */ (README: Suppressions)",
    "--watch": "there is no watch mode; pre-commit or CI runs it (README: pre-commit)",
}


def _explained(e: click.ClickException) -> click.ClickException:
    """``e``, an unknown option that other linters have (:data:`OTHER_LINTERS_OPTIONS`) saying why
    it is not one of ours instead of guessing at a near name."""
    if isinstance(e, click.NoSuchOption) and e.option_name in OTHER_LINTERS_OPTIONS:
        e.message = f"No such option '{e.option_name}': {OTHER_LINTERS_OPTIONS[e.option_name]}."
        e.possibilities = None
    return e


class LazyGroup(click.Group):
    """A click group whose commands can be registered by import path
    (``"package.module:attribute"``) and are imported only when run, or listed by ``--help``."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lazy: dict[str, str] = {}

    def add_lazy_command(self, name: str, target: str) -> None:
        self.lazy[name] = target

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def invoke(self, ctx: click.Context):
        """Run the command; a reader of standard output that goes away (``fountain-audit rules |
        head``) stops it quietly with status 0, as ``dump`` does (click's own handling exits 1,
        which ``lint`` and ``diff`` use for findings and differences; those two, and ``export``,
        keep the status they have so far)."""
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            reader_gone()
            ctx.exit(0)
        except click.ClickException as e:
            self.failed_with = e.exit_code  # (see main)
            _print_safely(_explained(e), self.typed)
            raise

    def make_context(self, *args, **kwargs) -> click.Context:
        typed = args[1] if len(args) > 1 else kwargs.get("args")
        self.typed = [a for a in typed or () if isinstance(a, str)]
        try:
            return super().make_context(*args, **kwargs)
        except click.ClickException as e:
            self.failed_with = e.exit_code  # (see main)
            _print_safely(_explained(e), self.typed)
            raise

    #: The arguments as typed (see :func:`_print_safely`).
    typed: list[str] = []

    #: The exit status of the usage error (or other ClickException) being reported, if any.
    failed_with: int | None = None

    def main(self, *args, **kwargs):
        """click's ``main``; when printing a usage error fails because standard error's reader
        went away (``fountain-audit lint --bogus 2>&1 | head -c 5``), the status is still the
        error's (2), not 1: a reader that goes away never changes the exit status."""
        try:
            return super().main(*args, **kwargs)
        except OSError as e:
            if e.errno != errno.EPIPE or self.failed_with is None:
                raise
            reader_gone(stderr=True)
            sys.exit(self.failed_with)

    def resolve_command(self, ctx: click.Context, args: list[str]):
        """click's, plus ``Did you mean 'lint'?`` for a mistyped command (``fountain-audit lnt``)."""
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError:
            name = args[0] if args else ""
            if name and not name.startswith("-") and self.get_command(ctx, name) is None:
                from fountain_audit.suggest import closest
                # other tools' words count as spellings of ours: `chek` is closest to `check`, so
                # `lint`, not `schema`; `explian` to `explain`, so `rule`
                near = closest(name, [*self.list_commands(ctx), *_OTHER_TOOLS_WORDS])
                guess = _OTHER_TOOLS_WORDS.get(name.lower()) or _OTHER_TOOLS_WORDS.get(near or "", near)
                if guess is not None:
                    raise click.UsageError(f"No such command {name!r}. Did you mean {guess!r}?", ctx) from None
            raise

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = self.lazy.get(cmd_name)
        if target is not None and cmd_name not in self.commands:
            import importlib
            module, _, attribute = target.partition(":")
            self.add_command(getattr(importlib.import_module(module), attribute), cmd_name)
        return super().get_command(ctx, cmd_name)


#: Commands of other linters a user may type by habit, and ours that does that work
#: (``ruff check``, ``yamllint``-style ``validate``): ``No such command 'check'. Did you mean 'lint'?``.
_OTHER_TOOLS_WORDS = {"check": "lint", "validate": "lint", "audit": "lint", "explain": "rule", "list-rules": "rules",
                      "inspect": "show", "view": "show", "compare": "diff", "json": "dump"}


def _print_safely(e: click.ClickException, typed: list[str]) -> None:
    """Make ``e``'s message, as click prints it (``Error: ...``), safe for a terminal and one
    line (:func:`fountain_audit.untrusted.one_line`): click quotes arguments in it raw, e.g. a
    file name holding ``ESC ] 0 ; ... BEL`` in "Got unexpected extra arguments (...)" (adversarial
    trial), or a newline that would forge a line of its own. A message made of several lines on
    purpose (click's list of choices) is kept so: each line is escaped alone, its leading tabs kept, when the message names none of
    the arguments typed with a newline in it. Only the message: the usage line and help hint hold
    nothing the user typed but the command's name."""
    if getattr(e, "_terminal_safe", False):
        return
    from fountain_audit.untrusted import one_line
    format_message = e.format_message

    def safe() -> str:
        message = format_message()
        if "\n" in message and not any("\n" in a and a in message for a in typed):
            # (click's own lines keep their leading tabs: `Choose from:` then `\tast,` ...)
            return "\n".join(line[:len(line) - len(line.lstrip("\t"))] + one_line(line.lstrip("\t"))
                             for line in message.split("\n"))
        return one_line(message)

    e.format_message = safe  # type: ignore[method-assign]
    e._terminal_safe = True  # type: ignore[attr-defined]


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="fountain-audit")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Lint and analyse Harvey session transcripts (Fountain .spmd/.fountain files).

    \b
    Examples:
      fountain-audit lint sessions/            lint every *.spmd and *.fountain file
      fountain-audit lint --select P session.spmd
      fountain-audit rules                     list the rules
      fountain-audit rule P102                 explain a rule
      fountain-audit dump --turns s.spmd       the turns as JSON (see 'schema turns')
      fountain-audit diff old.spmd new.spmd    what changed, turn by turn
      fountain-audit show s.spmd t3.tool2      reopen an element by id (ids: dump)
      fountain-audit provenance s.spmd         the evidence recorded for each reply
      fountain-audit export --to toolpath s.spmd    who did what, as a toolpath document
      fountain-audit report sessions/ -o pages/     an HTML page per session + index

    Colour: NO_COLOR=1 turns it off, FORCE_COLOR=1 on (also when piped).
    """
    ctx.color = env_color()  # click's messages in every command follow NO_COLOR / FORCE_COLOR
    from fountain_audit.commands.common import safe_output_streams
    safe_output_streams()  # (run() does it too; main may be called without it)


def _register_lint() -> None:
    main.add_lazy_command("lint", "fountain_audit.cli.lint:lint")  # imported only when run
    main.add_lazy_command("rules", "fountain_audit.cli.lint:rules_cmd")
    main.add_lazy_command("rule", "fountain_audit.cli.lint:rule_cmd")
    main.add_lazy_command("dump", "fountain_audit.cli.dump:dump_cmd")
    main.add_lazy_command("schema", "fountain_audit.cli.dump:schema_cmd")


_register_lint()


def _register_diff() -> None:
    main.add_lazy_command("diff", "fountain_audit.cli.diff:diff")  # imported only when run


_register_diff()


def _register_export() -> None:
    main.add_lazy_command("export", "fountain_audit.cli.export:export")  # imported only when run


_register_export()


def _register_audit() -> None:
    main.add_lazy_command("show", "fountain_audit.cli.show:show")  # imported only when run
    main.add_lazy_command("provenance", "fountain_audit.cli.provenance:provenance")
    main.add_lazy_command("redact", "fountain_audit.cli.redact:redact")  # imported only when run


_register_audit()


def _register_report() -> None:
    main.add_lazy_command("report", "fountain_audit.cli.report:report")  # imported only when run


_register_report()
