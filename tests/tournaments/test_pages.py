"""The organiser's pages through the test client, in French as the site is by default."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from rounds.services import round_draw
from scoring.models import TableResult
from tests.factories import PlayerFactory
from tests.tournaments.conftest import new_tournament, register_many
from tournaments import games, services
from tournaments.models import Competitor, Player, Round, Tournament

pytestmark = pytest.mark.django_db


def page(response) -> str:
    return response.content.decode()


# -- access ------------------------------------------------------------------------------


def test_the_organisers_pages_ask_for_a_login(client, club, organiser) -> None:
    # `organiser`: a site with an account (an empty one asks for its first administrator instead).
    for url in (reverse("manage:clubs"), reverse("manage:players", args=[club.pk])):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_an_organiser_sees_their_clubs_and_nothing_of_the_others(organiser_client, club, other_club) -> None:
    response = organiser_client.get(reverse("manage:clubs"))
    assert response.status_code == 200
    assert "Mes clubs" in page(response)
    assert club.name in page(response) and other_club.name not in page(response)


def test_another_clubs_pages_are_forbidden_and_unknown_ids_not_found(outsider_client, club, organiser) -> None:
    tournament = new_tournament(club, organiser)
    player = PlayerFactory(club=club)
    forbidden = [
        reverse("manage:club", args=[club.pk]),
        reverse("manage:players", args=[club.pk]),
        reverse("manage:player_edit", args=[club.pk, player.pk]),
        reverse("manage:players_import", args=[club.pk]),
        reverse("manage:tournament_create", args=[club.pk]),
        reverse("manage:dashboard", args=[tournament.pk]),
        reverse("manage:register", args=[tournament.pk]),
        reverse("manage:tournament_edit", args=[tournament.pk]),
    ]
    for url in forbidden:
        assert outsider_client.get(url).status_code == 403, url
    assert (
        outsider_client.post(
            reverse("manage:tournament_status", args=[tournament.pk]), {"status": "registration"}
        ).status_code
        == 403
    )
    assert Tournament.objects.get(pk=tournament.pk).status == "draft"
    assert outsider_client.get(reverse("manage:dashboard", args=[999_999])).status_code == 404
    assert outsider_client.get(reverse("manage:club", args=[999_999])).status_code == 404


def test_a_player_id_of_another_club_is_not_found_in_mine(organiser_client, club, other_club) -> None:
    stranger = PlayerFactory(club=other_club)
    assert organiser_client.get(reverse("manage:player_edit", args=[club.pk, stranger.pk])).status_code == 404


# -- players -----------------------------------------------------------------------------


def test_the_players_list_shows_contact_data_to_the_organiser_only(organiser_client, club) -> None:
    PlayerFactory(club=club, last_name="Castan", first_name="Odile", email="odile@example.org")
    response = organiser_client.get(reverse("manage:players", args=[club.pk]), {"q": "cast"})
    assert "Castan" in page(response) and "odile@example.org" in page(response)


def test_adding_a_player_shows_each_error_beside_its_field(organiser_client, club) -> None:
    PlayerFactory(club=club, licence="0042")
    url = reverse("manage:player_add", args=[club.pk])
    response = organiser_client.post(url, {"last_name": "", "first_name": "Jean", "licence": ""})
    assert response.status_code == 200
    assert response.context["form"].errors["last_name"]
    assert "Ce champ est obligatoire." in page(response)
    response = organiser_client.post(url, {"last_name": "Martin", "first_name": "Jean", "licence": "0042"})
    assert response.status_code == 200 and response.context["form"].errors["licence"]
    response = organiser_client.post(url, {"last_name": "Martin", "first_name": "Jean", "licence": "0043"})
    assert response.status_code == 302
    assert Player.objects.filter(club=club, last_name="Martin").count() == 1


def test_editing_a_player(organiser_client, club) -> None:
    player = PlayerFactory(club=club, last_name="Martin")
    url = reverse("manage:player_edit", args=[club.pk, player.pk])
    assert "Martin" in page(organiser_client.get(url))
    response = organiser_client.post(url, {"last_name": "Martinez", "first_name": "Jean", "phone": "0600000000"})
    assert response.status_code == 302
    assert Player.objects.get(pk=player.pk).last_name == "Martinez"


def test_a_csv_import_is_previewed_then_confirmed(organiser_client, club) -> None:
    url = reverse("manage:players_import", args=[club.pk])
    csv = "nom;prénom;club;licence\nMartin;Jean;;1\nDurand;Hélène;ABC Millau;2\n".encode("cp1252")
    response = organiser_client.post(url, {"file": SimpleUploadedFile("joueurs.csv", csv)})
    assert response.status_code == 200
    assert "Hélène" in page(response) and response.context["preview"].valid
    assert not Player.objects.exists()  # a preview writes nothing
    response = organiser_client.post(url, {"text": response.context["confirm"].initial["text"]})
    assert response.status_code == 302
    assert Player.objects.filter(club=club).count() == 2


def test_a_bad_csv_file_is_reported_and_nothing_is_imported(organiser_client, club) -> None:
    url = reverse("manage:players_import", args=[club.pk])
    response = organiser_client.post(url, {"file": SimpleUploadedFile("joueurs.csv", b"nom;prenom\n;Jean\n")})
    assert response.status_code == 200
    assert not response.context["preview"].valid
    assert 'name="text"' not in page(response)  # no confirm button
    response = organiser_client.post(url, {"file": SimpleUploadedFile("joueurs.xlsx", b"PK\x03\x04\x00\x00")})
    assert response.status_code == 200 and response.context["upload"].errors["file"]
    # A forged confirmation of a bad file is checked again, not trusted.
    response = organiser_client.post(url, {"text": "nom;prenom\n;Jean\n"})
    assert response.status_code == 200
    assert not Player.objects.exists()


# -- tournaments -------------------------------------------------------------------------


def test_the_new_tournament_form_shows_the_games_rule_options_with_their_defaults(organiser_client, club) -> None:
    url = reverse("manage:tournament_create", args=[club.pk])
    form = organiser_client.get(url).context["form"]
    assert form["option_capot_value"].initial == "250"
    assert "option_primes" not in form.fields
    tarot = organiser_client.get(url, {"game": "tarot_a_trois"})
    assert set(n for n in tarot.context["form"].fields if n.startswith("option_")) == {
        "option_half_points",
        "option_primes",
    }
    fragment = organiser_client.get(url, {"game": "tarot_a_trois"}, HTTP_HX_REQUEST="true")
    assert fragment.templates[0].name == "tournaments/tournament_form_options.html"
    assert "<html" not in page(fragment)


def tournament_post(game: str = "belote_classique", **overrides: str) -> dict[str, str]:
    """The new-tournament form as a director submits it: the game's options at their defaults."""
    data = {
        "name": "Concours de la Saint-Nicolas",
        "date": "2026-12-05",
        "game": game,
        "format": "",
        "rounds_planned": "4",
        "end_rule": "donnes",
        "end_value": "",
        "pairing_method": "swiss",
        "criteria": "",
        "bye_policy": "average_win",
        "bye_points": "",
        "late_policy": "absent",
        "separate_clubs_rounds": "1",
        "is_public": "on",
        "options_for": game,
    }
    data.update({f"option_{o.name}": str(o.default) for o in games.option_fields(game)})
    data.update(overrides)
    return data


