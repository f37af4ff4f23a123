"""`python -m engine pair`: a pairing request as JSON on stdin, the draw as JSON on stdout.

Input: `{"format": "teams" | "melee" | "individual", "method": "random" | "swiss" | "seeded",
"seed": 7, "competitors": [{"id": "t1", "score": 3, "club": "c1", "opponents": ["t4"],
"partners": [], "byes": 0}], "forbidden": [["t1", "t9"]], "avoid_same_club": false,
"table_sizes": [4, 5]}`; only `format`, `method`, `seed` and each competitor's `id` are
required. `table_sizes` (format `individual` only) lists the allowed table sizes in order
of preference, as tarot à 4 and à 5 seat their players.

Output: `{"tables": [{"number": 1, "sides": [["t1"], ["t2"]]}], "byes": ["t5"],
"repeats": [["t1", "t4"]]}`. On bad input: exit status 2, one line on stderr, nothing on
stdout.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from engine.pairing.draw import pair
from engine.pairing.model import Competitor, PairingRequest

REQUEST_FIELDS = {"format", "method", "seed", "competitors", "forbidden", "avoid_same_club", "table_sizes"}
COMPETITOR_FIELDS = {"id", "score", "club", "opponents", "partners", "byes"}


def run_pair_command(stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Read one request, write one draw; return the exit status (0, or 2 on bad input)."""
    try:
        data = json.loads(stdin.read())
        draw = pair(parse_request(data))
    except (ValueError, RecursionError) as error:
        # json.JSONDecodeError is a ValueError; keep the message on one line.
        message = " ".join(str(error).split())
        stderr.write(f"error: {message}\n")
        return 2
    json.dump(draw.to_json(), stdout, ensure_ascii=False)
    stdout.write("\n")
    return 0


def parse_request(data: Any) -> PairingRequest:
    """A PairingRequest from decoded JSON, refusing unknown fields and wrong types."""
    if not isinstance(data, dict):
        raise ValueError("the request must be a JSON object")
    _refuse_unknown(data, REQUEST_FIELDS, "request")
    for required in ("format", "method", "seed", "competitors"):
        if required not in data:
            raise ValueError(f"the request has no {required!r}")
    for key in ("format", "method"):
        if not isinstance(data[key], str):
            raise ValueError(f"{key!r} must be a string, got {data[key]!r}")
    avoid = data.get("avoid_same_club", False)
    if not isinstance(avoid, bool):
        raise ValueError(f"'avoid_same_club' must be true or false, got {avoid!r}")
    competitors = data["competitors"]
    if not isinstance(competitors, list):
        raise ValueError("'competitors' must be a list")
    forbidden = data.get("forbidden", [])
    if not isinstance(forbidden, list) or not all(isinstance(p, list) for p in forbidden):
        raise ValueError("'forbidden' must be a list of pairs of ids")
    sizes = data.get("table_sizes", [])
    if not isinstance(sizes, list):
        raise ValueError(f"'table_sizes' must be a list of table sizes, got {sizes!r}")
    return PairingRequest(
        format=data["format"],
        method=data["method"],
        seed=data["seed"],
        competitors=tuple(_parse_competitor(c, k) for k, c in enumerate(competitors)),
        forbidden=tuple(tuple(p) for p in forbidden),
        avoid_same_club=avoid,
        table_sizes=tuple(sizes),
    )


def _parse_competitor(data: Any, index: int) -> Competitor:
    if not isinstance(data, dict):
        raise ValueError(f"competitor #{index + 1} must be a JSON object")
    _refuse_unknown(data, COMPETITOR_FIELDS, f"competitor #{index + 1}")
    if "id" not in data:
        raise ValueError(f"competitor #{index + 1} has no 'id'")
    lists = {}
    for key in ("opponents", "partners"):
        value = data.get(key, [])
        if not isinstance(value, list):
            raise ValueError(f"competitor {data['id']!r}: {key!r} must be a list of ids")
        lists[key] = tuple(value)
    return Competitor(
        id=data["id"],
        score=data.get("score", 0),
        club=data.get("club"),
        opponents=lists["opponents"],
        partners=lists["partners"],
        byes=data.get("byes", 0),
    )


def _refuse_unknown(data: dict[str, Any], known: set[str], where: str) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"{where}: unknown field {unknown[0]!r} (known: {', '.join(sorted(known))})")
