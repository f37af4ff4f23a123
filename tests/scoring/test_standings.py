"""The standings bridge: stored results in, ranked snapshot rows out, on small worked cases.

Each case sets table results by hand (as scoring.partie would store them) so that every
number in the expected ranking can be checked on paper.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.models import StandingsSnapshot, TableResult
from scoring.selectors import standings as selectors
from scoring.standings import rebuild_locked, round_histories, standings_rebuild
from scoring.templatetags import ranking_rows as rows_tag
from scoring.templatetags.ranking_rows import ranking_progress, ranking_rows, row_list
from tests.factories import TournamentFactory, UserFactory, competitors_for, round_with_tables
from tournaments import services
from tournaments.models import Bye, Competitor, Round, Table, Tournament

pytestmark = pytest.mark.django_db


def finish(
    rnd: Round, table_number: int, totals: list[int | float], *, finished: bool = True, donnes: int = 12
) -> None:
    """Store a table's result: the highest total wins a finished partie, equal highest draw."""
    table = Table.objects.get(round=rnd, number=table_number)
    best = max(totals)
    winner = totals.index(best) if finished and totals.count(best) == 1 else None
    TableResult.objects.update_or_create(
        table=table, defaults={"totals": totals, "finished": finished, "winner_side": winner, "donnes_played": donnes}
    )


def rows_by_name(snapshot: StandingsSnapshot) -> dict[str, dict[str, Any]]:
    """The ranked rows by name, each with its parties round by round (read beside the snapshot)."""
    histories = round_histories(snapshot.tournament, after_round=snapshot.after_round)
    return {row["name"]: {**row, "rounds": histories.get(row["competitor"], [])} for row in snapshot.rows}


def ranking(snapshot: StandingsSnapshot) -> list[tuple[int, str]]:
    return [(row["rank"], row["name"]) for row in snapshot.rows]


def concours(count: int, **fields: Any) -> tuple[Tournament, list[Competitor]]:
    tournament = TournamentFactory(status="running", **fields)
    return tournament, competitors_for(tournament, count)


def test_teams_are_ranked_by_parties_won_then_points_then_difference() -> None:
    tournament, (c1, c2, c3, c4) = concours(4, criteria=["wins", "points", "difference"])
    rnd = round_with_tables(tournament, [c1, c2, c3, c4])  # C1 v C2, C3 v C4
    finish(rnd, 1, [900, 700])
    finish(rnd, 2, [650, 1100])
    snapshot = standings_rebuild(tournament_id=tournament.pk)
    # C4 and C1 both won; C4 scored more. C2 and C3 both lost; C2 scored more.
    assert ranking(snapshot) == [(1, "C4"), (2, "C1"), (3, "C2"), (4, "C3")]
    c4 = rows_by_name(snapshot)["C4"]
    assert (c4["wins"], c4["points"], c4["against"], c4["difference"], c4["played"]) == (1, 1100, 650, 450, 1)
    assert c4["values"] == [1, 1100, 450]
    assert snapshot.criteria == ["wins", "points", "difference"]
    assert c4["rounds"] == [
        {
            "round": 1,
            "table": 2,
            "side": 1,
            "result": "win",
            "points": 1100,
            "against": 650,
            "opponents": [c3.pk],
            "partners": [],
        }
    ]


def test_competitors_equal_on_every_criterion_share_a_rank_and_the_next_rank_is_skipped() -> None:
    tournament, (c1, c2, c3, c4) = concours(4, criteria=["wins", "points"])
    rnd = round_with_tables(tournament, [c1, c2, c3, c4])
    finish(rnd, 1, [900, 700])
    finish(rnd, 2, [700, 900])
    snapshot = standings_rebuild(tournament_id=tournament.pk)
    assert ranking(snapshot) == [(1, "C1"), (1, "C4"), (3, "C2"), (3, "C3")]


def test_a_partie_still_in_play_counts_its_points_but_not_as_won_or_played() -> None:
    tournament, (c1, c2) = concours(2, criteria=["wins", "points"])
    rnd = round_with_tables(tournament, [c1, c2])
    finish(rnd, 1, [420, 180], finished=False)
    rows = rows_by_name(standings_rebuild(tournament_id=tournament.pk))
    assert (rows["C1"]["points"], rows["C1"]["wins"], rows["C1"]["played"]) == (420, 0, 0)
    assert rows["C1"]["rounds"][0]["result"] == "pending"
    assert rows["C1"]["rank"] == 1 and rows["C2"]["rank"] == 2


