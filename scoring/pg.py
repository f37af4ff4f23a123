"""A PostgreSQL cursor for the bulk statements (a re-scoring's hands and table results)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection


@contextmanager
def server_bound_cursor() -> Iterator[Any]:
    """A psycopg cursor on Django's connection that sends parameters apart from the SQL.

    Django binds parameters on the client, inlining them into the statement: a 2 MB JSON
    document then travels as a quoted literal that PostgreSQL has to scan as SQL. Here it
    travels as a parameter. Use inside Django's transaction (it is the same connection).
    """
    import psycopg

    connection.ensure_connection()
    with psycopg.Cursor(connection.connection) as cursor:
        yield cursor