def test_creating_a_tournament_stores_the_defaults_and_the_chosen_options(organiser_client, club) -> None:
    url = reverse("manage:tournament_create", args=[club.pk])
    response = organiser_client.post(url, tournament_post(option_capot_value="252"))
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("manage:dashboard", args=[tournament.pk])
    assert (tournament.format, tournament.end_value, tournament.status) == ("teams", 12, "draft")
    assert tournament.rule_options["capot_value"] == 252 and tournament.criteria == ["wins", "points", "difference"]


def test_a_bad_tournament_form_comes_back_with_errors_beside_the_fields(organiser_client, club) -> None:
    url = reverse("manage:tournament_create", args=[club.pk])
    response = organiser_client.post(url, tournament_post(name="", option_capot_value="300", rounds_planned="x"))
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert {"name", "option_capot_value", "rounds_planned"} <= set(errors)
    response = organiser_client.post(url, tournament_post(game="belote_a_trois", end_rule="target"))
    assert response.status_code == 200 and response.context["form"].errors["end_value"]
    assert not Tournament.objects.exists()


def test_changing_the_game_without_javascript_shows_the_new_games_options_before_saving(organiser_client, club) -> None:
    response = organiser_client.post(
        reverse("manage:tournament_create", args=[club.pk]),
        tournament_post(options_for="belote_classique", game="tarot_a_trois"),
    )
    assert response.status_code == 200
    assert "option_primes" in response.context["form"].fields
    assert not Tournament.objects.exists()


