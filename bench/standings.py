"""Standings on PostgreSQL: rebuild, re-score, live refresh, the public page, a season.

A concours of 300 teams, 6 rounds of 12 donnes (150 tables a round, 10,800 hands), built
in a database of its own (`atout_bench_standings`, created, migrated and dropped here).
Figures, each the median of several runs:

(a) rebuilding the standings from the stored scores (scoring.standings.standings_rebuild:
    table results, seats and byes read, engine.standings, a snapshot written), beside one
    plain SQL query summing the same hands per competitor (GROUP BY), in the same run;
(b) re-scoring all 10,800 hands from their raw entries with a changed rule option and
    rebuilding (a `rescore` job run in this process), as hands per second;
(c) from storing one hand (scoring.services.hand_submit) to the live snapshot updated:
    in-process (no broker: the refresh runs at the commit) and through a Celery worker
    on Redis (the refresh queued at the commit), from the commit to the new version;
(d) the public ranking as a night serves it now, as files (docs/live-refresh.md, "Polls
    served as files"), for 30, 300 (`--teams`), 1,000 and 3,000 teams (`--sizes`): the
    page, which wraps its file (SQL queries and server time, warm, and cold: the folder
    removed, so the page publishes), and a phone's poll of the file it holds (304,
    answered by scoring.middleware.LivePollMiddleware); the bytes of a poll that finds a
    new version, plain and gzip, for the whole ranking (the projector's file) and for a
    phone's page of it (a ranking longer than RANKING_PAGE_ROWS rows comes in pages, each
    its own file); the publication's cost, the ms of one `publish_files(..., again=True)`
    with the files a night has (the phones' pages and the projector in French, then in
    English too) and the bytes it writes; and a stretch of night played on an injected
    clock: new versions arriving at a table's pace (one donne every 5 minutes per table),
    each followed by the task's rule (`publish_files_when_due`: published at once when
    the last publication is RANKING_PUBLISH_SECONDS old, else one publication sent for
    when it is due), at the paces `--paces` (1 s, the default setting, and 3 s), phones
    spread over the pages polling their file every RANKING_POLL_SECONDS with
    If-Modified-Since: the share of 304s, the bytes per poll, how many publications were
    written and what each cost, and how long after its version a phone shows a hand;
(e) a season of `--season` such tournaments re-scored through Celery with `--workers`
    worker processes (one task at a time each), from the launch to the season's ranking.

(m) what the live refresh's per-process memos hold (tracemalloc) once `--memo-tournaments`
    live tournaments of `--teams` teams were refreshed in this process.

Targets: (a) within 5x of the plain SQL; (b) >= 20,000 hands/s; (c) the live refresh's
budget, <= 100 ms at 3,000 teams on a quiet core (docs/live-refresh.md); (d) the page
(warm) <= 10 queries and 50 ms whatever the number of teams, a poll no query at all,
under 30 KB per poll on average at 1,000 teams during entry; (e) < 60 s.

How (d) differs from a real night: the requests go through Django's test client in this
one process (no HTTP, no gunicorn, no nginx, which serves the files in production; the
bytes are the bodies only, without headers); a new version is a forced rebuild of the
same results (the ranking's content does not move, only its version), made and
published here rather than by a worker; the phones are fewer than two per team
(`--phones`), all speak French and are spread evenly over the pages (none follows its
team from page to page); the clock is injected, so the 60 s of night take as long as
their requests and publications.

Run: `.venv/bin/python bench/standings.py` (PostgreSQL on 127.0.0.1:5432 and Redis on
127.0.0.1:6379 as for the tests; `--help` for the knobs; `--only c --teams 3000` measures
a stored hand's standings work alone, on a concours of 3,000 teams). Loopback only; everything it
starts is stopped at the end, and a deadline (`--deadline`) stops it in any case.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import datetime
import json
import os
import random
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

from benchkit import (
    PYTHON,
    ROOT,
    celery_worker_argv,
    database_url,
    drop_database,
    loopback_production_env,
    machine_load,
    percentile,
    recreate_database,
    redis_answers,
    reference_cpu_ms,
)

sys.path.insert(0, str(ROOT))

GAME = "belote_classique"
# The live refresh's budget (docs/live-refresh.md): a stored hand's new live snapshot, from
# the hand's commit, within this many milliseconds at BUDGET_TEAMS teams on a quiet core.
BUDGET_MS = 100.0
BUDGET_TEAMS = 3000
# A season whose progress stands still this long has lost messages: it is retried.
STALL_SECONDS = 30


class Deadline(Exception):
    """The bench ran past --deadline: stop everything."""


# -- the database ----------------------------------------------------------------------


def production_env(url: str) -> dict[str, str]:
    """The environment of a production process (DEBUG off: cached templates, no debug
    bookkeeping), on plain HTTP over loopback; STATIC_ROOT and the live ranking's files
    (ATOUT_LIVE_ROOT) are folders of this run, shared with the workers it starts."""
    static_root = os.environ.get("ATOUT_BENCH_STATIC") or tempfile.mkdtemp(prefix="atout-bench-static-")
    os.environ["ATOUT_BENCH_STATIC"] = static_root
    live_root = os.environ.get("ATOUT_BENCH_LIVE") or tempfile.mkdtemp(prefix="atout-bench-live-")
    os.environ["ATOUT_BENCH_LIVE"] = live_root
    # One secret for this process and the workers it starts.
    secret = os.environ.get("ATOUT_BENCH_SECRET") or secrets.token_urlsafe(64)
    os.environ["ATOUT_BENCH_SECRET"] = secret
    return loopback_production_env(
        url, DJANGO_SETTINGS_MODULE="atout.settings", SECRET_KEY=secret, STATIC_ROOT=static_root,
        ATOUT_LIVE_ROOT=live_root,
    )  # fmt: skip


def setup_django(url: str) -> None:
    os.environ.update(production_env(url))
    os.environ.pop("CELERY_BROKER_URL", None)
    import django

    django.setup()


def migrate(url: str) -> None:
    env = production_env(url)
    for command in (["migrate", "--noinput"], ["compile_catalogues"], ["collectstatic", "--noinput"]):
        subprocess.run([PYTHON, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True, timeout=600)


# -- building a concours ---------------------------------------------------------------


class Parties:
    """Scored parties of 12 donnes, drawn once and dealt out to every table."""

    def __init__(self, donnes: int, count: int, seed: int = 7) -> None:
        import engine
        from engine.match import End, play

        game = engine.get_game(GAME)
        self.options = game.resolve_options({})
        rng = random.Random(seed)
        self.parties: list[tuple[list[dict[str, Any]], Any]] = []
        for _ in range(count):
            raws = [game.random_hand(rng) for _ in range(donnes)]
            self.parties.append((raws, play(game, raws, End(donnes=donnes), self.options)))


def build_concours(
    club: Any, index: int, teams: int, rounds: int, parties: Parties, *, seed: int, players: list[int] | None = None,
    hands: bool = True,
) -> Any:  # fmt: skip
    """A finished concours: `teams` teams, `rounds` random rounds, every partie played.

    With `players` (ids, two a team), team i is players 2i and 2i+1: the same pairs
    across a season's tournaments. Without `hands`, only the tables' results are stored
    (what the standings read), not the hands they were summed from.
    """
    from django.db import connection

    from scoring.models import TableResult
    from tournaments.models import Competitor, Round, Seat, Table, Tournament

    rng = random.Random(seed)
    tournament = Tournament.objects.create(
        club=club, name=f"Concours {index}", slug=f"concours-{index}", date=datetime.date(2026, 12, 5),
        game=GAME, format="teams", rounds_planned=rounds, end_rule="donnes", end_value=12,
        criteria=["wins", "points", "difference"], status="running", is_public=True,
    )  # fmt: skip
    competitors = Competitor.objects.bulk_create(
        Competitor(tournament=tournament, number=i + 1, name=f"Équipe {i + 1}", status="checked_in")
        for i in range(teams)
    )
    if players:
        through = Competitor.players.through
        through.objects.bulk_create(
            through(competitor_id=competitor.pk, player_id=players[2 * i + k])
            for i, competitor in enumerate(competitors)
            for k in (0, 1)
        )
    rows: list[tuple[Any, ...]] = []
    results: list[TableResult] = []
    now = datetime.datetime.now(datetime.UTC)
    for number in range(1, rounds + 1):
        rnd = Round.objects.create(tournament=tournament, number=number, method="random", seed=number, status="closed")
        order = list(competitors)
        rng.shuffle(order)
        tables = Table.objects.bulk_create(Table(round=rnd, number=i + 1) for i in range(teams // 2))
        Seat.objects.bulk_create(
            Seat(round=rnd, table=table, competitor=order[2 * i + side], side=side, position=("NS", "EW")[side])
            for i, table in enumerate(tables)
            for side in (0, 1)
        )
        for table in tables:
            raws, match = parties.parties[rng.randrange(len(parties.parties))]
            reserve = 0
            for n, (raw, score) in enumerate(zip(raws, match.scores, strict=True), start=1):
                rows.append(
                    (table.pk, n, json.dumps(raw), json.dumps(parties.options), json.dumps(list(score.scores)),
                     score.outcome, reserve, score.reserve_out, "{}", "confirmed", "simulation", False, 1, now, now)
                )  # fmt: skip
                reserve = score.reserve_out
            winner = None if match.winner is None else ("A", "B").index(match.winner)
            results.append(
                TableResult(table=table, totals=list(match.totals), donnes_played=match.donnes_played,
                            finished=match.finished, winner_side=winner)
            )  # fmt: skip
    columns = ("table_id", "number", "raw", "options", "scores", "outcome", "reserve_in", "reserve_out", "extra",
               "status", "entered_via", "recovered_from_phone", "version", "created_at", "updated_at")  # fmt: skip
    if hands:
        with (
            connection.cursor() as cursor,
            cursor.cursor.copy(f"COPY scoring_hand ({', '.join(columns)}) FROM STDIN") as copy,
        ):
            for row in rows:
                copy.write_row(row)
    TableResult.objects.bulk_create(results)
    return tournament


# -- measuring -------------------------------------------------------------------------


def median_ms(run: Callable[[], Any], times: int) -> tuple[float, list[float]]:
    samples = []
    for _ in range(times):
        started = time.perf_counter()
        run()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples), samples


def plain_sql_sum(tournament_id: int) -> list[tuple[int, Any]]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT s.competitor_id, SUM((h.scores ->> s.side)::numeric)
              FROM scoring_hand h
              JOIN tournaments_seat s ON s.table_id = h.table_id
              JOIN tournaments_round r ON r.id = s.round_id
             WHERE r.tournament_id = %s
             GROUP BY s.competitor_id
            """,
            [tournament_id],
        )
        return cursor.fetchall()