def test_a_drawn_partie_is_neither_won_nor_lost_and_match_points_follow_the_scheme() -> None:
    tournament, (c1, c2, c3, c4) = concours(
        4, criteria=["match_points", "points"], match_points={"win": 4, "draw": 3, "loss": 2}
    )
    rnd = round_with_tables(tournament, [c1, c2, c3, c4])
    finish(rnd, 1, [800, 800])
    finish(rnd, 2, [1000, 600])
    rows = rows_by_name(standings_rebuild(tournament_id=tournament.pk))
    assert [rows[name]["match_points"] for name in ("C1", "C2", "C3", "C4")] == [3, 3, 4, 2]
    assert rows["C1"]["rounds"][0]["result"] == "draw"
    assert rows["C3"]["rank"] == 1 and rows["C1"]["rank"] == rows["C2"]["rank"] == 2


def test_a_bye_is_a_won_partie_with_the_average_of_the_round_winners_rounded_half_up() -> None:
    tournament, (c1, c2, c3, c4, c5) = concours(5, bye_policy="average_win", criteria=["wins", "points"])
    rnd = round_with_tables(tournament, [c1, c2, c3, c4])
    Bye.objects.create(round=rnd, competitor=c5)
    finish(rnd, 1, [900, 700])
    finish(rnd, 2, [500, 801])
    row = rows_by_name(standings_rebuild(tournament_id=tournament.pk))["C5"]
    # (900 + 801) / 2 = 850.5, rounded half up.
    assert (row["wins"], row["points"], row["byes"], row["played"]) == (1, 851, 1, 0)
    assert row["rounds"][0]["result"] == "bye" and row["rounds"][0]["table"] is None


def test_a_contree_bye_is_rounded_to_the_ten_as_every_contree_score_is() -> None:
    tournament, teams = concours(7, game="belote_contree", bye_policy="average_win", criteria=["wins", "points"])
    rnd = round_with_tables(tournament, teams[:6])
    Bye.objects.create(round=rnd, competitor=teams[6])
    finish(rnd, 1, [1930, 700])
    finish(rnd, 2, [1950, 800])
    finish(rnd, 3, [600, 1950])
    # (1930 + 1950 + 1950) / 3 = 1943.3: the contrée counts in tens (1943 was shown).
    assert rows_by_name(standings_rebuild(tournament_id=tournament.pk))["C7"]["points"] == 1940
    # A contrée played without rounding keeps the whole-point average.
    tournament.rule_options = {"rounding": "none"}
    tournament.save()
    assert rows_by_name(standings_rebuild(tournament_id=tournament.pk))["C7"]["points"] == 1943


def test_a_bye_under_the_fixed_policy_is_worth_the_tournament_value() -> None:
    tournament, (c1, c2, c3) = concours(3, bye_policy="fixed", bye_points=500, criteria=["wins", "points"])
    rnd = round_with_tables(tournament, [c1, c2])
    Bye.objects.create(round=rnd, competitor=c3)
    finish(rnd, 1, [900, 700])
    row = rows_by_name(standings_rebuild(tournament_id=tournament.pk))["C3"]
    assert (row["wins"], row["points"]) == (1, 500)


def test_a_round_already_ranked_is_counted_again_when_the_bye_value_changes() -> None:
    # Rounds are built once per content and kept for the next refresh: the bye policy is
    # part of what they are kept under, so a new value is never served from the old one.
    tournament, (c1, c2, c3) = concours(3, bye_policy="fixed", bye_points=500, criteria=["wins", "points"])
    rnd = round_with_tables(tournament, [c1, c2])
    Bye.objects.create(round=rnd, competitor=c3)
    finish(rnd, 1, [900, 700])
    assert rows_by_name(standings_rebuild(tournament_id=tournament.pk))["C3"]["points"] == 500
    Tournament.objects.filter(pk=tournament.pk).update(bye_points=620)
    assert rows_by_name(standings_rebuild(tournament_id=tournament.pk))["C3"]["points"] == 620
    Tournament.objects.filter(pk=tournament.pk).update(bye_policy="none")
    assert rows_by_name(standings_rebuild(tournament_id=tournament.pk))["C3"]["points"] == 0


