"""Golden outputs of ``fountain-audit diff``: what ``diff --format unified``, ``--format json``
and ``--format rich --color`` print for consecutive pairs of the session-like files in
``samples/``, ``../shared/corpus/harvey`` and ``../shared/cases`` (``.spmd`` cases), recorded
as SHA-256 digests in ``diff_digests.json`` (only digests of our own output are kept).

``python -m tests.golden.diff_record`` rewrites the digests from the current code: only for a
deliberate change of output, in the same commit, saying why in the commit message.
``python -m tests.golden.diff_record --show 'A B' FORMAT`` prints one output.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from click.testing import CliRunner

from fountain_audit.cli import main
from tests.conftest import ROOT, SHARED
from tests.golden.record import _cwd

DIGESTS = Path(__file__).with_name("diff_digests.json")
FORMATS: dict[str, list[str]] = {
    "unified": ["--format", "unified"],
    "json": ["--format", "json"],
    "rich": ["--format", "rich", "--color"],
}


def _files(root: Path, sub: str, suffixes: tuple[str, ...]) -> list[str]:
    return [p.relative_to(root).as_posix() for p in sorted((root / sub).rglob("*"))
            if p.is_file() and p.suffix in suffixes]


def pairs() -> dict[str, tuple[Path, str, str]]:
    """key ``"A B"`` → (directory to run in, A, B), A and B relative to it. Shared pairs only
    when ../shared is present."""
    groups = [(ROOT, "samples", _files(ROOT, "samples", (".spmd", ".fountain")))]
    if SHARED.exists():
        groups.append((SHARED, "shared", _files(SHARED, "corpus/harvey", (".spmd", ".fountain"))
                       + _files(SHARED, "cases", (".spmd",))))
    out: dict[str, tuple[Path, str, str]] = {}
    for where, prefix, files in groups:
        for a, b in zip(files, files[1:]):
            key = f"{a} {b}" if prefix == "samples" else f"shared/{a} shared/{b}"
            out[key] = (where, a, b)
    return out


def output(key: str, fmt: str) -> bytes:
    where, a, b = pairs()[key]
    with _cwd(where):
        result = CliRunner().invoke(main, ["diff", *FORMATS[fmt], a, b], env={"NO_COLOR": None, "COLUMNS": "100"})
    return result.stdout_bytes + b"\n[stderr]" + result.stderr_bytes + f"\n[exit {result.exit_code}]".encode()


def digest(key: str, fmt: str) -> str:
    return hashlib.sha256(output(key, fmt)).hexdigest()


def record() -> dict[str, dict[str, str]]:
    return {key: {fmt: digest(key, fmt) for fmt in FORMATS} for key in pairs()}


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
        print(f"{len(new)} pairs; {len(changed)} outputs changed", *changed[:50], sep="\n")
