"""What tournaments/ tells the apps above it, without importing them.

The arrows between the apps go one way: `scoring` reads `tournaments`, never the reverse.
When a tournament's services change something its ranking reads, they send a signal once
the transaction has committed, and whoever keeps a ranking listens. Signals go only to
strangers: the sender does not know who listens, never reads an answer, and every
receiver lives above it (tests/site/test_signal_arrows.py). Scoring connects its
receivers in `ScoringConfig.ready`.

- `standings_refresh_requested` (keyword `tournament_id`): a round drawn or closed, a bye,
  a forfeit, a withdrawal or its reversal; the live ranking should catch up.
- `round_closed` (sender `Round`; keywords `round_id`, `tournament_id`, `number`): a round
  was closed, sent once the close has committed, robustly (a failing receiver is logged,
  the close stands). Venue mode keeps a copy of the database at each one (serving.backups).
- `round_drawn` (sender `Round`; keywords `round_id`, `tournament_id`, `number`): a round
  was drawn, or drawn again (new tables, new referee links), sent once the draw has
  committed, robustly (a failing receiver is logged, the draw stands). Venue mode copies
  the database at once, so that a copy restored later knows the round the phones play.
- `names_erased` (sender `Player`; keywords `tournament_ids`, `competitor_names`: competitor
  id -> its new name, `player_names`: player id -> its new name): a player was anonymised,
  sent inside the anonymisation's transaction; whoever keeps a copy of those names (the
  rankings' snapshots) rewrites it, and a failure undoes the anonymisation.
- `tournament_finished` (sender `Tournament`; keyword `tournament_id`): a tournament was
  declared finished, sent once that has committed, robustly (a failing receiver is logged,
  the tournament stays finished). The ratings (ratings/) are rebuilt with its parties.
- `players_merged` (sender `Player`; keywords `kept_id`, `merged_id`, `tournament_ids`: the
  tournaments the merged player played, `competitor_names`: competitor id -> its new name):
  two records of one player were merged into `kept_id` (tournaments/services/merge.py),
  sent inside the merge's transaction; whoever keeps a copy of those names or of who played
  (the rankings' and seasons' snapshots) rewrites it, and the ratings are rebuilt once it
  commits. A failure undoes the merge.
- `screen_messages_changed` (sender `ScreenMessage`; keyword `tournament_id`): the director
  posted a message on the screens or withdrew one, sent once that has committed, robustly
  (a failing receiver is logged, the message stands). A public tournament's strip of
  messages, served as a file, is published again (scoring/live_screens.py).
"""

from __future__ import annotations

from django.dispatch import Signal

standings_refresh_requested = Signal()
round_closed = Signal()
round_drawn = Signal()
names_erased = Signal()
tournament_finished = Signal()
players_merged = Signal()
screen_messages_changed = Signal()
