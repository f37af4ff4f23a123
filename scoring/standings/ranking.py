"""Ranking: the tournament's criteria applied by the engine, and the snapshot rows.

A snapshot row (one per competitor, in ranking order) holds at least:
`competitor` (id), `number`, `name`, `rank` (shared: 1, 2, 2, 4), `wins`, `points`,
`against`, `difference`, `match_points`, `played` (parties played at a table and
finished), `byes`, `absences` (rounds missed and scored as lost), `withdrawn`, one key
per ranking criterion with its value, `values` (the criteria values in the criteria's
order, for display), and `current_partie`: the competitor's partie in the last
round counted, `{"round", "table", "donnes", "finished"}` (`donnes`:
the donnes counted at its table so far), or None when it sits that round out. A partie
not finished is still counted as it stands; pages mark it (scoring/templatetags).

A row carries no round history: `reading.round_histories` reads it when a page or the
API asks, one entry per round with `round`, `table`, `side`, `result` (win | loss |
draw | pending | bye | absent), `points`, `against`, `opponents` and `partners`
(competitor ids), and `late: true` on a round a late arrival missed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import compress
from operator import is_not, itemgetter, ne
from typing import Any, cast

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

import engine.standings as engine_standings
from kit import fastjson
from scoring.standings.kept import BuiltRow, Kept, RankedLine, competitors_known
from scoring.standings.reading import Loaded
from tournaments.games import CRITERION_LABELS
from tournaments.models import Competitor, Tournament

RESULT_LABELS: dict[str, Promise] = {
    "win": _("won"),
    "loss": _("lost"),
    "draw": _("drawn"),
    "pending": _("in play"),
    "bye": _("Bye"),
    "absent": _("absent"),
}


def columns_for(criteria: Sequence[str]) -> list[dict[str, Any]]:
    """The ranking's columns: each criterion with its label in the reader's language."""
    return [{"key": key, "label": CRITERION_LABELS.get(key, key)} for key in criteria]


def ranking_config(tournament: Tournament) -> tuple[list[str], dict[str, Any]]:
    """The tournament's criteria (the game's defaults when it chose none) and match points."""
    criteria = list(tournament.criteria or []) or list(engine_standings.default_criteria(tournament.game))
    return criteria, dict(tournament.match_points or {})


def criterion_specs(criteria: Sequence[str], match_points: Mapping[str, Any]) -> list[engine_standings.CriterionSpec]:
    specs: list[engine_standings.CriterionSpec] = []
    allowed = engine_standings.MatchPoints.allowed_params
    for key in criteria:
        if key == "match_points":
            specs.append((key, {k: v for k, v in match_points.items() if k in allowed}))
        else:
            specs.append(key)
    return specs


def rank_rows(
    loaded: Loaded, after_round: int | None, criteria: Sequence[str], match_points: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """The snapshot rows of the ranking counting rounds 1..after_round (all when None),
    from every round's results (`loaded` read from round 1): the full rebuild."""
    rounds = [n for n in loaded.rounds if after_round is None or n <= after_round]
    results = [partie for number in rounds for partie in loaded.round_parties(number)]
    records = engine_standings.records_of(results, [str(c[0]) for c in loaded.competitors])
    last_work = loaded.works.get(rounds[-1]) if rounds else None
    parties_state = last_work.parties_state if last_work is not None else {}
    return ranked_rows(records, loaded.competitors, criteria, match_points, parties_state)


Competitors = Sequence[tuple[int, int, str, str, int, int | None]]

# A competitor the ranking counts but that was not read (none in practice): a placeholder.
UNKNOWN = (0, "?", "", 1, None)