def bench_rebuild(tournament: Any, repeat: int) -> dict[str, float]:
    from scoring.models import StandingsSnapshot
    from scoring.standings import standings_rebuild

    StandingsSnapshot.objects.filter(tournament=tournament).delete()
    cold, _ = median_ms(lambda: standings_rebuild(tournament_id=tournament.pk), 1)
    rebuild, _ = median_ms(lambda: standings_rebuild(tournament_id=tournament.pk), repeat)
    plain_sql_sum(tournament.pk)
    sql, _ = median_ms(lambda: plain_sql_sum(tournament.pk), repeat)
    # The two agree: the ranking's points are the hands summed per competitor.
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).latest("version")
    by_sql = {pk: float(total) for pk, total in plain_sql_sum(tournament.pk)}
    assert all(by_sql[row["competitor"]] == row["points"] for row in snapshot.rows), "the ranking's points differ"
    return {"cold_ms": cold, "rebuild_ms": rebuild, "sql_ms": sql, "ratio": rebuild / sql}


def bench_rescore(tournament: Any, repeat: int) -> dict[str, float]:
    from scoring import jobs
    from scoring.models import Hand

    hands = Hand.objects.filter(table__round__tournament=tournament).count()
    samples = []
    for run in range(repeat):
        rounding = "nearest_ten" if run % 2 == 0 else "none"
        job = jobs.job_launch(
            tournament=tournament, config={"rule_options": {"rounding": rounding}}, rescore=True, enqueue=False
        )
        started = time.perf_counter()
        done = jobs.job_run(job_id=job.pk)
        samples.append(time.perf_counter() - started)
        assert done is not None and done.status == "done", done and done.error
    best = min(samples)
    return {"hands": hands, "median_s": statistics.median(samples), "best_s": best,
            "hands_per_s": hands / statistics.median(samples)}  # fmt: skip


def _next_hand_table(tournament: Any) -> Any:
    """A table of the last round, reopened, with its last donne taken back to enter again."""
    from scoring.models import Hand, TableResult
    from scoring.partie import table_result_refresh
    from tournaments.models import Round, Table

    rnd = Round.objects.filter(tournament=tournament).order_by("-number").first()
    Round.objects.filter(pk=rnd.pk).update(status="open")
    table = Table.objects.select_related("round__tournament").filter(round=rnd).order_by("number").first()
    Hand.objects.filter(table=table, number=12).delete()
    TableResult.objects.filter(table=table).delete()
    table_result_refresh(table)
    return table


