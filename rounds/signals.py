"""What rounds/ tells the apps above it, without importing them (as tournaments/signals.py).

Signals go only to strangers: the sender does not know who listens, never reads an
answer, and every receiver lives above it (tests/site/test_signal_arrows.py).

- `round_clock_changed` (sender `Round`; keywords `round_id`, `tournament_id`, `number`,
  `ends_at`: when the round's time is up, an aware datetime, or None once the clock is
  stopped): the director started the round's clock, started it again, gave it more or
  less time, or stopped it. Sent once the change has committed, robustly (a failing
  receiver is logged, the clock stands). « Ma soirée »'s notifications (push/) tell the
  players when 5 minutes are left.
"""

from __future__ import annotations

from django.dispatch import Signal

round_clock_changed = Signal()
