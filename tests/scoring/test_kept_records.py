"""What the live refresh keeps from one hand to the next (scoring/standings/kept.py).

A competitor whose parties equal those of the last refresh keeps its summed record (the
same object); any other is summed again, and the records are always those of copying
every stored record and adding every partie. The stored totals are decoded once per
token, and the competitors' digest is made again only when they or the configuration
moved.
"""

from __future__ import annotations

import dataclasses

from engine.standings import PartieResult, Record, add_result, copy_record
from kit import fastjson
from scoring.standings.kept import KeptTournament, forget_kept, head_digest, kept_for, stored_totals, summed_records
from scoring.standings.ranking import ranked_rows


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


def summed_afresh(base: dict[str, Record], added: dict[str, tuple[PartieResult, ...]]) -> dict[str, Record]:
    out = {c: copy_record(r) for c, r in base.items()}
    for competitor, parties in added.items():
        record = out.setdefault(competitor, Record(competitor))
        for one in parties:
            add_result(record, one)
    return out


def test_unchanged_competitors_keep_their_record_and_a_changed_table_is_summed_again() -> None:
    base = stored()
    first = {"1": (partie("1", "2", 90, "win"),), "2": (partie("2", "1", 72, "loss"),)}
    kept = KeptTournament("token")
    before = summed_records(kept, base, ["1", "2", "3", "4"], first)
    assert before == summed_afresh(base, first)
    # A hand at the table of 3 and 4: 1 and 2 keep their records, 3 and 4 are summed again.
    second = {**first, "3": (partie("3", "4", 81, "draw"),), "4": (partie("4", "3", 81, "draw"),)}
    after = summed_records(kept, base, ["1", "2", "3", "4"], second)
    assert after == summed_afresh(base, second)
    assert after["1"] is before["1"] and after["2"] is before["2"]
    assert after["3"] is not before["3"] and after["3"].points_for == 90 + 81
    # The stored records are never touched.
    assert base == stored()


def test_a_partie_that_changed_is_summed_again_and_a_newcomer_gets_a_record() -> None:
    base = stored()
    kept = KeptTournament("token")
    summed_records(kept, base, ["1", "2"], {"1": (partie("1", "2", 90, "win"),)})
    corrected = {"1": (partie("1", "2", 40, "loss"),), "5": (partie("5", "1", 122, "win"),)}
    after = summed_records(kept, base, ["1", "2"], corrected)
    assert after == summed_afresh(base, corrected)
    assert after["1"].points_for == 100 + 40 and after["1"].losses == 1
    assert after["5"].points_for == 122


def test_only_the_competitors_whose_parties_moved_are_looked_at_and_one_known_by_its_parties_goes_with_them() -> None:
    base = stored()
    kept = KeptTournament("token")
    competitors = ["1", "2", "3", "4"]
    first = {"1": (partie("1", "5", 90, "win"),), "5": (partie("5", "1", 72, "loss"),)}
    before = summed_records(kept, base, competitors, first)
    assert before == summed_afresh(base, first) and before["5"].points_for == 72
    # 5's partie is taken back: 3 and 4 keep their records.
    second = {"1": (partie("1", "2", 90, "win"),), "2": (partie("2", "1", 72, "loss"),)}
    after = summed_records(kept, base, competitors, second)
    assert after == summed_afresh(base, second) and "5" not in after
    assert after["3"] is before["3"] and after["4"] is before["4"]
    assert after["1"] is not before["1"]
    # Nothing added any more: everyone back to the stored records (copies), 5 still gone.
    again = summed_records(kept, base, competitors, {})
    assert again == summed_afresh(base, {}) and again["3"] is before["3"]
    # An equal partie read again (another object, the same values) keeps the record summed then.
    read_again = {c: tuple(dataclasses.replace(p) for p in ps) for c, ps in second.items()}
    kept_one = summed_records(kept, base, competitors, second)["1"]
    assert read_again["1"][0] is not second["1"][0]
    assert summed_records(kept, base, competitors, read_again)["1"] is kept_one
    # Other stored totals come with another token, hence another keeping: summed from them.
    forget_kept()
    other = stored()
    fresh_kept = kept_for(43, "other token")
    fresh = summed_records(fresh_kept, stored_totals(fresh_kept, lambda: other), competitors, {})
    assert fresh == summed_afresh(other, {}) and fresh["3"] is not before["3"]


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
    # Equal competitors read again (another list): the digest of the last refresh.
    assert head_digest(kept, "config", list(competitors), make) == "digest1"
    renamed = [(1, 1, "Les Rois", "active", 1, None)]
    assert head_digest(kept, "config", renamed, make) == "digest2"
    assert head_digest(kept, "other", list(renamed), make) == "digest3"
    assert len(made) == 3