def bench_hand_to_snapshot(
    tournament: Any, repeat: int, broker: str, worker_env: dict[str, str], *, layers: bool = False
) -> dict[str, Any]:
    from django.db import transaction

    from scoring.models import Hand, StandingsSnapshot
    from scoring.partie import table_result_refresh
    from scoring.services import hand_submit
    from scoring.standings.locking import standings_lock
    from scoring.standings.snapshots import rebuild_locked
    from tournaments.models import Tournament

    table = _next_hand_table(tournament)
    # The twelfth donne is one of the table's eleven in turn: each hand scores otherwise
    # than the last one entered, so its two teams move in the ranking as in a night.
    raws = list(Hand.objects.filter(table=table, number__lte=11).order_by("number").values_list("raw", flat=True))
    turn = iter(range(10**9))

    def latest() -> int:
        return (
            StandingsSnapshot.objects.filter(tournament=tournament)
            .order_by("-version")
            .values_list("version", flat=True)[0]
        )

    def one(
        wait_for_worker: bool, cold: bool = False, forget: Callable[[], None] | None = None
    ) -> tuple[float, float, float]:
        # Back to eleven donnes through the live refresh, as a hand taken back would be:
        # what this process keeps is then the ranking before the hand.
        Hand.objects.filter(table=table, number=12).delete()
        table_result_refresh(table)
        with transaction.atomic():
            standings_lock(tournament_id=tournament.pk)
            rebuild_locked(Tournament.objects.get(pk=tournament.pk))
        raw = raws[next(turn) % len(raws)]
        if cold:
            forget_process_memos()
        if forget is not None:
            forget()
        before = latest()
        marks: dict[str, float] = {}
        started = time.perf_counter()
        with transaction.atomic():
            # Registered first, so it runs at the commit, before the services' refresh.
            transaction.on_commit(lambda: marks.update(commit=time.perf_counter(), commit_cpu=time.process_time()))
            hand_submit(table=table, raw=raw, via="director")
        if wait_for_worker:
            while latest() == before:
                time.sleep(0.0005)
        done, done_cpu = time.perf_counter(), time.process_time()
        assert latest() > before, "the snapshot did not move"
        return (done - marks["commit"]) * 1000, (done - started) * 1000, (done_cpu - marks["commit_cpu"]) * 1000

    from scoring.standings import snapshots

    # Which way each in-process refresh went: from the closed rounds' stored totals, or full.
    paths = {"incremental": 0, "full": 0}
    live_update = snapshots.live_update

    def counted(*args: Any, **kwargs: Any) -> Any:
        outcome = live_update(*args, **kwargs)
        paths["full" if outcome is snapshots.FULL else "incremental"] += 1
        return outcome

    snapshots.live_update = counted
    out: dict[str, Any] = {}
    try:
        samples = [one(False) for _ in range(repeat)]
    finally:
        snapshots.live_update = live_update
    out["incremental_refreshes"], out["full_refreshes"] = paths["incremental"], paths["full"]
    out["inprocess_commit_to_snapshot_ms"] = statistics.median(s[0] for s in samples)
    out["inprocess_cpu_ms"] = statistics.median(s[2] for s in samples)
    # Cold: nothing kept in the process (the first hand after a worker's start).
    out["inprocess_cold_ms"] = statistics.median(one(False, cold=True)[0] for _ in range(5))
    out["inprocess_submit_to_snapshot_ms"] = statistics.median(s[1] for s in samples)
    live = StandingsSnapshot.objects.filter(tournament=tournament).order_by("-version").first()
    out["snapshot_kb"] = len(json.dumps(live.rows if live is not None else [])) / 1024
    out.update(budget(out["inprocess_commit_to_snapshot_ms"], tournament.competitors.count()))
    if layers:
        out["layers"] = layers_off(tournament.pk, lambda forget: [one(False, forget=forget) for _ in range(repeat)])
    if broker:
        with celery_workers(worker_env, 1, broker) as _workers:
            one(True)
            samples = [one(True) for _ in range(repeat)]
        out["worker_commit_to_snapshot_ms"] = statistics.median(s[0] for s in samples)
        out["worker_submit_to_snapshot_ms"] = statistics.median(s[1] for s in samples)
        out["worker_p90_commit_to_snapshot_ms"] = sorted(s[0] for s in samples)[int(0.9 * len(samples))]
    return out


# Each thing the live refresh keeps between hands (scoring/standings/kept.py), and how to
# switch it off for one hand: what it earns is what the hand costs more without it.
KEPT_LAYERS = ("tables", "records", "rows", "head", "stored")


def layers_off(
    tournament_id: int, hands: Callable[[Callable[[], None] | None], list[tuple[float, ...]]]
) -> dict[str, Any]:
    """(c) again with each layer the live refresh keeps switched off alone (forgotten before
    each hand), and with the snapshot's rows bound into the INSERT's text as Django does
    (`insert`): the median wall and CPU ms from the commit, beside all of them on, in turn."""
    from scoring.standings import kept, snapshots

    def forgetting(name: str) -> Callable[[], None]:
        empty: dict[str, Any] = {"records": {}, "rows": {}}

        def forget() -> None:
            entry = kept._kept.get(tournament_id)
            if entry is not None:
                setattr(entry, name, empty.get(name))

        return forget

    def medians(samples: list[tuple[float, ...]]) -> dict[str, float]:
        return {"ms": statistics.median(s[0] for s in samples), "cpu_ms": statistics.median(s[2] for s in samples)}

    out: dict[str, Any] = {}
    for name in (*KEPT_LAYERS, "insert"):
        # All on just before, so that the machine's drift falls on both alike.
        out.setdefault("all", []).append(medians(hands(None)))
        if name == "insert":
            insert = snapshots._insert
            snapshots._insert = lambda snapshot, text=None: snapshot.save(force_insert=True)
            try:
                out[name] = medians(hands(None))
            finally:
                snapshots._insert = insert
        else:
            out[name] = medians(hands(forgetting(name)))
        on = out["all"][-1]
        out[name].update(added_ms=out[name]["ms"] - on["ms"], added_cpu_ms=out[name]["cpu_ms"] - on["cpu_ms"])
        say("c_layer", {"layer": name, **out[name], "on_ms": on["ms"], "on_cpu_ms": on["cpu_ms"]})
    return out


