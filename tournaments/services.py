"""Every write of the tournament side, one function per use case, each in a transaction.

Services are named `<noun>_<verb>`, take keyword arguments only, and take `by`, the user
acting: each one checks through `tournaments.access` that `by` organises the club
concerned (PermissionDenied otherwise) before it changes anything. A rule broken by the
request raises `ValidationError`, keyed by the field it concerns when there is one, with a
message in the active language; views show it beside that field.

What may change when, by tournament status:

- *draft*: everything; nobody can register yet.
- *registration*: everything; players register and check in (*pointage*).
- *running*: rounds are drawn and played; the game, format, end of a partie, rule options
  and ranking criteria are fixed; late arrivals may still join before round 2.
- *finished*: only the name, date and visibility.

Terms: a *late arrival* joins after round 1 is drawn (and before round 2 is): the rounds
they missed are recorded as byes with reason "late", which the bye policy credits.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

import engine
from scoring.models import Hand, TableResult
from scoring.standings import standings_schedule_refresh
from tournaments import csv_import, games, pairing
from tournaments.access import require_organiser
from tournaments.models import Bye, Club, Competitor, ForbiddenPair, Player, Round, Seat, Table, Tournament

Status = Tournament.Status
Errors = dict[str, list[str]]


def _raise(errors: Errors) -> None:
    if errors:
        raise ValidationError(errors)


def _fail(message: str, field: str = NON_FIELD_ERRORS) -> ValidationError:
    return ValidationError({field: [message]})


def _refresh_standings_after_commit(tournament: Tournament) -> None:
    """Byes, forfeits and withdrawals change the ranking: ask scoring for it once this commits."""
    tournament_id = tournament.pk
    transaction.on_commit(lambda: standings_schedule_refresh(tournament_id=tournament_id))


# -- players ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NewPlayer:
    """A player created on the spot while registering (not yet in the club's list)."""

    last_name: str
    first_name: str
    licence: str = ""
    affiliation: str = ""


def _player_errors(
    club: Club, last_name: str, first_name: str, licence: str, affiliation: str, exclude_pk: int | None
) -> Errors:
    """Empty names, and duplicates by the import's rule: same licence, or same name unless licences differ."""
    errors: Errors = {}
    if not last_name.strip():
        errors["last_name"] = [_("Give the last name.")]
    if not first_name.strip():
        errors["first_name"] = [_("Give the first name.")]
    if errors:
        return errors
    others = Player.objects.filter(club=club).exclude(pk=exclude_pk)
    if licence.strip():
        twin = others.filter(licence__iexact=licence.strip()).first()
        if twin is not None:
            errors["licence"] = [_("Licence already given to %(player)s.") % {"player": twin.full_name}]
            return errors
    club_label = affiliation.strip() or club.name
    key = csv_import.name_key(last_name, first_name, club_label)
    for other in others.filter(last_name__iexact=last_name.strip()):
        same_name = csv_import.name_key(other.last_name, other.first_name, other.club_label) == key
        if same_name and csv_import.same_person(other.licence, licence.strip()):
            errors["last_name"] = [
                _("%(player)s is already in the club: give a licence number to tell them apart.")
                % {"player": other.full_name}
            ]
            break
    return errors


@transaction.atomic
def player_create(
    *,
    by: AbstractBaseUser,
    club: Club,
    last_name: str,
    first_name: str,
    licence: str = "",
    affiliation: str = "",
    email: str = "",
    phone: str = "",
) -> Player:
    require_organiser(by, club)
    _raise(_player_errors(club, last_name, first_name, licence, affiliation, None))
    return Player.objects.create(
        club=club,
        last_name=last_name.strip(),
        first_name=first_name.strip(),
        licence=licence.strip(),
        affiliation=csv_import.affiliation_for(affiliation.strip(), club.name, club.slug),
        email=email.strip(),
        phone=phone.strip(),
    )


@transaction.atomic
def player_update(
    *,
    by: AbstractBaseUser,
    player: Player,
    last_name: str,
    first_name: str,
    licence: str = "",
    affiliation: str = "",
    email: str = "",
    phone: str = "",
) -> Player:
    require_organiser(by, player.club)
    _raise(_player_errors(player.club, last_name, first_name, licence, affiliation, player.pk))
    player.last_name, player.first_name = last_name.strip(), first_name.strip()
    player.licence = licence.strip()
    player.affiliation = csv_import.affiliation_for(affiliation.strip(), player.club.name, player.club.slug)
    player.email, player.phone = email.strip(), phone.strip()
    player.save()
    return player


def players_import_preview(*, by: AbstractBaseUser, club: Club, text: str) -> csv_import.ImportPreview:
    """What importing `text` would do: every row checked against the file and the club's players."""
    require_organiser(by, club)
    known = [
        csv_import.KnownPlayer(p.last_name, p.first_name, p.licence, p.club_label, f"{p.full_name} ({p.licence})")
        if p.licence
        else csv_import.KnownPlayer(p.last_name, p.first_name, p.licence, p.club_label, p.full_name)
        for p in Player.objects.filter(club=club).select_related("club")
    ]
    return csv_import.parse_players(text, club_name=club.name, club_slug=club.slug, known=known)


@transaction.atomic
def players_import(*, by: AbstractBaseUser, club: Club, text: str) -> list[Player]:
    """Create the new players of a valid file; one bad row and nothing is written."""
    # Serialise imports into one club, so two uploads of the same file cannot both pass
    # the duplicate check before either has written.
    Club.objects.select_for_update().get(pk=club.pk)
    preview = players_import_preview(by=by, club=club, text=text)
    if not preview.valid:
        messages = list(preview.file_errors) + [
            _("Line %(line)s: %(error)s") % {"line": row.line, "error": error}
            for row in preview.bad_rows
            for error in row.errors
        ]
        raise ValidationError({NON_FIELD_ERRORS: messages})
    players = [
        Player(
            club=club,
            last_name=row.last_name,
            first_name=row.first_name,
            licence=row.licence,
            affiliation=csv_import.affiliation_for(row.club, club.name, club.slug),
        )
        for row in preview.to_import
    ]
    return Player.objects.bulk_create(players)


# -- tournaments -----------------------------------------------------------------------

# Fixed once rounds are drawn: changing them would change every score already entered.
LOCKED_WHEN_RUNNING = ("game", "format", "end_rule", "end_value", "rule_options", "criteria")
EDITABLE_WHEN_FINISHED = ("name", "date", "is_public")
TOURNAMENT_FIELDS = (
    "name",
    "date",
    "game",
    "format",
    "rounds_planned",
    "end_rule",
    "end_value",
    "pairing_method",
    "criteria",
    "bye_policy",
    "bye_points",
    "separate_clubs_rounds",
    "rule_options",
    "is_public",
    "confirmation_required",
)
MAX_ROUNDS = 30


def _option_errors(game_code: str, rule_options: Mapping[str, Any]) -> tuple[dict[str, Any], Errors]:
    """The game's options resolved by the engine, and an error per option it refuses."""
    game = engine.get_game(game_code)
    errors: Errors = {}
    for name, value in rule_options.items():
        try:
            game.resolve_options({name: value})
        except engine.OptionError:
            known = {spec.name for spec in game.option_specs}
            message = (
                _("This value is not allowed for this game.")
                if name in known
                else _("The game %(game)s has no option “%(option)s”.") % {"game": game_code, "option": name}
            )
            errors.setdefault(f"option_{name}" if name in known else "rule_options", []).append(message)
    if errors:
        return {}, errors
    return game.resolve_options(dict(rule_options)), {}


def _clean_tournament(values: dict[str, Any]) -> dict[str, Any]:
    """Fill the game's defaults in `values` and check every field; raises ValidationError."""
    errors: Errors = {}
    if not str(values.get("name") or "").strip():
        errors["name"] = [_("Give the tournament a name.")]
    values["name"] = str(values.get("name") or "").strip()[:200]
    if not isinstance(values.get("date"), datetime.date):
        errors["date"] = [_("Give the date.")]
    game = values.get("game")
    if game not in engine.GAMES:
        errors["game"] = [_("Choose a game.")]
        _raise(errors)
    formats = games.formats_for(game)
    values["format"] = values.get("format") or formats[0]
    if values["format"] not in formats:
        errors["format"] = [
            _("This game is played in these formats only: %(formats)s.")
            % {"formats": ", ".join(str(Tournament.Format(f).label) for f in formats)}
        ]
    if not 1 <= int(values.get("rounds_planned") or 0) <= MAX_ROUNDS:
        errors["rounds_planned"] = [_("Between 1 and %(max)s rounds.") % {"max": MAX_ROUNDS}]
    errors.update(_end_errors(values, game))
    if values.get("pairing_method") not in Tournament.PairingMethod.values:
        errors["pairing_method"] = [_("Choose how later rounds are drawn.")]
    errors.update(_criteria_errors(values, game))
    if values.get("bye_policy") not in Tournament.ByePolicy.values:
        errors["bye_policy"] = [_("Choose what a bye is worth.")]
    values["bye_points"] = int(values.get("bye_points") or 0)
    if values["bye_points"] < 0:
        errors["bye_points"] = [_("A bye cannot be worth fewer than 0 points.")]
    values["separate_clubs_rounds"] = int(values.get("separate_clubs_rounds") or 0)
    if not 0 <= values["separate_clubs_rounds"] <= int(values.get("rounds_planned") or 0):
        errors["separate_clubs_rounds"] = [_("Between 0 and the number of rounds.")]
    options, option_errors = _option_errors(game, values.get("rule_options") or {})
    errors.update(option_errors)
    values["rule_options"] = options
    _raise(errors)
    return values


def _end_errors(values: dict[str, Any], game: str) -> Errors:
    end_rule = values.get("end_rule") or Tournament.EndRule.DONNES
    values["end_rule"] = end_rule
    if end_rule not in Tournament.EndRule.values:
        return {"end_rule": [_("Choose how a partie ends.")]}
    if not values.get("end_value"):
        values["end_value"] = games.default_end_value(game, end_rule)
    if values["end_value"] is None:
        return {"end_value": [_("This game has no usual target score: give one.")]}
    low, high = (1, 100) if end_rule == Tournament.EndRule.DONNES else (100, 10_000)
    if not low <= int(values["end_value"]) <= high:
        return {"end_value": [_("Between %(low)s and %(high)s.") % {"low": low, "high": high}]}
    return {}


def _criteria_errors(values: dict[str, Any], game: str) -> Errors:
    criteria = list(values.get("criteria") or games.default_criteria(game))
    values["criteria"] = criteria
    if any(key not in games.CRITERIA_LABELS for key in criteria) or len(set(criteria)) != len(criteria):
        return {"criteria": [_("Choose the ranking criteria among parties won, total points, points difference.")]}
    return {}


def _unique_slug(name: str, date: datetime.date) -> str:
    base = slugify(f"{name} {date.isoformat()}")[:70] or "tournoi"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def tournament_create(
    *,
    by: AbstractBaseUser,
    club: Club,
    name: str,
    date: datetime.date,
    game: str,
    format: str = "",
    rounds_planned: int = 4,
    end_rule: str = Tournament.EndRule.DONNES,
    end_value: int | None = None,
    pairing_method: str = Tournament.PairingMethod.SWISS,
    criteria: Sequence[str] | None = None,
    bye_policy: str = Tournament.ByePolicy.AVERAGE_WIN,
    bye_points: int = 0,
    separate_clubs_rounds: int = 0,
    rule_options: Mapping[str, Any] | None = None,
    is_public: bool = True,
    confirmation_required: bool = False,
) -> Tournament:
    """A new tournament in draft, the game's defaults filled in where nothing was given."""
    require_organiser(by, club)
    values = _clean_tournament(
        {
            "name": name,
            "date": date,
            "game": game,
            "format": format,
            "rounds_planned": rounds_planned,
            "end_rule": end_rule,
            "end_value": end_value,
            "pairing_method": pairing_method,
            "criteria": criteria,
            "bye_policy": bye_policy,
            "bye_points": bye_points,
            "separate_clubs_rounds": separate_clubs_rounds,
            "rule_options": dict(rule_options or {}),
            "is_public": is_public,
            "confirmation_required": confirmation_required,
        }
    )
    slug = _unique_slug(values["name"], values["date"])
    return Tournament.objects.create(club=club, slug=slug, created_by=by, status=Status.DRAFT, **values)


@transaction.atomic
def tournament_update(*, by: AbstractBaseUser, tournament: Tournament, **changes: Any) -> Tournament:
    """Change the fields given; what the tournament's status fixes cannot change (see module doc)."""
    require_organiser(by, tournament.club)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    unknown = set(changes) - set(TOURNAMENT_FIELDS)
    if unknown:
        raise TypeError(f"tournament_update: unknown fields {sorted(unknown)}")
    current = {field: getattr(tournament, field) for field in TOURNAMENT_FIELDS}
    if "game" in changes and changes["game"] != tournament.game and "rule_options" not in changes:
        # Options belong to a game: another game starts from its own defaults.
        changes["rule_options"] = {}
    values = _clean_tournament({**current, **changes})
    changed = [field for field in TOURNAMENT_FIELDS if values[field] != current[field]]
    errors: Errors = {}
    if tournament.status in (Status.RUNNING, Status.FINISHED):
        for field in changed:
            if field in LOCKED_WHEN_RUNNING:
                errors[field] = [_("Fixed once the tournament is running.")]
    if tournament.status == Status.FINISHED:
        for field in changed:
            if field not in EDITABLE_WHEN_FINISHED:
                errors.setdefault(field, [_("The tournament is finished.")])
    drawn = tournament.rounds.count()
    if values["rounds_planned"] < drawn:
        errors["rounds_planned"] = [_("%(count)s rounds are already drawn.") % {"count": drawn}]
    _raise(errors)
    for field in changed:
        setattr(tournament, field, values[field])
    tournament.save()
    return tournament


def _table_size(tournament: Tournament) -> int:
    return pairing.TABLE_SIZES[tournament.format]


# Which status may follow which; any other change is refused.
TRANSITIONS: dict[str, tuple[str, ...]] = {
    Status.DRAFT: (Status.REGISTRATION,),
    Status.REGISTRATION: (Status.DRAFT, Status.RUNNING),
    Status.RUNNING: (Status.FINISHED,),
    Status.FINISHED: (),
}


@transaction.atomic
def tournament_set_status(*, by: AbstractBaseUser, tournament: Tournament, status: str) -> Tournament:
    require_organiser(by, tournament.club)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if status not in TRANSITIONS.get(tournament.status, ()):
        raise _fail(
            _("A tournament cannot go from “%(current)s” to “%(wanted)s”.")
            % {"current": tournament.get_status_display(), "wanted": _status_label(status)}
        )
    if status == Status.DRAFT and tournament.competitors.exists():
        raise _fail(_("Players are registered: registration stays open."))
    if status == Status.RUNNING:
        present = tournament.competitors.filter(status=Competitor.Status.CHECKED_IN).count()
        if present < _table_size(tournament):
            raise _fail(
                _("At least %(count)s competitors must be checked in to start.") % {"count": _table_size(tournament)}
            )
    if status == Status.FINISHED and tournament.rounds.filter(status=Round.Status.OPEN).exists():
        raise _fail(_("Close the round in play first."))
    tournament.status = status
    tournament.save(update_fields=["status", "updated_at"])
    return tournament


def _status_label(status: str) -> str:
    try:
        return str(Status(status).label)
    except ValueError:
        return status


# -- registration ----------------------------------------------------------------------


def _players_per_competitor(tournament: Tournament) -> int:
    return 2 if tournament.format == Tournament.Format.TEAMS else 1


def _last_round_number(tournament: Tournament) -> int:
    return tournament.rounds.aggregate(n=Max("number"))["n"] or 0


def _check_can_join(tournament: Tournament) -> None:
    """Registration is open, or the tournament runs and round 2 is not drawn yet (late arrival)."""
    if tournament.status in (Status.DRAFT, Status.FINISHED):
        raise _fail(
            _("Registration is not open (the tournament is “%(status)s”).")
            % {"status": _status_label(tournament.status)}
        )
    if tournament.status == Status.RUNNING and _last_round_number(tournament) >= 2:
        raise _fail(_("Too late: round 2 is drawn. Late arrivals join before round 2."))


def _join_late(tournament: Tournament, competitor: Competitor) -> None:
    """Seat a late arrival from the next round on, with a 'late' bye for every round missed."""
    last = _last_round_number(tournament)
    competitor.joined_round = last + 1
    for rnd in tournament.rounds.filter(number__lte=last):
        Bye.objects.get_or_create(round=rnd, competitor=competitor, defaults={"reason": "late"})
    if last:
        _refresh_standings_after_commit(tournament)


@transaction.atomic
def competitor_register(
    *,
    by: AbstractBaseUser,
    tournament: Tournament,
    players: Sequence[Player | NewPlayer],
    name: str = "",
    checked_in: bool = False,
) -> Competitor:
    """Register a team (two players) or a player; new players join the club's list on the way.

    Errors about the n-th player are keyed `player_<n>` (from 1).
    """
    require_organiser(by, tournament.club)
    tournament = Tournament.objects.select_for_update().select_related("club").get(pk=tournament.pk)
    _check_can_join(tournament)
    size = _players_per_competitor(tournament)
    if len(players) != size:
        raise _fail(_("A team is two players.") if size == 2 else _("Register one player at a time in this format."))
    chosen = _registration_players(tournament, players)
    number = (tournament.competitors.aggregate(n=Max("number"))["n"] or 0) + 1
    labels = {p.club_label for p in chosen}
    competitor = Competitor.objects.create(
        tournament=tournament,
        number=number,
        name=name.strip()[:200] or _default_name(chosen),
        club=tournament.club,
        affiliation=labels.pop() if len(labels) == 1 else "",
        status=Competitor.Status.CHECKED_IN if checked_in or tournament.status == Status.RUNNING else "registered",
    )
    competitor.players.set(chosen)
    if tournament.status == Status.RUNNING:
        _join_late(tournament, competitor)
        competitor.save(update_fields=["joined_round"])
    return competitor


def _registration_players(tournament: Tournament, players: Sequence[Player | NewPlayer]) -> list[Player]:
    errors: Errors = {}
    taken = set(
        Player.objects.filter(competitors__tournament=tournament)
        .exclude(competitors__status=Competitor.Status.WITHDRAWN)
        .values_list("pk", flat=True)
    )
    for index, player in enumerate(players, start=1):
        key = f"player_{index}"
        if isinstance(player, NewPlayer):
            problems = _player_errors(
                tournament.club, player.last_name, player.first_name, player.licence, player.affiliation, None
            )
            if problems:
                errors[key] = [message for messages in problems.values() for message in messages]
        elif player.club_id != tournament.club_id:
            errors[key] = [_("Only the club's players can be registered.")]
        elif player.pk in taken:
            errors[key] = [_("%(player)s is already registered.") % {"player": player.full_name}]
    existing = [p.pk for p in players if isinstance(p, Player)]
    if len(existing) != len(set(existing)):
        errors[NON_FIELD_ERRORS] = [_("The same player twice.")]
    _raise(errors)
    chosen: list[Player] = []
    for player in players:
        if isinstance(player, NewPlayer):
            affiliation = csv_import.affiliation_for(
                player.affiliation.strip(), tournament.club.name, tournament.club.slug
            )
            player = Player.objects.create(
                club=tournament.club,
                last_name=player.last_name.strip(),
                first_name=player.first_name.strip(),
                licence=player.licence.strip(),
                affiliation=affiliation,
            )
        chosen.append(player)
    return chosen


def _default_name(players: Sequence[Player]) -> str:
    if len(players) == 1:
        return players[0].full_name
    return " – ".join(p.last_name for p in players)


def _lock_competitor(by: AbstractBaseUser, competitor: Competitor) -> tuple[Tournament, Competitor]:
    """The competitor and its tournament as the database has them now, both locked."""
    # The caller's objects may be stale (the tournament started since they were loaded):
    # every rule below reads fresh rows.
    tournament = Tournament.objects.select_for_update().select_related("club").get(pk=competitor.tournament_id)
    require_organiser(by, tournament.club)
    return tournament, Competitor.objects.select_for_update().select_related("tournament").get(pk=competitor.pk)


@transaction.atomic
def competitor_check_in(*, by: AbstractBaseUser, competitor: Competitor, present: bool = True) -> Competitor:
    """Mark a competitor present (*pointage*) or not; once rounds are drawn, present means a late arrival."""
    tournament, competitor = _lock_competitor(by, competitor)
    if tournament.status not in (Status.REGISTRATION, Status.RUNNING):
        raise _fail(_("Check-in is done while registration is open or the tournament runs."))
    if competitor.status == Competitor.Status.WITHDRAWN:
        raise _fail(_("%(name)s has withdrawn.") % {"name": competitor.name})
    played = competitor.seats.exists() or competitor.byes.exists()
    if present and competitor.status != Competitor.Status.CHECKED_IN:
        if tournament.status == Status.RUNNING and _last_round_number(tournament) >= competitor.joined_round:
            _check_can_join(tournament)
            _join_late(tournament, competitor)
        competitor.status = Competitor.Status.CHECKED_IN
    elif not present and competitor.status == Competitor.Status.CHECKED_IN:
        if played:
            raise _fail(_("%(name)s has already played: withdraw them instead.") % {"name": competitor.name})
        competitor.status = Competitor.Status.REGISTERED
    competitor.save(update_fields=["status", "joined_round"])
    return competitor


@transaction.atomic
def competitor_withdraw(*, by: AbstractBaseUser, competitor: Competitor) -> Competitor:
    """Withdraw (*abandon*): the results stay, and the competitor is never drawn again."""
    tournament, competitor = _lock_competitor(by, competitor)
    if tournament.status not in (Status.REGISTRATION, Status.RUNNING):
        raise _fail(_("Withdrawals are recorded while registration is open or the tournament runs."))
    if competitor.status == Competitor.Status.WITHDRAWN:
        raise _fail(_("%(name)s has already withdrawn.") % {"name": competitor.name})
    competitor.status = Competitor.Status.WITHDRAWN
    competitor.withdrawn_after_round = _last_round_number(tournament)
    competitor.save(update_fields=["status", "withdrawn_after_round"])
    if competitor.withdrawn_after_round:
        _refresh_standings_after_commit(tournament)
    return competitor


@transaction.atomic
def forbidden_pair_add(
    *, by: AbstractBaseUser, tournament: Tournament, first: Competitor, second: Competitor, reason: str = ""
) -> ForbiddenPair:
    """Keep two competitors apart in every draw from now on (family, same household...)."""
    require_organiser(by, tournament.club)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Status.FINISHED:
        raise _fail(_("The tournament is finished."))
    if first.tournament_id != tournament.pk or second.tournament_id != tournament.pk:
        raise _fail(_("Both must be competitors of this tournament."))
    if first.pk == second.pk:
        raise _fail(_("Choose two different competitors."), "second")
    # Stored in one order, so that (A, B) and (B, A) are the same pair for the database.
    low, high = sorted((first, second), key=lambda c: c.pk)
    pair, created = ForbiddenPair.objects.get_or_create(
        tournament=tournament, first=low, second=high, defaults={"reason": reason.strip()[:200]}
    )
    if not created:
        raise _fail(_("These two are already kept apart."), "second")
    return pair


@transaction.atomic
def forbidden_pair_remove(*, by: AbstractBaseUser, pair: ForbiddenPair) -> None:
    require_organiser(by, pair.tournament.club)
    pair.delete()


# -- rounds ----------------------------------------------------------------------------


def _new_seed() -> int:
    return secrets.randbelow(2**31)


def _lock_running(tournament: Tournament) -> Tournament:
    tournament = Tournament.objects.select_for_update().select_related("club").get(pk=tournament.pk)
    if tournament.status != Status.RUNNING:
        raise _fail(_("The tournament is not running: start it first."))
    return tournament


@transaction.atomic
def round_draw(*, by: AbstractBaseUser, tournament: Tournament, seed: int | None = None) -> Round:
    """Draw the next round: round 1 at random, later ones by the tournament's method."""
    require_organiser(by, tournament.club)
    tournament = _lock_running(tournament)
    last = tournament.rounds.order_by("-number").first()
    if last is not None and last.status != Round.Status.CLOSED:
        raise _fail(_("Round %(number)s is still in play: close it first.") % {"number": last.number})
    number = last.number + 1 if last is not None else 1
    if number > tournament.rounds_planned:
        raise _fail(_("All %(count)s planned rounds are drawn.") % {"count": tournament.rounds_planned})
    method = Tournament.PairingMethod.RANDOM if number == 1 else tournament.pairing_method
    rnd = Round(tournament=tournament, number=number, method=method, seed=_new_seed() if seed is None else seed)
    return _draw_or_explain(rnd)


def _draw_or_explain(rnd: Round) -> Round:
    present = len(pairing.eligible(rnd.tournament, rnd.number))
    needed = _table_size(rnd.tournament)
    if present < needed:
        raise _fail(
            _("%(present)s competitors present: at least %(needed)s are needed for one table.")
            % {"present": present, "needed": needed}
        )
    rnd = pairing.draw_round(rnd)
    # A new round starts the live ranking's next column, and its byes score by the policy.
    _refresh_standings_after_commit(rnd.tournament)
    return rnd


def _hands_entered(rnd: Round) -> bool:
    return (
        Hand.objects.filter(table__round=rnd).exists()
        or TableResult.objects.filter(table__round=rnd, donnes_played__gt=0).exists()
    )


@transaction.atomic
def round_redraw(*, by: AbstractBaseUser, round: Round, seed: int | None = None) -> Round:
    """Draw a round again, before any hand of it is entered (its table links change)."""
    require_organiser(by, round.tournament.club)
    _lock_running(round.tournament)
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.status != Round.Status.OPEN:
        raise _fail(_("Round %(number)s is closed.") % {"number": rnd.number})
    if _hands_entered(rnd):
        raise _fail(
            _("Hands of round %(number)s are entered: it can no longer be drawn again.") % {"number": rnd.number}
        )
    Seat.objects.filter(round=rnd).delete()
    Table.objects.filter(round=rnd).delete()
    # Late arrivals' byes belong to the round they missed, whatever its draw.
    Bye.objects.filter(round=rnd).exclude(reason="late").delete()
    rnd.seed = _new_seed() if seed is None else seed
    rnd.drawn_at = timezone.now()
    return _draw_or_explain(rnd)


@transaction.atomic
def round_close(*, by: AbstractBaseUser, round: Round, force: bool = False) -> Round:
    """Close a round whose parties are all finished; `force` ends the others as they stand.

    A forced table keeps its totals; it is won by the side with the most points, except
    that a side with a withdrawn competitor loses by forfeit (*forfait*).
    """
    require_organiser(by, round.tournament.club)
    _lock_running(round.tournament)
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.status != Round.Status.OPEN:
        raise _fail(_("Round %(number)s is already closed.") % {"number": rnd.number})
    tables = list(rnd.tables.prefetch_related("seats__competitor"))
    results = {r.table_id: r for r in TableResult.objects.filter(table__round=rnd)}
    unfinished = [t for t in tables if t.pk not in results or not results[t.pk].finished]
    if unfinished and not force:
        raise _fail(
            _("Tables still playing: %(tables)s. Wait for them, or force the close.")
            % {"tables": ", ".join(str(t.number) for t in unfinished)}
        )
    sides = rnd.tournament.sides_per_table
    for table in unfinished:
        result = results.get(table.pk) or TableResult(table=table, totals=[0] * sides)
        result.winner_side = _forced_winner(table, list(result.totals or [0] * sides), sides)
        result.finished = result.forced = True
        result.save()
    rnd.status = Round.Status.CLOSED
    rnd.closed_at = timezone.now()
    rnd.forced = bool(unfinished)
    rnd.save(update_fields=["status", "closed_at", "forced"])
    _refresh_standings_after_commit(rnd.tournament)
    return rnd


def _forced_winner(table: Table, totals: list[Any], sides: int) -> int | None:
    totals = (totals + [0] * sides)[:sides]
    forfeits = {s.side for s in table.seats.all() if s.competitor.status == Competitor.Status.WITHDRAWN}
    standing = [side for side in range(sides) if side not in forfeits]
    # A side left alone by forfeits wins whatever the points; otherwise the points decide
    # among the sides still there, and a tie has no winner.
    if len(standing) <= 1:
        return standing[0] if standing else None
    best = max(totals[side] for side in standing)
    leaders = [side for side in standing if totals[side] == best]
    return leaders[0] if len(leaders) == 1 else None