def ranked_rows(
    records: Mapping[str, engine_standings.Record],
    competitors: Competitors,
    criteria: Sequence[str],
    match_points: Mapping[str, Any],
    parties_state: Mapping[int, dict[str, Any]],
    kept: Kept | None = None,
) -> list[dict[str, Any]]:
    """The snapshot rows of competitors whose records are summed: a sort of small rows.

    The full rebuild sums every round's results (`rank_rows`); the live refresh adds the
    rounds in play to the stored totals of the closed ones (scoring/standings/base.py).
    Both end here, so both write the same rows.

    With `kept` (the live refresh's, scoring/standings/kept.py), the ranking starts from
    the last one (engine.standings.rank_order_kept), and a competitor whose record (the
    same object), criteria values, competitor as read and partie state (the same object)
    are those of the last refresh gets its row of then again (a copy with its new rank
    when that moved): after a hand, a few rows are built of thousands. The rows are the
    same as without.

    When the competitors read are those of the last refresh (the same list), only the
    positions whose ranking tuple (competitor, rank, values) is not the last ranking's
    same tuple (the engine keeps those of the rows that did not move), or whose partie
    state is another, are looked at one by one: both found by passes run in C. The
    others keep the row and text of the last ranking's same position.
    """
    config = (tuple(criteria), sorted(match_points.items()))
    same_config = kept is not None and kept.rows_config == config
    previous = kept.rows if kept is not None and same_config else {}
    keys, order, ranking = engine_standings.rank_order_kept(
        records, criterion_specs(criteria, match_points), kept.ranking if kept is not None else None
    )
    positions = [keys.index(key) for key in criteria]
    _ids, known = competitors_known(kept, competitors)
    count = len(order)
    last_line = kept.line if kept is not None and same_config else None
    built: dict[str, BuiltRow]
    todo: Iterable[int]
    if last_line is not None and last_line.competitors is competitors and len(last_line.order) == count:
        moved = set(compress(range(count), map(is_not, order, last_line.order)))
        pks = list(last_line.pks)
        for index in moved:
            pks[index] = (known.get(order[index][0]) or _unknown(order[index][0]))[0]
        states = list(map(parties_state.get, pks))
        moved.update(compress(range(count), map(is_not, states, last_line.states)))
        todo = sorted(moved)
        rows = list(last_line.rows)
        texts = list(last_line.texts)
        built = dict(previous)
    else:
        pks = [(known.get(competitor) or _unknown(competitor))[0] for competitor, _rank, _values in order]
        states = list(map(parties_state.get, pks))
        todo = range(count)
        rows = [EMPTY_ROW] * count
        texts = [None] * count
        built = {}
    withdrawn = Competitor.Status.WITHDRAWN
    fresh: list[tuple[str, dict[str, Any]]] = []
    # The rows built or copied, whose text is written once their match points are in.
    written: list[tuple[int, str, engine_standings.Record, tuple[Any, ...], tuple[Any, ...], Any]] = []
    for index in todo:
        competitor, rank, values = order[index]
        record = records[competitor]
        pk, who = known.get(competitor) or _unknown(competitor)
        state = states[index]
        last = previous.get(competitor)
        if (
            last is not None
            and last[0] is record
            and last[3] is state
            and (last[2] is who or last[2] == who)
            and (last[1] is values or last[1] == values)
        ):
            row = last[4]
            if row["rank"] == rank:
                built[competitor] = last
                rows[index], texts[index] = row, last[5]
                continue
            # A copy: the row kept stays as written (the copy keeps the keys' order).
            row = {**row, "rank": rank}
        else:
            _pk, number, name, status, _joined, _withdrawn_after = who
            row = {
                "competitor": pk,
                "number": number,
                "name": name,
                "rank": rank,
                # A credited bye is a won partie (docs/rules.md), as the `wins` criterion counts it.
                "wins": record.wins + record.byes,
                "points": record.points_for,
                "against": record.points_against,
                "difference": record.points_for - record.points_against,
                "played": record.played,
                "byes": record.byes,
                "absences": record.absences,
                "withdrawn": status == withdrawn,
                **dict(zip(keys, values, strict=True)),
                "values": [values[position] for position in positions],
                "current_partie": state,
            }
            fresh.append((competitor, row))
        written.append((index, competitor, record, values, who, state))
        rows[index], texts[index] = row, None
    if "match_points" not in criteria and fresh:
        # Shown and served by the API whatever the criteria: computed for the rows built.
        by_competitor = _match_points(records, match_points, [competitor for competitor, _row in fresh])
        for competitor, row in fresh:
            row["match_points"] = by_competitor[competitor]
    if kept is not None:
        for index, competitor, record, values, who, state in written:
            row = rows[index]
            text = texts[index] = fastjson.dumps(row)
            built[competitor] = (record, values, who, state, row, text)
        if len(built) > count:
            # Competitors gone from the ranking: nothing of theirs is kept.
            built = {competitor: built[competitor] for competitor, _rank, _values in order}
        kept.rows, kept.rows_config, kept.ranking = built, config, ranking
        kept.line = RankedLine(competitors, order, pks, states, list(rows), list(texts))
    # Equal competitors share a rank; within it, they are listed by number as the room
    # knows them: each span of a shared rank (where a rank is not its position) is sorted.
    ranks = list(map(itemgetter(1), order))
    for first in sorted({ranks[index] - 1 for index in compress(range(count), map(ne, ranks, range(1, count + 1)))}):
        end = first + 1
        while end < count and ranks[end] == first + 1:
            end += 1
        span = sorted(zip(rows[first:end], texts[first:end], strict=True), key=_by_rank_then_number)
        rows[first:end], texts[first:end] = [row for row, _text in span], [text for _row, text in span]
    if kept is not None:
        # The rows' JSON text, as `fastjson.dumps(rows)` writes it: the live refresh stores it.
        # (Every row has its text here: kept, or written above.)
        kept.text = "[" + ",".join(cast(list[str], texts)) + "]"
    return rows


# A placeholder of the rows' list before each position is filled.
EMPTY_ROW: dict[str, Any] = {}


def _by_rank_then_number(pair: tuple[dict[str, Any], str | None]) -> tuple[Any, Any]:
    row = pair[0]
    return row["rank"], row["number"]


def _unknown(competitor: str) -> tuple[int, tuple[Any, ...]]:
    pk = int(competitor)
    return pk, (pk, *UNKNOWN)


def _match_points(
    records: Mapping[str, engine_standings.Record], scheme: Mapping[str, Any], among: Iterable[str]
) -> dict[str, Any]:
    """The match points of the competitors `among` by the tournament's scheme (the engine's criterion)."""
    criterion = engine_standings.MatchPoints(
        {k: v for k, v in scheme.items() if k in engine_standings.MatchPoints.allowed_params}
    )
    return criterion.values(records, among)