def budget(commit_to_snapshot_ms: float, teams: int) -> dict[str, Any]:
    """The figure against the written budget: met when within it; the budget applies at
    BUDGET_TEAMS teams or more (a smaller field's figure must be within it as well)."""
    return {
        "budget_ms": BUDGET_MS,
        "budget_teams": BUDGET_TEAMS,
        "teams": teams,
        "budget_met": commit_to_snapshot_ms <= BUDGET_MS,
        "budget_applies": teams >= BUDGET_TEAMS,
        "budget_margin": BUDGET_MS / commit_to_snapshot_ms if commit_to_snapshot_ms > 0 else None,
    }


def forget_process_memos() -> None:
    """Forget what this process keeps between refreshes: the live refresh's keeping (the
    round in play's tables, the stored totals decoded, the records and rows: kept.py) and
    the closed rounds built (as a worker that has just started)."""
    from scoring.standings import kept, reading

    with reading._round_cache_lock:
        reading._round_cache.clear()
    kept.forget_kept()


def bench_memos(club: Any, count: int, teams: int, rounds: int, parties: Parties) -> dict[str, Any]:
    """What the refresh's memos hold in this process once `count` live tournaments of `teams`
    teams were refreshed here: bytes traced by tracemalloc and freed when each memo is
    forgotten (first the records summed, then the rows, the tables, the stored totals, the
    rest of the keeping, then the closed rounds built), the garbage collected in between.

    Each tournament is built with its tables' results and no hands (the refresh reads the
    results), its last round reopened; a full rebuild stores its closed rounds' totals,
    then two hands at its first table are refreshed live (each a table result changed).
    """
    import gc
    import tracemalloc

    from django.db import transaction

    from scoring.models import TableResult
    from scoring.standings import kept, reading, standings_rebuild
    from scoring.standings.locking import standings_lock
    from scoring.standings.snapshots import rebuild_locked
    from tournaments.models import Round, Table

    forget_process_memos()
    tournaments = []
    for index in range(count):
        tournament = build_concours(club, 2000 + index, teams, rounds, parties, seed=2000 + index, hands=False)
        Round.objects.filter(tournament=tournament, number=rounds).update(status="open")
        tournaments.append(tournament)
    analyze()
    gc.collect()
    tracemalloc.start()
    try:
        for tournament in tournaments:
            standings_rebuild(tournament_id=tournament.pk)
            table = Table.objects.filter(round__tournament=tournament, round__number=rounds).order_by("number").first()
            for points in ((90, 72), (40, 122)):
                TableResult.objects.filter(table=table).update(totals=list(points), donnes_played=5, finished=False)
                with transaction.atomic():
                    standings_lock(tournament_id=tournament.pk)
                    assert rebuild_locked(tournament) is not None, "the live refresh wrote nothing"
        entries = list(kept._kept.values())
        assert len(entries) == count and all(entry.records and entry.rows and entry.tables for entry in entries)

        def freed(forget: Callable[[], None]) -> float:
            gc.collect()
            before = tracemalloc.get_traced_memory()[0]
            forget()
            gc.collect()
            return (before - tracemalloc.get_traced_memory()[0]) / 2**20

        def clear(name: str, empty: Callable[[], Any]) -> Callable[[], None]:
            def forget() -> None:
                for entry in entries:
                    setattr(entry, name, empty())

            return forget

        def forget_the_rest() -> None:
            entries.clear()
            kept.forget_kept()

        records = freed(clear("records", dict))
        rows = freed(clear("rows", dict))
        tables = freed(clear("tables", lambda: None))
        stored = freed(clear("stored", lambda: None))
        rest = freed(forget_the_rest)
        with reading._round_cache_lock:
            cached_rounds = len(reading._round_cache)
        round_cache = freed(reading._round_cache.clear)
    finally:
        tracemalloc.stop()
    total = records + rows + tables + stored + rest
    return {
        "tournaments": count,
        "teams": teams,
        "kept_mb": total,
        "kept_per_tournament_mb": total / count,
        "records_mb": records,
        "rows_mb": rows,
        "tables_mb": tables,
        "stored_mb": stored,
        "rest_mb": rest,
        "round_cache_mb": round_cache,
        "round_cache_rounds": reading.ROUND_CACHE_SIZE,
        "round_cache_held": cached_rounds,
    }


GZIP = {"Accept-Encoding": "gzip"}
# What a phone's poll of its file sends (htmx; the date is added from the file's hx-headers).
POLL = {"HX-Request": "true", "Accept-Encoding": "gzip"}


def _fresh_files(tournament: Any, *names: str) -> Any:
    """The tournament's folder removed, then published with `names` (each a file a page asked
    for: a language's ranking brings every page of it); what the folder holds."""
    from scoring import live_files
    from scoring.views.public import publish_files

    live_files.remove(tournament.slug)
    state = None
    for name in names:
        state = publish_files(tournament.pk, want=name)
    assert state is not None and set(names) <= set(state.names), state
    return state


def _folder_bytes(slug: str) -> tuple[int, int, int]:
    """The files a publication writes in the folder of `slug`: (count, plain bytes, gzip bytes)."""
    from scoring import live_files

    files = [path for path in live_files.folder(slug).glob("*.html*")]
    plain = sum(path.stat().st_size for path in files if path.name.endswith(".html"))
    packed = sum(path.stat().st_size for path in files if path.name.endswith(".html.gz"))
    return len(files), plain, packed


def bench_wire(tournament: Any, repeat: int) -> dict[str, Any]:
    """The bytes of a poll that finds a new version: the whole ranking (the projector's file)
    and a phone's page of it (page 1), plain and gzip, as LivePollMiddleware sends them; the
    page's own bytes; the server time of a file's 200 and 304 in this process."""
    import gzip

    from django.test import Client

    from scoring import live_files
    from scoring.selectors.standings import ranking_pages
    from scoring.views.public import page_name

    state = _fresh_files(tournament, "fr-ranking", "fr-projector")
    phone = Client(HTTP_ACCEPT_LANGUAGE="fr")
    out: dict[str, Any] = {"pages": len(ranking_pages(tournament.competitors.count())) or 1}
    for key, name in (("projector", "fr-projector"), ("page_poll", page_name("fr", 1))):
        url = live_files.address(tournament.slug, name)
        plain = phone.get(url, headers={"HX-Request": "true"})
        packed = phone.get(url, headers=POLL)
        assert plain.status_code == 200 and plain["Last-Modified"] == state.last_modified, plain.status_code
        assert packed.get("Content-Encoding") == "gzip" and gzip.decompress(packed.content) == plain.content
        out[f"{key}_bytes_plain"], out[f"{key}_bytes_gzip"] = len(plain.content), len(packed.content)
    out["page_bytes_plain"] = len(phone.get(f"/t/{tournament.slug}/").content)
    url = live_files.address(tournament.slug, page_name("fr", 1))
    out["file_200_gzip_ms"], _ = median_ms(lambda: phone.get(url, headers=POLL), repeat)
    held = {**POLL, "If-Modified-Since": state.last_modified}
    assert phone.get(url, headers=held).status_code == 304
    out["file_304_ms"], _ = median_ms(lambda: phone.get(url, headers=held), repeat)
    return out


