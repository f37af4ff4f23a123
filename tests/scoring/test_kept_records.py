"""What the live refresh keeps from one hand to the next (scoring/standings/kept.py).

A competitor whose stored record and parties are those of the last refresh keeps its
summed record (the same object); any other is summed again, and the records are always
those of copying every stored record and adding every partie.
"""

from __future__ import annotations

from engine.standings import PartieResult, Record, add_result, copy_record
from scoring.standings.kept import Kept, forget_kept, head_digest, kept_for, summed_records


def partie(competitor: str, opponent: str, points: int, outcome: str) -> PartieResult:
    return PartieResult(
        round=2, competitor=competitor, opponents=(opponent,), points_for=points,
        points_against=162 - points, outcome=outcome,
    )  # fmt: skip


def stored() -> dict[str, Record]:
    records = {}
    for competitor, points in (("1", 100), ("2", 62), ("3", 90), ("4", 72)):
        record = Record(competitor)
        add_result(record, PartieResult(1, competitor, ("9",), points, 162 - points, "win"))
        records[competitor] = record
    return records


def summed_afresh(base: dict[str, Record], added: dict[str, list[PartieResult]]) -> dict[str, Record]:
    out = {c: copy_record(r) for c, r in base.items()}
    for competitor, parties in added.items():
        record = out.setdefault(competitor, Record(competitor))
        for one in parties:
            add_result(record, one)
    return out


def test_unchanged_competitors_keep_their_record_and_a_changed_table_is_summed_again() -> None:
    base = stored()
    first = {"1": [partie("1", "2", 90, "win")], "2": [partie("2", "1", 72, "loss")]}
    kept = Kept("token")
    before = summed_records(kept, base, ["1", "2", "3", "4"], first)
    assert before == summed_afresh(base, first)
    # A hand at the table of 3 and 4: 1 and 2 keep their records, 3 and 4 are summed again.
    second = {**first, "3": [partie("3", "4", 81, "draw")], "4": [partie("4", "3", 81, "draw")]}
    after = summed_records(kept, base, ["1", "2", "3", "4"], second)
    assert after == summed_afresh(base, second)
    assert after["1"] is before["1"] and after["2"] is before["2"]
    assert after["3"] is not before["3"] and after["3"].points_for == 90 + 81
    # The stored records are never touched.
    assert base == stored()


def test_a_partie_that_changed_is_summed_again_and_a_newcomer_gets_a_record() -> None:
    base = stored()
    kept = Kept("token")
    summed_records(kept, base, ["1", "2"], {"1": [partie("1", "2", 90, "win")]})
    corrected = {"1": [partie("1", "2", 40, "loss")], "5": [partie("5", "1", 122, "win")]}
    after = summed_records(kept, base, ["1", "2"], corrected)
    assert after == summed_afresh(base, corrected)
    assert after["1"].points_for == 100 + 40 and after["1"].losses == 1
    assert after["5"].points_for == 122


def test_a_new_token_starts_afresh_and_the_head_digest_is_made_only_when_its_input_moved() -> None:
    forget_kept()
    kept = kept_for(41, "a")
    assert kept_for(41, "a") is kept
    assert kept_for(41, "b") is not kept
    made: list[int] = []

    def make() -> str:
        made.append(1)
        return f"digest{len(made)}"

    competitors = [(1, 1, "Les As", "active", 1, None)]
    assert head_digest(kept, "config", competitors, make) == "digest1"
    assert head_digest(kept, "config", list(competitors), make) == "digest1"
    assert head_digest(kept, "config", [(1, 1, "Les Rois", "active", 1, None)], make) == "digest2"
    assert head_digest(kept, "other", [(1, 1, "Les Rois", "active", 1, None)], make) == "digest3"
    assert len(made) == 3
