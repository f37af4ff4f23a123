"""A late arrival on the night: eight teams play round 1, a ninth checks in, round 2 is played.

The fault a director hit: the late team got a bye's credit for the round it missed (a won
partie and the round winners' average, 1,151 points) and stood first after round 2. By
default (`late_policy` "absent") a round missed scores nothing and counts as a partie
lost; under "bye" it scores exactly what a bye scores (docs/rules.md, "Byes and late
arrivals").
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from rounds.services import round_close, round_draw
from scoring.models import TableResult
from scoring.standings import standings_rebuild
from tests.factories import PlayerFactory
from tests.tournaments.conftest import client_for, new_tournament, register_many
from tournaments import services
from tournaments.models import Competitor, Round, Tournament

pytestmark = pytest.mark.django_db

# Every table of round 1 ends 1,151 to 500: a bye of that round is worth 1,151 (the
# winners' average), the credit the late team got on the night.
ROUND_1 = [1151, 500]


def finish_round(rnd: Round, by, totals_for) -> None:
    """Finish every table with `totals_for(competitor ids by side)` and close the round."""
    for table in rnd.tables.prefetch_related("seats"):
        sides: dict[int, list[int]] = {}
        for seat in table.seats.all():
            sides.setdefault(seat.side, []).append(seat.competitor_id)
        totals = totals_for([sides[side] for side in sorted(sides)])
        winner = totals.index(max(totals))
        TableResult.objects.update_or_create(
            table=table, defaults={"totals": totals, "finished": True, "winner_side": winner, "donnes_played": 12}
        )
    round_close(by=by, round=rnd)


def night(running, organiser, **settings: Any) -> tuple[Tournament, Competitor, dict[int, dict[str, Any]]]:
    """Eight teams, round 1 played, a ninth team checks in, round 2 played; the ranking's rows by id."""
    tournament, _teams = running(8, **settings)
    first = round_draw(by=organiser, tournament=tournament)
    finish_round(first, organiser, lambda sides: list(ROUND_1))
    winners_1 = {
        seat.competitor_id
        for table in first.tables.prefetch_related("seats")
        for seat in table.seats.all()
        if seat.side == 0
    }
    late = services.competitor_register(
        by=organiser, tournament=tournament, players=PlayerFactory.create_batch(2, club=tournament.club)
    )
    assert late.joined_round == 2

    def round_2(sides: list[list[int]]) -> list[int]:
        # The late team wins its table 1,000 to 700; elsewhere a round-1 winner wins again.
        if late.pk in sides[0]:
            return [1000, 700]
        if late.pk in sides[1]:
            return [700, 1000]
        return [800, 900] if set(sides[1]) & winners_1 and not set(sides[0]) & winners_1 else [900, 800]

    second = round_draw(by=organiser, tournament=tournament)
    assert late.seats.filter(round=second).exists(), "a late arrival plays the round it joins"
    finish_round(second, organiser, round_2)
    snapshot = standings_rebuild(tournament_id=tournament.pk)
    return tournament, late, {row["competitor"]: row for row in snapshot.rows}


def test_a_late_arrival_scores_nothing_for_the_round_it_missed_and_is_not_ranked_first(running, organiser) -> None:
    tournament, late, rows = night(running, organiser)
    assert tournament.late_policy == "absent"
    row = rows[late.pk]
    missed = row["rounds"][0]
    assert (missed["round"], missed["result"], missed["points"], missed["against"]) == (1, "absent", 0, 0)
    assert missed["late"] is True
    assert (row["wins"], row["points"], row["against"], row["difference"]) == (1, 1000, 700, 300)
    assert (row["played"], row["byes"], row["absences"]) == (1, 0, 1)
    assert row["rank"] > 1
    first = next(other for other in rows.values() if other["rank"] == 1)
    assert first["wins"] == 2 and first["played"] + first["byes"] == 2


def test_a_round_missed_counts_as_a_partie_lost_for_match_points(running, organiser) -> None:
    tournament, late, _rows = night(running, organiser)
    Tournament.objects.filter(pk=tournament.pk).update(match_points={"win": 4, "draw": 3, "loss": 2})
    rows = {row["competitor"]: row for row in standings_rebuild(tournament_id=tournament.pk).rows}
    # One win (4) and one partie lost, the round missed (2).
    assert rows[late.pk]["match_points"] == 6


def test_under_the_bye_late_policy_the_round_missed_gets_exactly_the_bye_credit(running, organiser) -> None:
    _tournament, late, rows = night(running, organiser, late_policy="bye")
    row = rows[late.pk]
    missed = row["rounds"][0]
    assert (missed["round"], missed["result"], missed["points"], missed["against"]) == (1, "bye", 1151, 0)
    assert missed["late"] is True
    assert (row["wins"], row["points"], row["byes"], row["played"], row["absences"]) == (2, 2151, 1, 1, 0)
    # What the director saw on the night, now only when the tournament asks for it.
    assert row["rank"] == 1


def test_the_late_policy_follows_the_bye_policy_when_it_credits_byes(running, organiser) -> None:
    _tournament, late, rows = night(running, organiser, late_policy="bye", bye_policy="fixed", bye_points=400)
    assert rows[late.pk]["rounds"][0]["points"] == 400 and rows[late.pk]["wins"] == 2