def test_a_bye_under_the_none_policy_is_worth_nothing_not_even_a_win() -> None:
    tournament, (c1, c2, c3) = concours(3, bye_policy="none", criteria=["wins", "points"])
    rnd = round_with_tables(tournament, [c1, c2])
    Bye.objects.create(round=rnd, competitor=c3)
    finish(rnd, 1, [900, 700])
    rows = rows_by_name(standings_rebuild(tournament_id=tournament.pk))
    assert (rows["C3"]["wins"], rows["C3"]["points"], rows["C3"]["byes"]) == (0, 0, 0)
    assert rows["C3"]["rounds"][0]["result"] == "absent"
    assert rows["C3"]["rank"] == 3


def test_in_a_melee_each_player_of_a_side_gets_the_side_result_and_faces_both_opponents() -> None:
    tournament, players = concours(4, format="melee", criteria=["wins", "points"])
    rnd = round_with_tables(tournament, players)  # seats N E S W: sides 0 1 0 1
    finish(rnd, 1, [1010, 640])
    rows = rows_by_name(standings_rebuild(tournament_id=tournament.pk))
    _p1, p2, p3, p4 = (p.pk for p in players)
    assert rows["C1"]["points"] == rows["C3"]["points"] == 1010
    assert rows["C1"]["wins"] == rows["C3"]["wins"] == 1 and rows["C2"]["wins"] == 0
    assert sorted(rows["C1"]["rounds"][0]["opponents"]) == sorted([p2, p4])
    assert rows["C1"]["rounds"][0]["partners"] == [p3]
    assert [row["rank"] for row in standings_rebuild(tournament_id=tournament.pk).rows] == [1, 1, 3, 3]


def test_at_a_table_of_three_each_player_is_ranked_on_their_own_points() -> None:
    tournament, players = concours(3, game="tarot_a_trois", format="individual", criteria=["points", "wins"])
    rnd = round_with_tables(tournament, players)
    finish(rnd, 1, [240, -60, -180])
    rows = rows_by_name(standings_rebuild(tournament_id=tournament.pk))
    assert [(rows[n]["rank"], rows[n]["points"], rows[n]["wins"]) for n in ("C1", "C2", "C3")] == [
        (1, 240, 1),
        (2, -60, 0),
        (3, -180, 0),
    ]
    # What the two others scored between them.
    assert rows["C2"]["against"] == 60


def test_buchholz_rewards_the_competitor_who_met_the_stronger_opponents() -> None:
    tournament, (c1, c2, c3, c4) = concours(4, criteria=["wins", "buchholz"])
    r1 = round_with_tables(tournament, [c1, c2, c3, c4])  # C1 v C2, C3 v C4
    finish(r1, 1, [900, 700])
    finish(r1, 2, [900, 700])
    r2 = round_with_tables(tournament, [c1, c3, c2, c4], number=2)  # C1 v C3, C2 v C4
    finish(r2, 1, [700, 900])
    finish(r2, 2, [900, 700])
    rows = rows_by_name(standings_rebuild(tournament_id=tournament.pk))
    # C3 won twice, C1 and C2 once. C1 met C2 (1 win) and C3 (2 wins): 3; C2 met C1 (1) and C4 (0): 1.
    assert [rows[n]["wins"] for n in ("C1", "C2", "C3", "C4")] == [1, 1, 2, 0]
    assert rows["C1"]["buchholz"] == 3 and rows["C2"]["buchholz"] == 1
    assert ranking(standings_rebuild(tournament_id=tournament.pk))[:3] == [(1, "C3"), (2, "C1"), (3, "C2")]


