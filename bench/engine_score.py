"""Hands scored per second for each game, through the Python API and the command line.

For every game of `engine.GAMES` and table game of `engine.TABLE_GAMES` (tarot à 4 at a
table of five, the mort sitting out), 100,000 hands are drawn with the game's own
`random_hand` (seeded, so every run scores the same hands), then timed:

- `score`: `game.score(hand, options)` on hands validated beforehand, as a bulk
  re-scoring does;
- `validate+score`: `game.validate` then `game.score`, what entering a hand costs;
- `cli`: `python -m engine score GAME` on the same hands as JSON lines, process start,
  JSON parsing and printing included (wall-clock time).

Target: at least 100,000 hands/s on one core for both `score` and `validate+score`, in
every game, with the default options. The API figures are the median of `--runs` runs,
each timed in the process's CPU time (`time.process_time`), so that other work on a
shared machine does not count against them; the machine's core count and load average
are printed beside them all the same. The exit status is 1 when a game misses the target.

Run: `python bench/engine_score.py [--hands N] [--runs N] [--no-cli]`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import GAMES, TABLE_GAMES  # noqa: E402
from engine.core import Game  # noqa: E402

TARGET_PER_SECOND = 100_000
SEED = 20240601


def hands_for(game: Game, count: int) -> list[dict[str, object]]:
    rng = random.Random(f"{SEED}-{game.code}")
    return [game.random_hand(rng) for _ in range(count)]


def median_rate(count: int, run: Callable[[], None], runs: int) -> float:
    """Hands per second of CPU time, the median of `runs` runs."""
    rates = []
    for _ in range(runs):
        start = time.process_time()
        run()
        rates.append(count / max(time.process_time() - start, 1e-9))
    return statistics.median(rates)


def load() -> str:
    """The machine's load average over 1, 5 and 15 minutes."""
    try:
        return " ".join(f"{figure:.2f}" for figure in os.getloadavg())
    except OSError:  # not every platform has it
        return "unknown"


def api_rates(game: Game, hands: list[dict[str, object]], runs: int) -> tuple[float, float]:
    options = game.resolve_options({})
    if any(game.validate(hand, options) for hand in hands):
        raise SystemExit(f"{game.code}: random_hand drew an invalid hand")
    score, validate = game.score, game.validate

    def score_only() -> None:
        for hand in hands:
            score(hand, options)

    def validate_and_score() -> None:
        for hand in hands:
            if not validate(hand, options):
                score(hand, options)

    return median_rate(len(hands), score_only, runs), median_rate(len(hands), validate_and_score, runs)


def cli_rate(game: Game, hands: list[dict[str, object]]) -> float:
    text = "".join(json.dumps(hand) + "\n" for hand in hands)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "engine", "score", game.code],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0 or done.stdout.count("\n") != len(hands):
        raise SystemExit(f"{game.code}: the command failed ({done.returncode}): {done.stderr.strip()}")
    return len(hands) / elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (the median is printed)")
    parser.add_argument("--no-cli", action="store_true", help="skip the command-line figures")
    args = parser.parse_args()

    header = (
        f"{'game':<20} {'score/s':>12} {'validate+score/s':>18} {'cli/s':>10}  {'load (1, 5, 15 min)':<19}"
        f"  target {TARGET_PER_SECOND:,}/s"
    )
    print(
        f"{args.hands:,} hands per game, median of {args.runs} runs in CPU time; Python {sys.version.split()[0]}, "
        f"{os.cpu_count()} cores, load {load()}"
    )
    print(header)
    print("-" * len(header))
    slow = []
    for code, game in {**GAMES, **TABLE_GAMES}.items():
        hands = hands_for(game, args.hands)
        scored, checked = api_rates(game, hands, args.runs)
        cli = "-" if args.no_cli else f"{cli_rate(game, hands):,.0f}"
        mark = "" if min(scored, checked) >= TARGET_PER_SECOND else "  below target"
        if mark:
            slow.append(code)
        print(f"{code:<20} {scored:>12,.0f} {checked:>18,.0f} {cli:>10}  {load():<19}{mark}")
    if slow:
        print(f"below {TARGET_PER_SECOND:,} hands/s: {', '.join(slow)}")
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
