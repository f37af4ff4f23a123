"""The referee form's inputs, written out directly.

Django's widgets render each input and option through a template of its own; the
referee's form has some eighty of them (chips, announcement menus) and is rendered on
every donne, so these tags write the same HTML from Python instead. They read the bound
field's name, id and value, so a refused entry comes back exactly as it was typed.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.forms import BoundField
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

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
    rows: list[tuple[Any, ...]] = []
    for index, (value, label) in enumerate(field.field.choices):
        checked = " checked" if str(value) in chosen else ""
        rows.append((kind, field.html_name, value, f"{field.auto_id}_{index}", checked, label))
    return format_html(
        '<div class="chips">{}</div>',
        format_html_join(
            "",
            '<label class="chip"><input type="{}" name="{}" value="{}" id="{}"{}><span>{}</span></label>',
            rows,
        ),
    )


@register.simple_tag
def choice_select(field: BoundField) -> SafeString:
    chosen = _chosen(field)
    options = format_html_join(
        "",
        '<option value="{}"{}>{}</option>',
        ((value, " selected" if str(value) in chosen else "", label) for value, label in field.field.choices),
    )
    return format_html('<select name="{}" id="{}">{}</select>', field.html_name, field.auto_id, options)


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
