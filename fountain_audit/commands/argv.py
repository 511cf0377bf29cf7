"""A small command-line reader for the plain, unambiguous uses of a command's options, without
click (whose import is most of ``fountain-audit lint``'s start-up, issue 9).

:func:`parse` reads the option table of :mod:`fountain_audit.commands.lint_options` and
returns exactly the parameters click would parse from the same arguments, or ``None`` when
the arguments hold anything else — ``--help``, an unknown or combined option, a missing
value, a value click refuses (a bad choice or count, a path of the wrong kind) — and the
caller leaves them to click, which prints its usual message. tests/test_fast_cli.py checks
the equivalence against click on generated and hand-picked argument lists.
"""

from __future__ import annotations

import os
import stat

from fountain_audit.commands.lint_options import CHOICE, COUNT, FLAG, MULTIPLE, PATH, SWITCH, Option

_DEFER = object()


def parse(args: list[str], options: tuple[Option, ...]) -> dict | None:
    """The parameters of ``args`` (the arguments after the command name) as click passes them
    to the command: each option's ``dest`` (a tuple for MULTIPLE, False/None when absent) and
    ``paths`` (a tuple of the positional arguments). ``None``: leave ``args`` to click.

    Accepted: long options with their value after `` `` or ``=``; flags; the short options
    alone (``-q``) or, for those that take a value, with it attached or after a space
    (``-j4``, ``-j 4``); positional arguments anywhere (``-`` among them); ``--`` ending the
    options. A value is the next argument whatever it looks like, as click takes it."""
    names: dict[str, tuple[Option, bool]] = {}
    for opt in options:
        if opt.kind == SWITCH:
            on, off = opt.decls[0].split("/")
            names[on], names[off] = (opt, True), (opt, False)
        else:
            for decl in opt.decls:
                names[decl] = (opt, True)
    params: dict = {opt.dest: False if opt.kind == FLAG else None for opt in options}
    many: dict[str, list] = {opt.dest: [] for opt in options if opt.kind == MULTIPLE}
    paths: list[str] = []
    i, n = 0, len(args)
    while i < n:
        arg = args[i]
        i += 1
        if arg == "--":
            paths.extend(args[i:])
            break
        if arg[:1] != "-" or arg == "-":
            paths.append(arg)
            continue
        if arg[:2] == "--":
            name, eq, value = arg.partition("=")
            attached = bool(eq)
        else:  # a short option: alone, or a value option with its value attached (-j4, -ofile)
            name, value = arg[:2], arg[2:]
            attached = bool(value)
        entry = names.get(name)
        if entry is None:
            return None
        opt, on = entry
        if opt.kind in (FLAG, SWITCH):
            if attached:  # --quiet=1 is an error, -qj4 a combination: click's business
                return None
            params[opt.dest] = on
            continue
        if not attached:
            if i == n:
                return None
            value = args[i]
            i += 1
        value = _convert(opt, value)
        if value is _DEFER:
            return None
        if opt.kind == MULTIPLE:
            many[opt.dest].append(value)
        else:
            params[opt.dest] = value
    for dest, values in many.items():
        params[dest] = tuple(values)
    params["paths"] = tuple(paths)
    return params


def _convert(opt: Option, value: str):
    """``value`` as click's type for ``opt`` converts it, or ``_DEFER`` where click would
    refuse it (or might read it differently)."""
    kind = opt.kind
    if kind == CHOICE:
        return value if value in opt.choices else _DEFER
    if kind == COUNT:  # click.IntRange(min=0); int() also takes " 4", "+4", "4_0": left to click
        if not (value.isascii() and value.isdigit()):
            return _DEFER
        try:
            return int(value)
        except ValueError:  # more digits than int() converts
            return _DEFER
    if kind == PATH:
        return _path(opt.path, value)
    return value


def _path(checks: dict, value: str):
    """``click.Path(**checks)`` (``exists`` false, ``readable`` true by default): a path that
    does not exist is taken; one that exists must be of an accepted kind and readable (and
    writable when asked)."""
    try:
        st = os.stat(value)
    except OSError:
        pass
    except ValueError:  # an embedded NUL: click's own error
        return _DEFER
    else:
        if not checks.get("file_okay", True) and stat.S_ISREG(st.st_mode):
            return _DEFER
        if not checks.get("dir_okay", True) and stat.S_ISDIR(st.st_mode):
            return _DEFER
        if not os.access(value, os.R_OK) or (checks.get("writable") and not os.access(value, os.W_OK)):
            return _DEFER
    if checks.get("path_type") == "Path":
        from pathlib import Path
        return Path(value)
    return value
