"""A partie: the donnes played at one table, in order, up to the end the tournament set.

Terms (partie, played donne, running totals, réserve): docs/glossary.md. A partie ends
after a number of played donnes (`{"donnes": 12}`) or when a side reaches a target score
(`{"target": 1000}`). It carries the litige réserve from donne to donne itself, so its
hands leave `reserve_in` out; a réserve still pending when the partie ends is lost.

End and winner (docs/rules.md, "A partie"):

- after N donnes: the side with the highest total wins; equal highest totals leave the
  partie finished without a winner;
- at a target: the first side to reach it wins; when several reach it on the same donne
  the highest wins, and on an exact tie for the highest one more donne is played.

Nothing here raises on bad data: a hand that breaks a rule, a hand after the end, or a
malformed end comes back as a RuleError whose field starts with `hands.<i>` or `end`.
The game's options, being the tournament's configuration rather than data, raise
`OptionError` when wrong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.core import Game, HandScore, Number, RuleError, Side, gettext_noop, rule_error
from engine.games.checks import check_int, not_an_object, path, required, unknown_fields

MATCH_FIELDS = frozenset({"end", "hands"})
# The outcome of a donne that was redealt: scored (0 each), but not a played donne.
CANCELLED = "cancelled"
END_KINDS = ("donnes", "target")


@dataclass(frozen=True, slots=True)
class End:
    """How a partie ends: after `donnes` played donnes, or at `target` points."""

    donnes: int | None = None
    target: int | None = None

    def __post_init__(self) -> None:
        if (self.donnes is None) == (self.target is None):
            raise ValueError("an End has exactly one of donnes and target")

    def to_json(self) -> dict[str, int]:
        return {"donnes": self.donnes} if self.donnes is not None else {"target": self.target or 0}


DEFAULT_DONNES = 12


def default_target(game: Game) -> int | None:
    """The target score a tournament gets unless it chooses another (1000, 1501), if any."""
    return game.default_target


def default_end(game: Game, *, by_target: bool = False) -> End:
    """The tournament default: 12 donnes, or the game's default target when asked."""
    if not by_target:
        return End(donnes=DEFAULT_DONNES)
    target = default_target(game)
    if target is None:
        raise ValueError(f"{game.code} has no default target score")
    return End(target=target)


