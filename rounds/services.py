"""Rounds: draw (through the bridge, `rounds.pairing`), draw again, close; the round's clock."""

from __future__ import annotations

import datetime
import secrets

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rounds import pairing
from rounds.signals import round_clock_changed
from scoring import live_screens
from scoring.models import Hand, TableResult
from scoring.partie import table_result_force
from tournaments.access import require_organiser
from tournaments.models import Bye, Round, Seat, Table, Tournament
from tournaments.services.common import (
    Status,
    refresh_standings_after_commit,
    refusal,
    table_size,
)
from tournaments.signals import round_closed, round_drawn


def _new_seed() -> int:
    return secrets.randbelow(2**31)


def _lock_running(tournament: Tournament) -> Tournament:
    tournament = Tournament.objects.select_for_update().select_related("club").get(pk=tournament.pk)
    if tournament.status != Status.RUNNING:
        raise refusal(_("The tournament is not running: start it first."))
    return tournament


@transaction.atomic
def round_draw(*, by: User, tournament: Tournament, seed: int | None = None) -> Round:
    """Draw the next round: round 1 at random or by rating (the tournament's order of
    round 1), later ones by the tournament's method."""
    require_organiser(by, tournament.club)
    tournament = _lock_running(tournament)
    last = tournament.rounds.order_by("-number").first()
    if last is not None and last.status != Round.Status.CLOSED:
        raise refusal(_("Round %(number)s is still in play: close it first.") % {"number": last.number})
    number = last.number + 1 if last is not None else 1
    if number > tournament.rounds_planned:
        raise refusal(_("All %(count)s planned rounds are drawn.") % {"count": tournament.rounds_planned})
    method = _method(tournament, number)
    rnd = Round(tournament=tournament, number=number, method=method, seed=_new_seed() if seed is None else seed)
    return _draw_or_explain(rnd)


def _method(tournament: Tournament, number: int) -> str:
    if number > 1:
        return tournament.pairing_method
    if tournament.first_round_order == Tournament.FirstRoundOrder.RATING:
        return Round.Method.SEEDED
    return Round.Method.RANDOM


def _draw_or_explain(rnd: Round) -> Round:
    present = len(pairing.eligible(rnd.tournament, rnd.number))
    needed = table_size(rnd.tournament)
    if present < needed:
        raise refusal(
            _("%(present)s competitors present: at least %(needed)s are needed for one table.")
            % {"present": present, "needed": needed}
        )
    rnd = pairing.draw_round(rnd)
    # A new round starts the live ranking's next column, and its byes score by the policy.
    refresh_standings_after_commit(rnd.tournament)
    drawn = {"round_id": rnd.pk, "tournament_id": rnd.tournament_id, "number": rnd.number}
    transaction.on_commit(lambda: round_drawn.send_robust(sender=Round, **drawn))
    # The clock shown is the latest round's (none yet for a new one).
    live_screens.publish_on_commit(rnd.tournament_id, live_screens.CLOCK)
    return rnd


def _hands_entered(rnd: Round) -> bool:
    return (
        Hand.objects.filter(table__round=rnd).exists()
        or TableResult.objects.filter(table__round=rnd, donnes_played__gt=0).exists()
    )


