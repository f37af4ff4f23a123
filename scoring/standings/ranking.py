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

from collections.abc import Mapping, Sequence
from itertools import compress
from operator import ne
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

import engine.standings as engine_standings
from kit import fastjson
from scoring.standings.kept import BuiltRow, KeptTournament, row_totals
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
    kept: KeptTournament | None = None,
) -> list[dict[str, Any]]:
    """The snapshot rows of competitors whose records are summed: a sort of small rows.

    The full rebuild sums every round's results (`rank_rows`); the live refresh adds the
    rounds in play to the stored totals of the closed ones (scoring/standings/base.py).
    Both end here, so both write the same rows. The records are only read.

    With `kept` (the live refresh's, scoring/standings/kept.py), the sort starts from the
    last ranking's order, and a competitor whose row of the last refresh shows what its
    row would show now (`BuiltRow.serves`) gets it again, with its text, or a copy with its
    new rank when that alone moved: after a hand a few rows of thousands are built and
    encoded. The rows are the same as without; `kept.text` is their JSON text, as
    `fastjson.dumps(rows)` writes it.
    """
    config = (tuple(criteria), tuple(sorted(match_points.items())))
    keys, order = engine_standings.rank_order_values(
        records, criterion_specs(criteria, match_points), kept.order if kept is not None else ()
    )
    positions = [keys.index(key) for key in criteria]
    known = {str(competitor[0]): competitor for competitor in competitors}
    last = kept.rows if kept is not None and kept.rows_config == config else {}
    # Shown and served by the API whatever the criteria: computed for each row built.
    scheme = None if "match_points" in criteria else _match_points_criterion(match_points)
    withdrawn = Competitor.Status.WITHDRAWN
    rows: list[dict[str, Any]] = []
    texts: list[str] = []
    now: dict[str, BuiltRow] = {}
    for competitor, rank, values in order:
        record = records[competitor]
        who = known.get(competitor) or _unknown(competitor)
        state = parties_state.get(who[0])
        totals = row_totals(record)
        built = last.get(competitor)
        if built is not None and built.serves(totals, values, who, state):
            if built.row["rank"] != rank:
                # A copy: the row kept stays as written (the copy keeps the keys' order).
                row = {**built.row, "rank": rank}
                built = BuiltRow(totals, values, who, state, row, fastjson.dumps(row))
            rows.append(built.row)
            texts.append(built.text)
            now[competitor] = built
            continue
        pk, number, name, status, _joined, _withdrawn_after = who
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
            # A copy: the state is the table's, as the live refresh keeps it.
            "current_partie": dict(state) if state is not None else None,
        }
        if scheme is not None:
            row["match_points"] = scheme.values(records, (competitor,))[competitor]
        rows.append(row)
        if kept is not None:
            built = BuiltRow(totals, values, who, state, row, fastjson.dumps(row))
            texts.append(built.text)
            now[competitor] = built
    if kept is not None:
        kept.rows, kept.rows_config = now, config
    # Equal competitors share a rank; within it, they are listed by number as the room
    # knows them: each span of a shared rank (where a rank is not its position) is sorted.
    count = len(rows)
    ranks = [rank for _competitor, rank, _values in order]
    for first in sorted({ranks[index] - 1 for index in compress(range(count), map(ne, ranks, range(1, count + 1)))}):
        end = first + 1
        while end < count and ranks[end] == first + 1:
            end += 1
        if texts:
            span = sorted(zip(rows[first:end], texts[first:end], strict=True), key=_pair_by_rank_then_number)
            rows[first:end], texts[first:end] = [row for row, _text in span], [text for _row, text in span]
        else:
            rows[first:end] = sorted(rows[first:end], key=_by_rank_then_number)
    if kept is not None:
        kept.order = [competitor for competitor, _rank, _values in order]
        kept.text = "[" + ",".join(texts) + "]"
    return rows


def _by_rank_then_number(row: dict[str, Any]) -> tuple[Any, Any]:
    return row["rank"], row["number"]


def _pair_by_rank_then_number(pair: tuple[dict[str, Any], str]) -> tuple[Any, Any]:
    return _by_rank_then_number(pair[0])


def _unknown(competitor: str) -> tuple[Any, ...]:
    return (int(competitor), *UNKNOWN)


def _match_points_criterion(scheme: Mapping[str, Any]) -> engine_standings.MatchPoints:
    """The engine's match points criterion by the tournament's scheme."""
    return engine_standings.MatchPoints(
        {k: v for k, v in scheme.items() if k in engine_standings.MatchPoints.allowed_params}
    )
