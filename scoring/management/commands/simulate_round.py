"""`manage.py simulate_round SLUG`: play the current round out with random valid hands.

Every hand goes through `hand_submit`, the service behind the referee's form, so a
simulated round is scored, stored, revised and ranked exactly like a real one: the demo
and the benchmarks use it to play a tournament out.

Idempotent: each table's goal (how many donnes it should have) and each donne's hand
are drawn from a seed (the round's draw seed unless `--seed`), and only the donnes a
table does not have yet are added; running it again adds nothing. With `--partial` the
round is left partly played: some tables untouched, some halfway, some finished.

`--demo` names the demo concours that `manage.py demo` creates (its address carries the
day it was made); there, a round that is closed or missing is nothing to do rather than
an error, so that `./run` can call it every time.
"""

from __future__ import annotations

import random
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine.match import DEFAULT_DONNES
from scoring.models import Hand
from scoring.partie import partie_play, table_end, table_game
from scoring.services import HandRefused, hand_submit
from tournaments.models import Round, Table, Tournament

# A partie to a target normally ends within 20 donnes; the cap stops a run of ties.
MAX_DONNES = 200
# A random hand is valid on its own; a few more draws cover the rare one a partie refuses.
DRAWS_PER_DONNE = 5


class Command(BaseCommand):
    help = "Fill the open round of a tournament with valid random hands, through the referee's service."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", nargs="?", help="the tournament's public address (slug)")
        parser.add_argument("--demo", action="store_true", help="the demo concours of `manage.py demo`")
        parser.add_argument("--round", type=int, default=None, help="this round (default: the open one)")
        parser.add_argument("--tables", type=int, default=None, help="only the first N tables of the round")
        parser.add_argument(
            "--partial", action="store_true", help="leave the round partly played (some tables untouched or halfway)"
        )
        parser.add_argument("--seed", type=int, default=None, help="the random seed (default: the round's draw seed)")

    def handle(self, *args: Any, **options: Any) -> None:
        demo: bool = options["demo"]
        tournaments = self.tournaments(options["slug"], demo)
        if not tournaments:
            if demo:
                self.stdout.write("no demo concours: nothing to simulate")
                return
            raise CommandError(f"no tournament at {options['slug']!r}")
        for tournament in tournaments:
            self.simulate(tournament, options)

    def simulate(self, tournament: Tournament, options: dict[str, Any]) -> None:
        tables: int | None = options["tables"]
        partial: bool = options["partial"]
        seed: int | None = options["seed"]
        demo: bool = options["demo"]
        rounds = Round.objects.filter(tournament=tournament, status=Round.Status.OPEN)
        if options["round"] is not None:
            rounds = rounds.filter(number=options["round"])
        rnd = rounds.order_by("-number").first()
        if rnd is None:
            if demo:
                self.stdout.write(f"{tournament.name}: that round is not open: nothing to simulate")
                return
            raise CommandError(
                f"{tournament.name}: no round is open"
                + (f" numbered {options['round']}" if options["round"] is not None else "")
            )
        seed = rnd.seed if seed is None else seed
        chosen = list(Table.objects.filter(round=rnd).select_related("round__tournament").order_by("number"))
        if tables is not None:
            chosen = chosen[: max(0, tables)]
        added_total = 0
        for table in chosen:
            goal = self.goal(tournament, table, seed) if partial else None
            added, played, finished = self.play_table(tournament, table, seed, goal)
            added_total += added
            state = "finished" if finished else f"{played} donnes"
            if options["verbosity"] >= 2:
                self.stdout.write(f"table {table.number}: {added} donnes added ({state})")
        self.stdout.write(f"{tournament.name}, round {rnd.number}: {added_total} donnes added")

    @staticmethod
    def tournaments(slug: str | None, demo: bool) -> list[Tournament]:
        if demo:
            from tournaments.demo import CLUB_SLUG, PLAYED_DEMOS

            found = Tournament.objects.filter(club__slug=CLUB_SLUG, name__in=PLAYED_DEMOS)
            return sorted(found, key=lambda tournament: PLAYED_DEMOS.index(tournament.name))
        if not slug:
            raise CommandError("give the tournament's address (SLUG), or --demo")
        return list(Tournament.objects.filter(slug=slug)[:1])

    @staticmethod
    def goal(tournament: Tournament, table: Table, seed: int) -> int | None:
        """How many donnes a table should have in a partial round (None: to the end)."""
        rng = random.Random(f"{seed}:partial:{table.number}")
        roll = rng.random()
        if roll < 0.2:
            return 0
        if roll < 0.4:
            return None
        # A partie to a target: as many donnes as a partie of the usual length. A table with
        # a mort sitting out plays longer (scoring.partie.table_end).
        donnes = table_end(tournament, table_game(table)).donnes or DEFAULT_DONNES
        return rng.randint(1, max(1, donnes - 1))

    @staticmethod
    def play_table(tournament: Tournament, table: Table, seed: int, goal: int | None) -> tuple[int, int, bool]:
        """Add the missing donnes of one table (of the table's game); returns (added,
        donnes stored, finished)."""
        game = table_game(table)
        raws = [hand.raw for hand in Hand.objects.filter(table=table).order_by("number")]
        finished = partie_play(tournament, raws, game).finished
        added = 0
        while not finished and len(raws) < MAX_DONNES and (goal is None or len(raws) < goal):
            number = len(raws) + 1
            rng = random.Random(f"{seed}:{table.number}:{number}")
            for _draw in range(DRAWS_PER_DONNE):
                raw = game.random_hand(rng)
                try:
                    outcome = hand_submit(
                        table=table,
                        raw=raw,
                        idempotency_key=f"simulate:{seed}:{number}",
                        expected_number=number,
                        via=Hand.Via.SIMULATION,
                        author_label="simulate_round",
                    )
                except HandRefused:
                    continue
                break
            else:
                raise CommandError(f"table {table.number}: no valid random hand for donne {number}")
            if outcome.conflict or outcome.hand is None:
                # Someone entered this donne meanwhile: leave the table to them.
                break
            raws.append(outcome.hand.raw)
            added += int(outcome.created)
            finished = partie_play(tournament, raws, game).finished
        return added, len(raws), finished
