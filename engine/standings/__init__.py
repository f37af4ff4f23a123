"""Standings: rank competitors from their partie results, by named criteria.

Terms (partie, exempt, criterion, shared rank, Buchholz, head to head): docs/glossary.md.
One module per concern, every public name importable from here:

- `records`: a competitor's partie results (`PartieResult`) and the totals summed from
  them (`Record`, `records_of`, `add_result`), a table's outcomes;
- `criteria`: the ranking criteria (`CRITERIA`, `make_criteria`), which a game allows;
- `ranking`: the standings best first with shared ranks (`rank`, `rank_order_values`,
  whose sort may start from the last ranking's order: the live refresh's,
  docs/live-refresh.md);
- `missed`: rounds spent away from a table, byes and late arrivals (docs/rules.md);
- `seasons`: a season ranking from each tournament's final standings.

Everything is pure: the same results always give the same standings.
"""

from engine.standings.criteria import (
    CRITERIA,
    Against,
    Buchholz,
    Criterion,
    CriterionSpec,
    Difference,
    HeadToHead,
    MatchPoints,
    Points,
    Wins,
    allowed_criteria,
    default_criteria,
    make_criteria,
)
from engine.standings.missed import (
    BYE_POLICIES,
    LATE_POLICIES,
    MissedRound,
    bye_points,
    half_up,
    missed_round,
    missed_round_result,
)
from engine.standings.ranking import Standing, rank, rank_order, rank_order_values, rank_records
from engine.standings.records import (
    OUTCOMES,
    WITHOUT_OPPONENTS,
    Number,
    PartieResult,
    Record,
    add_result,
    copy_record,
    records_of,
    table_outcomes,
)
from engine.standings.seasons import (
    SEASON_SCORING,
    FieldPlacing,
    PlacingTable,
    SeasonScoring,
    SeasonStanding,
    TotalPoints,
    season_ranking,
)

__all__ = [
    "BYE_POLICIES",
    "CRITERIA",
    "LATE_POLICIES",
    "OUTCOMES",
    "SEASON_SCORING",
    "WITHOUT_OPPONENTS",
    "Against",
    "Buchholz",
    "Criterion",
    "CriterionSpec",
    "Difference",
    "FieldPlacing",
    "HeadToHead",
    "MatchPoints",
    "MissedRound",
    "Number",
    "PartieResult",
    "PlacingTable",
    "Points",
    "Record",
    "SeasonScoring",
    "SeasonStanding",
    "Standing",
    "TotalPoints",
    "Wins",
    "add_result",
    "allowed_criteria",
    "bye_points",
    "copy_record",
    "default_criteria",
    "half_up",
    "make_criteria",
    "missed_round",
    "missed_round_result",
    "rank",
    "rank_order",
    "rank_order_values",
    "rank_records",
    "records_of",
    "season_ranking",
    "table_outcomes",
]