def test_head_to_head_separates_two_tied_competitors_by_their_own_partie() -> None:
    tournament, (c1, c2, c3, c4) = concours(4, criteria=["wins", "head_to_head"])
    r1 = round_with_tables(tournament, [c1, c2, c3, c4])  # C1 v C2: C2 wins
    finish(r1, 1, [600, 900])
    finish(r1, 2, [900, 600])
    r2 = round_with_tables(tournament, [c1, c4, c2, c3], number=2)  # C1 beats C4, C2 loses to C3
    finish(r2, 1, [900, 600])
    finish(r2, 2, [600, 900])
    snapshot = standings_rebuild(tournament_id=tournament.pk)
    rows = rows_by_name(snapshot)
    # C3 won twice; C1 and C2 won once each, and C2 beat C1 in round 1.
    assert rows["C3"]["rank"] == 1
    assert (rows["C2"]["rank"], rows["C1"]["rank"]) == (2, 3)


def test_each_round_gets_a_ranking_of_its_own_and_the_live_one_is_the_newest_version() -> None:
    tournament, (c1, c2, c3, c4) = concours(4, criteria=["wins", "points"])
    r1 = round_with_tables(tournament, [c1, c2, c3, c4])
    finish(r1, 1, [900, 700])
    finish(r1, 2, [600, 800])
    r2 = round_with_tables(tournament, [c1, c4, c2, c3], number=2)
    finish(r2, 1, [500, 1000])
    live = standings_rebuild(tournament_id=tournament.pk)
    after_one = StandingsSnapshot.objects.filter(tournament=tournament, after_round=1).latest("version")
    assert live.after_round == 2 and live.version > after_one.version
    assert [row["name"] for row in after_one.rows][:2] == ["C1", "C4"]
    assert all(len(row["rounds"]) == 1 for row in rows_by_name(after_one).values())
    # After round 2, C4 leads (two wins); the points of table 2, still unplayed, are 0.
    assert live.rows[0]["name"] == "C4" and live.rows[0]["wins"] == 2


def test_a_rebuild_of_unchanged_results_rewrites_only_the_live_ranking() -> None:
    tournament, (c1, c2) = concours(2)
    r1 = round_with_tables(tournament, [c1, c2])
    finish(r1, 1, [900, 700])
    round_with_tables(tournament, [c2, c1], number=2)
    first = standings_rebuild(tournament_id=tournament.pk)
    second = standings_rebuild(tournament_id=tournament.pk)
    assert second.version == first.version + 1
    # Round 1's ranking did not move: still the one version written the first time.
    assert StandingsSnapshot.objects.filter(tournament=tournament, after_round=1).count() == 1


def test_a_correction_in_a_past_round_rewrites_that_round_ranking_and_the_ones_after() -> None:
    tournament, (c1, c2) = concours(2, criteria=["wins", "points"])
    r1 = round_with_tables(tournament, [c1, c2])
    finish(r1, 1, [900, 700])
    r2 = round_with_tables(tournament, [c2, c1], number=2)
    finish(r2, 1, [800, 600])
    standings_rebuild(tournament_id=tournament.pk)
    finish(r1, 1, [700, 900])
    standings_rebuild(tournament_id=tournament.pk)
    after_one = StandingsSnapshot.objects.filter(tournament=tournament, after_round=1).latest("version")
    assert StandingsSnapshot.objects.filter(tournament=tournament, after_round=1).count() == 2
    assert after_one.rows[0]["name"] == "C2"


def test_old_versions_are_pruned_but_the_newest_few_of_each_round_are_kept() -> None:
    tournament, (c1, c2) = concours(2)
    rnd = round_with_tables(tournament, [c1, c2])
    for points in range(25):
        finish(rnd, 1, [500 + points, 700], finished=False)
        standings_rebuild(tournament_id=tournament.pk)
    versions = list(StandingsSnapshot.objects.filter(tournament=tournament).values_list("version", flat=True))
    assert max(versions) == 25
    assert len(versions) <= 3 + 10
    assert StandingsSnapshot.objects.filter(tournament=tournament).latest("version").rows[1]["points"] == 524


def test_a_tournament_without_rounds_lists_every_competitor_at_rank_one() -> None:
    tournament, _ = concours(3)
    snapshot = standings_rebuild(tournament_id=tournament.pk)
    assert snapshot.after_round is None
    assert [(row["rank"], row["number"]) for row in snapshot.rows] == [(1, 1), (1, 2), (1, 3)]


