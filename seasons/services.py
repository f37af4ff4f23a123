"""Creating and editing a season (terms: docs/glossary.md).

A club's organisers (its administrators among them) create a season, set its name,
dates, scheme and placing table, and choose which of the club's tournaments it counts.
Errors are raised as a ValidationError keyed by field, in French through gettext.
"""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from seasons.models import Season
from tournaments.access import require_organiser
from tournaments.models import Club, Tournament

MAX_PLACING_ENTRIES = 100
MAX_NAME = 200
SLUG_LENGTH = 80


def parse_placing_points(text: str) -> list[int]:
    """'25, 20, 16' -> [25, 20, 16]; a ValidationError on anything else."""
    parts = [part.strip() for part in text.replace(";", ",").split(",")]
    parts = [part for part in parts if part]
    values: list[int] = []
    for part in parts:
        if not part.isdigit() or len(part) > 9:
            raise ValidationError(_("“%(value)s” is not a whole number of points.") % {"value": part[:20]})
        values.append(int(part))
    return values


def _check_placing(placing_points: Any) -> list[int]:
    if not isinstance(placing_points, list) or not all(
        isinstance(value, int) and not isinstance(value, bool) and value >= 0 for value in placing_points
    ):
        raise ValidationError({"placing_points": _("The placing table is a list of whole numbers, 0 or more.")})
    if len(placing_points) > MAX_PLACING_ENTRIES:
        raise ValidationError(
            {"placing_points": _("At most %(count)d places in the placing table.") % {"count": MAX_PLACING_ENTRIES}}
        )
    if any(later > earlier for earlier, later in itertools.pairwise(placing_points)):
        raise ValidationError({"placing_points": _("Each place must earn no more points than the one above it.")})
    return list(placing_points)


def _check(
    *, name: str, starts: datetime.date | None, ends: datetime.date | None, scheme: str, placing_points: Any
) -> tuple[str, list[int]]:
    errors: dict[str, str] = {}
    name = (name or "").strip()
    if not name:
        errors["name"] = _("The season needs a name.")
    elif len(name) > MAX_NAME:
        errors["name"] = _("The name is too long.")
    if scheme not in Season.Scheme.values:
        errors["scheme"] = _("Unknown scheme.")
    if starts is not None and ends is not None and ends < starts:
        errors["ends"] = _("The season cannot end before it starts.")
    try:
        table = _check_placing(placing_points)
    except ValidationError as error:
        errors.update({field: messages[0] for field, messages in error.message_dict.items()})
        table = []
    if errors:
        raise ValidationError(errors)
    return name, table


def _unique_slug(name: str, exclude: int | None = None) -> str:
    base = slugify(name)[: SLUG_LENGTH - 6].strip("-") or "saison"
    others = Season.objects.filter(slug__startswith=base)
    if exclude is not None:
        others = others.exclude(pk=exclude)
    taken = set(others.values_list("slug", flat=True))
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    return slug


@transaction.atomic
def season_create(
    *,
    by: User,
    club: Club,
    name: str,
    starts: datetime.date | None = None,
    ends: datetime.date | None = None,
    scheme: str = Season.Scheme.PLACING,
    placing_points: Any = (),
) -> Season:
    """A new season of `club`, its public address derived from its name."""
    require_organiser(by, club)
    name, table = _check(name=name, starts=starts, ends=ends, scheme=scheme, placing_points=list(placing_points))
    try:
        with transaction.atomic():
            return Season.objects.create(
                club=club, name=name, slug=_unique_slug(name), starts=starts, ends=ends, scheme=scheme,
                placing_points=table,
            )  # fmt: skip
    except IntegrityError:
        # Another season took the same address between the look-up and the insert.
        raise ValidationError({"name": _("A season of that name was just created: save again.")}) from None


@transaction.atomic
def season_update(
    *,
    by: User,
    season: Season,
    name: str,
    starts: datetime.date | None = None,
    ends: datetime.date | None = None,
    scheme: str = Season.Scheme.PLACING,
    placing_points: Any = (),
) -> Season:
    """New name, dates, scheme or placing table; the public address stays as it was."""
    require_organiser(by, season.club)
    name, table = _check(name=name, starts=starts, ends=ends, scheme=scheme, placing_points=list(placing_points))
    season.name, season.starts, season.ends = name, starts, ends
    season.scheme, season.placing_points = scheme, table
    season.save(update_fields=["name", "starts", "ends", "scheme", "placing_points"])
    return season


@transaction.atomic
def season_tournaments_set(*, by: User, season: Season, tournaments: Iterable[Tournament]) -> None:
    """The season counts exactly `tournaments`, which must all be the club's own."""
    require_organiser(by, season.club)
    chosen = list(tournaments)
    if any(tournament.club_id != season.club_id for tournament in chosen):
        raise ValidationError({"tournaments": _("A season counts only its club’s tournaments.")})
    season.tournaments.set(chosen)
