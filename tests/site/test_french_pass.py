"""The French reads as French and the English as English: typography and words a reader notices."""

from __future__ import annotations

import re

import polib

from tests.site.test_i18n import CATALOGUE

FRENCH = polib.pofile(str(CATALOGUE))


def _translations(entry: polib.POEntry) -> list[str]:
    return list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]


def test_french_uses_curly_apostrophes_only() -> None:
    straight = [text for entry in FRENCH for text in _translations(entry) if "'" in text]
    assert straight == []


def test_french_puts_a_space_before_colons_semicolons_and_question_marks() -> None:
    # "%(time)s:" or a URL aside, a French ":" ";" "?" "!" follows a space.
    tight = re.compile(r"[^\s\u00a0\u202f(«/\d][:;?!](\s|$)")
    missing = [text for entry in FRENCH for text in _translations(entry) if tight.search(text)]
    assert missing == []


def test_english_source_texts_use_english_spacing() -> None:
    french_spacing = [entry.msgid for entry in FRENCH if re.search(r"\w [:;?!](\s|$)", entry.msgid)]
    assert french_spacing == []


def test_a_team_or_a_woman_is_never_inscrit() -> None:
    gendered = [text for entry in FRENCH for text in _translations(entry) if re.search(r"\binscrit\b", text)]
    assert gendered == []
