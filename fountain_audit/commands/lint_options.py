"""The options of ``fountain-audit lint``, declared once as plain data.

:mod:`fountain_audit.cli.lint` builds the click command (``--help``, error messages,
``CliRunner``) from :data:`OPTIONS`, and :func:`fountain_audit.commands.argv.parse` reads
the command line from the same table without importing click (start-up time, issue 9).
Both hand :func:`fountain_audit.commands.lint.run_lint` the same keyword arguments: one per
option's ``dest`` plus ``paths``.
"""

from __future__ import annotations

from fountain_audit.lint.config import TARGET_VERSIONS

# kinds of option
FLAG = "flag"  #: ``--strict``: True when given, else False
SWITCH = "switch"  #: ``--color/--no-color``: True, False, or None when neither is given
VALUE = "value"  #: ``--stdin-filename PATH``: the string, or None
MULTIPLE = "multiple"  #: ``--select RULES``, repeatable: a tuple of the strings given, () when none
CHOICE = "choice"  #: one of ``choices`` (exact, case-sensitive), or None
PATH = "path"  #: a path checked as ``click.Path(**path)`` checks it, or None
COUNT = "count"  #: ``--jobs N``: an integer ≥ 0 (``click.IntRange(min=0)``), or None


class Option:
    """One option: its names (``decls``, the first long one being the canonical spelling;
    a SWITCH has ``"--on/--off"``), the keyword it is passed as (``dest``), its kind (above),
    ``metavar`` and ``help`` for ``--help``, ``choices`` of a CHOICE, the ``click.Path``
    keyword arguments of a PATH (``path_type="Path"`` for a :class:`pathlib.Path` value)."""

    __slots__ = ("decls", "dest", "kind", "help", "metavar", "choices", "path")

    def __init__(self, decls: tuple[str, ...], dest: str, kind: str, help: str, *, metavar: str | None = None,
                 choices: tuple[str, ...] = (), path: dict | None = None) -> None:
        self.decls, self.dest, self.kind, self.help = decls, dest, kind, help
        self.metavar, self.choices, self.path = metavar, choices, path or {}

    def __repr__(self) -> str:
        return f"Option({'/'.join(self.decls)} -> {self.dest}, {self.kind})"


OUTPUT_FORMATS = ("full", "concise", "json", "json-lines", "github", "sarif", "junit", "gitlab", "auto", "text")

#: The options in ``--help`` order (the positional PATHS come first, as ``paths``).
OPTIONS: tuple[Option, ...] = (
    Option(("--select",), "select", MULTIPLE, metavar="RULES",
           help="Only these rules: codes, code prefixes or names, comma-separated (replaces the config's)."),
    Option(("--extend-select",), "extend_select", MULTIPLE, metavar="RULES", help="Add these rules to the selection."),
    Option(("--ignore",), "ignore", MULTIPLE, metavar="RULES", help="Skip these rules (codes, prefixes or names)."),
    Option(("--target-version",), "target_version", CHOICE, choices=TARGET_VERSIONS,
           help="Harvey format version; newer rules are off."),
    Option(("--config",), "config_path", PATH, path={"dir_okay": False, "path_type": "Path"},
           help="Read this fountain-audit.toml or pyproject.toml instead of discovering one."),
    Option(("--isolated",), "isolated", FLAG, help="Ignore all configuration files (not with --config)."),
    Option(("--output-format", "--format"), "output_format", CHOICE, choices=OUTPUT_FORMATS,
           help="Output format (default: full on a terminal, else concise; auto also picks github under "
                "GitHub Actions; text = concise)."),
    Option(("-o", "--output"), "output_file", PATH, path={"dir_okay": False, "writable": True},
           help="Write the report to this file (atomically) instead of standard output ('-': standard output)."),
    Option(("-j", "--jobs"), "jobs", COUNT, metavar="N",
           help="Lint in N processes (1 = serial; 0 or not given: all CPUs, from 32 files and 1 MB on)."),
    Option(("--statistics",), "show_statistics", FLAG, help="Also print the number of diagnostics per rule."),
    Option(("--stdin-filename",), "stdin_filename", VALUE, metavar="PATH", help="Name to report for '-' (standard input); with no PATHS, standard input is read."),
    Option(("--color/--no-color",), "color", SWITCH, help="Colour the text output (default: when a terminal)."),
    Option(("--strict",), "strict", FLAG, help="Warnings fail the run too (exit 1); infos never do."),
    Option(("--exit-zero",), "exit_zero", FLAG, help="Exit 0 even when errors are found."),
    Option(("-q", "--quiet"), "quiet", FLAG, help="Print only the summary line (text format)."),
    Option(("--redact",), "redact", FLAG,
           help="Make the report shareable: in messages, paths and code frames, secrets become <redacted:KIND>, "
                "the workspace <workspace>, home directories <home> (positions still count in the original file)."),
    Option(("--redact-paths",), "redact_paths", FLAG, help="Only the path part of --redact."),
    Option(("--force-exclude",), "force_exclude", FLAG,
           help="Apply the config's exclude globs to files named on the command line too (as pre-commit passes "
                "them)."),
    Option(("--allow-empty",), "allow_empty", FLAG,
           help="Exit 0 when the paths hold no session file (default: exit 2, a mistyped path must not pass)."),
    Option(("--max-file-size",), "max_file_size", VALUE, metavar="SIZE",
           help="Refuse files larger than SIZE (bytes, or 512MB, 2GB ...) before reading them (default: the "
                "config's max-file-size, else 512MB)."),
    Option(("--baseline",), "baseline_file", PATH, metavar="FILE", path={"dir_okay": False},
           help="Report only diagnostics whose fingerprint is not in this baseline file (default: the config's "
                "baseline)."),
    Option(("--update-baseline",), "update_baseline", FLAG,
           help="Write the current findings to the baseline (created the first time; entries that match nothing "
                "are dropped), then report against it."),
    Option(("--no-cache",), "no_cache", FLAG,
           help="Neither read nor write the lint result cache (also: FOUNTAIN_AUDIT_NO_CACHE=1)."),
    Option(("--cache-dir",), "cache_dir", PATH, metavar="DIR", path={"file_okay": False},
           help="Keep the lint result cache in DIR (default: $FOUNTAIN_AUDIT_CACHE_DIR, else .fountain_audit_cache "
                "in the project root)."),
)

#: ``fountain-audit lint --help``: what the command does (click shows it under the usage line).
HELP = """Check session files against the rules.

    PATHS are files, directories (searched for *.spmd and *.fountain) or '-' for
    standard input; none means '.'. Output lines read 'path:line:col: CODE [rule-name]
    message' (concise); --output-format picks full, json, json-lines, github, sarif,
    junit or gitlab instead.

    Settings come from the nearest fountain-audit.toml or pyproject.toml
    [tool.fountain-audit] (see README); options given here override them.

    With --baseline FILE (or baseline = "..." in the configuration) findings recorded
    in FILE are not reported; --update-baseline records the current ones (see README,
    "Adopting fountain-audit on an archive").

    Results are cached per file in .fountain_audit_cache/ in the project root (keyed by
    the file's bytes, the settings and fountain-audit's code), so an unchanged file is not
    parsed again; --no-cache turns that off, --cache-dir moves it (see README, "Cache").

    Exit status: 0 no errors (warnings do not fail unless --strict; infos never do),
    1 errors found, 2 usage or configuration error, an unreadable path, no session
    file in PATHS (unless --allow-empty), no rule selected, or a baseline that cannot
    be used (corrupt, unknown version, too many entries).
    """