def test_a_withdrawn_teams_later_rounds_score_nothing_and_are_not_counted_as_lost(running, organiser) -> None:
    tournament, teams = running(8)
    first = round_draw(by=organiser, tournament=tournament)
    finish_round(first, organiser, lambda sides: list(ROUND_1))
    services.competitor_withdraw(by=organiser, competitor=teams[0])
    second = round_draw(by=organiser, tournament=tournament)
    finish_round(second, organiser, lambda sides: [900, 800])
    Tournament.objects.filter(pk=tournament.pk).update(match_points={"win": 4, "draw": 3, "loss": 2})
    row = next(r for r in standings_rebuild(tournament_id=tournament.pk).rows if r["competitor"] == teams[0].pk)
    assert [item["round"] for item in row["rounds"]] == [1]
    assert (row["played"], row["absences"], row["withdrawn"]) == (1, 0, True)
    assert row["match_points"] == (4 if row["wins"] else 2)


def test_the_late_policy_is_set_before_play_and_frozen_once_the_first_round_is_drawn(club, organiser) -> None:
    tournament = new_tournament(club, organiser)
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    register_many(tournament, organiser, 8)
    services.tournament_update(by=organiser, tournament=tournament, late_policy="bye")
    services.tournament_set_status(by=organiser, tournament=tournament, status="running")
    round_draw(by=organiser, tournament=tournament)
    with pytest.raises(ValidationError) as refused:
        services.tournament_update(by=organiser, tournament=tournament, late_policy="absent")
    assert "late_policy" in refused.value.message_dict
    tournament.refresh_from_db()
    assert tournament.late_policy == "bye"


def test_the_rankings_show_the_parties_each_competitor_played(running, organiser) -> None:
    tournament, late, _rows = night(running, organiser)
    visitor = Client(HTTP_ACCEPT_LANGUAGE="fr")
    slug = tournament.slug

    def played_in(html: str) -> str:
        # The late team's row (its name links to its page): the last cell is the parties played.
        row = next(line for line in html.splitlines() if f'/c/{late.number}/"' in line)
        return row.rsplit('<td class="num">', 1)[1].split("</td>")[0]

    for path in (reverse("public:ranking", kwargs={"slug": slug}), reverse("public:projector", kwargs={"slug": slug})):
        html = visitor.get(path).content.decode()
        assert "Jouées" in html
        assert played_in(html) == "1"
    partial = visitor.get(reverse("public:ranking", kwargs={"slug": slug}), HTTP_HX_REQUEST="true")
    assert played_in(partial.content.decode()) == "1"
    director = client_for(organiser)
    page = director.get(reverse("standings_manage:index", kwargs={"slug": slug}), HTTP_ACCEPT_LANGUAGE="fr")
    assert "Jouées" in page.content.decode() and played_in(page.content.decode()) == "1"
    csv_text = visitor.get(reverse("public:ranking_csv", kwargs={"slug": slug})).content.decode("utf-8-sig")
    header, *lines = csv_text.splitlines()
    assert header.split(";")[-1] == "Jouées"
    assert next(line for line in lines if line.split(";")[1] == str(late.number)).split(";")[-1] == "1"


def test_checking_in_a_late_team_on_the_dashboard_shows_it_exempt_in_the_round_at_once(running, organiser) -> None:
    tournament, _teams = running(8)
    round_draw(by=organiser, tournament=tournament)
    (late,) = register_many(tournament, organiser, 1, checked_in=False)
    client = client_for(organiser)
    fragment = client.post(
        reverse("manage:check_in", args=[tournament.pk, late.pk]), HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="fr"
    )
    text = fragment.content.decode()
    # The team list in place, and the round out of band: its exempt line names the late team.
    assert text.startswith('<section id="competitors"')
    assert '<section id="round" class="round" hx-swap-oob="true"' in text
    exempt = text[text.index("Exempt :") :]
    assert f"{late.name} (arrivée tardive)" in exempt[: exempt.index("</p>")]


def test_a_late_arrival_checked_in_by_mistake_can_be_unchecked_until_it_plays(running, organiser) -> None:
    tournament, _teams = running(8)
    first = round_draw(by=organiser, tournament=tournament)
    (late,) = register_many(tournament, organiser, 1, checked_in=False)
    services.competitor_check_in(by=organiser, competitor=late)
    assert list(first.byes.filter(competitor=late).values_list("reason", flat=True)) == ["late"]
    # Its bye is a round it missed, not one it played: the check-in can be taken back.
    services.competitor_check_in(by=organiser, competitor=late, present=False)
    late.refresh_from_db()
    assert (late.status, late.joined_round, first.byes.filter(competitor=late).exists()) == ("registered", 1, False)
    services.competitor_check_in(by=organiser, competitor=late)
    late.refresh_from_db()
    assert (late.status, late.joined_round) == ("checked_in", 2)
    # Once seated in round 2 it has played: withdrawing is the way out.
    finish_round(first, organiser, lambda sides: list(ROUND_1))
    round_draw(by=organiser, tournament=tournament)
    with pytest.raises(ValidationError, match="déjà joué"):
        services.competitor_check_in(by=organiser, competitor=late, present=False)