def test_the_game_default_criteria_apply_when_the_tournament_names_none() -> None:
    tournament, (c1, c2, c3) = concours(3, game="belote_a_trois", format="individual", criteria=[])
    rnd = round_with_tables(tournament, [c1, c2, c3])
    finish(rnd, 1, [80, 50, 20])
    snapshot = standings_rebuild(tournament_id=tournament.pk)
    assert snapshot.criteria == ["points", "wins"]
    assert ranking(snapshot) == [(1, "C1"), (2, "C2"), (3, "C3")]


def test_a_withdrawal_on_the_tournament_side_refreshes_the_live_ranking_once_committed(
    django_capture_on_commit_callbacks,
) -> None:
    # The tournament's services ask through a signal (tournaments/signals.py) that scoring
    # answers: they never import scoring.
    tournament, (c1, c2, c3, c4) = concours(4)
    rnd = round_with_tables(tournament, [c1, c2, c3, c4])
    finish(rnd, 1, [900, 700])
    standings_rebuild(tournament_id=tournament.pk)
    director = UserFactory()
    tournament.club.organisers.add(director)
    with django_capture_on_commit_callbacks(execute=True):
        services.competitor_withdraw(by=director, competitor=c2)
    live = StandingsSnapshot.objects.filter(tournament=tournament).order_by("-version").first()
    assert rows_by_name(live)["C2"]["withdrawn"] is True
    assert not rows_by_name(live)["C1"]["withdrawn"]


# -- the ranking mid-round: parties in play are counted as they stand, and marked ------------


def mid_round() -> tuple[Tournament, list[Competitor]]:
    """Rounds 1 and 2 closed; round 3 in play: table 1 finished, table 2 at its 5th donne, table 3 not started."""
    tournament, teams = concours(6, criteria=["wins", "points"])
    for number in (1, 2):
        rnd = round_with_tables(tournament, teams[number - 1 :] + teams[: number - 1], number=number)
        for table in (1, 2, 3):
            finish(rnd, table, [900, 700])
        Round.objects.filter(pk=rnd.pk).update(status=Round.Status.CLOSED)
    # C1 v C2 (finished), C3 v C4 (5 donnes in), C5 v C6 (not started: no result yet).
    third = round_with_tables(tournament, teams, number=3)
    finish(third, 1, [1000, 640])
    finish(third, 2, [420, 380], finished=False, donnes=5)
    return tournament, teams


def marks(snapshot: StandingsSnapshot) -> dict[str, str]:
    """Each row's name cell as the ranking shows it, by competitor name (French)."""
    with translation.override("fr"):
        html = str(ranking_rows(snapshot.rows, "/t/x/c/"))
    cells = {}
    for line in html.splitlines():
        name = line.split('/">')[1].split("</a>")[0]
        cells[name] = line.split("</a>")[1].split("</td>")[0]
    return cells


def test_mid_round_each_row_says_how_far_its_partie_in_play_has_gone() -> None:
    tournament, _teams = mid_round()
    snapshot = standings_rebuild(tournament_id=tournament.pk)
    rows = rows_by_name(snapshot)
    assert rows["C1"]["current_partie"] == {"round": 3, "table": 1, "donnes": 12, "finished": True}
    assert rows["C3"]["current_partie"] == {"round": 3, "table": 2, "donnes": 5, "finished": False}
    assert rows["C6"]["current_partie"] == {"round": 3, "table": 3, "donnes": 0, "finished": False}
    # Still counted as they stand: C3's 420 points of round 3 are in its total.
    assert rows["C3"]["points"] == 900 + 700 + 420
    shown = marks(snapshot)
    assert shown["C1"] == shown["C2"] == ""
    assert shown["C3"] == shown["C4"] == ' <span class="in-play">en cours, 5 donnes</span>'
    assert shown["C5"] == shown["C6"] == ' <span class="in-play not-started">pas commencée</span>'
    live = selectors.live_snapshot(tournament)
    assert selectors.ranking_progress(live) == {"closed": [1, 2], "in_play": 3}
    with translation.override("fr"):
        assert ranking_progress(selectors.ranking_progress(live)) == "Rondes 1 et 2 terminées, ronde 3 en cours"
    with translation.override("en"):
        assert ranking_progress(selectors.ranking_progress(live)) == "Rounds 1 and 2 closed, round 3 in play"


