"""The bridge between the tournament's rows and the engine's draw (`engine.pairing.pair`).

One job: load who plays round n and what they did before, build the engine's
`PairingRequest`, call the engine, and write the round's tables, seats and byes. It holds
no rule about *when* a round may be drawn: `rounds.services.round_draw` and
`round_redraw` decide that and call `draw_round` inside their transaction.

Terms (eligible, history, score): docs/glossary.md. A late arrival's missed round counts
as their bye, whatever the late policy scores for it: they have sat out once already.
Competitors are passed in the newest snapshot's order, so the engine's système suisse sees
the full ranking. A round drawn by rating (`seeded`, round 1 when the tournament asks for
it) passes each competitor's Atout rating as its score (ratings/selectors.py).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from engine.pairing import Competitor as EngineCompetitor
from engine.pairing import Draw, PairingRequest, pair
from ratings.selectors import competitor_ratings
from scoring.models import StandingsSnapshot
from tournaments.models import Bye, Competitor, ForbiddenPair, Round, Seat, Table, Tournament
from tournaments.services.common import table_sizes

# Seat positions per side, by format: a team holds North-South or East-West; mêlée
# partners sit face to face; at an individual table (three to five players) the seats
# are numbered.
POSITIONS = {
    "teams": (("NS",), ("EW",)),
    "melee": (("N", "S"), ("E", "W")),
    "individual": (("1",), ("2",), ("3",), ("4",), ("5",)),
}


@dataclass(slots=True)
class History:
    opponents: list[int] = field(default_factory=list)
    partners: list[int] = field(default_factory=list)
    byes: int = 0


def eligible(tournament: Tournament, number: int) -> list[Competitor]:
    return list(
        tournament.competitors.filter(status=Competitor.Status.CHECKED_IN, joined_round__lte=number).order_by("number")
    )


def history(tournament: Tournament, before: int) -> dict[int, History]:
    """Who met whom, and how many byes, in the rounds numbered below `before`."""
    found: dict[int, History] = defaultdict(History)
    tables: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.filter(round__tournament=tournament, round__number__lt=before).only(
        "table_id", "competitor_id", "side"
    ):
        tables[seat.table_id].append(seat)
    for seats in tables.values():
        for seat in seats:
            for other in seats:
                if other.competitor_id == seat.competitor_id:
                    continue
                met = found[seat.competitor_id]
                (met.partners if other.side == seat.side else met.opponents).append(other.competitor_id)
    byes = Counter(
        Bye.objects.filter(round__tournament=tournament, round__number__lt=before).values_list(
            "competitor_id", flat=True
        )
    )
    for competitor_id, count in byes.items():
        found[competitor_id].byes = count
    return found


def standings_scores(tournament: Tournament) -> tuple[dict[int, float], list[int]]:
    """Each ranked competitor's score on the first criterion, and the snapshot's order."""
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).order_by("-version").first()
    if snapshot is None or not isinstance(snapshot.rows, list):
        return {}, []
    criteria = list(tournament.criteria or [])
    scores: dict[int, float] = {}
    order: list[int] = []
    for row in snapshot.rows:
        if not isinstance(row, dict) or not isinstance(row.get("competitor"), int):
            continue
        key = next((c for c in criteria if isinstance(row.get(c), int | float)), "points")
        value = row.get(key, 0)
        scores[row["competitor"]] = float(value) if isinstance(value, int | float) else 0.0
        order.append(row["competitor"])
    return scores, order


def build_request(tournament: Tournament, number: int, seed: int, method: str) -> PairingRequest:
    competitors = eligible(tournament, number)
    met = history(tournament, number)
    if method == Round.Method.SEEDED:
        # The ratings, best first; equal ratings in the order of the numbers.
        scores, ranked = competitor_ratings(competitors), []
    else:
        scores, ranked = standings_scores(tournament)
    place = {competitor_id: index for index, competitor_id in enumerate(ranked)}
    # The engine breaks equal scores by the order given: pass the standings' order,
    # unranked competitors (a first round, a late arrival) after, by number.
    competitors.sort(key=lambda c: (place.get(c.pk, len(place)), c.number))
    ids = {c.pk for c in competitors}
    forbidden = tuple(
        (str(a), str(b))
        for a, b in ForbiddenPair.objects.filter(tournament=tournament).values_list("first_id", "second_id")
        if a in ids and b in ids
    )
    uses_partners = tournament.format == Tournament.Format.MELEE
    return PairingRequest(
        format=tournament.format,
        method=method,
        seed=seed,
        competitors=tuple(
            EngineCompetitor(
                id=str(c.pk),
                score=scores.get(c.pk, 0.0),
                club=_club_key(c),
                opponents=tuple(str(o) for o in met[c.pk].opponents),
                partners=tuple(str(p) for p in met[c.pk].partners) if uses_partners else (),
                byes=met[c.pk].byes,
            )
            for c in competitors
        ),
        forbidden=forbidden,
        table_sizes=table_sizes(tournament),
        avoid_same_club=number <= tournament.separate_clubs_rounds,
    )


def _club_key(competitor: Competitor) -> str | None:
    # Compared without case or surrounding spaces: "ABC Rodez" and "abc rodez " are one club.
    label = " ".join(competitor.affiliation.split()).casefold()
    return label or None


def draw_round(rnd: Round) -> Round:
    """Draw `rnd` (saved or not, with its number, method and seed set) and write its tables.

    The caller holds the transaction and has removed any earlier draw of this round.
    """
    tournament = rnd.tournament
    result = pair(build_request(tournament, rnd.number, rnd.seed, rnd.method))
    rnd.repeats = _pairs(result.repeats)
    rnd.conflicts = _pairs(result.conflicts)
    rnd.save()
    write_draw(rnd, result)
    return rnd


def _pairs(pairs: tuple[tuple[str, str], ...]) -> list[list[int]]:
    return [sorted((int(a), int(b))) for a, b in pairs]


def write_draw(rnd: Round, result: Draw) -> None:
    positions = POSITIONS[rnd.tournament.format]
    tables = Table.objects.bulk_create([Table(round=rnd, number=t.number) for t in result.tables])
    seats = [
        Seat(round=rnd, table=table, competitor_id=int(competitor_id), side=side, position=positions[side][place])
        for table, drawn in zip(tables, result.tables, strict=True)
        for side, members in enumerate(drawn.sides)
        for place, competitor_id in enumerate(members)
    ]
    Seat.objects.bulk_create(seats)
    Bye.objects.bulk_create([Bye(round=rnd, competitor_id=int(c), reason="draw") for c in result.byes])
