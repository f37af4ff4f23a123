"""« Ma soirée » (issue 28, item 1): one competitor's night on one live page, by its
personal link or from the seat finder.

Personas: the *player* holds their receipt's link (no account); a *visitor* types a
name in the seat finder; the *director* organises the tournament's club.
"""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from rounds.services import round_close, round_draw
from scoring.services import hand_submit
from tests.factories import PlayerFactory, TournamentFactory, competitors_for, round_with_tables
from tests.scoring.tables import director_of, make_table
from tests.site_log import site_log
from tournaments import services
from tournaments.models import Competitor, Prize, Table, Tournament

pytestmark = pytest.mark.django_db

WIN_A = {"taker": "A", "contract": "hearts", "points": {"A": 102, "B": 60}}
WIN_B = {"taker": "B", "contract": "spades", "points": {"A": 40, "B": 122}}


def enter(table: Table, raw: dict, capture) -> None:
    with capture(execute=True):
        hand_submit(table=table, raw=raw)


def link(competitor: Competitor) -> str:
    competitor.refresh_from_db()
    return reverse("soiree:page", args=[competitor.link_token])


def text(response) -> str:
    """The page's words, tags and runs of spaces out."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def night() -> Table:
    """Table 1 of round 1 of a concours of four teams: C1 (North–South) against C2."""
    return make_table(tables=2)


def first(table: Table) -> Competitor:
    return table.round.tournament.competitors.get(number=1)


def test_the_personal_link_shows_the_table_the_seat_the_opponents_and_the_partie_in_play(
    night: Table, client: Client, django_capture_on_commit_callbacks
) -> None:
    enter(night, WIN_A, django_capture_on_commit_callbacks)
    response = client.get(link(first(night)))
    assert response.status_code == 200
    words = text(response)
    assert "Ronde 1 : table 1, contre C2" in words
    assert "Nord" in words and "Adversaires : C2" in words
    assert "1 donne jouée" in words
    assert re.search(r"C1 \(vous\) 102 C2 60", words), words
    assert re.search(r"Rang 1 Points 102", words)
    assert "en cours, 1 donne" in words
    assert "C3" not in words and "C4" not in words


def test_a_poll_answers_304_until_a_hand_moves_the_partie(
    night: Table, client: Client, django_capture_on_commit_callbacks
) -> None:
    address = link(first(night))
    poll = client.get(address, headers={"HX-Request": "true"})
    assert poll.status_code == 200 and poll["ETag"]
    assert 'id="soiree"' in poll.content.decode() and "<html" not in poll.content.decode()
    again = client.get(address, headers={"HX-Request": "true", "If-None-Match": poll["ETag"]})
    assert again.status_code == 304 and again.content == b""
    enter(night, WIN_A, django_capture_on_commit_callbacks)
    moved = client.get(address, headers={"HX-Request": "true", "If-None-Match": poll["ETag"]})
    assert moved.status_code == 200 and moved["ETag"] != poll["ETag"]
    assert "1 donne jouée" in text(moved)


def test_a_hand_at_another_table_moves_the_rank_not_the_partie(
    night: Table, client: Client, django_capture_on_commit_callbacks
) -> None:
    enter(night, WIN_A, django_capture_on_commit_callbacks)
    other = Table.objects.get(round=night.round, number=2)
    big_win = {"taker": "A", "contract": "hearts", "points": {"A": 152, "B": 10}}
    enter(other, big_win, django_capture_on_commit_callbacks)
    words = text(client.get(link(first(night))))
    assert re.search(r"Rang 2 Points 102", words), words
    assert "1 donne jouée" in words


def test_the_next_round_drawn_shows_at_the_top_with_the_rounds_played_below(
    night: Table, client: Client, django_capture_on_commit_callbacks
) -> None:
    tournament = night.round.tournament
    director = director_of(tournament)
    enter(night, WIN_A, django_capture_on_commit_callbacks)
    address = link(first(night))
    before = client.get(address, headers={"HX-Request": "true"})
    with django_capture_on_commit_callbacks(execute=True):
        round_close(by=director, round=night.round, force=True)
    waiting = text(client.get(address))
    assert "Cette ronde est terminée : la suivante s’affiche ici dès son tirage." in waiting
    with django_capture_on_commit_callbacks(execute=True):
        drawn = round_draw(by=director, tournament=tournament, seed=7)
    moved = client.get(address, headers={"HX-Request": "true", "If-None-Match": before["ETag"]})
    assert moved.status_code == 200
    words = text(moved)
    seat = drawn.seats.get(competitor__number=1)
    opponents = [s.competitor.name for s in seat.table.seats.exclude(side=seat.side)]
    headline = words.split("Maintenant")[0]
    assert f"Ronde 2 : table {seat.table.number}, contre {opponents[0]}" in headline
    assert "Rondes jouées Ronde 1 · table 1 · gagnée contre C2" in words
    assert "102 points, 60 contre" in words and "Cette ronde est terminée" not in words


def test_at_the_end_the_page_gives_the_final_rank_and_the_lot(
    night: Table, client: Client, django_capture_on_commit_callbacks
) -> None:
    tournament = night.round.tournament
    director = director_of(tournament)
    enter(night, WIN_A, django_capture_on_commit_callbacks)
    Prize.objects.create(tournament=tournament, rank_from=1, rank_to=1, text="Un jambon")
    address = link(first(night))
    assert "Un jambon" not in text(client.get(address))
    with django_capture_on_commit_callbacks(execute=True):
        round_close(by=director, round=night.round, force=True)
        services.tournament_set_status(by=director, tournament=tournament, status="finished")
    words = text(client.get(address))
    assert "Classement final : 1" in words and "Lot : Un jambon" in words
    assert "Maintenant" not in words
    loser = tournament.competitors.get(number=2)
    assert "Lot" not in text(client.get(link(loser))).split("Classement final")[1].split("Rondes")[0]


def test_a_withdrawn_link_is_refused_and_the_new_one_works(night: Table, client: Client) -> None:
    competitor = first(night)
    director = director_of(night.round.tournament)
    old = link(competitor)
    services.competitor_link_revoke(by=director, competitor=competitor)
    refused = client.get(old)
    assert refused.status_code == 403 and "Ce lien a été retiré" in text(refused)
    # A page left open polls: told to load again, it shows the refusal.
    polled = client.get(old, headers={"HX-Request": "true"})
    assert polled.status_code == 403 and polled["HX-Refresh"] == "true"
    services.competitor_link_renew(by=director, competitor=competitor)
    new = link(competitor)
    assert new != old
    assert client.get(old).status_code == 404
    assert client.get(new).status_code == 200


def test_an_unknown_link_is_a_404_and_counts_as_a_miss(night: Table, client: Client, settings) -> None:
    # The wrong-link counts live in the cache, shared with the referee's links.
    cache.clear()
    settings.REFEREE_TOKEN_MISSES = 2
    answers = [client.get(f"/soiree/{'x' * 32}/").status_code for _ in range(3)]
    assert answers == [404, 404, 429]


def test_the_link_opens_a_private_tournament_whose_public_address_stays_closed(night: Table, client: Client) -> None:
    tournament = night.round.tournament
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    competitor = first(night)
    response = client.get(link(competitor))
    assert response.status_code == 200 and "Ronde 1 : table 1" in text(response)
    assert response["Referrer-Policy"] == "no-referrer" and "private" in response["Cache-Control"]
    # No link to the public pages a visitor cannot open.
    assert f"/t/{tournament.slug}/" not in response.content.decode()
    public = reverse("public:soiree", kwargs={"slug": tournament.slug, "number": 1})
    assert client.get(public).status_code == 404


def test_the_seat_finder_leads_to_my_evening_by_a_name_typed_without_accents(night: Table, client: Client) -> None:
    tournament = night.round.tournament
    team = first(night)
    team.players.set([PlayerFactory(club=tournament.club, first_name="Hélène", last_name="Lefèvre"), PlayerFactory()])
    found = client.get(reverse("draw:seat", kwargs={"slug": tournament.slug}), {"q": "helene lefevre"})
    address = reverse("public:soiree", kwargs={"slug": tournament.slug, "number": 1})
    assert f'href="{address}"' in found.content.decode()
    page = client.get(address)
    assert page.status_code == 200
    words = text(page)
    assert "Ronde 1 : table 1, contre C2" in words and "Hélène Lefèvre" in words


def test_a_partner_who_opted_out_is_named_as_the_nights_pages_name_them(client: Client) -> None:
    """A mêlée: the partner keeps their results off public pages, which still name them as
    the night did (the ranking names them), with no link that follows them elsewhere."""
    tournament = TournamentFactory(format="melee", status="running")
    competitors = competitors_for(tournament, 4)
    round_with_tables(tournament, competitors)
    partner = competitors[2]  # North and South: sides 0 and 0
    player = partner.players.get()
    player.public_history = False
    player.save()
    response = client.get(link(competitors[0]))
    words = text(response)
    assert "Partenaire : C3" in words and "Adversaires : C2 , C4" in words
    ranking = client.get(reverse("public:round", kwargs={"slug": tournament.slug, "number": 1}))
    assert "C3" in text(ranking)
    body = response.content.decode()
    assert "/joueur/" not in body and player.licence not in body and player.email not in body


def test_a_tarot_table_gives_the_seat_and_the_two_opponents(client: Client) -> None:
    table = make_table("tarot_a_trois")
    competitor = table.round.tournament.competitors.get(number=2)
    words = text(client.get(link(competitor)))
    assert "Ronde 1 : table 1, contre C1, C3" in words and "Place 2" in words


def test_the_link_is_never_written_whole_in_the_request_log(night: Table) -> None:
    competitor = first(night)
    token = competitor.link_token
    with site_log() as log:
        assert Client().get(f"/soiree/{token}/").status_code == 200
        assert Client().get(f"/soiree/{token}/", headers={"HX-Request": "true"}).status_code == 200
    assert token not in log.text
    assert log.lines(f"path=/soiree/{token[:4]}…/ status=200")


def test_the_director_prints_the_receipt_and_withdraws_or_renews_the_link(
    night: Table, client: Client, settings
) -> None:
    tournament = night.round.tournament
    competitor = first(night)
    client.force_login(director_of(tournament))
    receipt = reverse("manage:receipt", kwargs={"pk": tournament.pk, "competitor_id": competitor.pk})
    settings.ATOUT_PUBLIC_URL = "https://atout.example.org"
    page = client.get(receipt)
    assert page.status_code == 200
    assert f'href="https://atout.example.org{link(competitor)}"' in page.content.decode()
    assert "<svg" in page.content.decode() and "Scannez ce code" in text(page)
    dashboard = client.get(reverse("manage:dashboard", kwargs={"pk": tournament.pk}))
    assert receipt in dashboard.content.decode()
    action = reverse("manage:competitor_link", kwargs={"pk": tournament.pk, "competitor_id": competitor.pk})
    client.post(action, {"action": "revoke"})
    competitor.refresh_from_db()
    assert competitor.link_revoked
    assert "retiré" in text(client.get(receipt))
    old = competitor.link_token
    client.post(action, {"action": "renew"})
    competitor.refresh_from_db()
    assert not competitor.link_revoked and competitor.link_token != old
    outsider = Client()
    assert outsider.post(action, {"action": "revoke"}).status_code == 302  # to the login
    competitor.refresh_from_db()
    assert not competitor.link_revoked


def test_registering_and_printing_the_receipt_opens_the_new_competitors_receipt(client: Client) -> None:
    tournament = TournamentFactory(format="individual", game="belote_a_trois", status="registration")
    client.force_login(director_of(tournament))
    response = client.post(
        reverse("manage:register", kwargs={"pk": tournament.pk}),
        {"last_name_1": "Lefèvre", "first_name_1": "Hélène", "checked_in": "on", "receipt": "1"},
    )
    competitor = tournament.competitors.get()
    assert response.status_code == 302, response.content.decode()[:2000]
    receipt = reverse("manage:receipt", kwargs={"pk": tournament.pk, "competitor_id": competitor.pk})
    assert response["Location"] == receipt


def test_every_competitor_has_a_link_of_its_own(night: Table) -> None:
    tokens = list(Competitor.objects.values_list("link_token", flat=True))
    assert len(set(tokens)) == len(tokens) == 4 and all(len(token) == 32 for token in tokens)


def test_a_round_not_yet_drawn_says_so(client: Client) -> None:
    tournament = TournamentFactory(status="running")
    [competitor, *_others] = competitors_for(tournament, 2)
    words = text(client.get(link(competitor)))
    assert "Pas encore de ronde tirée pour vous" in words


def test_the_page_polls_every_soiree_poll_seconds_and_never_faster_than_the_ranking(
    night: Table, client: Client, settings
) -> None:
    competitor = first(night)
    assert 'hx-trigger="every 10s"' in client.get(link(competitor)).content.decode()
    settings.SOIREE_POLL_SECONDS = 1
    assert 'hx-trigger="every 3s"' in client.get(link(competitor)).content.decode()
    round_close(by=director_of(night.round.tournament), round=night.round, force=True)
    services.tournament_set_status(
        by=director_of(night.round.tournament), tournament=night.round.tournament, status="finished"
    )
    assert 'hx-trigger="every 30s"' in client.get(link(competitor)).content.decode()


def test_the_whole_ranking_link_opens_the_page_of_a_long_ranking_that_shows_the_team(
    client: Client, settings, django_capture_on_commit_callbacks
) -> None:
    """A ranking longer than a page comes in pages: « Tout le classement » opens the one
    with the team's row, and follows the team when it climbs to another page."""
    settings.RANKING_PAGE_ROWS = 10
    table = make_table(tables=12)
    last = Table.objects.get(round=table.round, number=12)
    team = table.round.tournament.competitors.get(number=24)
    enter(table, WIN_A, django_capture_on_commit_callbacks)

    def whole_ranking() -> str:
        page = client.get(link(team)).content.decode()
        found = re.search(r'href="([^"]+)">Tout le classement<', page)
        assert found, page
        return found.group(1).replace("&amp;", "&")

    def shows_team(address: str) -> bool:
        return re.search(r"\bC24\b", text(client.get(address))) is not None

    low = whole_ranking()
    assert re.search(r"\?page=[23]$", low), low
    assert shows_team(low)
    enter(last, WIN_B, django_capture_on_commit_callbacks)
    high = whole_ranking()
    assert "?page=" not in high and shows_team(high)
