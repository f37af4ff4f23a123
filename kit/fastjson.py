"""JSON on the hot paths (orjson): the rankings and the hands a re-scoring moves in bulk.

A ranking of 300 teams is ~300 KB of JSON written after every stored hand and read on
every new version; a re-scoring reads and writes ten thousand hands. The standard
library's encoder and decoder were a fifth of that work. Everything else keeps `json`.
"""

from __future__ import annotations

from typing import Any

import orjson


def dumps(value: Any) -> str:
    """Compact JSON text of plain data (dicts with string keys, lists, numbers, strings)."""
    return orjson.dumps(value).decode()


def loads(text: str | bytes) -> Any:
    return orjson.loads(text)


def use_for_psycopg() -> None:
    """Decode PostgreSQL `json` columns (the snapshots' rows) with orjson.

    Django reads jsonb through its own text loader and JSONField, so this only changes
    the plain `json` columns that psycopg decodes itself.
    """
    from psycopg.types.json import set_json_loads

    set_json_loads(orjson.loads)
