"""What tournaments/ tells the apps above it, without importing them.

The arrows between the apps go one way: `scoring` reads `tournaments`, never the reverse.
When a tournament's services change something its ranking reads, they send a signal once
the transaction has committed, and whoever keeps a ranking listens (scoring connects its
refresh in `ScoringConfig.ready`).

- `standings_refresh_requested` (keyword `tournament_id`): a round drawn or closed, a bye,
  a forfeit, a withdrawal or its reversal; the live ranking should catch up.
"""

from __future__ import annotations

from django.dispatch import Signal

standings_refresh_requested = Signal()
