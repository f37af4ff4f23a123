"""The generated SECRET_KEY of ./run and venue mode: made once, private, kept, shared."""

from __future__ import annotations

import stat
import subprocess
import threading
from pathlib import Path

import pytest

from kit import secret_key
from tests.conftest import ROOT


def test_the_key_is_made_once_readable_by_its_owner_alone_and_kept(tmp_path: Path) -> None:
    path = tmp_path / ".secret-key"
    first = secret_key.load_or_create(path)
    assert len(first) >= 50
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert secret_key.load_or_create(path) == first
    # Nothing left beside it.
    assert [child.name for child in tmp_path.iterdir()] == [".secret-key"]


def test_a_file_that_holds_no_key_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / ".secret-key"
    path.write_text("short")
    replaced = secret_key.load_or_create(path)
    assert replaced != "short" and len(replaced) >= 50
    assert secret_key.load_or_create(path) == replaced


def test_the_key_venue_mode_kept_before_is_adopted_on_the_first_start(tmp_path: Path) -> None:
    old = secret_key.load_or_create(tmp_path / ".venue-secret")
    assert secret_key.project_secret(tmp_path) == old
    assert (tmp_path / ".secret-key").read_text().strip() == old


def test_secret_key_file_names_another_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SECRET_KEY_FILE", str(tmp_path / "elsewhere"))
    assert secret_key.secret_file(ROOT) == tmp_path / "elsewhere"
    monkeypatch.delenv("SECRET_KEY_FILE")
    assert secret_key.secret_file(ROOT) == ROOT / ".secret-key"


def test_processes_starting_together_all_take_the_one_key_written_first(tmp_path: Path) -> None:
    path = tmp_path / ".secret-key"
    start = threading.Barrier(8)
    keys: list[str] = []

    def starting() -> None:
        start.wait()
        keys.append(secret_key.load_or_create(path))

    threads = [threading.Thread(target=starting) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(keys) == 8 and set(keys) == {path.read_text().strip()}


def test_the_key_file_is_ignored_by_git() -> None:
    result = subprocess.run(["git", "check-ignore", "-q", ".secret-key"], cwd=ROOT, check=False)
    assert result.returncode == 0
