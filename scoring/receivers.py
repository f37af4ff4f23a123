"""Scoring's answers to the signals of the apps below it (connected in `ScoringConfig.ready`)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from scoring import live_draw, live_files, live_screens
from scoring.enqueue import LIVE_FILES_PUBLISH, enqueue
from scoring.models import StandingsSnapshot
from scoring.standings import base_forget, standings_schedule_refresh
from scoring.views.public import publish_files, served_as_files
from tournaments.models import Player, Tournament


def standings_refresh(*, tournament_id: int, **_kwargs: Any) -> None:
    """`tournaments.signals.standings_refresh_requested`: queue the live ranking's refresh.

    What the tournament's side changed (a draw, a close, a registration, a late arrival's
    byes in closed rounds) may touch the closed rounds: their stored totals are dropped,
    and the refresh reads every round again.
    """
    base_forget(tournament_id=tournament_id)
    standings_schedule_refresh(tournament_id=tournament_id)


def draw_changed(*, tournament_id: int, **_kwargs: Any) -> None:
    """`tournaments.signals.standings_refresh_requested` (sent once committed): a round drawn
    or drawn again, a late arrival's byes, a withdrawal... the public draw's files follow
    (scoring/live_draw.py; a file whose round did not move keeps its time)."""
    live_draw.publish_draw_soon(tournament_id)


def names_erased_in_draws(*, tournament_ids: list[int], **_kwargs: Any) -> None:
    """`names_erased` and `players_merged` (sent inside their transaction): the draws' files
    show the competitors' and players' names, drawn again once the names are committed."""
    for tournament_id in tournament_ids:
        live_draw.publish_draw_on_commit(tournament_id)


def player_saved(*, instance: Player, created: bool, **_kwargs: Any) -> None:
    """`post_save` of a player: a team's draw shows its players' names, so the public draws
    of the teams' tournaments this player plays are drawn again once this commits (a file
    whose text did not change is left as it is)."""
    if created:
        return
    shown = (
        Tournament.objects.filter(competitors__players=instance, format=Tournament.Format.TEAMS, is_public=True)
        .exclude(status=Tournament.Status.DRAFT)
        .values_list("pk", flat=True)
        .distinct()
    )
    for tournament_id in shown:
        live_draw.publish_draw_on_commit(tournament_id)


def names_erased(
    *,
    tournament_ids: list[int],
    competitor_names: dict[int, str],
    player_names: dict[int, str],
    **_kwargs: Any,
) -> None:
    """`tournaments.signals.names_erased`: rewrite the names every ranking snapshot copied.

    Every version is rewritten, the past ones too (the ranking after each round): an
    anonymised name must be nowhere. The results in them are left as they are. The
    seasons' snapshots are rewritten by seasons/receivers.py.
    """
    snapshots = StandingsSnapshot.objects.filter(tournament_id__in=tournament_ids).only("pk", "rows")
    for snapshot in snapshots.iterator(chunk_size=50):
        if _rename(snapshot.rows, "competitor", competitor_names):
            snapshot.save(update_fields=["rows"])
    _files_again(tournament_ids)


def players_merged(*, tournament_ids: list[int], competitor_names: dict[int, str], **_kwargs: Any) -> None:
    """`tournaments.signals.players_merged`: the competitors named after the merged record
    now bear the kept one's name; every ranking snapshot that copied the old name follows."""
    if not competitor_names:
        return
    snapshots = StandingsSnapshot.objects.filter(tournament_id__in=tournament_ids).only("pk", "rows")
    for snapshot in snapshots.iterator(chunk_size=50):
        if _rename(snapshot.rows, "competitor", competitor_names):
            snapshot.save(update_fields=["rows"])
    _files_again(tournament_ids)


def _files_again(tournament_ids: list[int]) -> None:
    """The public rankings' files drawn again once the names are rewritten (an erased name
    must be nowhere): at once, not at the publications' pace."""

    def again() -> None:
        for tournament_id in tournament_ids:
            publish_files(tournament_id, again=True)

    transaction.on_commit(again)


def screen_messages_changed(*, tournament_id: int, **_kwargs: Any) -> None:
    """`tournaments.signals.screen_messages_changed` (once committed): a public tournament's
    strip of messages published again, at once (scoring/live_screens.py)."""
    live_screens.publish_kinds(tournament_id, (live_screens.SCREEN,))


def tournament_saving(*, instance: Tournament, **_kwargs: Any) -> None:
    """`pre_save` of a tournament: the address it had, whose files go if it moves."""
    if instance.pk is not None:
        before = Tournament.objects.filter(pk=instance.pk).values_list("slug", flat=True).first()
        instance._live_files_slug = before  # type: ignore[attr-defined]


def tournament_saved(*, instance: Tournament, **_kwargs: Any) -> None:
    """`post_save` of a tournament: once committed, its public ranking's files follow.

    Made private (or back to a draft) or moved to another address: the files go at once,
    under the folder's lock (scoring/live_files.py). Public, with files already: drawn
    again now (its name, settings or lots may have changed what they show).
    """
    before = getattr(instance, "_live_files_slug", None)
    tournament_id, slug, public = instance.pk, instance.slug, served_as_files(instance)

    def follow() -> None:
        if before and before != slug:
            live_files.remove(before)
        if not public:
            live_files.remove(slug)
        elif live_files.read_state(slug) is not None:
            enqueue(LIVE_FILES_PUBLISH, tournament_id=tournament_id, due=1)

    transaction.on_commit(follow)


def tournament_deleted(*, instance: Tournament, **_kwargs: Any) -> None:
    """`post_delete` of a tournament: its files go once committed."""
    slug = instance.slug
    transaction.on_commit(lambda: live_files.remove(slug))


def _rename(rows: list[dict[str, Any]], key: str, names: dict[int, str]) -> bool:
    changed = False
    for row in rows:
        name = names.get(row.get(key))  # type: ignore[arg-type]
        if name is not None and row.get("name") != name:
            row["name"] = name
            changed = True
    return changed