def test_the_stored_totals_are_decoded_once_per_token() -> None:
    forget_kept()
    decoded: list[int] = []

    def decode() -> dict[str, Record]:
        decoded.append(1)
        return stored()

    kept = kept_for(44, "a")
    first = stored_totals(kept, decode)
    assert stored_totals(kept_for(44, "a"), decode) is first and len(decoded) == 1
    assert stored_totals(kept_for(44, "b"), decode) == first and len(decoded) == 2


# -- the rows kept (scoring/standings/ranking.py, `ranked_rows` with a KeptTournament) ----------

COMPETITORS = [(pk, pk, f"Équipe {pk}", "checked_in", 1, None) for pk in (1, 2, 3, 4)]
STATE = {"round": 2, "table": 1, "donnes": 3, "finished": False}


def rows_of(records: dict[str, Record], criteria: list[str], kept: KeptTournament | None) -> list[dict[str, object]]:
    states = {pk: STATE for pk in (1, 2, 3, 4)}
    return ranked_rows(records, COMPETITORS, criteria, {"win": 3}, states, kept)


def by_competitor(rows: list[dict[str, object]]) -> dict[object, dict[str, object]]:
    return {row["competitor"]: row for row in rows}


def test_a_row_whose_inputs_did_not_move_is_written_again_as_it_was() -> None:
    base = stored()
    kept = KeptTournament("token")
    first = {"1": (partie("1", "2", 90, "win"),), "2": (partie("2", "1", 72, "loss"),)}
    records = summed_records(kept, base, ["1", "2", "3", "4"], first)
    before = rows_of(records, ["wins", "points"], kept)
    assert before == rows_of(records, ["wins", "points"], None)
    # A hand at the table of 3 and 4, no rank moving: 1 and 2 keep their rows, the very same dicts.
    second = {**first, "3": (partie("3", "4", 10, "draw"),), "4": (partie("4", "3", 10, "draw"),)}
    records = summed_records(kept, base, ["1", "2", "3", "4"], second)
    after = rows_of(records, ["wins", "points"], kept)
    assert after == rows_of(records, ["wins", "points"], None)
    old, new = by_competitor(before), by_competitor(after)
    assert new[1] is old[1] and new[2] is old[2]
    assert new[3] is not old[3] and new[3]["points"] == 90 + 10
    assert [row["rank"] for row in after] == [row["rank"] for row in before]
    assert new[3]["match_points"] == 3 + 1  # a win and a draw, by the tournament's scheme
    # The rows' JSON text, stored by the live refresh: each row's own kept with it.
    assert kept.text == fastjson.dumps(after)
    assert kept.rows["1"].text == fastjson.dumps(new[1]) and kept.rows["3"].text == fastjson.dumps(new[3])


def test_the_text_of_tied_rows_follows_them_listed_by_number() -> None:
    kept = KeptTournament("token")
    records = summed_records(kept, stored(), ["1", "2", "3", "4"], {})
    records = {**records, "4": records["1"], "3": records["1"]}  # 1, 3 and 4 tied on 100 points
    rows = ranked_rows(records, list(reversed(COMPETITORS)), ["points"], {}, {}, kept)
    assert [(row["rank"], row["number"]) for row in rows] == [(1, 1), (1, 3), (1, 4), (4, 2)]
    assert kept.text == fastjson.dumps(rows)


