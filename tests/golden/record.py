"""Golden outputs: what ``lint --output-format json``, ``dump --records all``, ``dump --turns``
and ``dump --ast`` print for every file in ``samples/``, ``../shared/corpus`` and
``../shared/cases``, recorded as SHA-256 digests (the shared files are third-party data, so
their outputs are not copied here; only digests of our own output are kept).

``python -m tests.golden.record`` rewrites ``digests.json`` from the current code. Do that only
for a deliberate change of output, in the same commit, and say why in the commit message.
``python -m tests.golden.record --show FILE COMMAND`` prints one output to compare by eye
(FILE as keyed in digests.json, e.g. ``samples/clean-session.spmd`` or ``shared/cases/A03.spmd``).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path

from click.testing import CliRunner

from fountain_audit.cli import main
from tests.conftest import ROOT, SHARED

DIGESTS = Path(__file__).with_name("digests.json")
COMMANDS: dict[str, list[str]] = {
    "lint": ["lint", "--isolated", "--no-cache", "--output-format", "json", "--exit-zero"],
    "records": ["dump", "--records", "all"],
    "turns": ["dump", "--turns"],
    "ast": ["dump", "--ast"],
}


def inputs() -> dict[str, tuple[Path, str]]:
    """key → (directory to run in, path relative to it). Shared files only when present."""
    out: dict[str, tuple[Path, str]] = {}
    for p in sorted((ROOT / "samples").rglob("*")):
        if p.is_file() and p.suffix in (".spmd", ".fountain"):
            out[f"samples/{p.relative_to(ROOT / 'samples').as_posix()}"] = (ROOT, p.relative_to(ROOT).as_posix())
    if SHARED.exists():
        for sub in ("corpus", "cases"):
            for p in sorted((SHARED / sub).rglob("*")):
                if p.is_file() and p.suffix in (".spmd", ".fountain"):
                    rel = p.relative_to(SHARED).as_posix()
                    out[f"shared/{rel}"] = (SHARED, rel)
    return out


@contextmanager
def _cwd(path: Path):
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def output(key: str, command: str) -> bytes:
    """The bytes ``command`` prints for the input ``key`` (run from the input's root)."""
    where, rel = inputs()[key]
    with _cwd(where):
        result = CliRunner().invoke(main, [*COMMANDS[command], rel], env={"NO_COLOR": "1", "COLUMNS": "100"})
    return result.stdout_bytes + f"\n[exit {result.exit_code}]".encode()


def digest(key: str, command: str) -> str:
    return hashlib.sha256(output(key, command)).hexdigest()


def record() -> dict[str, dict[str, str]]:
    return {key: {cmd: digest(key, cmd) for cmd in COMMANDS} for key in inputs()}


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--show":
        sys.stdout.buffer.write(output(sys.argv[2], sys.argv[3]))
    else:
        old = json.loads(DIGESTS.read_text()) if DIGESTS.exists() else {}
        new = record()
        if not SHARED.exists():  # keep the shared entries we cannot recompute here
            new = {**{k: v for k, v in old.items() if k.startswith("shared/")}, **new}
        DIGESTS.write_text(json.dumps(new, indent=1, sort_keys=True) + "\n")
        changed = sorted(f"{k} {c}" for k in new for c in new[k] if old.get(k, {}).get(c) != new[k][c])
        print(f"{len(new)} inputs; {len(changed)} outputs changed", *changed[:50], sep="\n")
