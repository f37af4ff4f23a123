"""Self check-in at the door (« Pointage », issue 28 item 3).

Personas: the *player* at the door's tablet (no account: the door's secret link is the
access); the *director* (`organiser`), who switches self check-in on, chooses the team
rule, holds the link and counts the room on the dashboard.
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.test import Client, override_settings
from django.urls import reverse

from kit.logs import redact
from rounds.services import round_draw
from tests.browser_form import as_post_data, form_as_sent
from tests.factories import CompetitorFactory, PlayerFactory
from tests.tournaments.conftest import new_tournament
from tournaments import selectors, services
from tournaments.models import Arrival, Bye, Competitor, Door, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_counts():
    """The door's throttles count in the cache: every test starts from nothing."""
    cache.clear()
    yield
    cache.clear()


def words(response) -> str:
    """The page's words, tags and runs of spaces out."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def opened(club, organiser, *, rule: str = "each", fee: str = "10", teams: int = 4, **values) -> Tournament:
    """A concours open for registration, self check-in on, `teams` teams registered and
    not checked in; team no. 1 is Hélène Lefèvre and Paul Martin."""
    tournament = new_tournament(club, organiser, entry_fee=Decimal(fee), self_check_in=True, door_rule=rule, **values)
    services.tournament_set_status(by=organiser, tournament=tournament, status="registration")
    size = 2 if tournament.format == Tournament.Format.TEAMS else 1
    first = [
        PlayerFactory(club=club, last_name="Lefèvre", first_name="Hélène"),
        PlayerFactory(club=club, last_name="Martin", first_name="Paul"),
    ][:size]
    services.competitor_register(by=organiser, tournament=tournament, players=first)
    for _index in range(teams - 1):
        services.competitor_register(
            by=organiser, tournament=tournament, players=PlayerFactory.create_batch(size, club=club)
        )
    tournament.refresh_from_db()
    return tournament


def door_of(tournament: Tournament, organiser) -> Door:
    return services.door_open(by=organiser, tournament=tournament)


def team(tournament: Tournament, number: int = 1) -> Competitor:
    return tournament.competitors.get(number=number)


def players_of(competitor: Competitor):
    return sorted(competitor.players.all(), key=lambda p: p.pk)


# -- the service: each rule ---------------------------------------------------------------


def test_a_team_is_checked_in_once_each_player_said_they_are_here(club, organiser) -> None:
    tournament = opened(club, organiser)
    door, one = door_of(tournament, organiser), team(tournament)
    helene, paul = players_of(one)
    first = services.door_check_in(door=door, competitor=one, player=helene)
    assert not first.checked_in and first.waiting == [paul] and first.arrived == [helene]
    assert team(tournament).status == "registered"
    second = services.door_check_in(door=door, competitor=one, player=paul)
    assert second.checked_in and not second.already and second.waiting == []
    one.refresh_from_db()
    assert one.status == "checked_in" and one.self_checked_in
    # Said again: nothing changes.
    again = services.door_check_in(door=door, competitor=one, player=paul)
    assert again.checked_in and again.already and Arrival.objects.filter(competitor=one).count() == 2


def test_one_player_may_say_both_are_here_when_the_rule_allows_it(club, organiser) -> None:
    tournament = opened(club, organiser, rule="one")
    door, one = door_of(tournament, organiser), team(tournament)
    helene, paul = players_of(one)
    answer = services.door_check_in(door=door, competitor=one, player=helene, both=True)
    assert answer.checked_in and answer.arrived == [helene, paul]
    assert team(tournament).status == "checked_in"


def test_under_the_rule_of_each_nobody_checks_in_a_partner(club, organiser) -> None:
    tournament = opened(club, organiser)
    door, one = door_of(tournament, organiser), team(tournament)
    with pytest.raises(ValidationError, match="chaque joueur se pointe"):
        services.door_check_in(door=door, competitor=one, player=players_of(one)[0], both=True)
    assert not Arrival.objects.exists() and team(tournament).status == "registered"


def test_a_player_of_a_melee_is_checked_in_at_once(club, organiser) -> None:
    tournament = opened(club, organiser, format="melee", teams=4)
    door, one = door_of(tournament, organiser), team(tournament)
    answer = services.door_check_in(door=door, competitor=one, player=players_of(one)[0])
    assert answer.checked_in and team(tournament).status == "checked_in"


def test_self_check_in_off_refuses(club, organiser) -> None:
    tournament = opened(club, organiser)
    door, one = door_of(tournament, organiser), team(tournament)
    services.tournament_update(by=organiser, tournament=tournament, self_check_in=False)
    with pytest.raises(ValidationError, match="pointage à la porte est fermé"):
        services.door_check_in(door=door, competitor=one, player=players_of(one)[0])


def test_a_withdrawn_team_is_refused_with_a_clear_message(club, organiser) -> None:
    tournament = opened(club, organiser)
    door, one = door_of(tournament, organiser), team(tournament)
    services.competitor_withdraw(by=organiser, competitor=one)
    with pytest.raises(ValidationError, match="a abandonné : voyez la table de l’organisateur"):
        services.door_check_in(door=door, competitor=one, player=players_of(one)[0])


def test_a_finished_tournament_checks_nobody_in(club, organiser) -> None:
    tournament = opened(club, organiser)
    door, one = door_of(tournament, organiser), team(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(status="finished")
    with pytest.raises(ValidationError, match="Le tournoi est terminé"):
        services.door_check_in(door=door, competitor=one, player=players_of(one)[0])


def test_one_person_is_never_checked_in_twice(club, organiser) -> None:
    tournament = opened(club, organiser)
    door = door_of(tournament, organiser)
    # A registration made twice before names were compared folded: « Lefevre Helene ».
    twin_player = PlayerFactory(club=club, last_name="LEFEVRE", first_name="helene", licence="")
    Competitor.objects.filter(pk=team(tournament).pk).update(status="checked_in")
    twin = CompetitorFactory(tournament=tournament, number=9, status="registered", players=[twin_player])
    with pytest.raises(ValidationError, match="figure déjà parmi les pointés, avec le n° 1"):
        services.door_check_in(door=door, competitor=twin, player=twin_player)
    twin.refresh_from_db()
    assert twin.status == "registered" and not twin.arrivals.exists()


def test_a_late_self_check_in_goes_into_the_next_round_as_the_directors_does(club, organiser) -> None:
    tournament = opened(club, organiser, teams=5)
    for number in (2, 3, 4, 5):
        services.competitor_check_in(by=organiser, competitor=team(tournament, number))
    services.tournament_set_status(by=organiser, tournament=tournament, status="running")
    round_draw(by=organiser, tournament=tournament)
    door, one = door_of(tournament, organiser), team(tournament)
    for player in players_of(one):
        services.door_check_in(door=door, competitor=one, player=player)
    one.refresh_from_db()
    assert one.status == "checked_in" and one.joined_round == 2
    assert Bye.objects.filter(competitor=one, round__number=1, reason="late").exists()


def test_after_round_2_is_drawn_the_door_sends_a_late_team_to_the_director(club, organiser) -> None:
    tournament = opened(club, organiser, teams=5)
    for number in (2, 3, 4, 5):
        services.competitor_check_in(by=organiser, competitor=team(tournament, number))
    services.tournament_set_status(by=organiser, tournament=tournament, status="running")
    from rounds.services import round_close

    round_close(by=organiser, round=round_draw(by=organiser, tournament=tournament), force=True)
    round_draw(by=organiser, tournament=tournament)
    door, one = door_of(tournament, organiser), team(tournament)
    with pytest.raises(ValidationError, match="Trop tard pour se pointer ici : la ronde 2 est tirée"):
        services.door_check_in(door=door, competitor=one, player=players_of(one)[0])


def test_the_director_undoing_a_check_in_clears_the_door_s_arrivals(club, organiser) -> None:
    tournament = opened(club, organiser, rule="one")
    door, one = door_of(tournament, organiser), team(tournament)
    services.door_check_in(door=door, competitor=one, player=players_of(one)[0], both=True)
    services.competitor_check_in(by=organiser, competitor=one, present=False)
    one.refresh_from_db()
    assert one.status == "registered" and not one.self_checked_in and not one.arrivals.exists()


def test_what_is_owed_is_the_fee_until_a_payment_is_recorded_whatever_its_amount(club, organiser) -> None:
    tournament = opened(club, organiser)
    one, two, three = (team(tournament, n) for n in (1, 2, 3))
    services.competitor_set_payment(by=organiser, competitor=two, status="paid", method="cash")
    services.competitor_set_payment(by=organiser, competitor=three, status="paid", method="cash", amount="4")
    owed = [services.competitor_owes(tournament, Competitor.objects.get(pk=c.pk)) for c in (one, two, three)]
    # A reduced fee recorded as paid (4 € of 10) is the director's call: nothing owed.
    assert owed == [Decimal("10"), Decimal("0"), Decimal("0")]
    for competitor in (one, two, three):
        services.competitor_check_in(by=organiser, competitor=competitor)
    room = selectors.room_count(tournament)
    assert (room.present, room.owing, [c.pk for c in room.owing_list]) == (3, 1, [one.pk])


# -- the door's pages ------------------------------------------------------------------------


def door_url(door: Door, name: str = "page", *args) -> str:
    return reverse(f"door:{name}", args=[door.token, *args])


def test_the_door_finds_a_player_by_name_accents_and_case_aside(club, organiser, client: Client) -> None:
    tournament = opened(club, organiser)
    door = door_of(tournament, organiser)
    page = client.get(door_url(door))
    assert page.status_code == 200 and 'id="door-q"' in page.content.decode()
    assert page["Cache-Control"].count("private") and page["Referrer-Policy"] == "same-origin"
    for query in ("helene lefevre", "LEFÈVRE", "Lefevre Helene"):
        found = client.post(door_url(door, "search"), {"q": query})
        assert found.status_code == 200
        assert "Hélène Lefèvre" in words(found) and "Paul Martin" not in words(found), query
    team_name = client.post(door_url(door, "search"), {"q": "lefevre – martin"})
    assert "Hélène Lefèvre" in words(team_name) and "Paul Martin" in words(team_name)
    nobody = client.post(door_url(door, "search"), {"q": "Zorro"})
    assert "Aucune inscription à ce nom" in words(nobody)


def test_the_receipt_s_qr_text_finds_its_registration(club, organiser, client: Client) -> None:
    tournament = opened(club, organiser)
    door, one = door_of(tournament, organiser), team(tournament, 3)
    scanned = f"https://club.example/soiree/{one.link_token}/"
    found = client.post(door_url(door, "search"), {"q": scanned})
    text = words(found)
    assert found.status_code == 200 and f"N° 3 · {one.name}" in text.replace("\xa0", " ")
    assert one.link_token not in found.content.decode()
    # The bare token (a scanner typing only the code) finds it too; another tournament's does not.
    assert one.name in words(client.post(door_url(door, "search"), {"q": one.link_token}))
    other = opened(club, organiser)
    elsewhere = team(other, 3)
    missed = client.post(door_url(door, "search"), {"q": f"https://x/soiree/{elsewhere.link_token}/"})
    assert "Aucune inscription à ce nom" in words(missed)


def test_i_am_here_shows_what_is_owed_then_settled(club, organiser, client: Client) -> None:
    tournament = opened(club, organiser, rule="one")
    door, one = door_of(tournament, organiser), team(tournament)
    helene = players_of(one)[0]
    confirm = client.get(door_url(door, "confirm", 1, helene.pk))
    assert "Je suis là" in words(confirm) and "Nous sommes là tous les deux" in words(confirm)
    done = client.post(door_url(door, "arrive"), {"competitor": "1", "player": str(helene.pk), "both": "1"})
    assert done.status_code == 200
    text = words(done).replace("\xa0", " ")
    assert "Pointage fait : bon tournoi !" in text and "À régler à la table de l’organisateur : 10 €" in text
    services.competitor_set_payment(by=organiser, competitor=team(tournament, 2), status="paid", method="card")
    two = team(tournament, 2)
    first = players_of(two)[0]
    paid = client.post(door_url(door, "arrive"), {"competitor": "2", "player": str(first.pk), "both": "0"})
    assert "Inscription réglée" in words(paid)
    waiting = f"En attente de : {players_of(two)[1].full_name}"
    assert waiting in words(paid) and "À régler" not in words(paid)


def test_each_rule_offers_no_both_button(club, organiser, client: Client) -> None:
    tournament = opened(club, organiser)
    door, one = door_of(tournament, organiser), team(tournament)
    confirm = client.get(door_url(door, "confirm", 1, players_of(one)[0].pk))
    assert "Je suis là" in words(confirm) and "tous les deux" not in words(confirm)


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"competitor": "abc", "player": "1"},
        {"competitor": "1", "player": "-3"},
        {"competitor": "99999999999999999999", "player": "1"},
        {"competitor": "1", "player": "1\x00"},
        {"competitor": "1", "player": "OTHER", "both": "1"},
        {"competitor": "1", "player": "PLAYER", "both": "2"},
        {"competitor": "2", "player": "PLAYER"},
    ],
)
def test_junk_at_the_door_is_a_400_never_a_500(club, organiser, client: Client, data) -> None:
    tournament = opened(club, organiser)
    door = door_of(tournament, organiser)
    mine = players_of(team(tournament))[0]
    stranger = PlayerFactory(club=club)
    sent = {k: v.replace("PLAYER", str(mine.pk)).replace("OTHER", str(stranger.pk)) for k, v in data.items()}
    response = client.post(door_url(door, "arrive"), sent)
    assert response.status_code == 400
    # A NUL is refused before any view, by the site's own page.
    assert any("\x00" in value for value in data.values()) or "Recherchez votre nom à nouveau" in words(response)
    assert not Arrival.objects.exists()


def test_a_search_too_long_or_with_a_nul_is_said_beside_the_field(club, organiser, client: Client) -> None:
    tournament = opened(club, organiser)
    door = door_of(tournament, organiser)
    response = client.post(door_url(door, "search"), {"q": "a" * 301})
    assert response.status_code == 400 and 'id="door-q-error"' in response.content.decode()
    assert client.post(door_url(door, "search"), {"q": "hel\x00ene"}).status_code == 400
    assert client.get(door_url(door, "confirm", 77, 1)).status_code == 404


def test_a_refusal_is_shown_on_the_player_s_screen(club, organiser, client: Client) -> None:
    tournament = opened(club, organiser)
    door, one = door_of(tournament, organiser), team(tournament)
    services.competitor_withdraw(by=organiser, competitor=one)
    player = players_of(one)[0]
    response = client.post(door_url(door, "arrive"), {"competitor": "1", "player": str(player.pk)})
    assert response.status_code == 409
    assert "a abandonné : voyez la table de l’organisateur" in words(response)


def test_a_withdrawn_or_unknown_door_link_is_a_404(club, organiser, client: Client) -> None:
    tournament = opened(club, organiser)
    door = door_of(tournament, organiser)
    old = door_url(door)
    services.door_link_revoke(by=organiser, tournament=tournament)
    assert client.get(old).status_code == 404
    player = players_of(team(tournament))[0]
    refused = client.post(reverse("door:arrive", args=[door.token]), {"competitor": "1", "player": str(player.pk)})
    assert refused.status_code == 404 and not Arrival.objects.exists()
    renewed = services.door_link_renew(by=organiser, tournament=tournament)
    assert renewed.token != door.token and client.get(door_url(renewed)).status_code == 200
    assert client.get(old).status_code == 404
    assert client.get(reverse("door:page", args=["not-a-token"])).status_code == 404


def test_self_check_in_off_the_door_says_so_plainly(club, organiser, client: Client) -> None:
    tournament = opened(club, organiser)
    door = door_of(tournament, organiser)
    services.tournament_update(by=organiser, tournament=tournament, self_check_in=False)
    page = client.get(door_url(door))
    assert page.status_code == 200 and 'id="door-q"' not in page.content.decode()
    assert "Le pointage à la porte est fermé pour ce tournoi" in words(page)
    player = players_of(team(tournament))[0]
    post = client.post(door_url(door, "arrive"), {"competitor": "1", "player": str(player.pk)})
    assert post.status_code == 403 and not Arrival.objects.exists()


@override_settings(DOOR_POSTS_PER_MINUTE=3)
def test_the_door_s_posts_are_throttled(club, organiser, client: Client) -> None:
    tournament = opened(club, organiser)
    door = door_of(tournament, organiser)
    codes = [client.post(door_url(door, "search"), {"q": "helene"}).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]


def test_the_door_s_link_is_cut_in_the_logs(club, organiser) -> None:
    door = door_of(opened(club, organiser), organiser)
    line = redact(f"POST /door/{door.token}/arrive/ 200")
    assert door.token not in line and "/door/" in line


# -- the director's side ---------------------------------------------------------------------


def test_the_dashboard_counts_the_room_and_answers_304_until_it_moves(club, organiser, organiser_client) -> None:
    tournament = opened(club, organiser, rule="one")
    door = door_of(tournament, organiser)
    services.competitor_check_in(by=organiser, competitor=team(tournament, 2))
    services.competitor_set_payment(by=organiser, competitor=team(tournament, 2), status="paid", method="cash")
    url = reverse("manage:dashboard_room", args=[tournament.pk])
    first = organiser_client.get(url, headers={"HX-Request": "true"})
    assert first.status_code == 200 and "1 / 4 pointés, 0 à encaisser" in words(first)
    same = organiser_client.get(url, headers={"HX-Request": "true", "If-None-Match": first["ETag"]})
    assert same.status_code == 304 and same.content == b""
    one = team(tournament)
    services.door_check_in(door=door, competitor=one, player=players_of(one)[0], both=True)
    moved = organiser_client.get(url, headers={"HX-Request": "true", "If-None-Match": first["ETag"]})
    assert moved.status_code == 200 and "2 / 4 pointés, 1 à encaisser" in words(moved)
    dashboard = organiser_client.get(reverse("manage:dashboard", args=[tournament.pk]))
    assert "2 / 4 pointés, 1 à encaisser" in words(dashboard) and "à la porte" in words(dashboard)


def test_the_settings_form_switches_self_check_in_and_its_rule(club, organiser, organiser_client) -> None:
    tournament = opened(club, organiser)
    form = organiser_client.get(reverse("manage:tournament_edit", args=[tournament.pk])).content.decode()
    assert 'name="self_check_in"' in form and 'name="door_rule"' in form
    data = as_post_data([(k, v) for k, v in form_as_sent(form, css_class="form") if k != "self_check_in"])
    data["door_rule"] = ["bogus"]
    refused = organiser_client.post(reverse("manage:tournament_edit", args=[tournament.pk]), data)
    assert refused.status_code == 200 and 'id="field-door_rule"' in refused.content.decode()
    data["door_rule"] = ["one"]
    saved = organiser_client.post(reverse("manage:tournament_edit", args=[tournament.pk]), data)
    assert saved.status_code == 302, re.findall(r'class="error"[^>]*>([^<]+)', saved.content.decode())
    tournament.refresh_from_db()
    assert tournament.door_rule == "one" and not tournament.self_check_in


def test_the_director_s_door_page_and_poster_hold_the_link(club, organiser, organiser_client, outsider_client) -> None:
    tournament = opened(club, organiser)
    page = organiser_client.get(reverse("manage:door", args=[tournament.pk]))
    door = Door.objects.get(tournament=tournament)
    assert page.status_code == 200 and door.token in page.content.decode()
    poster = organiser_client.get(reverse("manage:door_poster", args=[tournament.pk]))
    assert poster.status_code == 200 and "<svg" in poster.content.decode() and "Pointage" in words(poster)
    assert outsider_client.get(reverse("manage:door", args=[tournament.pk])).status_code in (403, 404)
    revoke = organiser_client.post(reverse("manage:door_link", args=[tournament.pk]), {"action": "revoke"})
    assert revoke.status_code == 302 and Door.objects.get(tournament=tournament).revoked
    junk = organiser_client.post(reverse("manage:door_link", args=[tournament.pk]), {"action": "x"})
    assert junk.status_code == 400


def test_a_free_tournament_has_nothing_to_collect(club, organiser, organiser_client) -> None:
    tournament = opened(club, organiser, fee="0", rule="one")
    door, one = door_of(tournament, organiser), team(tournament)
    answer = services.door_check_in(door=door, competitor=one, player=players_of(one)[0], both=True)
    assert answer.owed == 0
    two = team(tournament, 2)
    services.door_check_in(door=door, competitor=two, player=players_of(two)[0])
    room = organiser_client.get(reverse("manage:dashboard_room", args=[tournament.pk]))
    assert "1 / 4 pointés, 0 à encaisser" in words(room)
    assert "À la porte, en attente d’un partenaire : n° 2" in words(room).replace("\xa0", " ")