def test_a_row_whose_rank_alone_moved_is_a_copy_with_its_new_rank() -> None:
    base = stored()
    kept = KeptTournament("token")
    records = summed_records(kept, base, ["1", "2", "3", "4"], {})
    before = by_competitor(rows_of(records, ["wins", "points"], kept))
    assert before[1]["rank"] == 1 and before[3]["rank"] == 2
    # 3 now leads on points; 1 drops a place though nothing of its own moved.
    second = {"3": (partie("3", "4", 162, "win"),), "4": (partie("4", "3", 0, "loss"),)}
    records = summed_records(kept, base, ["1", "2", "3", "4"], second)
    rows = rows_of(records, ["wins", "points"], kept)
    after = by_competitor(rows)
    assert rows == rows_of(records, ["wins", "points"], None)
    assert after[1]["rank"] == 2 and after[1] is not before[1]
    assert before[1]["rank"] == 1  # the row kept, as written then
    assert list(after[1]) == list(before[1])  # the same keys in the same order


def test_a_row_is_built_again_when_its_buchholz_moved_though_its_record_did_not() -> None:
    # Round 1 closed: 1 beat 2, 3 beat 4. Round 2 in play: 1 against 3, 2 against 4.
    base: dict[str, Record] = {}
    for competitor, opponent, points, outcome in (("1", "2", 100, "win"), ("2", "1", 62, "loss"),
                                                  ("3", "4", 90, "win"), ("4", "3", 72, "loss")):  # fmt: skip
        base[competitor] = Record(competitor)
        add_result(base[competitor], PartieResult(1, competitor, (opponent,), points, 162 - points, outcome))
    playing = {
        "1": (PartieResult(2, "1", ("3",), 50, 40, "draw", finished=False),),
        "3": (PartieResult(2, "3", ("1",), 40, 50, "draw", finished=False),),
    }
    criteria = ["wins", "buchholz", "points"]
    kept = KeptTournament("token")
    first = {
        **playing,
        "2": (PartieResult(2, "2", ("4",), 30, 30, "draw", finished=False),),
        "4": (PartieResult(2, "4", ("2",), 30, 30, "draw", finished=False),),
    }
    records = summed_records(kept, base, ["1", "2", "3", "4"], first)
    before = by_competitor(rows_of(records, criteria, kept))
    # 2 beats 4: 1's record is the same object, but its Buchholz (the wins of 2, met in
    # round 1) moved, so its row is built again; 3's only moves down a place (4 still
    # has no win).
    second = {**playing, "2": (partie("2", "4", 100, "win"),), "4": (partie("4", "2", 62, "loss"),)}
    again = summed_records(kept, base, ["1", "2", "3", "4"], second)
    assert again["1"] is records["1"]
    rows = rows_of(again, criteria, kept)
    after = by_competitor(rows)
    assert rows == rows_of(again, criteria, None)
    assert after[1]["buchholz"] == before[1]["buchholz"] + 1 == 1
    assert after[1] is not before[1] and after[1]["values"] == [1, 1, 150]
    assert (before[3]["rank"], after[3]["rank"]) == (2, 3) and after[3] == {**before[3], "rank": 3}


def test_the_rows_kept_go_with_the_token_and_with_the_criteria() -> None:
    forget_kept()
    base = stored()
    kept = kept_for(42, "a")
    records = summed_records(kept, base, ["1", "2", "3", "4"], {})
    before = by_competitor(rows_of(records, ["wins", "points"], kept))
    assert kept.rows and kept.order
    again = kept_for(42, "b")
    assert not again.rows and not again.order
    records = summed_records(again, base, ["1", "2", "3", "4"], {})
    assert by_competitor(rows_of(records, ["wins", "points"], again))[1] is not before[1]
    # Other criteria on the same token: every row built again, with its new values.
    records = summed_records(kept, base, ["1", "2", "3", "4"], {})
    rows = rows_of(records, ["points", "wins"], kept)
    assert all(row is not before[row["competitor"]] for row in rows)
    assert [row["values"] for row in rows] == [[100, 1], [90, 1], [72, 1], [62, 1]]
