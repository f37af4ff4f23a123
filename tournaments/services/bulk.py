"""Registering several players at once: ticked in the club's list, or pasted as names.

A *pasted list* is one player a line, « Prénom Nom » or « Nom Prénom », a licence number
after the name if known, cells split by tabs, semicolons or commas when copied from a
spreadsheet. Each line is matched as the CSV import matches (tournaments/csv_import.py):
the same licence, or the same name, accents, case and word order aside, unless two
licences differ. A line names a player of the club (*found*), several (*to choose*), or
none (*new*: created only when the director confirms it, with `public_history` off, as
an imported player: docs/glossary.md).

In a tournament of fixed teams the players form teams two by two in the order given;
otherwise each is registered alone. Each team or player is registered as the one-by-one
form would (`competitor_register`: the one-person rule holds), in a savepoint of its
own: one refused leaves the others registered, and the summary says which and why.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import csv_import
from tournaments.access import require_organiser
from tournaments.models import Club, Competitor, Player, Tournament
from tournaments.services.players import NewPlayer, player_label
from tournaments.services.registration import (
    _check_can_join,
    _players_per_competitor,
    competitor_register,
)

MAX_LINES = 400
_CELLS = re.compile(r"[\t;,]")


@dataclass(slots=True)
class PastedLine:
    """One line of a pasted list, read and matched against the club's players."""

    line: int
    text: str
    first_name: str = ""
    last_name: str = ""
    licence: str = ""
    found: Player | None = None
    candidates: list[Player] = field(default_factory=list)
    error: str = ""

    @property
    def status(self) -> str:
        """ "error", "found", "choose" (several players of the club) or "new"."""
        if self.error:
            return "error"
        if self.found is not None:
            return "found"
        return "choose" if self.candidates else "new"


@dataclass(slots=True)
class BulkResult:
    """What a bulk registration did: who was added, who was in already, who was refused and why."""

    added: list[Competitor] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)


def _split_name(cells: list[str]) -> tuple[str, str]:
    """(first name, last name) of a line's name cells: a word in capitals is the last name
    (« LEFÈVRE Hélène »); else two cells are « Nom ; Prénom » as spreadsheets put them, and
    one cell is « Prénom Nom ». A guess: only a new player's name depends on it, and the
    director reads it before confirming."""
    words = [w for cell in cells for w in cell.split()]
    capitals = [w for w in words if w.isupper() and len(w) > 1]
    if capitals and len(capitals) < len(words):
        return " ".join(w for w in words if w not in capitals), " ".join(capitals)
    if len(cells) >= 2:
        return " ".join(cells[1:]), cells[0]
    return " ".join(words[:-1]), words[-1]


def parse_line(number: int, text: str) -> PastedLine:
    """A line's name and licence (no database): a cell or trailing words with digits are the licence."""
    line = PastedLine(number, text.strip())
    if _CELLS.search(line.text):
        cells = [" ".join(c.split()) for c in _CELLS.split(line.text) if c.strip()]
        licences = [c for c in cells if any(ch.isdigit() for ch in c)]
        names = [c for c in cells if c not in licences]
    else:
        words = line.text.split()
        licences = []
        while words and any(ch.isdigit() for ch in words[-1]):
            licences.insert(0, words.pop())
        names = [" ".join(words)] if words else []
    line.licence = " ".join(licences)
    if sum(len(n.split()) for n in names) < 2:
        line.error = _("Give the first and the last name.")
        return line
    line.first_name, line.last_name = _split_name(names)
    if len(line.first_name) > 100 or len(line.last_name) > 100 or len(line.licence) > 30:
        line.error = _("Too long for a name (100 characters) or a licence (30).")
    return line


def pasted_lines_read(*, by: User, club: Club, text: str) -> list[PastedLine]:
    """Every non-blank line of `text`, matched against the club's players (anonymised ones aside)."""
    require_organiser(by, club)
    lines = [parse_line(n, t) for n, t in enumerate(text.splitlines(), start=1) if t.strip()]
    if len(lines) > MAX_LINES:
        raise ValidationError({"text": [_("At most %(max)s lines at once.") % {"max": MAX_LINES}]})
    players = list(Player.objects.filter(club=club, anonymised_at__isnull=True).select_related("club"))
    by_licence = {csv_import.licence_key(p.licence): p for p in players if p.licence}
    by_words: dict[tuple[str, ...], list[Player]] = {}
    for player in players:
        by_words.setdefault(csv_import.person_words(player.last_name, player.first_name), []).append(player)
    for line in lines:
        if line.error:
            continue
        if line.licence and csv_import.licence_key(line.licence) in by_licence:
            line.found = by_licence[csv_import.licence_key(line.licence)]
            continue
        namesakes = by_words.get(csv_import.person_words(line.last_name, line.first_name), [])
        candidates = [p for p in namesakes if csv_import.same_person(p.licence, line.licence)]
        if len(candidates) == 1:
            line.found = candidates[0]
        else:
            line.candidates = candidates
    return lines


def _label(players: Sequence[Player | NewPlayer]) -> str:
    return " – ".join(
        player_label(p) if isinstance(p, Player) else f"{p.first_name} {p.last_name}".strip() for p in players
    )


@transaction.atomic
def competitors_register_many(
    *, by: User, tournament: Tournament, players: Sequence[Player | NewPlayer], checked_in: bool = False
) -> BulkResult:
    """Register `players` in the order given: two by two into teams, or one by one.

    The whole list is refused only when nobody may register (registration closed); then
    each team or player is registered, or refused with its reason, on its own.
    """
    require_organiser(by, tournament.club)
    tournament = Tournament.objects.select_for_update().select_related("club").get(pk=tournament.pk)
    _check_can_join(tournament)
    size = _players_per_competitor(tournament)
    result = BulkResult()
    for start in range(0, len(players), size):
        group = list(players[start : start + size])
        if len(group) < size:
            result.refused.append((_label(group), _("Alone: a team is two players. Add a partner.")))
            continue
        try:
            with transaction.atomic():
                competitor = competitor_register(by=by, tournament=tournament, players=group, checked_in=checked_in)
        except ValidationError as error:
            problems = error.error_dict.values() if hasattr(error, "error_dict") else [error.error_list]
            codes = {getattr(problem, "code", None) for listed in problems for problem in listed}
            if size == 1 and codes == {"already_registered"}:
                result.already.append(_label(group))
            else:
                result.refused.append((_label(group), " ".join(error.messages)))
        else:
            result.added.append(competitor)
    return result