def end_at_table(game: Game, end: End) -> End:
    """A tournament's end of a partie at a table of `game`.

    Where only some of the table's players play each donne (tarot à 4 at a table of five,
    the mort sitting out), a partie of N donnes lasts N × players / players per donne,
    rounded up, so that each player plays as many donnes as at a full table (docs/rules.md,
    "The table of five"). A target is unchanged.
    """
    per_donne = game.players_per_donne
    if end.donnes is None or per_donne is None or per_donne >= game.players_per_table:
        return end
    return End(donnes=-(-end.donnes * game.players_per_table // per_donne))


def parse_end(game: Game, value: object, field_path: str = "end") -> tuple[End | None, list[RuleError]]:
    """An End from its JSON form, or the problems with it."""
    if isinstance(value, End):
        # Checked like its JSON form: a game's target range holds for either.
        value = value.to_json()
    if not isinstance(value, Mapping):
        return None, [not_an_object(field_path, value)]
    errors = unknown_fields(value, END_KINDS, field_path)
    given = [kind for kind in END_KINDS if kind in value]
    if len(given) != 1:
        errors.append(
            rule_error(
                field_path,
                "end_kind",
                gettext_noop('A partie ends after a number of donnes or at a target: give "donnes" or "target".'),
            )
        )
        return None, errors
    kind = given[0]
    low, high = 1, None
    if kind == "target" and game.target_range is not None:
        low, high = game.target_range
    number = check_int(errors, path(field_path, kind), value[kind], low, high)
    if errors or number is None:
        return None, errors
    return (End(donnes=number) if kind == "donnes" else End(target=number)), []


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A partie as far as its hands go.

    `running[i]` is every side's total after hand i, `scores[i]` that hand's score, both
    as long as the hands scored (scoring stops at the first invalid hand, whose carry
    would be unknown; the later hands are still validated). `finished_after` is the
    index of the hand that ended the partie.
    """

    sides: tuple[Side, ...]
    end: End | None
    totals: tuple[Number, ...]
    running: tuple[tuple[Number, ...], ...]
    scores: tuple[HandScore, ...]
    donnes_played: int
    finished: bool
    winner: Side | None
    finished_after: int | None
    # The litige reserve waiting for the next donne's winner (0 once the partie ended).
    reserve: int
    # A reserve that was still pending when the partie ended.
    reserve_lost: int
    errors: tuple[RuleError, ...] = field(default_factory=tuple)

    @property
    def valid(self) -> bool:
        return not self.errors

    def prefix(self, count: int) -> MatchResult:
        """The partie as it stood after its first `count` hands, as `play` of them alone gives it.

        A hand's score never depends on the hands after it, so this needs no second play:
        the scores, running totals and errors of those hands, and the end only if it came
        among them (a partie ends on a hand; the hands after it are errors).
        """
        errors = tuple(error for error in self.errors if _hand_index(error.field) < count)
        if self.finished_after is not None and self.finished_after < count:
            return replace(self, errors=errors)
        scores = self.scores[:count]
        return MatchResult(
            sides=self.sides,
            end=self.end,
            totals=self.running[len(scores) - 1] if scores else tuple(0 for _ in self.sides),
            running=self.running[: len(scores)],
            scores=scores,
            donnes_played=sum(1 for score in scores if score.outcome != CANCELLED),
            finished=False,
            winner=None,
            finished_after=None,
            reserve=scores[-1].reserve_out if scores else 0,
            reserve_lost=0,
            errors=errors,
        )

    def is_finished_after(self, index: int) -> bool:
        """Whether the partie was over once hand `index` (0-based) was played."""
        return self.finished_after is not None and index >= self.finished_after

    @property
    def donnes_remaining(self) -> int | None:
        """Played donnes still to come in a partie of N donnes (None at a target)."""
        if self.end is None or self.end.donnes is None:
            return None
        return max(0, self.end.donnes - self.donnes_played)

    @property
    def points_to_target(self) -> tuple[Number, ...] | None:
        """How far each side still is from the target (None in a partie of N donnes)."""
        if self.end is None or self.end.target is None:
            return None
        return tuple(max(0, self.end.target - total) for total in self.totals)

    @property
    def tie_break_donne(self) -> bool:
        """The target was reached on an exact tie for the lead: one more donne is due."""
        if self.finished or self.end is None or self.end.target is None:
            return False
        return any(total >= self.end.target for total in self.totals)

    def to_json(self) -> dict[str, Any]:
        """The command line's shape (docs/engine-cli.md): totals, running, finished, winner; or the errors."""
        if self.errors:
            return {"errors": [error.to_json() for error in self.errors]}
        return {
            "totals": _per_side(self.sides, self.totals),
            "running": [_per_side(self.sides, totals) for totals in self.running],
            "finished": self.finished,
            "winner": self.winner,
        }


def _hand_index(field_path: str) -> int:
    """The index of the hand an error's field is about (`hands.3.points` -> 3); -1 for the end."""
    parts = field_path.split(".")
    return int(parts[1]) if len(parts) > 1 and parts[0] == "hands" and parts[1].isdigit() else -1


def _per_side(sides: tuple[Side, ...], values: tuple[Number, ...]) -> dict[str, Number] | list[Number]:
    # Teams are named ("A", "B"): an object; players are numbered: a list.
    if all(isinstance(side, str) for side in sides):
        return {str(side): value for side, value in zip(sides, values, strict=True)}
    return list(values)


def _leader(sides: tuple[Side, ...], totals: Sequence[Number]) -> Side | None:
    """The side with the highest total, None when several share it."""
    best = max(totals)
    leaders = [side for side, total in zip(sides, totals, strict=True) if total == best]
    return leaders[0] if len(leaders) == 1 else None


@dataclass(slots=True)
class _Partie:
    """A partie being played out, donne by donne: what `play` carries from one hand to the next."""

    sides: tuple[Side, ...]
    end: End | None
    totals: list[Number]
    running: list[tuple[Number, ...]] = field(default_factory=list)
    scores: list[HandScore] = field(default_factory=list)
    errors: list[RuleError] = field(default_factory=list)
    reserve: int = 0
    reserve_lost: int = 0
    played: int = 0
    finished: bool = False
    winner: Side | None = None
    finished_after: int | None = None
    # False once a hand is refused (or the end is malformed): later hands' carry is unknown.
    scoring: bool = True

    def result(self) -> MatchResult:
        return MatchResult(
            sides=self.sides,
            end=self.end,
            totals=tuple(self.totals),
            running=tuple(self.running),
            scores=tuple(self.scores),
            donnes_played=self.played,
            finished=self.finished,
            winner=self.winner,
            finished_after=self.finished_after,
            reserve=self.reserve,
            reserve_lost=self.reserve_lost,
            errors=tuple(self.errors),
        )


def _after_the_end(partie: _Partie, base: str) -> RuleError:
    """The error of a hand entered once the partie is over."""
    return rule_error(
        base,
        "partie_finished",
        gettext_noop("The partie is over: no donne can follow donne {last}."),
        last=(partie.finished_after or 0) + 1,
    )


def _hand_problems(game: Game, hand: Any, resolved: Mapping[str, Any], base: str) -> list[RuleError]:
    """Phase 1: the hand's own problems, with fields under `hands.<i>`."""
    problems = [
        RuleError(path(base, e.field) if e.field else base, e.code, e.template, e.params)
        for e in game.validate(hand, resolved)
    ]
    keeps_reserve = bool(getattr(game, "keeps_reserve", False))
    if keeps_reserve and isinstance(hand, Mapping) and hand.get("reserve_in") not in (None, 0):
        problems.append(
            rule_error(
                path(base, "reserve_in"),
                "reserve_in_in_partie",
                gettext_noop("A partie carries litige reserves itself: leave reserve_in out."),
            )
        )
    return problems


def _score_hand(partie: _Partie, game: Game, hand: Any, resolved: Mapping[str, Any]) -> HandScore:
    """Phase 2: score a valid hand with the reserve carried in; add it to the running totals."""
    result = game.score(hand, resolved, partie.reserve)
    partie.scores.append(result)
    for side_index, points in enumerate(result.scores):
        partie.totals[side_index] += points
    partie.running.append(tuple(partie.totals))
    partie.reserve = result.reserve_out
    return result


def _check_end(partie: _Partie, end: End, index: int) -> None:
    """Phase 3, after a played donne: is the partie over, and who won (module docstring)."""
    partie.played += 1
    if end.donnes is not None:
        partie.finished = partie.played >= end.donnes
        partie.winner = _leader(partie.sides, partie.totals) if partie.finished else None
    elif any(total >= (end.target or 0) for total in partie.totals):
        # Several past the target on one donne: the highest wins; a tie plays on.
        partie.winner = _leader(partie.sides, partie.totals)
        partie.finished = partie.winner is not None
    if partie.finished:
        partie.finished_after = index
        # A reserve still pending when the partie ends is lost.
        partie.reserve_lost, partie.reserve = partie.reserve, 0


def play(
    game: Game,
    hands: Sequence[Any],
    end: End | Mapping[str, Any],
    options: Mapping[str, Any] | None = None,
) -> MatchResult:
    """Score a partie's hands in order: running totals, reserves, end and winner.

    `options` are the game's options as the tournament gives them (resolved here).
    Errors are returned in `MatchResult.errors`, never raised (except OptionError).
    Each hand goes through three phases: its own problems, its score with the reserve
    carried in, then the end of the partie.
    """
    resolved = game.resolve_options(options)
    parsed_end, end_errors = parse_end(game, end)
    partie = _Partie(sides=game.sides, end=parsed_end, totals=[0] * len(game.sides), errors=list(end_errors))
    partie.scoring = parsed_end is not None

    for i, hand in enumerate(hands):
        base = path("hands", i)
        if partie.finished:
            partie.errors.append(_after_the_end(partie, base))
            continue
        problems = _hand_problems(game, hand, resolved, base)
        if problems:
            partie.errors.extend(problems)
            # The carry into later hands is unknown now: keep validating, stop scoring.
            partie.scoring = False
            continue
        if not partie.scoring:
            continue
        assert parsed_end is not None
        if _score_hand(partie, game, hand, resolved).outcome != CANCELLED:
            _check_end(partie, parsed_end, i)
    return partie.result()


def play_json(game: Game, data: object, options: Mapping[str, Any] | None = None) -> MatchResult:
    """A partie from its JSON form `{"end": {...}, "hands": [...]}` (docs/engine-cli.md)."""
    resolved = game.resolve_options(options)
    if not isinstance(data, Mapping):
        return _refused(game, [rule_error("", "partie_not_object", gettext_noop("A partie must be a JSON object."))])
    errors = unknown_fields(data, MATCH_FIELDS)
    if "end" not in data:
        errors.append(required("end"))
    hands = data.get("hands")
    if hands is None:
        errors.append(required("hands"))
    elif not isinstance(hands, list):
        errors.append(rule_error("hands", "not_a_list", gettext_noop("Expected a list of hands.")))
    if errors:
        if "end" in data:
            errors.extend(parse_end(game, data["end"])[1])
        return _refused(game, errors)
    assert isinstance(hands, list)
    return play(game, hands, data["end"], resolved)


def _refused(game: Game, errors: list[RuleError]) -> MatchResult:
    zeros: tuple[Number, ...] = tuple(0 for _ in game.sides)
    return MatchResult(
        sides=game.sides,
        end=None,
        totals=zeros,
        running=(),
        scores=(),
        donnes_played=0,
        finished=False,
        winner=None,
        finished_after=None,
        reserve=0,
        reserve_lost=0,
        errors=tuple(errors),
    )
