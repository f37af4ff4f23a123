"""The French catalogue: complete, compiled, and covering the engine's messages."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import polib
from django.utils import translation

from tests.conftest import ROOT

CATALOGUE = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"


def engine_templates() -> set[str]:
    """Every English message template the engine marks with gettext_noop."""
    found: set[str] = set()
    for path in Path(ROOT / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "gettext_noop"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.add(node.args[0].value)
    return found


def test_every_engine_message_reads_in_french() -> None:
    templates = engine_templates()
    assert len(templates) > 30
    with translation.override("fr"):
        untranslated = sorted(t for t in templates if translation.gettext(t) == t)
    assert untranslated == []


def test_french_translations_keep_the_placeholders_of_the_english() -> None:
    catalogue = polib.pofile(str(CATALOGUE))
    drifted = []
    for entry in catalogue.translated_entries():
        # A plural entry's translations live in msgstr_plural, one per form.
        translations = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        for translation_text in translations:
            if "python-brace-format" in entry.flags and set(_braces(translation_text)) != set(_braces(entry.msgid)):
                drifted.append(entry.msgid)
            if "python-format" in entry.flags and _named(translation_text) - _named(entry.msgid_plural or entry.msgid):
                drifted.append(entry.msgid)
    assert drifted == []


def _named(text: str) -> set[str]:
    """The %(name)s placeholders of a text."""
    return set(re.findall(r"%\((\w+)\)", text))


def _braces(text: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(text) if name]


def test_the_french_catalogue_leaves_nothing_untranslated_or_fuzzy() -> None:
    catalogue = polib.pofile(str(CATALOGUE))
    missing = [entry.msgid for entry in catalogue.untranslated_entries() + catalogue.fuzzy_entries()]
    assert missing == []
