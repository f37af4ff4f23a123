"""The relay: a venue laptop's night pushed to the club's hosted Atout when a connection is there.

Both ends are Atout. On the *venue* (RELAY_URL and RELAY_TOKEN set: the hosted site's
address and an API token of an organiser of the club there), every ranking version the
standings write goes into the *outbox* (`Outgoing`) in the same transaction; the draw of
the tournament (its competitors, rounds, tables and their results) and, once finished,
its results file (results/building.py) join it when they change. The *sender*
(`sending.relay_pass`, the Celery task `relay.tasks.relay_push` and the command
`manage.py relay_push --loop`) posts the outbox in order, one item at a time, each call
with a timeout; an item is marked sent only once the hosted site said so, so a cut
network resumes where it stopped (the *cursor*: the first unsent item of a tournament).

On the *hosted* site (`receiving.relay_receive`, POST /api/v1/relay/), each item is
taken into the club's own tournament of the same identity (archive.ArchiveIdentity),
made on first sight: a ranking version becomes a `StandingsSnapshot` of the same version,
the draw rounds, tables and seats, the results file the tournament itself (results
import's writing). Idempotent by (tournament, kind, key): an item received twice is
acknowledged and ignored. The public pages read them as they read their own; the ranking
says « en direct depuis la salle, mis à jour il y a N s » (`RelayReceipt`).

An app above `results`, below `api`. This package imports none of its modules.
"""