def bench_publish(tournament: Any, repeat: int) -> dict[str, Any]:
    """The publication's cost: ms of one `publish_files(..., again=True)` (every file drawn
    and written again, as after each new version) with the files a night has: the phones'
    pages and the projector in French, then in English too; the median of `repeat`, and
    the files and bytes written each time."""
    from scoring.views.public import publish_files

    out: dict[str, Any] = {}
    for key, names in (("fr", ("fr-ranking", "fr-projector")), ("fr_en", ("en-ranking", "en-projector"))):
        state = _fresh_files(tournament, "fr-ranking", "fr-projector", *(names if key == "fr_en" else ()))
        out[f"publish_{key}_ms"], samples = median_ms(lambda: publish_files(tournament.pk, again=True), repeat)
        out[f"publish_{key}_best_ms"] = min(samples)
        files, plain, packed = _folder_bytes(tournament.slug)
        out[f"publish_{key}_files"] = files
        out[f"publish_{key}_names"] = len(state.names)
        out[f"publish_{key}_bytes"] = plain + packed
        out[f"publish_{key}_bytes_plain"], out[f"publish_{key}_bytes_gzip"] = plain, packed
    return out


def bench_night_polls(tournament: Any, publish_every: float, *, phones: int, seconds: float) -> dict[str, Any]:
    """A stretch of night on an injected clock: versions at the tables' pace, published as
    files at the pace `publish_every` (RANKING_PUBLISH_SECONDS: the task live_files_publish's
    rule, publish_files_when_due then one publication sent for when it is due), phones
    polling their page's file every RANKING_POLL_SECONDS with If-Modified-Since."""
    import gzip
    import re

    from django.conf import settings
    from django.test import Client

    from scoring import live_files, live_ranking
    from scoring.enqueue import LIVE_FILES_PUBLISH
    from scoring.selectors.standings import forget_polled
    from scoring.standings import snapshots, standings_rebuild
    from scoring.views.public import page_name, publish_files

    every = settings.RANKING_POLL_SECONDS
    tables = tournament.competitors.count() // 2
    versions_per_s = tables / 300  # one donne every 5 minutes at each table
    rng = random.Random(11)
    # (time, kind, phone): 0 a new version, 1 a publication sent for later, 2 a poll.
    events: list[tuple[float, int, int]] = []
    events += [(k / versions_per_s, 0, -1) for k in range(1, int(seconds * versions_per_s) + 1)]
    for phone in range(phones):
        start = rng.uniform(0, every)
        events += [(start + k * every, 2, phone) for k in range(int(seconds / every))]
    events.sort()
    clients = [Client(HTTP_ACCEPT_LANGUAGE="fr") for _ in range(phones)]
    slug = tournament.slug
    # The clock starts now (the files' dates are real dates) and moves only with the events.
    base = float(int(time.time()))
    now = [base]
    saved = (live_ranking.clock, settings.RANKING_PUBLISH_SECONDS, snapshots.enqueue)
    live_ranking.clock = lambda: now[0]
    settings.RANKING_PUBLISH_SECONDS = publish_every
    # The refresh's commit sends the publication task (run at once here: no broker); this
    # loop plays the task's part instead, on the injected clock.
    snapshots.enqueue = lambda name, **kwargs: None if name == LIVE_FILES_PUBLISH else saved[2](name, **kwargs)
    state = _fresh_files(tournament, "fr-ranking")
    # The phones spread over the ranking's pages, each holding its page's file at the start.
    pages = sum(1 for name in state.names if live_files.kind_of(name) == "ranking" and name.startswith("fr-"))
    urls = [live_files.address(slug, page_name("fr", 1 + phone % pages)) for phone in range(phones)]
    since = [""] * phones
    shown = [0] * phones
    for phone in range(phones):
        first = clients[phone].get(urls[phone], headers=POLL)
        since[phone], shown[phone] = first["Last-Modified"], state.version
    written: dict[int, float] = {}
    delays: list[float] = []
    published: set[int] = set()
    publish_ms: list[float] = []
    polls = not_modified = body_bytes = 0
    pending: float | None = None

    def publish(at: float) -> None:
        before = live_files.read_state(slug)
        started = time.perf_counter()
        done = publish_files(tournament.pk, now=at)
        took = (time.perf_counter() - started) * 1000
        if done is not None and (before is None or done.modified != before.modified):
            publish_ms.append(took)  # files written (not: nothing new to publish)
            published.add(done.version)

    try:
        index = 0
        while index < len(events):
            at, kind, phone = events[index]
            if pending is not None and pending <= at:
                # The publication sent for later runs first (it was due before this event).
                now[0] = base + pending
                pending = None
                publish(now[0])
                continue
            index += 1
            now[0] = base + at
            if kind == 0:
                written[standings_rebuild(tournament_id=tournament.pk).version] = at
                forget_polled(slug)  # as the refresh's commit does
                # The task sent after a new version: publish_files_when_due, on this clock.
                wait = live_files.due_in(live_files.read_state(slug), now=now[0])
                if wait <= 0:
                    publish(now[0])
                elif pending is None:  # one sent for later at a time (the marker)
                    pending = at + wait
                continue
            response = clients[phone].get(urls[phone], headers={**POLL, "If-Modified-Since": since[phone]})
            polls += 1
            if response.status_code == 304:
                not_modified += 1
                continue
            assert response.status_code == 200, response.status_code
            body_bytes += len(response.content)
            text = gzip.decompress(response.content) if response.get("Content-Encoding") == "gzip" else response.content
            found = re.search(rb'data-version="(\d+)"', text)
            version = int(found.group(1)) if found else 0
            since[phone] = response["Last-Modified"]
            # Each version written since the phone's last one is now visible on it.
            delays += [at - when for v, when in written.items() if shown[phone] < v <= version]
            shown[phone] = max(shown[phone], version)
    finally:
        live_ranking.clock, settings.RANKING_PUBLISH_SECONDS, snapshots.enqueue = saved
    delays.sort()
    return {
        "publish_every": publish_every,
        "poll_seconds": every,
        "versions_per_s": versions_per_s,
        "versions": len(written),
        "publications": len(publish_ms),
        "versions_published": len(published),
        "publication_ms_p50": percentile(publish_ms, 0.5) if publish_ms else 0.0,
        "publication_ms_p95": percentile(publish_ms, 0.95) if publish_ms else 0.0,
        "phones": phones,
        "pages": pages,
        "seconds": seconds,
        "polls": polls,
        "not_modified_rate": not_modified / polls if polls else 0.0,
        "poll_bytes_avg": body_bytes / polls if polls else 0.0,
        "visible_p50_s": percentile(delays, 0.5) if delays else 0.0,
        "visible_p95_s": percentile(delays, 0.95) if delays else 0.0,
    }


