"""The bridge between stored results and the engine's ranking (engine.standings).

Load a tournament's table results, seats and byes in a few queries (`reading`), rank
them with the tournament's criteria (`ranking`), and store the ranking as a new
StandingsSnapshot version (`snapshots`), in one transaction, one writer at a time
(`locking`), as the refresh task asks (`refresh`); after a hand, from the closed rounds'
stored totals (`base`) and what the process kept of the last refresh (`kept`: the live
refresh, docs/live-refresh.md). Terms (partie result, bye, snapshot,
ticket): docs/glossary.md; the bye and late policies: docs/rules.md, "Byes and late
arrivals", read by `engine.standings.missed_round`.

The names the rest of the house uses are importable from here.
"""

from scoring.standings.base import base_forget
from scoring.standings.locking import standings_lock
from scoring.standings.ranking import RESULT_LABELS, columns_for, rank_rows
from scoring.standings.reading import Loaded, competitor_history, load, round_histories
from scoring.standings.refresh import (
    standings_catch_up,
    standings_rebuild,
    standings_refresh,
    standings_schedule_refresh,
)
from scoring.standings.snapshots import rebuild_locked

__all__ = [
    "RESULT_LABELS",
    "Loaded",
    "base_forget",
    "columns_for",
    "competitor_history",
    "load",
    "rank_rows",
    "rebuild_locked",
    "round_histories",
    "standings_catch_up",
    "standings_lock",
    "standings_rebuild",
    "standings_refresh",
    "standings_schedule_refresh",
]
