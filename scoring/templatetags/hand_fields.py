"""The referee form's inputs, written out directly.

Django's widgets render each input and option through a template of its own; the
referee's form has some eighty of them (chips, announcement menus) and is rendered on
every donne, so these tags write the same HTML from Python instead. They read the bound
field's name, id and value, so a refused entry comes back exactly as it was typed.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import cast

from django import template
from django.forms import BoundField, ChoiceField
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


def _chosen(field: BoundField) -> set[str]:
    value = field.value()
    if value is None:
        return set()
    if isinstance(value, list | tuple):
        return {str(item) for item in value}
    return {str(value)}


@register.simple_tag
def chips(field: BoundField) -> SafeString:
    """Radio buttons (or checkboxes, for a multiple choice) as big labels to tap."""
    kind = "checkbox" if getattr(field.field.widget, "allow_multiple_selected", False) else "radio"
    chosen = _chosen(field)
    name, auto_id = escape(field.html_name), escape(field.auto_id or field.html_name)
    # The field's own `menu` when it has one (the choices shown differ), else its choices.
    # (A choice field's `choices` reads back as the list of pairs, whatever it was set with.)
    choices = cast(
        "Iterable[tuple[object, object]]",
        getattr(field.field, "menu", None) or cast(ChoiceField, field.field).choices,
    )
    # The standard library's escape: these strings are plain, and this runs for every chip.
    labels = "".join(
        f'<label class="chip"><input type="{kind}" name="{name}" value="{escape(str(value))}" id="{auto_id}_{index}"'
        f"{' checked' if str(value) in chosen else ''}>"
        f"<span{_suit_class(str(label))}>{escape(str(label))}</span></label>"
        for index, (value, label) in enumerate(choices)
    )
    return mark_safe(f'<div class="chips">{labels}</div>')


def _suit_class(label: str) -> str:
    # Diamonds and hearts are red, as on the cards: a referee finds them at a glance.
    return ' class="suit-red"' if label[:1] in ("♦", "♥") else ""


@register.simple_tag
def error_slot(field: BoundField, oob: bool = False) -> SafeString:
    """The slot beside a field where its errors go (swapped alone by the check while typing)."""
    errors = "".join(f'<p class="error">{escape(str(error))}</p>' for error in field.errors)
    return format_html(
        '<div class="field-errors" id="err-{}"{} aria-live="polite">{}</div>',
        field.html_name,
        mark_safe(' hx-swap-oob="true"') if oob else "",
        mark_safe(errors),
    )


@register.simple_tag
def text_input(field: BoundField) -> SafeString:
    attrs = field.field.widget.attrs
    value = field.value()
    extra = format_html_join("", ' {}="{}"', ((key, val) for key, val in attrs.items() if key != "class"))
    return format_html(
        '<input type="text" name="{}" id="{}" class="{}" value="{}"{}>',
        field.html_name,
        field.auto_id,
        attrs.get("class", ""),
        "" if value is None else value,
        extra,
    )


@register.simple_tag
def checkbox(field: BoundField) -> SafeString:
    return format_html(
        '<input type="checkbox" name="{}" id="{}"{}>',
        field.html_name,
        field.auto_id,
        " checked" if field.value() else "",
    )
