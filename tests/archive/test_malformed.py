"""A file that is no archive is refused in one line, nothing written, whatever it holds.

An archive nested 200,000 deep crashed the command with a RecursionError traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from archive.exporting import checksum
from tests.archive.test_archive import build_night, counts, wipe
from tests.archive.test_erasure import export
from tests.conftest import ROOT, _database_url_for_tests

pytestmark = pytest.mark.django_db

DEEP = 200_000
HEAD = '{"format": "atout-tournament", "version": 1, "checksum": "x", "content": '


def refusal(path: Path) -> str:
    """The command's one line for `path`, which must write nothing."""
    before = counts()
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(path), stdout=StringIO())
    said = str(refused.value)
    assert said.startswith(f"{path}: not imported, nothing was written. "), said
    assert "\n" not in said and len(said) < len(str(path)) + 300, said
    assert counts() == before
    return said.split("nothing was written. ", 1)[1]


def write(tmp_path: Path, data: str | bytes) -> Path:
    path = tmp_path / "archive.json"
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return path


def test_an_archive_nested_200000_deep_is_refused_in_one_line_by_the_command(tmp_path: Path) -> None:
    """The command as an operator runs it: one line on its error output, no traceback."""
    path = write(tmp_path, HEAD + "[" * DEEP + "]" * DEEP + "}")
    env = {**os.environ, "DATABASE_URL": _database_url_for_tests()}
    run = subprocess.run(
        [sys.executable, "manage.py", "import_tournament", str(path)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert run.returncode == 1
    assert "Traceback" not in run.stderr and "RecursionError" not in run.stderr
    (line,) = [line for line in run.stderr.splitlines() if line.startswith("CommandError:")]
    assert line == (
        f"CommandError: {path}: not imported, nothing was written. line 1, column 105: values nested more than "
        "32 deep, where an archive's go about 10: not an Atout archive"
    )


def _deep_in_a_hand(archive: dict[str, Any]) -> None:
    """Written by hand by _deep_dumps (json.dumps refuses it)."""


def _big_number(archive: dict[str, Any]) -> None:
    archive["content"]["tournament"]["end_value"] = "@BIG@"


def _nul(archive: dict[str, Any]) -> None:
    archive["content"]["players"][0]["last_name"] = "Bé\u0000rard"


def _surrogate(archive: dict[str, Any]) -> None:
    archive["content"]["players"][1]["first_name"] = "Je\ud800anne"


def _nan(archive: dict[str, Any]) -> None:
    archive["content"]["rounds"][0]["tables"][0]["hands"][0]["scores"] = [float("nan"), 0]


def _infinite(archive: dict[str, Any]) -> None:
    archive["content"]["rounds"][0]["tables"][0]["hands"][0]["raw"]["points"]["A"] = 1e308 * 10


def _list_player(archive: dict[str, Any]) -> None:
    archive["content"]["competitors"][0]["players"] = [[1], 2]


DAMAGE: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("deep-in-a-hand", _deep_in_a_hand, "line 1, column "),
    ("big-number", _big_number, "the file holds a value that cannot be read"),
    ("nul", _nul, "content.players[0].last_name: text with a NUL character or a broken surrogate pair"),
    ("surrogate", _surrogate, "content.players[1].first_name: text with a NUL character or a broken surrogate pair"),
    ("nan", _nan, "the file holds NaN, which is no number JSON allows"),
    ("infinite", _infinite, "the file holds Infinity, which is no number JSON allows"),
    ("list-as-ref", _list_player, "competitors[0].players[0]: [1] is not a player ref of this archive"),
]


@pytest.mark.parametrize(("how", "damage", "message"), DAMAGE, ids=[case[0] for case in DAMAGE])
def test_a_real_archive_damaged_so_is_refused_in_one_line(
    tmp_path: Path, how: str, damage: Callable[[dict[str, Any]], None], message: str
) -> None:
    path = export(build_night().slug, tmp_path / "noel.json")
    archive = json.loads(path.read_text())
    damage(archive)
    try:
        archive["checksum"] = checksum(archive["content"])
    except (UnicodeEncodeError, RecursionError, ValueError):
        archive["checksum"] = "sha256:?"  # checked after what makes it fail here
    text = json.dumps(archive) if how != "deep-in-a-hand" else _deep_dumps(archive)
    # Numbers and nestings json.dumps will not write, written by hand.
    text = text.replace('"@BIG@"', "9" * 5000)
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    wipe()
    assert refusal(path).startswith(message)


def _deep_dumps(archive: dict[str, Any]) -> str:
    hand = archive["content"]["rounds"][0]["tables"][0]["hands"][0]
    hand["raw"] = "@DEEP@"
    return json.dumps(archive).replace('"@DEEP@"', "[" * DEEP + "1" + "]" * DEEP)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"%PDF-1.7\n\xff\xfe\x00binary", "the file is not UTF-8 text: not an Atout archive"),
        ("concours de Noël", "the file is not valid JSON (line 1, column 1: Expecting value)"),
        ("[1, 2, 3]", "not an Atout tournament archive: the file holds a list, not an object"),
        ('"atout-tournament"', "not an Atout tournament archive: the file holds text, not an object"),
        ('{"format": "atout-tournament", "version": 1, "content": []}', "content: expected an object, found a list"),
        ('{"format": "x' + "y" * 100_000 + '"}', "not an Atout tournament archive (format 'xyyyyyyy"),
        ("", "the file is not valid JSON"),
    ],
    ids=["binary", "text", "list", "string", "content-list", "long-format", "empty"],
)
def test_a_file_that_is_no_archive_is_refused_in_one_line(tmp_path: Path, data: str | bytes, message: str) -> None:
    assert refusal(write(tmp_path, data)).startswith(message)


def test_a_file_larger_than_any_archive_is_refused_unread(tmp_path: Path) -> None:
    from archive.parsing import MAX_BYTES

    path = tmp_path / "huge.json"
    with path.open("wb") as handle:
        # Sparse: the size says it all, and the command reads nothing of it.
        handle.truncate(MAX_BYTES + 1)
    assert refusal(path) == "the file is 256 MB, more than the 256 MB an archive may be: not an Atout archive"