def bench_page(tournament: Any, repeat: int) -> dict[str, Any]:
    """The public ranking's page, which wraps its file: cold (the folder removed: the page
    publishes the ranking's files, every page of it, then wraps page 1) and warm; its SQL
    queries; and a phone's poll of the file it holds (304, LivePollMiddleware)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from scoring import live_files
    from scoring.views.public import page_name

    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    url = f"/t/{tournament.slug}/"
    out: dict[str, Any] = {}
    cold = []
    for _ in range(3):
        live_files.remove(tournament.slug)
        started = time.perf_counter()
        response = client.get(url)
        cold.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200
    out["page_unpublished_ms"] = statistics.median(cold)
    live_files.remove(tournament.slug)
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    out["page_unpublished_queries"] = len(queries)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    out["page_queries"] = len(queries)
    out["page_ms"], _ = median_ms(lambda: client.get(url), repeat)
    state = live_files.read_state(tournament.slug)
    assert state is not None
    file_url = live_files.address(tournament.slug, page_name("fr", 1))
    held = {**POLL, "If-Modified-Since": state.last_modified}
    with CaptureQueriesContext(connection) as queries:
        assert client.get(file_url, headers=held).status_code == 304
    out["file_poll_queries"] = len(queries)
    out["file_poll_ms"], _ = median_ms(lambda: client.get(file_url, headers=held), repeat)
    return out


@contextlib.contextmanager
def celery_workers(env: dict[str, str], count: int, broker: str) -> Iterator[list[subprocess.Popen[bytes]]]:
    """`count` worker processes on a private queue; this process sends to it meanwhile."""
    from atout.celery import app, forget_broker_pools

    queue = f"bench-standings-{uuid.uuid4().hex[:6]}"
    logs = ROOT / "bench-results"
    logs.mkdir(exist_ok=True)
    procs = []
    worker_env = {**env, "CELERY_BROKER_URL": broker, "CELERY_QUEUE": queue}
    for n in range(count):
        log = (logs / f"standings-worker-{n}.log").open("wb")
        procs.append(
            subprocess.Popen(
                celery_worker_argv(queue, f"{queue}-{n}@%h"),
                cwd=ROOT,
                env=worker_env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
    saved = {key: app.conf.get(key) for key in ("broker_url", "task_always_eager", "task_default_queue")}
    app.conf.update(broker_url=broker, task_always_eager=False, task_default_queue=queue)
    forget_broker_pools(app)
    try:
        # The workers are up when they answer a ping.
        deadline = time.monotonic() + 60
        while (
            len(
                app.control.ping(timeout=0.5, destination=[f"{queue}-{n}@{os.uname().nodename}" for n in range(count)])
                or []
            )
            < count
        ):
            if time.monotonic() > deadline:
                raise RuntimeError("the Celery workers did not start: see bench-results/standings-worker-*.log")
        yield procs
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        app.conf.update(saved)
        forget_broker_pools(app)


def bench_season(club: Any, first: Any, count: int, teams: int, rounds: int, parties: Parties, workers: int,
                 broker: str, env: dict[str, str]) -> dict[str, Any]:  # fmt: skip
    from scoring import jobs
    from scoring.models import Job
    from seasons import ranking
    from seasons.models import Season, SeasonSnapshot
    from tournaments.models import Competitor, Player, Tournament

    built = time.perf_counter()
    players = [
        p.pk
        for p in Player.objects.bulk_create(
            Player(club=club, last_name=f"Joueur {i}", first_name="") for i in range(2 * teams)
        )
    ]
    through = Competitor.players.through
    through.objects.filter(competitor__tournament=first).delete()
    through.objects.bulk_create(
        through(competitor_id=competitor.pk, player_id=players[2 * i + k])
        for i, competitor in enumerate(first.competitors.order_by("number"))
        for k in (0, 1)
    )
    tournaments = [first]
    for index in range(2, count + 1):
        tournaments.append(build_concours(club, index, teams, rounds, parties, seed=index, players=players))
    build_s = time.perf_counter() - built
    # Every hand's score changes: the stored ones were scored without rounding.
    Tournament.objects.filter(pk__in=[t.pk for t in tournaments]).update(rule_options={"rounding": "nearest_ten"})
    from scoring.models import Hand

    Hand.objects.filter(table__round__tournament=first).update(options=parties.options)
    season = Season.objects.create(club=club, name="Saison", slug="saison", scheme="placing")
    season.tournaments.set(tournaments)

    retries = 0

    def season_run() -> float:
        nonlocal retries
        started = time.perf_counter()
        job = ranking.season_rebuild_launch(season=season, rescore=True)
        seen, moved = -1, time.monotonic()
        while True:
            status, progress = Job.objects.filter(pk=job.pk).values_list("status", "progress").get()
            if status in ("done", "failed"):
                break
            if progress != seen:
                seen, moved = progress, time.monotonic()
            elif time.monotonic() - moved > STALL_SECONDS:
                # Nothing moved for a while: messages were lost (this Redis is shared, and
                # something flushed it once). Retry as the director would; it is counted.
                print(f"    season stalled at {progress} tournaments: retried", flush=True)
                jobs.STALE_AFTER = datetime.timedelta(seconds=1)
                jobs.job_retry(job=Job.objects.get(pk=job.pk))
                retries += 1
                moved = time.monotonic()
            time.sleep(0.05)
        job.refresh_from_db()
        assert job.status == "done", job.error
        return time.perf_counter() - started

    with celery_workers(env, workers, broker):
        # First every hand's score changes (the worst case), then none does (a check).
        seconds = season_run()
        unchanged_seconds = season_run()
    rows = SeasonSnapshot.objects.filter(season=season).latest("version").rows
    return {
        "tournaments": count,
        "hands": count * teams // 2 * rounds * 12,
        "build_s": build_s,
        "season_s": seconds,
        "unchanged_s": unchanged_seconds,
        "retries": retries,
        "players": len(rows),
        "failed_jobs": Job.objects.filter(kind="rescore", status="failed").count(),
    }


# -- main ------------------------------------------------------------------------------

LINES = {
    "a": "(a) rebuild {rebuild_ms:.1f} ms (the first, writing every round's snapshot: {cold_ms:.1f} ms); "
    "plain SQL GROUP BY {sql_ms:.1f} ms; ratio {ratio:.2f}x (target <= 5x)",
    "b": "(b) re-score {hands:,} hands and rebuild: {median_s:.3f} s median, {best_s:.3f} s best; "
    "{hands_per_s:,.0f} hands/s (target >= 20,000)",
    "c": "(c) hand -> snapshot, in-process: {inprocess_commit_to_snapshot_ms:.1f} ms from the commit "
    "({inprocess_cpu_ms:.1f} ms of this process's CPU; {inprocess_submit_to_snapshot_ms:.1f} ms from the call; "
    "cold, nothing kept in the process: "
    "{inprocess_cold_ms:.1f} ms); the live version weighs "
    "{snapshot_kb:.0f} KB; refreshes from the closed rounds' stored totals: {incremental_refreshes}, "
    "full: {full_refreshes}",
    "c_layer": "(c) without {layer:>7}: {ms:6.1f} ms from the commit, {cpu_ms:6.1f} ms CPU (all kept, just before: "
    "{on_ms:6.1f} ms, {on_cpu_ms:6.1f} ms CPU): it earns {added_ms:+.1f} ms, {added_cpu_ms:+.1f} ms CPU",
    "c_budget": "(c) budget: a hand -> its snapshot <= {budget_ms:.0f} ms at {budget_teams:,} teams on a quiet core "
    "(docs/live-refresh.md); this run, {teams:,} teams: {inprocess_commit_to_snapshot_ms:.1f} ms, {verdict}",
    "m": "(m) what the refresh's memos hold in this process at {tournaments} live tournaments of {teams:,} teams "
    "(tracemalloc, bytes freed when each is forgotten): the live keeping (kept.py) {kept_mb:.1f} MB "
    "({kept_per_tournament_mb:.2f} MB a tournament; in all: records summed {records_mb:.1f}, rows and their text "
    "{rows_mb:.1f}, tables of the round in play {tables_mb:.1f}, stored totals decoded {stored_mb:.1f}, digest and "
    "order {rest_mb:.1f}); the closed rounds built for full rebuilds and round histories (reading.py, "
    "{round_cache_held} held, {round_cache_rounds} at most) {round_cache_mb:.1f} MB",
    "c_worker": "(c) hand -> snapshot, through a Celery worker on Redis: {worker_commit_to_snapshot_ms:.1f} ms "
    "from the commit (p90 {worker_p90_commit_to_snapshot_ms:.1f}; {worker_submit_to_snapshot_ms:.1f} ms from "
    "the call)",
    "d": "(d) {size:>5} teams: page {page_queries} queries, {page_ms:.1f} ms (its files not published yet: "
    "{page_unpublished_queries} queries, {page_unpublished_ms:.1f} ms); a phone's poll of its file, 304: "
    "{file_poll_queries} queries, {file_poll_ms:.2f} ms (target: the page <= 10 queries, 50 ms; a poll none)",
    "d_wire": "(d) {size:>5} teams, {pages} page(s): a poll finding a new version sends, for the whole ranking "
    "(projector) {projector_bytes_plain:,} bytes plain, {projector_bytes_gzip:,} gzip; for a phone's page "
    "{page_poll_bytes_plain:,} plain, {page_poll_bytes_gzip:,} gzip (the page {page_bytes_plain:,}, plain); "
    "the file's 200 gzip {file_200_gzip_ms:.2f} ms, its 304 {file_304_ms:.2f} ms in this process",
    "d_publish": "(d) {size:>5} teams: a publication (publish_files again=True) {publish_fr_ms:.1f} ms "
    "(best {publish_fr_best_ms:.1f}) for French ({publish_fr_names} files and their gzip: {publish_fr_bytes:,} "
    "bytes written), {publish_fr_en_ms:.1f} ms (best {publish_fr_en_best_ms:.1f}) with English too "
    "({publish_fr_en_names}: {publish_fr_en_bytes:,} bytes)",
    "d_night": "(d) {size:>5} teams, published every {publish_every:g} s: {versions} versions in {seconds:g} s "
    "({versions_per_s:.2f}/s), {publications} publications ({versions_published} versions; "
    "{publication_ms_p50:.0f} ms p50, {publication_ms_p95:.0f} ms p95 each), {phones} phones on {pages} page(s) "
    "polling every {poll_seconds:g} s: {not_modified_rate:.0%} of {polls} polls answered 304, "
    "{poll_bytes_avg:,.0f} bytes per poll on average (gzip), a version visible on a phone after "
    "{visible_p50_s:.1f} s (p50), {visible_p95_s:.1f} s (p95)",
    "e": "(e) season of {tournaments} tournaments ({hands:,} hands) re-scored through Celery with {workers} "
    "workers: {season_s:.1f} s with every score changing, {unchanged_s:.1f} s again with none (target < 60 s); "
    "{players} players ranked; {failed_jobs} jobs failed, {retries} stalls retried (building the data took "
    "{build_s:.0f} s)",
}


# Printed at the start: what these figures leave out of a real night.
UNLIKE_A_NIGHT = """\
==> how this differs from a real night:
    (a)-(c), (m) one process, nobody polling the ranking while hands are stored; (c) times one
    hand at a time into the last round, reopened, of a played concours (earlier rounds' totals
    stored; what the process keeps between hands warm, and cold once nothing is kept), always
    at the same table, the twelfth donne taken back and entered again as another donne (its
    two teams move in the ranking, the other tables stand still);
    (d) Django's test client in this process (no HTTP, gunicorn or nginx, which serves the
    files in production; bodies without headers), new versions rebuilt from the same
    results and published here, not by a worker; fewer phones than two per team, all in
    French, spread over the pages; an injected clock; (e) the season's tournaments are
    alike (same size and players, other draws).
    bench/night.py plays a night over HTTP with phones polling, for the whole picture."""


def verdict(figures: dict[str, Any]) -> str:
    """Whether the run meets the budget, said so that a smaller field is not read as the budget's test."""
    if not figures["budget_met"]:
        return "OVER the budget"
    if figures["budget_applies"]:
        return f"within the budget ({figures['budget_margin']:.1f}x margin)"
    teams = figures["budget_teams"]
    return f"within the budget (which is judged at {teams:,} teams: --teams {teams})"


