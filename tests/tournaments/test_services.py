"""The tournament services: who may act, and what each status allows."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError

from rounds.services import round_close, round_draw
from tests.factories import PlayerFactory
from tests.tournaments.conftest import new_tournament, register_many
from tournaments import services
from tournaments.models import Bye, Competitor, Player, Tournament

pytestmark = pytest.mark.django_db


def messages_of(error: pytest.ExceptionInfo[ValidationError]) -> dict[str, list[str]]:
    return error.value.message_dict


# -- permissions -------------------------------------------------------------------------


def test_an_outsider_cannot_add_a_player_to_another_club(club, outsider) -> None:
    with pytest.raises(PermissionDenied):
        services.player_create(by=outsider, club=club, last_name="Martin", first_name="Jean")
    assert not Player.objects.filter(club=club).exists()


def test_an_anonymous_visitor_cannot_create_a_tournament(club) -> None:
    with pytest.raises(PermissionDenied):
        new_tournament(club, AnonymousUser())


def test_an_outsider_cannot_register_check_in_or_draw_in_another_clubs_tournament(running, outsider) -> None:
    tournament, competitors = running(4)
    player = PlayerFactory(club=tournament.club)
    with pytest.raises(PermissionDenied):
        services.competitor_register(
            by=outsider, tournament=tournament, players=[player, PlayerFactory(club=tournament.club)]
        )
    with pytest.raises(PermissionDenied):
        services.competitor_withdraw(by=outsider, competitor=competitors[0])
    with pytest.raises(PermissionDenied):
        round_draw(by=outsider, tournament=tournament)
    with pytest.raises(PermissionDenied):
        services.tournament_update(by=outsider, tournament=tournament, name="Volé")
    assert not tournament.rounds.exists()


def test_an_organiser_cannot_register_a_player_of_another_club(running, organiser, other_club) -> None:
    tournament, _ = running(2)
    stranger = PlayerFactory(club=other_club)
    with pytest.raises(ValidationError) as error:
        services.competitor_register(
            by=organiser, tournament=tournament, players=[stranger, PlayerFactory(club=tournament.club)]
        )
    assert "player_1" in messages_of(error)


# -- players -----------------------------------------------------------------------------


def test_a_second_player_with_the_same_licence_is_refused(club, organiser) -> None:
    services.player_create(by=organiser, club=club, last_name="Martin", first_name="Jean", licence="0123456")
    with pytest.raises(ValidationError) as error:
        services.player_create(by=organiser, club=club, last_name="Durand", first_name="Paul", licence="0123456")
    assert "licence" in messages_of(error)


def test_namesakes_are_accepted_only_when_their_licences_tell_them_apart(club, organiser) -> None:
    services.player_create(by=organiser, club=club, last_name="Martin", first_name="Jean", licence="111")
    with pytest.raises(ValidationError) as error:
        services.player_create(by=organiser, club=club, last_name="MARTIN", first_name="jean")
    assert "last_name" in messages_of(error)
    son = services.player_create(by=organiser, club=club, last_name="Martin", first_name="Jean", licence="222")
    assert son.licence == "222"


def test_a_player_of_the_club_written_in_the_club_column_has_no_separate_affiliation(club, organiser) -> None:
    home = services.player_create(
        by=organiser, club=club, last_name="A", first_name="B", affiliation="belote club de rodez"
    )
    visitor = services.player_create(by=organiser, club=club, last_name="C", first_name="D", affiliation="ABC Millau")
    assert home.affiliation == "" and home.club_label == "Belote Club de Rodez"
    assert visitor.club_label == "ABC Millau"


# -- tournament settings -----------------------------------------------------------------


def test_a_belote_concours_defaults_to_teams_twelve_donnes_and_wins_first(club, organiser) -> None:
    tournament = new_tournament(club, organiser)
    assert tournament.status == "draft"
    assert tournament.format == "teams"
    assert (tournament.end_rule, tournament.end_value) == ("donnes", 12)
    assert tournament.criteria == ["wins", "points", "difference"]
    assert tournament.rule_options["capot_value"] == 250
    assert tournament.slug.startswith("concours-du-samedi")


def test_a_tarot_evening_is_individual_and_ranked_by_points_first(club, organiser) -> None:
    tournament = new_tournament(club, organiser, game="tarot_a_trois")
    assert tournament.format == "individual"
    assert tournament.criteria == ["points", "wins"]
    assert set(tournament.rule_options) == {"half_points", "primes"}


def test_target_scores_default_to_the_rules_and_are_required_where_the_rules_give_none(club, organiser) -> None:
    assert new_tournament(club, organiser, end_rule="target").end_value == 1000
    assert new_tournament(club, organiser, game="belote_moderne", end_rule="target").end_value == 1501
    with pytest.raises(ValidationError) as error:
        new_tournament(club, organiser, game="belote_a_trois", end_rule="target")
    assert "end_value" in messages_of(error)


def test_a_game_for_three_cannot_be_played_in_teams(club, organiser) -> None:
    with pytest.raises(ValidationError) as error:
        new_tournament(club, organiser, game="belote_a_trois", format="teams")
    assert "format" in messages_of(error)
    with pytest.raises(ValidationError):
        new_tournament(club, organiser, game="belote_classique", format="individual")


def test_rule_options_are_checked_by_the_engine_one_error_per_option(club, organiser) -> None:
    with pytest.raises(ValidationError) as error:
        new_tournament(club, organiser, rule_options={"capot_value": 300, "tie": "made", "split_rounding": "down"})
    errors = messages_of(error)
    assert "option_capot_value" in errors
    assert "rule_options" in errors  # split_rounding is belote à 3's, not this game's
    assert "option_tie" not in errors
    tournament = new_tournament(club, organiser, rule_options={"capot_value": 252})
    assert tournament.rule_options["capot_value"] == 252 and tournament.rule_options["tie"] == "litige"


def test_unknown_criteria_are_refused(club, organiser) -> None:
    with pytest.raises(ValidationError) as error:
        new_tournament(club, organiser, criteria=["wins", "luck"])
    assert "criteria" in messages_of(error)


def test_changing_the_game_before_the_start_resets_format_and_options(club, organiser) -> None:
    tournament = new_tournament(club, organiser, rule_options={"capot_value": 252})
    tournament = services.tournament_update(by=organiser, tournament=tournament, game="tarot_a_trois", format="")
    assert tournament.format == "individual"
    assert set(tournament.rule_options) == {"half_points", "primes"}


def test_the_game_and_the_rules_are_fixed_once_the_tournament_runs(running, organiser) -> None:
    tournament, _ = running(4)
    with pytest.raises(ValidationError) as error:
        services.tournament_update(by=organiser, tournament=tournament, game="belote_moderne")
    assert "game" in messages_of(error)
    with pytest.raises(ValidationError) as error:
        services.tournament_update(by=organiser, tournament=tournament, rule_options={"capot_value": 252})
    assert "rule_options" in messages_of(error)
    renamed = services.tournament_update(by=organiser, tournament=tournament, name="Grand concours", rounds_planned=5)
    assert renamed.name == "Grand concours" and renamed.rounds_planned == 5
    assert Tournament.objects.get(pk=tournament.pk).game == "belote_classique"


def test_a_finished_tournament_only_changes_its_name_date_and_visibility(running, organiser) -> None:
    tournament, _ = running(2)
    services.tournament_set_status(by=organiser, tournament=tournament, status="finished")
    with pytest.raises(ValidationError) as error:
        services.tournament_update(by=organiser, tournament=tournament, rounds_planned=6)
    assert "rounds_planned" in messages_of(error)
    services.tournament_update(by=organiser, tournament=tournament, is_public=False, date=datetime.date(2026, 12, 6))
    assert Tournament.objects.get(pk=tournament.pk).is_public is False


# -- the seating of tarot à 4 and à 5 ------------------------------------------------------


def test_each_tarot_at_four_or_five_takes_its_own_seating_and_no_table_of_3(club, organiser) -> None:
    quatre = new_tournament(club, organiser, game="tarot_a_quatre")
    cinq = new_tournament(club, organiser, game="tarot_a_cinq")
    assert (quatre.table_preference, quatre.allow_tables_of_three) == ("four_first", False)
    assert (cinq.table_preference, cinq.allow_tables_of_three) == ("five_first", False)
    chosen = new_tournament(
        club, organiser, game="tarot_a_quatre", table_preference="five_first", allow_tables_of_three=True
    )
    assert (chosen.table_preference, chosen.allow_tables_of_three) == ("five_first", True)


def test_games_at_one_table_size_take_no_seating(club, organiser) -> None:
    assert new_tournament(club, organiser, game="tarot_a_trois").table_preference == ""
    for seating in ({"table_preference": "four_first"}, {"allow_tables_of_three": True}):
        with pytest.raises(ValidationError) as error:
            new_tournament(club, organiser, game="belote_classique", **seating)
        assert list(messages_of(error)) == list(seating)
        assert "tarot à quatre" in messages_of(error)[next(iter(seating))][0]
    with pytest.raises(ValidationError) as error:
        new_tournament(club, organiser, game="tarot_a_cinq", table_preference="six_first")
    assert "table_preference" in messages_of(error)


def test_another_game_starts_from_its_own_seating(club, organiser) -> None:
    tournament = new_tournament(club, organiser, game="tarot_a_quatre", allow_tables_of_three=True)
    tournament = services.tournament_update(by=organiser, tournament=tournament, game="tarot_a_cinq")
    assert (tournament.table_preference, tournament.allow_tables_of_three) == ("five_first", False)
    tournament = services.tournament_update(by=organiser, tournament=tournament, game="belote_classique", format="")
    assert (tournament.table_preference, tournament.allow_tables_of_three) == ("", False)


def test_the_seating_is_fixed_once_the_first_round_is_drawn(running, organiser) -> None:
    tournament, _ = running(9, game="tarot_a_quatre")
    # Running, no round drawn yet: the director may still change it.
    tournament = services.tournament_update(
        by=organiser, tournament=tournament, table_preference="five_first", allow_tables_of_three=True
    )
    round_draw(by=organiser, tournament=tournament)
    for change in ({"table_preference": "four_first"}, {"allow_tables_of_three": False}):
        with pytest.raises(ValidationError) as error:
            services.tournament_update(by=organiser, tournament=tournament, **change)
        assert messages_of(error) == {next(iter(change)): ["Figé une fois la première ronde tirée."]}
    tournament = Tournament.objects.get(pk=tournament.pk)
    assert (tournament.table_preference, tournament.allow_tables_of_three) == ("five_first", True)
    # Saving the same seating with other settings is no change.
    services.tournament_update(by=organiser, tournament=tournament, name="Soirée tarot", table_preference="five_first")
    assert Tournament.objects.get(pk=tournament.pk).name == "Soirée tarot"


def test_a_seating_left_empty_reads_as_the_games_own_and_does_not_block_the_settings(running, organiser) -> None:
    tournament, _ = running(8, game="tarot_a_cinq")
    round_draw(by=organiser, tournament=tournament)
    # As a tournament imported from an archive written before the setting holds it.
    Tournament.objects.filter(pk=tournament.pk).update(table_preference="")
    services.tournament_update(by=organiser, tournament=tournament, name="Soirée du jeudi")
    with pytest.raises(ValidationError):
        services.tournament_update(by=organiser, tournament=tournament, table_preference="four_first")


# -- status transitions ------------------------------------------------------------------


def test_a_draft_cannot_start_without_opening_registration(club, organiser) -> None:
    tournament = new_tournament(club, organiser)
    with pytest.raises(ValidationError):
        services.tournament_set_status(by=organiser, tournament=tournament, status="running")
    assert Tournament.objects.get(pk=tournament.pk).status == "draft"


def test_nobody_registers_in_a_draft_or_a_finished_tournament(club, organiser, running) -> None:
    draft = new_tournament(club, organiser)
    with pytest.raises(ValidationError):
        register_many(draft, organiser, 1)
    finished, _ = running(2)
    services.tournament_set_status(by=organiser, tournament=finished, status="finished")
    with pytest.raises(ValidationError):
        register_many(finished, organiser, 1)


def test_starting_needs_enough_competitors_checked_in_for_one_table(club, organiser) -> None:
    tournament = new_tournament(club, organiser, game="tarot_a_trois")
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    register_many(tournament, organiser, 2)
    register_many(tournament, organiser, 3, checked_in=False)
    with pytest.raises(ValidationError) as error:
        services.tournament_set_status(by=organiser, tournament=tournament, status="running")
    assert "3" in " ".join(error.value.messages)
    register_many(tournament, organiser, 1)
    assert services.tournament_set_status(by=organiser, tournament=tournament, status="running").status == "running"


def test_registration_goes_back_to_draft_only_while_nobody_is_registered(club, organiser) -> None:
    tournament = new_tournament(club, organiser)
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    register_many(tournament, organiser, 1)
    with pytest.raises(ValidationError):
        services.tournament_set_status(by=organiser, tournament=tournament, status="draft")


def test_a_tournament_cannot_finish_while_a_round_is_in_play(running, organiser) -> None:
    tournament, _ = running(4)
    round_draw(by=organiser, tournament=tournament)
    with pytest.raises(ValidationError):
        services.tournament_set_status(by=organiser, tournament=tournament, status="finished")


def test_a_finished_tournament_never_reopens(running, organiser) -> None:
    tournament, _ = running(2)
    services.tournament_set_status(by=organiser, tournament=tournament, status="finished")
    for status in ("running", "registration", "draft"):
        with pytest.raises(ValidationError):
            services.tournament_set_status(by=organiser, tournament=tournament, status=status)


# -- registration, check-in, withdrawal --------------------------------------------------


def test_a_team_is_two_players_and_a_player_registers_once(running, organiser) -> None:
    tournament, competitors = running(2)
    alone = PlayerFactory(club=tournament.club)
    with pytest.raises(ValidationError):
        services.competitor_register(by=organiser, tournament=tournament, players=[alone])
    already = competitors[0].players.first()
    with pytest.raises(ValidationError) as error:
        services.competitor_register(by=organiser, tournament=tournament, players=[alone, already])
    assert "player_2" in messages_of(error)


def test_players_created_on_the_spot_join_the_club_list_and_name_the_team(club, organiser) -> None:
    tournament = new_tournament(club, organiser)
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    known = PlayerFactory(club=club, last_name="Vidal", affiliation="ABC Millau")
    team = services.competitor_register(
        by=organiser,
        tournament=tournament,
        players=[known, services.NewPlayer(last_name="Roux", first_name="Léa", affiliation="ABC Millau")],
    )
    assert team.name == "Vidal – Roux"
    assert team.number == 1 and team.status == "registered"
    assert team.affiliation == "ABC Millau"
    assert Player.objects.filter(club=club, last_name="Roux", first_name="Léa").exists()


def test_a_new_player_with_an_empty_name_registers_nothing(club, organiser) -> None:
    tournament = new_tournament(club, organiser, game="tarot_a_trois")
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    with pytest.raises(ValidationError) as error:
        services.competitor_register(
            by=organiser, tournament=tournament, players=[services.NewPlayer(last_name="", first_name="Léa")]
        )
    assert "player_1" in messages_of(error)
    assert not tournament.competitors.exists() and not Player.objects.filter(first_name="Léa").exists()


def test_check_in_can_be_undone_until_the_competitor_has_played(running, organiser) -> None:
    tournament, competitors = running(4)
    services.competitor_check_in(by=organiser, competitor=competitors[0], present=False)
    assert Competitor.objects.get(pk=competitors[0].pk).status == "registered"
    services.competitor_check_in(by=organiser, competitor=competitors[0])
    round_draw(by=organiser, tournament=tournament)
    with pytest.raises(ValidationError):
        services.competitor_check_in(by=organiser, competitor=competitors[0], present=False)


def test_a_withdrawal_is_recorded_after_the_last_round_drawn(running, organiser) -> None:
    tournament, competitors = running(4)
    rnd = round_draw(by=organiser, tournament=tournament)
    withdrawn = services.competitor_withdraw(by=organiser, competitor=competitors[1])
    assert (withdrawn.status, withdrawn.withdrawn_after_round) == ("withdrawn", 1)
    assert rnd.seats.filter(competitor=competitors[1]).exists()  # their round 1 stays
    with pytest.raises(ValidationError):
        services.competitor_withdraw(by=organiser, competitor=competitors[1])
    with pytest.raises(ValidationError):
        services.competitor_check_in(by=organiser, competitor=competitors[1])


def test_a_withdrawal_is_taken_back_until_a_round_is_drawn_without_them(running, organiser) -> None:
    tournament, competitors = running(6)
    first = round_draw(by=organiser, tournament=tournament)
    services.competitor_withdraw(by=organiser, competitor=competitors[1])
    back = services.competitor_reinstate(by=organiser, competitor=competitors[1])
    assert (back.status, back.withdrawn_after_round) == ("checked_in", None)
    with pytest.raises(ValidationError, match=r"n’a pas abandonné|has not withdrawn"):
        services.competitor_reinstate(by=organiser, competitor=competitors[1])
    # Withdrawn again, and round 2 drawn without them: the withdrawal now stands.
    services.competitor_withdraw(by=organiser, competitor=competitors[1])
    round_close(by=organiser, round=first, force=True)
    second = round_draw(by=organiser, tournament=tournament)
    assert not second.seats.filter(competitor=competitors[1]).exists()
    with pytest.raises(ValidationError) as refused:
        services.competitor_reinstate(by=organiser, competitor=competitors[1])
    assert competitors[1].name in str(refused.value)
    assert Competitor.objects.get(pk=competitors[1].pk).status == "withdrawn"


def test_only_the_club_takes_back_a_withdrawal(running, organiser, outsider) -> None:
    _tournament, competitors = running(4)
    services.competitor_withdraw(by=organiser, competitor=competitors[0])
    with pytest.raises(PermissionDenied):
        services.competitor_reinstate(by=outsider, competitor=competitors[0])


def test_a_late_arrival_joins_in_round_2_with_a_late_bye_for_round_1(running, organiser) -> None:
    tournament, _ = running(4)
    round_1 = round_draw(by=organiser, tournament=tournament)
    late = register_many(tournament, organiser, 1, checked_in=False)[0]
    late.refresh_from_db()
    assert (late.status, late.joined_round) == ("checked_in", 2)
    assert Bye.objects.filter(round=round_1, competitor=late, reason="late").exists()
    assert not round_1.seats.filter(competitor=late).exists()


def test_a_registered_player_checked_in_after_round_1_is_drawn_is_a_late_arrival(club, organiser) -> None:
    tournament = new_tournament(club, organiser)
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    register_many(tournament, organiser, 4)
    absent = register_many(tournament, organiser, 1, checked_in=False)[0]
    services.tournament_set_status(by=organiser, tournament=tournament, status="running")
    round_1 = round_draw(by=organiser, tournament=tournament)
    assert not round_1.seats.filter(competitor=absent).exists()
    services.competitor_check_in(by=organiser, competitor=absent)
    absent.refresh_from_db()
    assert (absent.status, absent.joined_round) == ("checked_in", 2)
    assert Bye.objects.get(round=round_1, competitor=absent).reason == "late"


def test_nobody_joins_once_round_2_is_drawn(running, organiser) -> None:
    tournament, _ = running(4)
    round_close(by=organiser, round=round_draw(by=organiser, tournament=tournament), force=True)
    round_draw(by=organiser, tournament=tournament)
    with pytest.raises(ValidationError) as error:
        register_many(tournament, organiser, 1)
    assert "2" in " ".join(error.value.messages)


def test_a_forbidden_pair_is_stored_once_whatever_the_order(running, organiser) -> None:
    tournament, (a, b, *_) = running(4)
    services.forbidden_pair_add(by=organiser, tournament=tournament, first=b, second=a, reason="couple")
    with pytest.raises(ValidationError):
        services.forbidden_pair_add(by=organiser, tournament=tournament, first=a, second=b)
    with pytest.raises(ValidationError):
        services.forbidden_pair_add(by=organiser, tournament=tournament, first=a, second=a)
    assert tournament.forbidden_pairs.count() == 1