def test_a_round_closed_without_a_new_result_still_makes_a_new_version_that_says_so() -> None:
    tournament, _teams = mid_round()
    finish(Round.objects.get(tournament=tournament, number=3), 2, [900, 700])
    finish(Round.objects.get(tournament=tournament, number=3), 3, [900, 700])
    before = standings_rebuild(tournament_id=tournament.pk)
    Round.objects.filter(tournament=tournament, number=3).update(status=Round.Status.CLOSED)
    # Without forcing: a new version only because the input changed (the round's status).
    after = rebuild_locked(Tournament.objects.get(pk=tournament.pk))
    assert after is not None and after.version > before.version
    assert all(not marks(after)[name] for name in ("C1", "C3", "C5"))
    with translation.override("fr"):
        assert ranking_progress(selectors.ranking_progress(selectors.live_snapshot(tournament))) == (
            "Rondes 1 à 3 terminées"
        )
        after_one = selectors.snapshot_after_round(tournament, 1)
        assert ranking_progress(selectors.ranking_progress(after_one)) == "Ronde 1 terminée"


def test_the_ranking_pages_mark_the_parties_in_play_and_say_what_the_ranking_counts(client: Client) -> None:
    tournament, _teams = mid_round()
    standings_rebuild(tournament_id=tournament.pk)
    heading = "Rondes 1 et 2 terminées, ronde 3 en cours"
    ranking_url = reverse("public:ranking", kwargs={"slug": tournament.slug})
    projector_url = reverse("public:projector", kwargs={"slug": tournament.slug})
    pages = {
        "ranking": client.get(ranking_url),
        "live partial": client.get(ranking_url, headers={"HX-Request": "true"}),
        "projector": client.get(projector_url),
        "projector partial": client.get(projector_url, headers={"HX-Request": "true"}),
    }
    for name, response in pages.items():
        body = response.content.decode()
        assert response.status_code == 200, name
        assert f'<p class="ranking-progress">{heading}</p>' in body, name
        assert body.count('<span class="in-play">en cours, 5 donnes</span>') == 2, name
        assert body.count('<span class="in-play not-started">pas commencée</span>') == 2, name
    director = UserFactory()
    tournament.club.organisers.add(director)
    client.force_login(director)
    manage = client.get(reverse("standings_manage:index", kwargs={"slug": tournament.slug})).content.decode()
    assert f'<p class="ranking-progress">{heading} · 2 parties comptées en l’état</p>' in manage


def test_a_row_drawn_again_is_the_same_text_until_what_it_shows_moves(monkeypatch) -> None:
    """The rows drawn before are kept by what they show: the same row gives the same text in
    its language; a value, a rank, a name, a partie moving or the other language draws it anew."""
    monkeypatch.setattr(rows_tag, "_DRAWN", {})
    row: dict[str, Any] = {
        "competitor": 7, "rank": 3, "number": 7, "name": "Dupont – Martin", "values": [2, 1530],
        "played": 2, "withdrawn": False, "current_partie": {"round": 3, "table": 1, "donnes": 5, "finished": False},
    }  # fmt: skip
    with translation.override("fr"):
        first = row_list([row], "/t/x/c/")[0]
        assert row_list([dict(row)], "/t/x/c/")[0] is first and "en cours, 5 donnes" in first
        for change in ({"rank": 4}, {"values": [2, 1531]}, {"name": "Dupont – Durand"}, {"withdrawn": True},
                       {"current_partie": {"round": 3, "table": 1, "donnes": 6, "finished": False}}):  # fmt: skip
            moved = row_list([{**row, **change}], "/t/x/c/")[0]
            assert moved != first, change
        assert row_list([row], "/t/y/c/")[0] == first.replace("/t/x/", "/t/y/")
    with translation.override("en"):
        assert "in play, 5 donnes" in row_list([row], "/t/x/c/")[0]
    # Bounded: past DRAWN_MAX rows kept, the memory starts again.
    monkeypatch.setattr(rows_tag, "DRAWN_MAX", 3)
    with translation.override("fr"):
        row_list([{**row, "number": n} for n in range(10)], "/t/x/c/")
        row_list([row], "/t/x/c/")
    assert len(rows_tag._DRAWN) == 1