def numbers(kind: Callable[[str], Any]) -> Callable[[str], list[Any]]:
    """An option's parser for comma-separated numbers ("30,1000")."""
    return lambda text: [kind(part) for part in text.split(",") if part.strip()]


def say(key: str, figures: dict[str, Any]) -> None:
    print(LINES[key].format(**figures), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--postgres", default=os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/atout"
    )
    parser.add_argument("--database", default="atout_bench_standings")
    parser.add_argument(
        "--redis", default="redis://127.0.0.1:6379/12", help="Celery broker ('' to skip the worker figures)"
    )
    parser.add_argument("--teams", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--season", type=int, default=100, help="tournaments in the season (0 to skip)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--deadline", type=float, default=1500, help="seconds before everything is stopped")
    parser.add_argument("--keep", action="store_true", help="keep the bench database afterwards")
    parser.add_argument(
        "--parts",
        "--only",
        dest="parts",
        default="abcdem",
        help="which figures to take (letters a to e and m; 'c' alone: a hand's standings work against its "
        "budget; 'm': what the refresh's memos hold at --memo-tournaments live tournaments of --teams teams)",
    )
    parser.add_argument("--memo-tournaments", type=int, default=16, help="live tournaments in (m)")
    parser.add_argument(
        "--layers", action="store_true", help="(c) again with each layer the live refresh keeps switched off alone"
    )
    parser.add_argument(
        "--cache", default="", help="CACHE_URL for (d) (redis://127.0.0.1:6379/N; default: local memory)"
    )
    parser.add_argument(
        "--sizes", type=numbers(int), default=[30, 1000, 3000], help="teams of (d)'s concours, beside --teams"
    )
    parser.add_argument(
        "--paces", type=numbers(float), default=[1.0, 3.0],
        help="(d)'s night: RANKING_PUBLISH_SECONDS, each in turn (comma-separated seconds)",
    )  # fmt: skip
    parser.add_argument("--phones", type=int, default=40, help="phones polling in (d)'s stretch of night")
    parser.add_argument("--night-seconds", type=float, default=60, help="length of (d)'s stretch of night")
    args = parser.parse_args()
    # The machine as the run starts; again at the end (figures move with the load).
    reference_ms = reference_cpu_ms()
    print(f"==> {machine_load()}; reference workload {reference_ms:.1f} ms CPU on one core (benchkit.reference_cpu_ms)")
    print(UNLIKE_A_NIGHT, flush=True)
    atexit.register(lambda: print(f"==> at the end: {machine_load()}"))
    if not args.postgres.startswith("postgres"):
        print("bench/standings.py needs PostgreSQL: set DATABASE_URL or --postgres", file=sys.stderr)
        return 2

    def out_of_time(*_: Any) -> None:
        raise Deadline(f"stopped after {args.deadline:.0f} s (--deadline)")

    signal.signal(signal.SIGALRM, out_of_time)
    signal.alarm(int(args.deadline))
    url = database_url(args.postgres, args.database)
    broker = args.redis if args.redis and redis_answers(args.redis) else ""
    report: dict[str, Any] = {}
    try:
        print(f"==> database {args.database}: created and migrated")
        recreate_database(args.postgres, args.database)
        migrate(url)
        if args.cache:
            os.environ["CACHE_URL"] = args.cache
        setup_django(url)
        from scoring.standings import standings_rebuild
        from tournaments.models import Club

        club = Club.objects.create(name="Club du banc d'essai", slug="banc")
        parties = Parties(donnes=12, count=600)
        tournament = build_concours(club, 1, args.teams, args.rounds, parties, seed=1)
        hands = args.teams // 2 * args.rounds * 12
        print(f"==> concours: {args.teams} teams, {args.rounds} rounds, {hands:,} hands")
        analyze()
        if "a" in args.parts:
            report["a"] = bench_rebuild(tournament, args.repeat)
            say("a", report["a"])
        if "b" in args.parts:
            report["b"] = bench_rescore(tournament, max(3, args.repeat // 2))
            say("b", report["b"])
        worker_env = production_env(url)
        if "c" in args.parts:
            report["c"] = bench_hand_to_snapshot(
                tournament, max(10, args.repeat * 3), broker, worker_env, layers=args.layers
            )
            say("c", report["c"])
            say("c_budget", {**report["c"], "verdict": verdict(report["c"])})
            if "worker_commit_to_snapshot_ms" in report["c"]:
                say("c_worker", report["c"])
        if "m" in args.parts:
            report["m"] = bench_memos(club, args.memo_tournaments, args.teams, args.rounds, parties)
            say("m", report["m"])
        report["d"] = {}
        sizes = sorted({*args.sizes, args.teams}) if "d" in args.parts else []
        if sizes:
            cache = os.environ.get("CACHE_URL") or "local memory"
            live = os.environ["ATOUT_LIVE_ROOT"]
            print(f"==> (d) cache: {cache}; the live files in {live}; {machine_load()}", flush=True)
        for size in sizes:
            if size == args.teams:
                target = tournament
            else:
                target = build_concours(club, 1000 + size, size, 1, parties, seed=size)
            standings_rebuild(tournament_id=target.pk)
            report["d"][size] = bench_page(target, args.repeat * 3)
            say("d", {"size": size, **report["d"][size]})
            report["d"][size].update(bench_wire(target, args.repeat * 3))
            say("d_wire", {"size": size, **report["d"][size]})
            report["d"][size].update(bench_publish(target, args.repeat))
            say("d_publish", {"size": size, **report["d"][size]})
            for every in args.paces:
                night = bench_night_polls(target, every, phones=args.phones, seconds=args.night_seconds)
                report["d"][size][f"night_every_{every:g}s"] = night
                say("d_night", {"size": size, **night})
            print(f"    {machine_load()}", flush=True)
        if "e" in args.parts and args.season and broker:
            report["e"] = bench_season(
                club, tournament, args.season, args.teams, args.rounds, parties, args.workers, broker, worker_env
            )
            say("e", {**report["e"], "workers": args.workers})
        elif "e" in args.parts and args.season:
            print("(e) season skipped: Redis does not answer")
        results = ROOT / "bench-results"
        results.mkdir(exist_ok=True)
        (results / "standings.json").write_text(json.dumps(report, indent=2, default=str))
        # The last line: every figure as JSON (the budget's verdict under "c").
        print(json.dumps({"load": machine_load(), "reference_cpu_ms": reference_ms, **report}, default=str), flush=True)
        return 0
    except Deadline as stop:
        print(f"!! {stop}", file=sys.stderr)
        return 1
    finally:
        signal.alarm(0)
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        if not args.keep:
            drop_database(args.postgres, args.database)
        for folder in ("ATOUT_BENCH_STATIC", "ATOUT_BENCH_LIVE"):
            if os.environ.get(folder):
                shutil.rmtree(os.environ[folder], ignore_errors=True)


def analyze() -> None:
    """Fresh planner statistics after the bulk load, as autovacuum would give them."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


if __name__ == "__main__":
    sys.exit(main())
