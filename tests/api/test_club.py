"""A club's seasons, players, players' histories and entry fees through the API.

Who may: the club's organisers, whatever their role (the season and player services
check `require_organiser`, as the pages do); another club's organiser and a site
administrator who is not a member get 403, nobody logged in 401. A player's public
history follows the page /joueur/<id>/. Payments never appear in a public answer.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from rest_framework.test import APIClient

from ratings.models import PlayerRating
from scoring.models import Job, StandingsSnapshot
from seasons.models import Season
from tests.api.conftest import API, new_tournament, token_client
from tests.factories import PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Club, Competitor, Player, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_api(club: Club) -> APIClient:
    """The club's administrator (role admin)."""
    user = UserFactory(username="presidente")
    club.organisers.add(user, through_defaults={"role": "admin"})
    return token_client(user)


@pytest.fixture
def site_admin_api(db: None) -> APIClient:
    """A site administrator who is no member of the club."""
    return token_client(UserFactory(username="webmestre", is_staff=True, is_superuser=True))


def _callers(request: pytest.FixtureRequest, *names: str) -> list[APIClient]:
    return [request.getfixturevalue(name) for name in names]


def finished(club: Club, by: Any, *, public: bool = True, name: str = "Concours", points: int = 50) -> Tournament:
    """A finished tournament of two teams, the first ranked 1st with `points` in its snapshot."""
    tournament = new_tournament(club, by, name=name, is_public=public)
    services.tournament_set_status(by=by, tournament=tournament, status="registration")
    teams = [
        services.competitor_register(by=by, tournament=tournament, players=PlayerFactory.create_batch(2, club=club))
        for _ in range(2)
    ]
    rows = [
        {"competitor": teams[0].pk, "number": teams[0].number, "name": teams[0].name, "rank": 1, "points": points},
        {"competitor": teams[1].pk, "number": teams[1].number, "name": teams[1].name, "rank": 2, "points": 10},
    ]
    StandingsSnapshot.objects.create(tournament=tournament, version=1, after_round=1, rows=rows, criteria=["wins"])
    Tournament.objects.filter(pk=tournament.pk).update(status="finished")
    tournament.refresh_from_db()
    return tournament


# -- seasons -------------------------------------------------------------------------------


def test_an_organiser_creates_a_season_with_its_tournaments_and_its_rebuild_queued(api, club, organiser) -> None:
    first = finished(club, organiser, name="Janvier")
    second = finished(club, organiser, name="Février", public=False)
    body = {
        "club": club.slug,
        "name": "Saison 2026",
        "starts": "2026-01-01",
        "ends": "2026-12-31",
        "scheme": "placing",
        "placing_points": [10, 6, 3],
        "tournaments": [first.slug, second.slug],
    }
    response = api.post(f"{API}/seasons/", body, format="json")
    assert response.status_code == 201, response.json()
    created = response.json()
    assert created["slug"] == "saison-2026" and created["club"]["slug"] == club.slug
    assert created["placing_points"] == [10, 6, 3] and created["starts"] == "2026-01-01"
    # The private tournament is counted, and its slug shown to the organisers.
    assert sorted(created["tournaments"]) == sorted([first.slug, second.slug])
    season = Season.objects.get(slug="saison-2026")
    assert set(season.tournaments.all()) == {first, second}
    assert Job.objects.filter(season_link__season=season, kind=Job.Kind.SEASON).count() == 1
    assert created["jobs"] and created["jobs"][0]["id"] == Job.objects.get(season_link__season=season).pk


def test_a_season_without_a_placing_table_gets_the_usual_one(api, club) -> None:
    created = api.post(f"{API}/seasons/", {"club": club.slug, "name": "Saison"}, format="json").json()
    assert created["placing_points"][:3] == [25, 20, 16] and created["scheme"] == "placing"


