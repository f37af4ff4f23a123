"""`{% ranking_rows %}`: the rows of a ranking table, built in Python; `{% ranking_progress %}`.

A ranking of 1,000 competitors is 1,000 rows of seven cells or more; the template
language spends about a third of a millisecond on each, so the first page after every
new version took ~0.3 s. Built here with the same escaping (`format_html`), the rows
cost a few microseconds each. The table around them stays in the template.

A partie still in play is counted as it stands; its competitors' rows say so under the
name ("in play, 5 donnes", or "not started"), from the row's `current_partie`
(scoring/standings/), and `ranking_progress` says above the table which rounds the
ranking counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import template
from django.utils.formats import localize
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, ngettext

from scoring.rows import SnapshotRow
from tournaments.palmares import Award, Palmares, euros, lots_text

register = template.Library()


def _number(value: Any) -> str:
    # As the template would show it (12,5 in French), without a needless ",0".
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else localize(value)
    return "" if value is None else str(value)


def _in_play_mark(row: SnapshotRow, marks: dict[int, str]) -> str:
    """The badge under the name of a competitor whose partie is still in play ("" if none).

    `marks` keeps the badges made, by donnes played: mid-round, most rows need one.
    """
    partie = row.get("current_partie")
    if not partie or partie.get("finished"):
        return ""
    donnes = int(partie.get("donnes") or 0)
    if donnes not in marks:
        if donnes:
            text = ngettext("in play, %(count)s donne", "in play, %(count)s donnes", donnes) % {"count": donnes}
            marks[donnes] = format_html(' <span class="in-play">{}</span>', text)
        else:
            marks[donnes] = format_html(' <span class="in-play not-started">{}</span>', gettext("not started"))
    return marks[donnes]


def _round_list(numbers: list[int]) -> str:
    """1 · 1 and 2 · 1 to 4 (rounds close in order: a run is the usual case)."""
    if len(numbers) == 1:
        return str(numbers[0])
    if len(numbers) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return gettext("%(first)s to %(last)s") % {"first": numbers[0], "last": numbers[-1]}
    rest = ", ".join(str(number) for number in numbers[:-1])
    return gettext("%(rest)s and %(last)s") % {"rest": rest, "last": numbers[-1]}


@register.simple_tag
def ranking_progress(progress: Mapping[str, Any] | None) -> str:
    """What the ranking counts: "Rounds 1 and 2 closed, round 3 in play" ("" before any round)."""
    if not progress:
        return ""
    closed, in_play = list(progress.get("closed") or []), progress.get("in_play")
    values = {"rounds": _round_list(closed) if closed else "", "current": in_play}
    if closed and in_play:
        return (
            ngettext(
                "Round %(rounds)s closed, round %(current)s in play",
                "Rounds %(rounds)s closed, round %(current)s in play",
                len(closed),
            )
            % values
        )
    if closed:
        return ngettext("Round %(rounds)s closed", "Rounds %(rounds)s closed", len(closed)) % values
    if in_play:
        return gettext("Round %(current)s in play") % values
    return ""


def _prize_mark(award: Award | None) -> str:
    """What the row's rank wins (*palmarès*) under the name: its money, its lots; ""
    when it wins nothing."""
    if award is None:
        return ""
    marks = []
    if award.money is not None:
        marks.append(
            format_html(
                ' <span class="prize-money"><span class="visually-hidden">{} </span>{}</span>',
                gettext("Prize money:"),
                euros(award.money),
            )
        )
    if award.lots:
        marks.append(
            format_html(
                ' <span class="prize-lot"><span class="visually-hidden">{} </span>{}</span>',
                gettext("Lot:"),
                lots_text(award),
            )
        )
    # Each mark is escaped by format_html: their join is safe too.
    return mark_safe("".join(marks))


@register.simple_tag
def ranking_rows(rows: Iterable[SnapshotRow], competitor_base: str, prizes: Palmares | str = "") -> SafeString:
    """One <tr> per row: rank, number, name linked to the competitor's page (its partie in
    play, what its rank wins when `prizes`, the palmarès, are given), the criteria, played."""
    return mark_safe("\n".join(row_list(rows, competitor_base, prizes)))


# Rows drawn before, by what they show: from one version to the next most rows of a long
# ranking show the same, and a publication draws every row of it every second (bounded:
# cleared when full).
_DRAWN: dict[tuple[Any, ...], SafeString] = {}
DRAWN_MAX = 50_000


def row_list(rows: Iterable[SnapshotRow], competitor_base: str, prizes: Palmares | str = "") -> list[SafeString]:
    """The rows of `ranking_rows`, each its own <tr> (a page of the ranking takes a slice:
    the prizes of tied ranks are shared over the whole ranking, not a page). A row showing
    what a row drawn before showed, in the same language, is that row's text again."""
    rows = list(rows)
    awards = prizes.awards(row.get("rank") for row in rows) if isinstance(prizes, Palmares) else {}
    withdrawn = format_html(' <span class="muted">({})</span>', gettext("withdrawn"))
    withdrawn_class = mark_safe(' class="withdrawn"')
    marks: dict[int, str] = {}
    language = get_language()
    if len(_DRAWN) > DRAWN_MAX:
        _DRAWN.clear()

    def drawn(row: SnapshotRow) -> SafeString:
        prize = _prize_mark(awards.get(row.get("rank"))) if awards else ""
        key = (
            language,
            competitor_base,
            row.get("rank"),
            row.get("number"),
            row.get("name"),
            bool(row.get("withdrawn")),
            tuple(row.get("values") or ()),
            row.get("played"),
            _in_play_mark(row, marks),
            prize,
        )
        text = _DRAWN.get(key)
        if text is None:
            text = _DRAWN[key] = format_html(
                '<tr{}><td class="num rank">{}</td><td class="num">{}</td><td><a href="{}{}/">{}</a>{}{}{}</td>{}'
                '<td class="num">{}</td></tr>',
                withdrawn_class if key[5] else "",
                key[2],
                key[3],
                competitor_base,
                key[3],
                key[4],
                withdrawn if key[5] else "",
                key[8],
                prize,
                format_html_join("", '<td class="num">{}</td>', ((_number(v),) for v in key[6])),
                key[7],
            )
        return text

    return [drawn(row) for row in rows]


@register.simple_tag
def in_play_mark(row: SnapshotRow | None) -> str:
    """The badge a row of the ranking carries while its partie is in play ("in play, 5 donnes",
    "not started"), for a page that shows one row (« Ma soirée »)."""
    return _in_play_mark(row, {}) if row else ""


@register.filter(name="lots_text")
def lots_text_filter(award: Award) -> str:
    """`{{ award|lots_text }}`: the lots an award wins in one line (tournaments.palmares)."""
    return lots_text(award)