def test_the_settings_page_keeps_the_game_of_a_running_tournament_whatever_is_posted(organiser_client, running) -> None:
    tournament, _ = running(2)
    # The page's form, with a game select the browser would not send (it is disabled).
    data = tournament_post(name=tournament.name, separate_clubs_rounds="0", game="belote_moderne")
    data["options_for"] = "belote_classique"
    data.update({f"option_{o.name}": str(o.default) for o in games.option_fields("belote_classique")})
    response = organiser_client.post(reverse("manage:tournament_edit", args=[tournament.pk]), data)
    assert response.status_code == 302, response.context["form"].errors
    assert Tournament.objects.get(pk=tournament.pk).game == "belote_classique"


def test_the_director_chooses_what_a_late_arrival_scores_until_the_tournament_runs(
    organiser_client, club, running
) -> None:
    create = organiser_client.get(reverse("manage:tournament_create", args=[club.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    assert "Une arrivée tardive marque, pour chaque ronde manquée" in page(create)
    assert create.context["form"]["late_policy"].value() == "absent"
    organiser_client.post(reverse("manage:tournament_create", args=[club.pk]), tournament_post(late_policy="bye"))
    assert Tournament.objects.get().late_policy == "bye"
    tournament, _ = running(2)
    edit = reverse("manage:tournament_edit", args=[tournament.pk])
    # Once running, the setting shows disabled with its reason, and a forged change is ignored.
    assert organiser_client.get(edit).context["form"].fields["late_policy"].disabled
    data = tournament_post(name=tournament.name, separate_clubs_rounds="0", late_policy="bye")
    assert organiser_client.post(edit, data).status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).late_policy == "absent"
    dashboard = organiser_client.get(reverse("manage:dashboard", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    assert "Rien : une partie perdue avec 0 point" in page(dashboard)


def test_the_seating_shows_only_for_tarot_at_four_and_five_with_the_games_own_first(organiser_client, club) -> None:
    url = reverse("manage:tournament_create", args=[club.pk])
    for game in ("belote_classique", "tarot_a_trois"):
        fragment = organiser_client.get(url, {"game": game}, HTTP_HX_REQUEST="true")
        assert "table_preference" not in fragment.context["form"].fields
        assert "Placement aux tables" not in page(fragment)
    for game, usual in (("tarot_a_quatre", "four_first"), ("tarot_a_cinq", "five_first")):
        # The game's select swaps the options' fieldset: the seating comes with it.
        fragment = organiser_client.get(url, {"game": game}, HTTP_HX_REQUEST="true")
        form = fragment.context["form"]
        assert form["table_preference"].initial == usual and form["allow_tables_of_three"].initial is None
        assert "Placement aux tables" in page(fragment)
        assert "Autoriser une table de 3 (tarot à trois) en dernier recours" in page(fragment)
        assert f'<option value="{usual}" selected>' in page(fragment)


def test_creating_a_tarot_evening_stores_the_seating_chosen(organiser_client, club) -> None:
    url = reverse("manage:tournament_create", args=[club.pk])
    data = tournament_post("tarot_a_quatre", table_preference="five_first", allow_tables_of_three="on")
    assert organiser_client.post(url, data).status_code == 302
    tournament = Tournament.objects.get()
    assert (tournament.table_preference, tournament.allow_tables_of_three) == ("five_first", True)
    dashboard = page(organiser_client.get(reverse("manage:dashboard", args=[tournament.pk])))
    assert "Tables de 5, et de 4 quand le nombre l’exige ; une table de 3 en dernier recours" in dashboard


def test_the_seating_is_shown_disabled_with_its_reason_once_the_first_round_is_drawn(
    organiser_client, running, organiser
) -> None:
    tournament, _ = running(9, game="tarot_a_quatre")
    url = reverse("manage:tournament_edit", args=[tournament.pk])
    form = organiser_client.get(url).context["form"]
    assert not form.fields["table_preference"].disabled
    round_draw(by=organiser, tournament=tournament)
    response = organiser_client.get(url)
    form = response.context["form"]
    assert form.fields["table_preference"].disabled and form.fields["allow_tables_of_three"].disabled
    assert form.fields["table_de_cinq"].disabled
    assert page(response).count("Figé une fois la première ronde tirée.") == 3
    assert re.search(r'<select name="table_preference"[^>]* disabled', page(response))
    assert re.search(r'<input type="checkbox" name="allow_tables_of_three"[^>]* disabled', page(response))
    # A forged change is not taken: the disabled fields keep the tournament's seating.
    data = tournament_post(
        "tarot_a_quatre",
        name="Soirée tarot",
        separate_clubs_rounds="0",
        criteria="points,wins",
        table_preference="five_first",
        allow_tables_of_three="on",
    )
    assert organiser_client.post(url, data).status_code == 302
    tournament = Tournament.objects.get(pk=tournament.pk)
    assert tournament.name == "Soirée tarot"
    assert (tournament.table_preference, tournament.allow_tables_of_three) == ("four_first", False)


# -- the night ---------------------------------------------------------------------------


def test_registering_a_team_of_a_known_and_a_new_player(organiser_client, club, organiser) -> None:
    tournament = new_tournament(club, organiser)
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    known = PlayerFactory(club=club, last_name="Vidal")
    url = reverse("manage:register", args=[tournament.pk])
    assert "Vidal" in page(organiser_client.get(url))
    response = organiser_client.post(
        url, {"player_1": known.pk, "player_2": "", "last_name_2": "Roux", "first_name_2": "Léa", "checked_in": "on"}
    )
    assert response.status_code == 302
    team = Competitor.objects.get(tournament=tournament)
    assert (team.name, team.status) == ("Vidal – Roux", "checked_in")


def test_a_registration_slot_left_empty_is_shown_beside_it(organiser_client, club, organiser) -> None:
    tournament = new_tournament(club, organiser)
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    response = organiser_client.post(
        reverse("manage:register", args=[tournament.pk]), {"player_1": "", "player_2": "abc"}
    )
    assert response.status_code == 200
    assert {"player_1", "player_2"} <= set(response.context["form"].errors)
    draft = new_tournament(club, organiser)
    response = organiser_client.post(
        reverse("manage:register", args=[draft.pk]),
        {"last_name_1": "A", "first_name_1": "B", "last_name_2": "C", "first_name_2": "D"},
    )
    assert response.status_code == 200 and response.context["form"].non_field_errors()


def test_the_dashboard_checks_in_with_htmx_and_draws_round_1(organiser_client, club, organiser) -> None:
    tournament = new_tournament(club, organiser)
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    teams = register_many(tournament, organiser, 4, checked_in=False)
    dashboard = reverse("manage:dashboard", args=[tournament.pk])
    response = organiser_client.get(dashboard)
    assert "Inscriptions ouvertes" in page(response) and teams[0].name in page(response)
    for team in teams:
        fragment = organiser_client.post(
            reverse("manage:check_in", args=[tournament.pk, team.pk]), HTTP_HX_REQUEST="true"
        )
        assert fragment.templates[0].name == "tournaments/dashboard_competitors.html"
    assert tournament.competitors.filter(status="checked_in").count() == 4
    organiser_client.post(reverse("manage:tournament_status", args=[tournament.pk]), {"status": "running"})
    response = organiser_client.post(reverse("manage:round_draw", args=[tournament.pk]), follow=True)
    assert "Ronde 1" in page(response)
    rnd = Round.objects.get(tournament=tournament)
    assert [t.number for t in response.context["tables"]] == [1, 2]
    printed = organiser_client.get(reverse("manage:round_print", args=[tournament.pk, 1]))
    assert all(team.name in page(printed) for team in teams)
    assert rnd.tables.count() == 2


def test_the_dashboard_shows_finished_tables_and_closes_the_round(organiser_client, running, organiser) -> None:
    tournament, _ = running(4)
    rnd = round_draw(by=organiser, tournament=tournament)
    first = rnd.tables.get(number=1)
    TableResult.objects.create(table=first, totals=[800, 600], donnes_played=12, finished=True, winner_side=0)
    fragment = organiser_client.get(reverse("manage:dashboard_round", args=[tournament.pk]))
    assert fragment.context["finished_count"] == 1
    close = reverse("manage:round_close", args=[tournament.pk, 1])
    response = organiser_client.post(close, follow=True)
    assert "2" in " ".join(str(m) for m in response.context["messages"])
    assert Round.objects.get(pk=rnd.pk).status == "open"
    organiser_client.post(close, {"force": "1", "confirmed": "1"})
    assert Round.objects.get(pk=rnd.pk).status == "closed"
    response = organiser_client.get(reverse("manage:dashboard", args=[tournament.pk]))
    assert "Tirage de la ronde 2" in page(response)


def test_the_dashboard_leads_to_the_round_s_table_sheets_and_hands(organiser_client, running, organiser) -> None:
    tournament, _ = running(4)
    round_draw(by=organiser, tournament=tournament)
    fragment = organiser_client.get(reverse("manage:dashboard_round", args=[tournament.pk]))
    sheets = reverse("hands:sheets", args=[tournament.slug]) + "?round=1"
    hands = reverse("hands:index", args=[tournament.slug]) + "?round=1"
    assert sheets in page(fragment) and hands in page(fragment)
    assert organiser_client.get(sheets).status_code == 200
    assert organiser_client.get(hands).status_code == 200


def test_withdrawing_from_the_dashboard(organiser_client, running) -> None:
    tournament, teams = running(3)
    withdraw = reverse("manage:withdraw", args=[tournament.pk, teams[0].pk])
    response = organiser_client.post(withdraw, {"confirmed": "1"}, follow=True)
    assert response.status_code == 200
    assert Competitor.objects.get(pk=teams[0].pk).status == "withdrawn"
    again = organiser_client.post(withdraw, {"confirmed": "1"}, HTTP_HX_REQUEST="true")
    assert again.status_code == 200 and again.context["messages_inline"]


def test_taking_back_a_withdrawal_from_the_dashboard(organiser_client, running) -> None:
    tournament, teams = running(3)
    organiser_client.post(reverse("manage:withdraw", args=[tournament.pk, teams[0].pk]), {"confirmed": "1"})
    page = organiser_client.get(reverse("manage:dashboard", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    assert "Annuler l’abandon" in page.content.decode()
    response = organiser_client.post(reverse("manage:reinstate", args=[tournament.pk, teams[0].pk]), follow=True)
    assert response.status_code == 200
    assert "de nouveau dans le tirage" in response.content.decode()
    assert Competitor.objects.get(pk=teams[0].pk).status == "checked_in"
    url = reverse("manage:reinstate", args=[tournament.pk, teams[0].pk])
    again = organiser_client.post(url, HTTP_HX_REQUEST="true")
    assert again.status_code == 200 and again.context["messages_inline"]


def test_the_forbidden_pairs_page(organiser_client, running) -> None:
    tournament, (a, b, *_) = running(4)
    url = reverse("manage:forbidden", args=[tournament.pk])
    response = organiser_client.post(url, {"first": a.pk, "second": a.pk})
    assert response.status_code == 200 and response.context["form"].errors["second"]
    assert organiser_client.post(url, {"first": a.pk, "second": b.pk, "reason": "frères"}).status_code == 302
    pair = tournament.forbidden_pairs.get()
    assert "frères" in page(organiser_client.get(url))
    organiser_client.post(reverse("manage:forbidden_delete", args=[tournament.pk, pair.pk]))
    assert not tournament.forbidden_pairs.exists()


def test_nothing_a_director_can_send_makes_the_server_fail(organiser_client, running, other_club, outsider) -> None:
    tournament, _ = running(4)
    elsewhere = new_tournament(other_club, outsider)
    services.tournament_set_status(by=outsider, tournament=elsewhere, status="registration")
    stranger = register_many(elsewhere, outsider, 1)[0]
    bad = [
        ("post", reverse("manage:tournament_status", args=[tournament.pk]), {"status": "bogus"}, 302),
        ("post", reverse("manage:tournament_status", args=[tournament.pk]), {"status": "draft"}, 302),
        ("post", reverse("manage:check_in", args=[tournament.pk, stranger.pk]), {}, 404),
        ("post", reverse("manage:withdraw", args=[tournament.pk, 999_999]), {}, 404),
        ("post", reverse("manage:round_redraw", args=[tournament.pk, 7]), {}, 404),
        ("post", reverse("manage:round_close", args=[tournament.pk, 7]), {"force": "1"}, 404),
        ("get", reverse("manage:round_print", args=[tournament.pk, 7]), {}, 404),
        ("get", reverse("manage:round_draw", args=[tournament.pk]), {}, 405),
        ("post", reverse("manage:forbidden", args=[tournament.pk]), {"first": "x", "second": stranger.pk}, 200),
        ("post", reverse("manage:forbidden_delete", args=[tournament.pk, 999_999]), {}, 404),
        ("post", reverse("manage:register", args=[tournament.pk]), {"player_1": "-1", "player_2": "x"}, 200),
        ("get", reverse("manage:tournament_create", args=[tournament.club.pk]), {"game": "poker"}, 200),
        ("post", reverse("manage:players_import", args=[tournament.club.pk]), {}, 200),
        ("post", reverse("manage:players_import", args=[tournament.club.pk]), {"text": ""}, 200),
        ("get", f"/manage/tournament/{10**20}/", {}, 404),
        ("post", f"/manage/tournament/{tournament.pk}/rounds/{10**20}/close/", {}, 404),
        ("get", f"/t/{tournament.slug}/round/{10**20}/draw/", {}, 404),
    ]
    for method, url, data, status in bad:
        response = getattr(organiser_client, method)(url, data)
        assert response.status_code == status, (url, data, response.status_code)
    assert Tournament.objects.get(pk=tournament.pk).status == "running"


def test_the_dashboard_speaks_english_when_asked(organiser_client, running, organiser) -> None:
    tournament, _ = running(2)
    organiser_client.post(reverse("set_language"), {"language": "en", "next": "/"})
    html = page(organiser_client.get(reverse("manage:dashboard", args=[tournament.pk])))
    assert "Draw round 1" in html and "Check-in" in html
    assert "Tirage" not in html