def test_a_season_is_refused_with_each_error_beside_its_field_in_french_or_english(api, club, organiser) -> None:
    body = {"club": club.slug, "name": "  ", "starts": "2026-06-01", "ends": "2026-01-01", "placing_points": [3, 5]}
    french = api.post(f"{API}/seasons/", body, format="json")
    assert french.status_code == 400
    fields = {error["field"]: error["message"] for error in french.json()["errors"]}
    assert set(fields) == {"name", "ends", "placing_points"}
    assert fields["ends"] == "La saison ne peut pas finir avant de commencer."
    english = api.post(f"{API}/seasons/", body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert {e["field"]: e["message"] for e in english.json()["errors"]}["ends"] == (
        "The season cannot end before it starts."
    )
    assert not Season.objects.exists()


def test_another_clubs_tournament_is_unknown_to_a_season(api, club, other_club, outsider) -> None:
    theirs = new_tournament(other_club, outsider)
    response = api.post(
        f"{API}/seasons/", {"club": club.slug, "name": "S", "tournaments": ["x", theirs.slug]}, format="json"
    )
    assert response.status_code == 400
    assert [(e["field"], e["code"]) for e in response.json()["errors"]] == [
        ("tournaments.0", "unknown_tournament"),
        ("tournaments.1", "unknown_tournament"),
    ]
    assert not Season.objects.exists()


def test_an_unknown_club_is_named_and_a_placing_table_of_text_is_refused(api) -> None:
    unknown = api.post(f"{API}/seasons/", {"club": "nulle-part", "name": "S"}, format="json")
    assert unknown.status_code == 400 and unknown.json()["errors"][0]["field"] == "club"
    text = api.post(f"{API}/seasons/", {"club": "bc-rodez", "name": "S", "placing_points": ["dix"]}, format="json")
    assert text.status_code == 400 and text.json()["errors"][0]["field"] == "placing_points.0"


@pytest.mark.parametrize(
    ("caller", "status"),
    [("anonymous", 401), ("outsider_api", 403), ("site_admin_api", 403), ("api", 201), ("admin_api", 201)],
)
def test_who_may_create_a_season(request, club, caller, status) -> None:
    (client,) = _callers(request, caller)
    response = client.post(f"{API}/seasons/", {"club": club.slug, "name": f"Saison {caller}"}, format="json")
    assert response.status_code == status
    assert Season.objects.filter(name=f"Saison {caller}").exists() == (status == 201)


def test_an_organiser_edits_a_season_and_each_save_queues_a_rebuild(api, club, organiser) -> None:
    first = finished(club, organiser, name="Janvier")
    second = finished(club, organiser, name="Mars")
    created = api.post(
        f"{API}/seasons/", {"club": club.slug, "name": "Saison", "tournaments": [first.slug]}, format="json"
    )
    url = f"{API}/seasons/{created.json()['slug']}/"
    response = api.patch(
        url, {"name": "Saison d’hiver", "scheme": "points", "tournaments": [second.slug]}, format="json"
    )
    assert response.status_code == 200, response.json()
    edited = response.json()
    assert edited["name"] == "Saison d’hiver" and edited["slug"] == "saison" and edited["scheme"] == "points"
    assert edited["tournaments"] == [second.slug]
    season = Season.objects.get(slug="saison")
    assert Job.objects.filter(season_link__season=season).count() == 2
    # Fields left out stay; a refused change changes nothing.
    kept = api.patch(url, {"ends": "2026-01-01", "starts": "2026-02-01"}, format="json")
    assert kept.status_code == 400 and kept.json()["errors"][0]["field"] == "ends"
    season.refresh_from_db()
    assert season.name == "Saison d’hiver" and list(season.tournaments.all()) == [second]
    assert Job.objects.filter(season_link__season=season).count() == 2
    # The same values again, or nothing the season has: nothing to rebuild.
    same = api.patch(url, {"name": "Saison d’hiver", "tournaments": [second.slug], "other": 1}, format="json")
    assert same.status_code == 200 and same.json()["name"] == "Saison d’hiver"
    assert Job.objects.filter(season_link__season=season).count() == 2


@pytest.mark.parametrize(("caller", "status"), [("anonymous", 401), ("outsider_api", 403), ("site_admin_api", 403)])
def test_strangers_may_not_edit_a_season_nor_read_its_progress(request, api, club, caller, status) -> None:
    api.post(f"{API}/seasons/", {"club": club.slug, "name": "Saison"}, format="json")
    (client,) = _callers(request, caller)
    assert client.patch(f"{API}/seasons/saison/", {"name": "Volée"}, format="json").status_code == status
    assert client.get(f"{API}/seasons/saison/rebuild/").status_code == status
    assert client.post(f"{API}/seasons/saison/rebuild/", {}, format="json").status_code == status
    assert Season.objects.get().name == "Saison" and Job.objects.count() == 1
    # The public ranking stays open to all.
    assert client.get(f"{API}/seasons/saison/").status_code == 200


def test_the_rebuild_progress_reads_the_seasons_jobs_and_a_rebuild_is_queued_on_demand(api, admin_api, club) -> None:
    api.post(f"{API}/seasons/", {"club": club.slug, "name": "Saison"}, format="json")
    job = Job.objects.get()
    Job.objects.filter(pk=job.pk).update(
        status="running", progress=1, total=4, heartbeat_at=datetime.datetime.now(datetime.UTC)
    )
    progress = admin_api.get(f"{API}/seasons/saison/rebuild/")
    assert progress.status_code == 200
    body = progress.json()
    assert body["active"] is True
    assert body["jobs"][0] | {"created_at": None} == {
        "id": job.pk, "status": "running", "progress": 1, "total": 4, "percent": 25, "stale": False, "error": "",
        "created_at": None, "finished_at": None,
    }  # fmt: skip
    unsaid = api.post(f"{API}/seasons/saison/rebuild/", {}, format="json")
    assert unsaid.status_code == 400 and unsaid.json()["errors"][0]["field"] == "rescore"
    assert Job.objects.count() == 1
    again = api.post(f"{API}/seasons/saison/rebuild/", {"rescore": False}, format="json")
    assert again.status_code == 202
    newest = Job.objects.order_by("-pk").first()
    assert newest.pk != job.pk and newest.params == {"rescore": False}
    assert again.json()["jobs"][0]["id"] == newest.pk


# -- players -------------------------------------------------------------------------------


def test_an_organiser_lists_searches_adds_and_edits_the_clubs_players(api, club) -> None:
    PlayerFactory(club=club, last_name="Éluard", first_name="Paul", licence="L1")
    PlayerFactory(club=club, last_name="Aragon", first_name="Louis", licence="L2")
    listed = api.get(f"{API}/clubs/{club.slug}/players/")
    assert listed.status_code == 200 and listed["Cache-Control"] == "private, no-cache"
    assert [p["last_name"] for p in listed.json()["results"]] == ["Aragon", "Éluard"]
    assert listed.json()["results"][0]["licence"] == "L2"
    assert [p["last_name"] for p in api.get(f"{API}/clubs/{club.slug}/players/?q=eluard").json()["results"]] == [
        "Éluard"
    ]
    body = {"last_name": "Triolet", "first_name": "Elsa", "licence": "L3", "email": "elsa@example.org"}
    created = api.post(f"{API}/clubs/{club.slug}/players/", body, format="json")
    assert created.status_code == 201, created.json()
    player = created.json()
    assert player["club"] == club.name and player["public_history"] is True and player["anonymised"] is False
    url = f"{API}/clubs/{club.slug}/players/{player['id']}/"
    edited = api.patch(url, {"public_history": False, "phone": "05 65 00 00 00"}, format="json")
    assert edited.status_code == 200
    assert edited.json()["first_name"] == "Elsa" and edited.json()["phone"] == "05 65 00 00 00"
    assert Player.objects.get(pk=player["id"]).public_history is False
    assert api.get(url).json()["public_history"] is False


def test_a_players_atout_rating_is_in_the_clubs_player_list_and_detail(api, club) -> None:
    rated = PlayerFactory(club=club, last_name="Aragon", first_name="Louis")
    PlayerFactory(club=club, last_name="Éluard", first_name="Paul")
    PlayerRating.objects.create(player=rated, mu=30.0, sigma=4.0, ordinal=18.0, parties=6)
    listed = api.get(f"{API}/clubs/{club.slug}/players/").json()["results"]
    assert [(p["last_name"], p["rating"] and p["rating"]["value"]) for p in listed] == [
        ("Aragon", 18.0),
        ("Éluard", None),
    ]
    assert listed[0]["rating"]["parties"] == 6
    detail = api.get(f"{API}/clubs/{club.slug}/players/{rated.pk}/").json()
    assert (detail["rating"]["value"], detail["rating"]["parties"]) == (18.0, 6)


def test_a_duplicate_player_is_refused_beside_its_field(api, club) -> None:
    PlayerFactory(club=club, last_name="Aragon", first_name="Louis", licence="L2")
    twin = api.post(
        f"{API}/clubs/{club.slug}/players/", {"last_name": "X", "first_name": "Y", "licence": "l2"}, format="json"
    )
    assert twin.status_code == 400
    assert [(e["field"], e["message"]) for e in twin.json()["errors"]] == [
        ("licence", "Licence déjà attribuée à Louis Aragon.")
    ]
    empty = api.post(f"{API}/clubs/{club.slug}/players/", {"last_name": "", "first_name": ""}, format="json")
    assert {e["field"] for e in empty.json()["errors"]} == {"last_name", "first_name"}
    bad_mail = api.post(
        f"{API}/clubs/{club.slug}/players/", {"last_name": "A", "first_name": "B", "email": "x"}, format="json"
    )
    assert bad_mail.status_code == 400 and bad_mail.json()["errors"][0]["field"] == "email"
    assert Player.objects.filter(club=club).count() == 1


def test_an_anonymised_player_stays_erased(api, club, admin_api) -> None:
    player = PlayerFactory(club=club)
    admin = club.memberships.get(role="admin").user
    services.player_anonymise(by=admin, player=player)
    response = api.patch(f"{API}/clubs/{club.slug}/players/{player.pk}/", {"last_name": "Retour"}, format="json")
    assert response.status_code == 400
    assert Player.objects.get(pk=player.pk).last_name != "Retour"


@pytest.mark.parametrize(("caller", "status"), [("anonymous", 401), ("outsider_api", 403), ("site_admin_api", 403)])
def test_strangers_may_not_read_or_write_a_clubs_players(request, club, caller, status) -> None:
    player = PlayerFactory(club=club)
    (client,) = _callers(request, caller)
    base = f"{API}/clubs/{club.slug}/players/"
    assert client.get(base).status_code == status
    assert client.post(base, {"last_name": "A", "first_name": "B"}, format="json").status_code == status
    assert client.get(f"{base}{player.pk}/").status_code == status
    assert client.patch(f"{base}{player.pk}/", {"last_name": "Volé"}, format="json").status_code == status
    assert client.get(f"{base}{player.pk}/history/").status_code == status
    assert Player.objects.filter(club=club).count() == 1 and Player.objects.get().last_name != "Volé"


def test_another_clubs_player_is_not_found_through_this_club(api, club, other_club) -> None:
    theirs = PlayerFactory(club=other_club)
    assert api.get(f"{API}/clubs/{club.slug}/players/{theirs.pk}/").status_code == 404
    assert api.get(f"{API}/clubs/{other_club.slug}/players/{theirs.pk}/").status_code == 403


def test_the_club_admin_and_an_organiser_read_the_same_players(api, admin_api, club) -> None:
    PlayerFactory(club=club)
    assert (
        api.get(f"{API}/clubs/{club.slug}/players/").json() == admin_api.get(f"{API}/clubs/{club.slug}/players/").json()
    )


# -- histories -----------------------------------------------------------------------------


def test_the_organisers_history_lists_every_tournament_with_rank_points_and_partners(api, club, organiser) -> None:
    public = finished(club, organiser, name="Ouvert", points=61)
    private = finished(club, organiser, name="Interne", public=False)
    team = Competitor.objects.get(tournament=public, number=1)
    player, partner = team.players.order_by("last_name")
    # The same player in the private tournament, in its first team.
    Competitor.objects.get(tournament=private, number=1).players.add(player)
    body = api.get(f"{API}/clubs/{club.slug}/players/{player.pk}/history/").json()
    assert body["player"]["licence"] == player.licence
    by_slug = {entry["tournament"]: entry for entry in body["tournaments"]}
    assert set(by_slug) == {public.slug, private.slug}
    assert by_slug[public.slug] | {"date": None} == {
        "tournament": public.slug, "name": "Ouvert", "date": None, "game": "belote_classique", "club": club.name,
        "competitor": team.name, "rank": 1, "ranked": 2, "points": 61, "final": True, "partners": [partner.full_name],
    }  # fmt: skip


def test_the_public_history_shows_public_tournaments_and_nothing_private(anonymous, club, organiser) -> None:
    public = finished(club, organiser, name="Ouvert")
    private = finished(club, organiser, name="Interne", public=False)
    player = Competitor.objects.get(tournament=public, number=2).players.first()
    Competitor.objects.get(tournament=private, number=2).players.add(player)
    response = anonymous.get(f"{API}/players/{player.pk}/history/")
    assert response.status_code == 200 and response["ETag"]
    body = response.json()
    assert body["player"] == {
        "id": player.pk,
        "first_name": player.first_name,
        "last_name": player.last_name,
        "club": club.name,
    }
    assert [entry["tournament"] for entry in body["tournaments"]] == [public.slug]
    assert body["tournaments"][0]["rank"] == 2


def test_the_public_history_is_gone_once_the_player_opts_out_or_is_anonymised(anonymous, api, club, organiser) -> None:
    tournament = finished(club, organiser)
    first, second = Competitor.objects.get(tournament=tournament, number=1).players.all()
    assert anonymous.get(f"{API}/players/{first.pk}/history/").status_code == 200
    api.patch(f"{API}/clubs/{club.slug}/players/{first.pk}/", {"public_history": False}, format="json")
    gone = anonymous.get(f"{API}/players/{first.pk}/history/")
    assert gone.status_code == 404 and gone.json()["errors"][0]["code"] == "not_found"
    services.player_anonymise(by=UserFactory(username="root", is_staff=True), player=second)
    assert anonymous.get(f"{API}/players/{second.pk}/history/").status_code == 404
    assert anonymous.get(f"{API}/players/999999/history/").status_code == 404
    # The organisers still read it.
    assert api.get(f"{API}/clubs/{club.slug}/players/{first.pk}/history/").status_code == 200


# -- payments ------------------------------------------------------------------------------


def _registered(club: Club, by: Any) -> Tournament:
    tournament = new_tournament(club, by, entry_fee="8")
    services.tournament_set_status(by=by, tournament=tournament, status="registration")
    for _ in range(2):
        services.competitor_register(by=by, tournament=tournament, players=PlayerFactory.create_batch(2, club=club))
    return tournament


def test_an_organiser_records_and_reads_each_competitors_entry_fee(api, club, organiser) -> None:
    tournament = _registered(club, organiser)
    url = f"{API}/tournaments/{tournament.slug}/competitors/1/payment/"
    paid = api.put(url, {"payment_status": "paid", "payment_method": "cash"}, format="json")
    assert paid.status_code == 200, paid.json()
    assert paid.json() | {"name": None} == {
        "number": 1, "name": None, "payment_status": "paid", "payment_method": "cash", "amount_paid": "8.00",
    }  # fmt: skip
    free = api.put(
        f"{API}/tournaments/{tournament.slug}/competitors/2/payment/", {"payment_status": "free"}, format="json"
    )
    assert free.json()["payment_status"] == "free" and free.json()["amount_paid"] == "0.00"
    listed = api.get(f"{API}/tournaments/{tournament.slug}/payments/").json()["results"]
    assert [(p["number"], p["payment_status"], p["payment_method"]) for p in listed] == [
        (1, "paid", "cash"),
        (2, "free", ""),
    ]
    assert api.get(url).json()["payment_status"] == "paid"


def test_a_payment_is_refused_beside_its_field_and_changes_nothing(api, club, organiser) -> None:
    tournament = _registered(club, organiser)
    url = f"{API}/tournaments/{tournament.slug}/competitors/1/payment/"
    no_method = api.put(url, {"payment_status": "paid"}, format="json")
    assert no_method.status_code == 400
    assert [(e["field"], e["message"]) for e in no_method.json()["errors"]] == [
        ("payment_method", "Dites comment il a été payé : espèces, carte ou virement.")
    ]
    stray = api.put(
        url, {"payment_status": "unpaid", "payment_method": "card"}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert [(e["field"], e["message"]) for e in stray.json()["errors"]] == [
        ("payment_method", "A payment method goes with a paid entry only.")
    ]
    negative = api.put(url, {"payment_status": "paid", "payment_method": "card", "amount_paid": "-2"}, format="json")
    assert negative.status_code == 400 and negative.json()["errors"][0]["field"] == "amount_paid"
    assert Competitor.objects.get(tournament=tournament, number=1).payment_status == "unpaid"


@pytest.mark.parametrize(("caller", "status"), [("anonymous", 401), ("outsider_api", 403), ("site_admin_api", 403)])
def test_strangers_may_not_read_or_set_a_payment(request, club, organiser, caller, status) -> None:
    tournament = _registered(club, organiser)
    (client,) = _callers(request, caller)
    url = f"{API}/tournaments/{tournament.slug}/competitors/1/payment/"
    assert client.get(url).status_code == status
    assert client.get(f"{API}/tournaments/{tournament.slug}/payments/").status_code == status
    assert client.put(url, {"payment_status": "free"}, format="json").status_code == status
    assert Competitor.objects.get(tournament=tournament, number=1).payment_status == "unpaid"


def test_the_club_admin_may_set_a_payment_as_an_organiser_does(admin_api, club, organiser) -> None:
    tournament = _registered(club, organiser)
    url = f"{API}/tournaments/{tournament.slug}/competitors/1/payment/"
    assert admin_api.put(url, {"payment_status": "free"}, format="json").status_code == 200


def test_no_public_answer_carries_a_payment(anonymous, api, club, organiser) -> None:
    tournament = _registered(club, organiser)
    api.put(
        f"{API}/tournaments/{tournament.slug}/competitors/1/payment/",
        {"payment_status": "paid", "payment_method": "card", "amount_paid": "8"},
        format="json",
    )
    for url in (f"/tournaments/{tournament.slug}/competitors/", f"/tournaments/{tournament.slug}/"):
        for client in (anonymous, api):
            text = client.get(API + url).content.decode()
            assert "payment" not in text and "amount_paid" not in text


def test_the_public_history_names_no_partner_who_opted_out_or_was_anonymised(anonymous, api, club, organiser) -> None:
    """Issue 26, item 7: the history API named an opted-out partner, in `partners` and in
    the team's name; the organisers' history still does."""
    tournament = finished(club, organiser, name="Ouvert")
    team = Competitor.objects.get(tournament=tournament, number=1)
    player, partner = team.players.order_by("last_name")
    Player.objects.filter(pk=partner.pk).update(first_name="Paul", last_name="Durand")
    partner.refresh_from_db()
    team.name = f"{player.last_name} – Durand"
    team.save()
    shown = anonymous.get(f"{API}/players/{player.pk}/history/").json()["tournaments"][0]
    assert shown["partners"] == [partner.full_name]
    api.patch(f"{API}/clubs/{club.slug}/players/{partner.pk}/", {"public_history": False}, format="json")
    body = anonymous.get(f"{API}/players/{player.pk}/history/")
    assert "Durand" not in body.content.decode()
    entry = body.json()["tournaments"][0]
    assert entry["partners"] == ["Joueur non affiché"]
    assert entry["competitor"] == f"{player.full_name} / Joueur non affiché"
    organisers = api.get(f"{API}/clubs/{club.slug}/players/{player.pk}/history/").json()["tournaments"][0]
    assert organisers["partners"] == [partner.full_name] and organisers["competitor"] == team.name
