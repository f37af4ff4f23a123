"""`python -m engine`: the engine's command line, JSON in and JSON out.

The contract is docs/engine-cli.md:

    python -m engine score GAME [--options JSON]   hands on stdin: one JSON value, or JSON lines
    python -m engine match GAME [--options JSON]   one partie on stdin
    python -m engine games                         the games, their options and defaults
    python -m engine pair                          draw a round's tables (engine.pairing)

Exit codes: 0 when every hand was valid; 1 when some hand broke a rule (it prints
`{"errors": [...]}` in its place); 2 for a usage error (unknown command or game, a bad
option, stdin that is not JSON), with one line on stderr and nothing on stdout.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, TextIO

from engine.core import Game, OptionError

PROG = "python -m engine"


class UsageError(Exception):
    """Bad command line or unreadable input: exit 2, one line on stderr."""


class _Parser(argparse.ArgumentParser):
    # argparse prints the whole usage and exits on its own; the contract wants one line.
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _parser() -> _Parser:
    parser = _Parser(prog=PROG, description="Atout's rules engine: JSON in, JSON out.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, help_text in (
        ("score", "score hands read from stdin (one JSON object, or JSON lines)"),
        ("match", "play out one partie read from stdin"),
    ):
        command = commands.add_parser(name, help=help_text)
        command.add_argument("game", metavar="GAME")
        command.add_argument("--options", default="{}", help="a JSON object of option names and values")
    commands.add_parser("games", help="print the games, their options and defaults")
    commands.add_parser("pair", help="draw the tables of a round (input on stdin)")
    return parser


def _game(code: str) -> Game:
    from engine import get_game

    try:
        return get_game(code)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _options(game: Game, text: str) -> dict[str, Any]:
    try:
        given = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"--options is not JSON: {exc}") from None
    if not isinstance(given, dict):
        raise UsageError("--options must be a JSON object of option names and values")
    try:
        return game.resolve_options(given)
    except OptionError as exc:
        raise UsageError(f"{game.code}: {exc}") from None


def read_hands(text: str) -> list[Any]:
    """The whole input as one JSON value if it is one, else one value per non-blank line."""
    try:
        return [json.loads(text)]
    except ValueError:
        pass
    hands = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            hands.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise UsageError(f"line {number}: not JSON ({exc.msg}, column {exc.colno})") from None
    return hands


def score_command(game: Game, options: dict[str, Any], text: str, stdout: TextIO) -> int:
    hands = read_hands(text)
    lines = []
    invalid = False
    validate, score, result_json = game.validate, game.score, game.result_json
    for hand in hands:
        errors = validate(hand, options)
        if errors:
            invalid = True
            lines.append(json.dumps({"errors": [error.to_json() for error in errors]}))
        else:
            lines.append(json.dumps(result_json(score(hand, options))))
    if lines:
        stdout.write("\n".join(lines) + "\n")
    return 1 if invalid else 0


def match_command(game: Game, options: dict[str, Any], text: str, stdout: TextIO) -> int:
    from engine.match import play_json

    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"line {exc.lineno}: not JSON ({exc.msg}, column {exc.colno})") from None
    result = play_json(game, data, options)
    stdout.write(json.dumps(result.to_json()) + "\n")
    return 0 if result.valid else 1


def games_command(stdout: TextIO) -> int:
    from engine import GAMES

    stdout.write(json.dumps({code: game.describe() for code, game in GAMES.items()}, indent=2) + "\n")
    return 0


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        args = _parser().parse_args(argv)
        if args.command == "games":
            return games_command(stdout)
        if args.command == "pair":
            # Written beside the pairing algorithm; imported only when asked for.
            from engine.pairing import run_pair_command

            return run_pair_command(stdin, stdout, stderr)
        game = _game(args.game)
        options = _options(game, args.options)
        try:
            text = stdin.read()
        except UnicodeDecodeError as exc:
            raise UsageError(f"stdin is not UTF-8 text ({exc.reason})") from None
        if args.command == "score":
            return score_command(game, options, text, stdout)
        return match_command(game, options, text, stdout)
    except UsageError as exc:
        message = " ".join(str(exc).split())
        stderr.write(f"{PROG}: error: {message}\n")
        return 2


def run() -> int:
    # JSON is UTF-8 whatever the locale says.
    for stream in (sys.stdin, sys.stdout):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(encoding="utf-8")
    return main()


if __name__ == "__main__":
    sys.exit(run())
