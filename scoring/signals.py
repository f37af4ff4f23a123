"""What scoring tells the apps above it, without importing them.

- `job_finished` (sender `Job`; keyword `job`): a job ended (done or failed), sent by the
  run that ended it, outside any transaction. A season job (seasons/) counts its
  tournaments' jobs with it; a receiver must be idempotent, since a job run twice (a
  redelivered message) may be announced twice.
- `snapshots_written` (sender `StandingsSnapshot`; keywords `tournament`, `snapshots`):
  new ranking versions were stored, inside the transaction that stores them (the relay's
  outbox takes them in it: relay/outbox.py). A receiver must be quick: it runs on every
  hand.
"""

from __future__ import annotations

from django.dispatch import Signal

job_finished = Signal()
snapshots_written = Signal()
