"""Presets in the tournament's rules form and services, the tarot à 4 setting
`table_de_cinq`, and the printable « Règlement du concours » (issue 27)."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from rounds.services import round_draw
from tests.conftest import ROOT
from tests.tournaments.conftest import new_tournament
from tests.tournaments.test_pages import page, tournament_post
from tournaments import games, services
from tournaments.models import Prize, Tournament

pytestmark = pytest.mark.django_db


# -- services --------------------------------------------------------------------------


def test_a_preset_sets_every_option_at_once(club, organiser) -> None:
    tournament = new_tournament(club, organiser, game="belote_contree", preset="ffb")
    assert tournament.rule_options["capot_value"] == 252
    assert tournament.rule_options["announcements"] == "on"
    assert tournament.rule_options["max_bid"] == "none"
    state = games.tournament_preset(tournament)
    assert (state.preset.code if state.preset else None, state.modified) == ("ffb", False)
    assert state.label == "Fédération (FFB)"


def test_options_given_beside_a_preset_override_it_and_the_preset_shows_modified(club, organiser) -> None:
    tournament = new_tournament(club, organiser, game="belote_contree", preset="ffb", rule_options={"rounding": "none"})
    assert tournament.rule_options["rounding"] == "none"
    assert tournament.rule_options["capot_value"] == 252
    assert games.tournament_preset(tournament).label == "Fédération (FFB) (modifié)"


def test_an_unknown_preset_is_refused_beside_its_field(club, organiser) -> None:
    with pytest.raises(ValidationError) as refused:
        new_tournament(club, organiser, game="belote_contree", preset="fft")
    assert "preset" in refused.value.message_dict
    assert "Ce jeu n’a pas de préréglage « fft »" in refused.value.message_dict["preset"][0]


def test_the_tarot_presets_set_the_table_de_cinq_too(club, organiser) -> None:
    tournament = new_tournament(club, organiser, game="tarot_a_quatre", preset="fft", format="individual")
    assert (tournament.rule_options["primes"], tournament.table_de_cinq) == ("fft", "mort")
    services.tournament_update(by=organiser, tournament=tournament, table_de_cinq="tarot_a_cinq")
    tournament.refresh_from_db()
    assert games.tournament_preset(tournament).label == "Fédération (FFT) (modifié)"


def test_a_new_tarot_a_4_tournament_seats_its_table_of_five_with_a_mort(club, organiser) -> None:
    tournament = new_tournament(club, organiser, game="tarot_a_quatre", format="individual")
    assert tournament.table_de_cinq == "mort"
    assert games.table_game_code("tarot_a_quatre", 5, tournament.table_de_cinq) == "tarot_a_quatre_mort"


def test_the_table_de_cinq_is_fixed_once_the_first_round_is_drawn(running, organiser) -> None:
    tournament, _ = running(9, game="tarot_a_quatre")
    services.tournament_update(by=organiser, tournament=tournament, table_de_cinq="tarot_a_cinq")
    round_draw(by=organiser, tournament=tournament)
    with pytest.raises(ValidationError) as refused:
        services.tournament_update(by=organiser, tournament=tournament, table_de_cinq="mort")
    assert refused.value.message_dict["table_de_cinq"] == ["Figé une fois la première ronde tirée."]


def test_a_table_de_cinq_outside_its_choices_is_refused(club, organiser) -> None:
    with pytest.raises(ValidationError) as refused:
        new_tournament(club, organiser, game="tarot_a_quatre", format="individual", table_de_cinq="morts")
    assert "table_de_cinq" in refused.value.message_dict


# -- the migration ---------------------------------------------------------------------------

BEFORE = [("tournaments", "0013_first_round_order")]


@pytest.mark.django_db(transaction=True)
def test_tournaments_made_before_the_setting_keep_tarot_a_cinq_at_their_tables_of_five() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE[0]).apps
    club = old.get_model("tournaments", "Club").objects.create(name="Tarot Club d'Albi", slug="tc-albi")
    old.get_model("tournaments", "Tournament").objects.create(
        club=club,
        name="Soirée",
        slug="soiree",
        date=datetime.date(2026, 3, 1),
        game="tarot_a_quatre",
        format="individual",
    )
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Tournament.objects.get(slug="soiree").table_de_cinq == "tarot_a_cinq"
    fresh = Tournament.objects.create(
        club_id=Tournament.objects.get(slug="soiree").club_id,
        name="Nouvelle",
        slug="nouvelle",
        date=datetime.date(2026, 4, 1),
        game="tarot_a_quatre",
        format="individual",
    )
    assert fresh.table_de_cinq == "mort"


# -- the form --------------------------------------------------------------------------------


def test_the_form_offers_the_presets_with_what_each_sets(organiser_client, club) -> None:
    url = reverse("manage:tournament_create", args=[club.pk])
    html = page(organiser_client.get(url, {"game": "belote_contree"}))
    assert re.search(r'<option value="concours" selected>Concours \(défaut Atout\)</option>', html)
    for name in ("Fédération (FFB)", "Chute à 162", "Coinche aux points faits", "Points faits seuls"):
        assert f">{name}</option>" in html
    assert "Ce que règle chaque préréglage" in html
    assert "Une chute donne à la défense : 162 + l’enchère" in html
    assert 'id="preset-data"' in html and "js/presets.js" in html


def test_choosing_a_preset_without_javascript_sets_its_options(organiser_client, club) -> None:
    url = reverse("manage:tournament_create", args=[club.pk])
    data = tournament_post("belote_contree", preset="points_faits", preset_from="concours")
    assert organiser_client.post(url, data).status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.rule_options["coinche_marque"] == "points_faits"
    assert games.tournament_preset(tournament).label == "Coinche aux points faits"


def test_changing_an_option_keeps_it_and_the_preset_shows_modified(organiser_client, club) -> None:
    url = reverse("manage:tournament_create", args=[club.pk])
    data = tournament_post("belote_contree", preset="concours", preset_from="concours", option_chute="162")
    assert organiser_client.post(url, data).status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.rule_options["chute"] == 162
    edit = page(organiser_client.get(reverse("manage:tournament_edit", args=[tournament.pk])))
    assert re.search(r'<option value="" selected data-modified>Concours \(défaut Atout\) \(modifié\)</option>', edit)
    dashboard = page(organiser_client.get(reverse("manage:dashboard", args=[tournament.pk])))
    assert "Concours (défaut Atout) (modifié)" in dashboard
    assert reverse("draw:rules", kwargs={"slug": tournament.slug}) in dashboard


def test_a_refused_form_shows_the_preset_chosen_with_its_options(organiser_client, club) -> None:
    url = reverse("manage:tournament_create", args=[club.pk])
    data = tournament_post("belote_contree", name="", preset="ffb", preset_from="concours")
    response = organiser_client.post(url, data)
    assert response.status_code == 200
    form = response.context["form"]
    assert form["option_capot_value"].value() == "252"
    assert form["preset_from"].value() == "ffb"


def test_the_tarot_a_4_form_asks_what_a_table_of_five_plays(organiser_client, club) -> None:
    url = reverse("manage:tournament_create", args=[club.pk])
    html = page(organiser_client.get(url, {"game": "tarot_a_quatre"}))
    assert "Une table de cinq joue" in html
    assert re.search(r'<option value="mort" selected>Tarot à quatre, le donneur ne jouant pas la donne', html)
    data = tournament_post(
        "tarot_a_quatre", table_preference="four_first", table_de_cinq="tarot_a_cinq", preset="club", preset_from="club"
    )
    response = organiser_client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors
    assert Tournament.objects.get().table_de_cinq == "tarot_a_cinq"
    belote = page(organiser_client.get(url, {"game": "belote_classique"}))
    assert "Une table de cinq joue" not in belote


# -- the rules sheet -------------------------------------------------------------------------


def _contree(club, organiser, **values) -> Tournament:
    tournament = new_tournament(
        club,
        organiser,
        game="belote_contree",
        name="Concours de la Saint-Nicolas",
        end_rule="target",
        end_value=2000,
        entry_fee=Decimal("12"),
        **values,
    )
    Prize.objects.create(tournament=tournament, rank_from=1, rank_to=1, text="Un jambon", value=Decimal("40"))
    Prize.objects.create(tournament=tournament, rank_from=2, rank_to=4, text="Une bouteille")
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    return tournament


def test_the_rules_sheet_writes_every_setting_out_in_french(club, organiser) -> None:
    tournament = _contree(club, organiser, late_policy="bye", bye_policy="fixed", bye_points=500)
    html = page(Client().get(reverse("draw:rules", kwargs={"slug": tournament.slug})))
    assert "Règlement du concours" in html and "Concours de la Saint-Nicolas" in html
    assert "Jeu : Belote contrée (coinche)." in html
    assert re.search(r"Une partie est gagnée par le premier camp qui atteint 2\W?000 points\.", html)
    assert "Règles : Concours (défaut Atout)." in html
    assert "Une chute vaut 160 points plus le contrat pour la défense." in html
    assert "Un contrat coinché se paie au forfait : (160 + le contrat) × 2" in html
    assert "Les enchères vont de 80 à 160 de dix en dix, puis capot." in html
    assert re.search(r"<ol><li>Parties gagnées</li><li>Points</li><li>Différence</li></ol>", html)
    assert "une partie gagnée et 500 points" in html
    assert "ce que marque un exempt" in html
    assert "Inscription : 12,00 € par équipe." in html
    assert "Un jambon" in html and "2–4" in html
    assert "css/tournaments.css" in html


def test_the_rules_sheet_prints_on_a4() -> None:
    css = (ROOT / "static" / "css" / "tournaments.css").read_text(encoding="utf-8")
    assert re.search(r"@page \{ size:A4 portrait;", css)


def test_the_rules_sheet_reads_in_english_too(club, organiser) -> None:
    tournament = _contree(club, organiser, preset="chute_162")
    english = Client(headers={"Accept-Language": "en"})
    html = page(english.get(reverse("draw:rules", kwargs={"slug": tournament.slug}), HTTP_ACCEPT_LANGUAGE="en"))
    assert "Competition rules" in html
    assert "A fall (chute) is worth 162 points plus the bid to the defence." in html
    assert "Rules: Fall of 162." in html


def test_the_rules_sheet_of_a_tarot_evening_says_what_the_table_of_five_plays(club, organiser) -> None:
    tournament = new_tournament(club, organiser, game="tarot_a_quatre", format="individual", preset="fft", end_value=4)
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    html = page(Client().get(reverse("draw:rules", kwargs={"slug": tournament.slug})))
    assert "À une table de cinq, le donneur ne joue pas la donne (le mort)" in html
    assert "la partie y dure 5 donnes" in html
    assert "La poignée s’ajoute après le multiplicateur du contrat" in html
    assert "À quatre joueurs, les points de cartes sont entiers : il n’y a pas de demi-point." in html
    assert "Un demi-point de cartes" not in html
    assert "L’inscription est gratuite." in html


def test_a_draft_tournaments_rules_sheet_is_its_organisers_only(club, organiser, organiser_client) -> None:
    tournament = new_tournament(club, organiser, game="belote_contree")
    url = reverse("draw:rules", kwargs={"slug": tournament.slug})
    assert Client().get(url).status_code == 404
    assert organiser_client.get(url).status_code == 200


def test_the_public_ranking_links_the_rules_sheet(club, organiser) -> None:
    tournament = _contree(club, organiser)
    html = page(Client().get(reverse("public:ranking", kwargs={"slug": tournament.slug})))
    assert reverse("draw:rules", kwargs={"slug": tournament.slug}) in html