@transaction.atomic
def round_redraw(*, by: User, round: Round, seed: int | None = None) -> Round:
    """Draw a round again, before any hand of it is entered (its table links change)."""
    require_organiser(by, round.tournament.club)
    _lock_running(round.tournament)
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.status != Round.Status.OPEN:
        raise refusal(_("Round %(number)s is closed.") % {"number": rnd.number})
    if _hands_entered(rnd):
        raise refusal(
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
def round_close(*, by: User, round: Round, force: bool = False) -> Round:
    """Close a round whose parties are all finished; `force` ends the others as they stand.

    A forced table keeps its totals; its winner is scoring.partie's `forced_winner` (the
    most points, except that a side with a withdrawn competitor loses by forfeit).
    """
    require_organiser(by, round.tournament.club)
    _lock_running(round.tournament)
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.status != Round.Status.OPEN:
        raise refusal(_("Round %(number)s is already closed.") % {"number": rnd.number})
    # Every table of the round locked, in the order of their ids, before their results are
    # read: a donne being written at one is stored first (and counted in its forced
    # result); one sent after finds the round closed. Without it, a table's first result
    # written by the close and by a donne at once would each wait for the other (a
    # deadlock PostgreSQL breaks by failing one of them).
    list(Table.objects.select_for_update().filter(round=rnd).order_by("pk").values_list("pk", flat=True))
    tables = list(rnd.tables.prefetch_related("seats__competitor"))
    results = {r.table_id: r for r in TableResult.objects.filter(table__round=rnd)}
    unfinished = [t for t in tables if t.pk not in results or not results[t.pk].finished]
    if unfinished and not force:
        raise refusal(
            _("Tables still playing: %(tables)s. Wait for them, or force the close.")
            % {"tables": ", ".join(str(t.number) for t in unfinished)}
        )
    for table in unfinished:
        table_result_force(table=table, stored=results.get(table.pk))
    rnd.status = Round.Status.CLOSED
    rnd.closed_at = timezone.now()
    rnd.forced = bool(unfinished)
    rnd.save(update_fields=["status", "closed_at", "forced"])
    refresh_standings_after_commit(rnd.tournament)
    closed = {"round_id": rnd.pk, "tournament_id": rnd.tournament_id, "number": rnd.number}
    transaction.on_commit(lambda: round_closed.send_robust(sender=Round, **closed))
    # A closed round's clock no longer runs.
    live_screens.publish_on_commit(rnd.tournament_id, live_screens.CLOCK)
    return rnd


# -- the round's clock ---------------------------------------------------------------------

CLOCK_MINUTES_MAX = 600


def _open_round_for_clock(by: User, round: Round) -> Round:
    require_organiser(by, round.tournament.club)
    _lock_running(round.tournament)
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.status != Round.Status.OPEN:
        raise refusal(_("Round %(number)s is closed: its clock no longer runs.") % {"number": rnd.number})
    return rnd


def _check_clock_minutes(minutes: int) -> None:
    if not 1 <= minutes <= CLOCK_MINUTES_MAX:
        raise refusal(
            _("A round lasts between 1 and %(max)s minutes.") % {"max": CLOCK_MINUTES_MAX},
            field="minutes",
        )


@transaction.atomic
def round_clock_start(*, by: User, round: Round, minutes: int, now: datetime.datetime | None = None) -> Round:
    """Start the round's clock for `minutes` from now (a clock already running starts again)."""
    _check_clock_minutes(minutes)
    rnd = _open_round_for_clock(by, round)
    rnd.clock_started_at = now or timezone.now()
    rnd.clock_minutes = minutes
    rnd.save(update_fields=["clock_started_at", "clock_minutes"])
    _clock_changed(rnd)
    return rnd


@transaction.atomic
def round_clock_adjust(*, by: User, round: Round, minutes: int) -> Round:
    """Give the round `minutes` more (or fewer, when negative) than its clock said."""
    rnd = _open_round_for_clock(by, round)
    if rnd.clock_started_at is None or rnd.clock_minutes is None:
        raise refusal(_("The clock of round %(number)s is not running: start it first.") % {"number": rnd.number})
    if minutes == 0:
        raise refusal(_("Give a number of minutes to add or to take off."), field="minutes")
    total = rnd.clock_minutes + minutes
    if not 1 <= total <= CLOCK_MINUTES_MAX:
        raise refusal(
            _("The round would last %(total)s minutes: it lasts between 1 and %(max)s minutes.")
            % {"total": total, "max": CLOCK_MINUTES_MAX},
            field="minutes",
        )
    rnd.clock_minutes = total
    rnd.save(update_fields=["clock_minutes"])
    _clock_changed(rnd)
    return rnd


@transaction.atomic
def round_clock_stop(*, by: User, round: Round) -> Round:
    """Stop the round's clock: the pages show no time left any more."""
    rnd = _open_round_for_clock(by, round)
    rnd.clock_started_at = None
    rnd.clock_minutes = None
    rnd.save(update_fields=["clock_started_at", "clock_minutes"])
    _clock_changed(rnd)
    return rnd


def _clock_changed(rnd: Round) -> None:
    """Tell whoever listens (rounds.signals.round_clock_changed) once the change has committed."""
    changed = {
        "round_id": rnd.pk,
        "tournament_id": rnd.tournament_id,
        "number": rnd.number,
        "ends_at": rnd.clock_ends_at,
    }
    transaction.on_commit(lambda: round_clock_changed.send_robust(sender=Round, **changed))
    # The clock's file of a public tournament (scoring/live_screens.py).
    live_screens.publish_on_commit(rnd.tournament_id, live_screens.CLOCK)
