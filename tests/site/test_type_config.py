"""mypy checks every package the project installs: a new app cannot be left out unseen."""

from __future__ import annotations

import tomllib

from tests.conftest import ROOT


def test_mypy_checks_every_installed_package_strictly() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    installed = {pattern.rstrip("*") for pattern in config["tool"]["setuptools"]["packages"]["find"]["include"]}
    mypy = config["tool"]["mypy"]
    assert set(mypy["files"]) == installed
    assert mypy["strict"] is True
    assert all((ROOT / package / "__init__.py").is_file() for package in installed)
