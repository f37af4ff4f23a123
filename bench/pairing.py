"""Time the draw of round 6 in three large tournaments, after 5 simulated rounds.

Scenarios (seeded, so every run draws the same tables):

- a swiss concours of 1,000 fixed teams, one point a win;
- a swiss mêlée of 1,200 players, one point to each winner;
- a swiss game for three with 999 players, ranked by total points (tarot-like table
  scores summing to zero).

Rounds 1 to 5 are drawn by the pairing itself (round 1 random, then swiss) with random
results; round 6 is timed, for the swiss and the random method. Target: under 1 s each
on one core, with no repeat. The time is the process's CPU time (`time.process_time`),
so that other work on a busy machine does not count. Run: `python bench/pairing.py`.
"""

from __future__ import annotations

import random
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.pairing import Competitor, Draw, PairingRequest, pair

HISTORY_ROUNDS = 5
TARGET_SECONDS = 1.0


@dataclass
class Record:
    score: float = 0
    opponents: list[str] = field(default_factory=list)
    partners: list[str] = field(default_factory=list)
    byes: int = 0


def request(fmt: str, method: str, seed: int, records: dict[str, Record]) -> PairingRequest:
    # Standings order: score, then id, as a tournament would pass them.
    ranked = sorted(records.items(), key=lambda item: (-item[1].score, item[0]))
    competitors = tuple(
        Competitor(id=name, score=r.score, opponents=tuple(r.opponents), partners=tuple(r.partners), byes=r.byes)
        for name, r in ranked
    )
    return PairingRequest(format=fmt, method=method, seed=seed, competitors=competitors)


def play(fmt: str, draw: Draw, records: dict[str, Record], rng: random.Random) -> None:
    for name in draw.byes:
        records[name].byes += 1
    for table in draw.tables:
        for s, side in enumerate(table.sides):
            for name in side:
                records[name].opponents.extend(o for t, other in enumerate(table.sides) if t != s for o in other)
                records[name].partners.extend(p for p in side if p != name)
        if fmt == "individual":
            # A tarot-like donne: the taker wins or loses 2x, each defender the opposite x.
            taker = rng.randrange(3)
            stake = rng.choice((-1, 1)) * rng.randint(25, 300)
            for s, side in enumerate(table.sides):
                records[side[0]].score += 2 * stake if s == taker else -stake
        else:
            for name in table.sides[rng.randrange(2)]:
                records[name].score += 1


def scenario(fmt: str, count: int, seed: int) -> list[tuple[str, int, str, float, int, int]]:
    rng = random.Random(seed)
    records: dict[str, Record] = defaultdict(Record)
    prefix = {"teams": "t", "melee": "p", "individual": "j"}[fmt]
    for k in range(count):
        records[f"{prefix}{k + 1}"] = Record()
    for round_number in range(1, HISTORY_ROUNDS + 1):
        method = "random" if round_number == 1 else "swiss"
        draw = pair(request(fmt, method, seed + round_number, records))
        play(fmt, draw, records, rng)
    rows = []
    for method in ("swiss", "random"):
        req = request(fmt, method, seed + HISTORY_ROUNDS + 1, records)
        start = time.process_time()
        draw = pair(req)
        elapsed = time.process_time() - start
        rows.append((fmt, count, method, elapsed, len(draw.repeats), len(draw.tables)))
    return rows


def main() -> int:
    rows = []
    for fmt, count in (("teams", 1000), ("melee", 1200), ("individual", 999)):
        rows.extend(scenario(fmt, count, seed=2024))
    print(f"{'format':<11} {'competitors':>11} {'method':<7} {'round 6 CPU s':>13} {'tables':>6} {'repeats':>7}")
    slow = False
    for fmt, count, method, elapsed, repeats, tables in rows:
        flag = "" if elapsed < TARGET_SECONDS and repeats == 0 else "  <- misses the target"
        slow = slow or bool(flag)
        print(f"{fmt:<11} {count:>11} {method:<7} {elapsed:>13.3f} {tables:>6} {repeats:>7}{flag}")
    return 1 if slow else 0


if __name__ == "__main__":
    raise SystemExit(main())
