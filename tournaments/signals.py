"""What tournaments/ tells the rest of the site, without importing it.

- `round_closed` (sender `Round`; keywords `round_id`, `tournament_id`, `number`): a round
  was closed, sent once the close has committed, robustly (a failing receiver is logged,
  the close stands). Venue mode keeps a copy of the database at each one (atout.backups).
"""

from __future__ import annotations

from django.dispatch import Signal

round_closed = Signal()
