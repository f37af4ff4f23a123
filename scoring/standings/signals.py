"""What the standings' writer tells the readers, without knowing them.

`snapshot_written` is sent once the transaction that wrote a new live snapshot has
committed, with `tournament_id`, `slug` and `version`: a reader that keeps anything of a
tournament in its process (scoring/selectors/standings.py) drops it there.
"""

from __future__ import annotations

from django.dispatch import Signal

snapshot_written = Signal()
