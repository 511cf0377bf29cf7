"""The wheel ships every folder of the package: each one is listed in pyproject.toml's
``[tool.setuptools] packages`` (setuptools warns at build about a folder that holds files but
is not listed, and a later setuptools will leave it out)."""

from __future__ import annotations

import tomllib

from .conftest import ROOT


def test_every_folder_of_the_package_is_listed_in_packages():
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(setup["packages"])
    folders = {".".join(d.relative_to(ROOT).parts) for d in (ROOT / "fountain_audit").rglob("*")
               if d.is_dir() and d.name != "__pycache__" and any(f.is_file() for f in d.iterdir())}
    assert sorted(folders - listed) == []
    assert setup["package-data"]["fountain_audit.report.templates"] == ["*.j2", "*.css", "*.js"]
    templates = sorted(f.name for f in (ROOT / "fountain_audit" / "report" / "templates").iterdir())
    assert templates == ["base.html.j2", "index.html.j2", "macros.html.j2", "report.css", "report.js",
                         "session.html.j2"]
