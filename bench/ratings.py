"""Time the Atout rating's arithmetic and a round 1 drawn by rating, on large fields.

- the openskill rebuild of a club's years (ratings/compute.py, no database): 200
  tournaments of 6 rounds, 50 belote tables a round (teams of two, 4 players a table),
  60,000 parties among 2,000 players; and the same count of tarot à 4 tables (4 sides);
- round 1 by rating (`seeded`) for 1,000 fixed teams, 1,200 mêlée players and 1,003 tarot à
  4 players at tables of 4 and 5.

The time is the process's CPU time (`time.process_time`), the machine's load and core
count printed beside it. Targets: the rebuild under 60 s (the worker does it once after a
tournament), each draw under 1 s. Run: `python bench/ratings.py`.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchkit import machine_load

from engine.pairing import Competitor, PairingRequest, pair
from ratings.compute import Partie, rate

TOURNAMENTS, ROUNDS, TABLES, PLAYERS = 200, 6, 50, 2000


def belote_parties(rng: random.Random) -> list[Partie]:
    parties = []
    for _ in range(TOURNAMENTS * ROUNDS):
        seated = rng.sample(range(PLAYERS), 4 * TABLES)
        for t in range(TABLES):
            a, b, c, d = seated[4 * t : 4 * t + 4]
            parties.append(Partie(sides=((a, b), (c, d)), ranks=(1, 2) if rng.random() < 0.5 else (2, 1)))
    return parties


def tarot_parties(rng: random.Random) -> list[Partie]:
    parties = []
    for _ in range(TOURNAMENTS * ROUNDS):
        seated = rng.sample(range(PLAYERS), 4 * TABLES)
        for t in range(TABLES):
            ranks = [1, 2, 3, 4]
            rng.shuffle(ranks)
            parties.append(Partie(sides=tuple((p,) for p in seated[4 * t : 4 * t + 4]), ranks=tuple(ranks)))
    return parties


def timed(label: str, run, target: float) -> None:  # type: ignore[no-untyped-def]
    start = time.process_time()
    result = run()
    spent = time.process_time() - start
    verdict = "ok" if spent < target else "OVER TARGET"
    print(f"{label}: {spent:.2f} s CPU (target < {target:g} s) {verdict}{result}")


def main() -> None:
    print(machine_load())
    rng = random.Random(14)
    belote = belote_parties(rng)
    tarot = tarot_parties(rng)
    timed(f"rebuild, {len(belote):,} belote parties", lambda: f" · {len(rate(belote)):,} players", 60)
    timed(f"rebuild, {len(tarot):,} tarot à 4 parties", lambda: f" · {len(rate(tarot)):,} players", 60)
    for fmt, count, sizes in (("teams", 1000, ()), ("melee", 1200, ()), ("individual", 1003, (4, 5))):
        field = tuple(Competitor(id=f"c{k}", score=rng.gauss(5, 4)) for k in range(count))
        request = PairingRequest(format=fmt, method="seeded", seed=1, competitors=field, table_sizes=sizes)
        timed(f"round 1 by rating, {fmt} ({count})", lambda r=request: f" · {len(pair(r).tables)} tables", 1)


if __name__ == "__main__":
    main()
