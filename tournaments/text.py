"""Text the French way: searching without accents or case, sorting as a French reader does.

A director types "helene" for Hélène and "berard" for Bérard; a list puts Bérard before
Boyer. Both need the same *folded* form of a name: accents removed (é -> e, ç -> c,
œ -> oe), case ignored, so a search compares folded words with folded names and a sort
compares folded names first (with the original text breaking ties, so "Eve" and "Ève" keep
a stable order). The database side stores these keys (Player.search_key) so that
PostgreSQL and SQLite search and sort alike without a collation or an extension.
"""

from __future__ import annotations

import unicodedata

from django.db.models import CharField, Func

# Letters that Unicode does not decompose into a base letter and an accent.
_LIGATURES = str.maketrans({"œ": "oe", "Œ": "oe", "æ": "ae", "Æ": "ae", "ß": "ss", "ø": "o", "Ø": "o"})


def fold(text: str) -> str:
    """`text` without accents, in lower case, its spaces squeezed: "  Hélène  ŒUF" -> "helene oeuf"."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_LIGATURES))
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(bare.casefold().split())


def matches(query: str, *texts: str) -> bool:
    """Whether every word of `query` is found in one of `texts`, accents and case aside."""
    haystack = " ".join(fold(text) for text in texts)
    return all(word in haystack for word in fold(query).split())


def sort_key(text: str) -> tuple[str, str]:
    """The order of a French list: folded text first, the text itself to break ties."""
    return fold(text), text


# The accented letters the database folds the way `fold` does, for PostgreSQL's translate().
_ACCENTED = "àáâãäåāăąçćčďèéêëēĕėęěìíîïīĭįıñńňòóôõöōŏőùúûüūŭůűųýÿźżžśšşţťŕřľĺłđ"


def _fold_table() -> tuple[str, str]:
    letters = _ACCENTED + _ACCENTED.upper()
    pairs = [(char, fold(char)) for char in letters]
    kept = [(char, bare) for char, bare in pairs if len(bare) == 1 and bare != char]
    return "".join(c for c, _ in kept), "".join(b for _, b in kept)


def postgres_fold_function_sql() -> str:
    """SQL creating `atout_fold(text)` on PostgreSQL: `fold` for the letters of European names.

    The ligatures become two letters first; the accented letters lose their accent; then
    everything goes to lower case. (SQLite calls `fold` itself: see TournamentsConfig.)
    """
    source, target = _fold_table()
    expression = "$1"
    for ligature, letters in (("œ", "oe"), ("Œ", "oe"), ("æ", "ae"), ("Æ", "ae"), ("ß", "ss")):
        expression = f"replace({expression}, '{ligature}', '{letters}')"
    return (
        "CREATE OR REPLACE FUNCTION atout_fold(text) RETURNS text AS "
        f"$$ SELECT lower(translate({expression}, '{source}', '{target}')) $$ "
        "LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE"
    )


def sqlite_fold(value: str | None) -> str | None:
    return None if value is None else fold(value)


class Fold(Func):
    """`fold` in the database: order_by(Fold("last_name")) sorts Bérard before Boyer."""

    function = "atout_fold"
    arity = 1
    output_field = CharField()
