"""Registration online (« S'inscrire »): the public form, the waiting list, the players
looking for a partner, the director's answers, the e-mails, and the club's embed page."""

from __future__ import annotations

import datetime
import re
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import pytest
from django.core import mail
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.standings.refresh import standings_rebuild
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Competitor, OnlineEntry, OnlineRegistration, Player, Tournament
from tournaments.services import online
from tournaments.services.online import EntryPlayer

Entry = OnlineEntry.Status


@pytest.fixture(autouse=True)
def fresh_throttle() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def open_online(tournament: Tournament, by, **values) -> OnlineRegistration:
    return online.online_settings_update(by=by, tournament=tournament, **{"is_open": True, **values})


def concours(club, organiser, **values) -> Tournament:
    values = {"format": "teams", "entry_fee": Decimal("10"), **values}
    tournament = services.tournament_create(
        by=organiser, club=club, name="Concours du samedi", date=timezone.localdate(), game="belote_classique", **values
    )
    return services.tournament_set_status(by=organiser, tournament=tournament, status="registration")


def team(a: str, b: str, licences: tuple[str, str] = ("", "")) -> list[EntryPlayer]:
    (first_a, last_a), (first_b, last_b) = a.split(" ", 1), b.split(" ", 1)
    return [EntryPlayer(last_a, first_a, licences[0]), EntryPlayer(last_b, first_b, licences[1])]


def submit(tournament: Tournament, players: list[EntryPlayer], email: str = "joueur@example.org", **kw) -> OnlineEntry:
    return online.entry_submit(
        tournament=tournament, players=players, email=email, site_url="https://atout.example", **kw
    )


# -- services ------------------------------------------------------------------------------


def test_an_entry_accepted_automatically_registers_the_team_and_mails_its_personal_link_and_fee(
    club, organiser, django_capture_on_commit_callbacks
) -> None:
    tournament = concours(club, organiser)
    open_online(tournament, organiser)
    with django_capture_on_commit_callbacks(execute=True):
        entry = submit(tournament, team("Hélène Lefèvre", "Marc Dupont"), email="helene@example.org")
    entry.refresh_from_db()
    assert entry.status == Entry.ACCEPTED
    competitor = entry.competitor
    assert competitor is not None and competitor.status == Competitor.Status.REGISTERED
    assert sorted(p.last_name for p in competitor.players.all()) == ["Dupont", "Lefèvre"]
    (message,) = mail.outbox
    assert message.to == ["helene@example.org"]
    assert f"https://atout.example/soiree/{competitor.link_token}/" in message.body
    assert "10" in message.body and "€" in message.body


def test_a_club_player_typed_with_other_accents_and_case_is_found_not_created_twice(club, organiser) -> None:
    known = PlayerFactory(club=club, last_name="Lefèvre", first_name="Hélène", licence="")
    tournament = concours(club, organiser)
    open_online(tournament, organiser)
    entry = submit(tournament, team("helene LEFEVRE", "Marc Dupont"))
    entry.refresh_from_db()
    assert known in entry.competitor.players.all()
    assert Player.objects.filter(club=club, last_name__iexact="lefèvre").count() == 1


def test_a_club_player_is_found_by_licence_whatever_the_name_typed(club, organiser) -> None:
    known = PlayerFactory(club=club, last_name="Lefèvre", first_name="Hélène", licence="12 345")
    tournament = concours(club, organiser)
    open_online(tournament, organiser)
    entry = submit(tournament, team("Hélène Lefebvre", "Marc Dupont", licences=("12345", "")))
    assert known in entry.competitor.players.all()


def test_one_person_never_sits_twice_even_registered_at_the_desk_first(club, organiser) -> None:
    tournament = concours(club, organiser)
    open_online(tournament, organiser)
    helene = PlayerFactory(club=club, last_name="Lefèvre", first_name="Hélène")
    services.competitor_register(by=organiser, tournament=tournament, players=[helene, PlayerFactory(club=club)])
    with pytest.raises(ValidationError) as refused:
        submit(tournament, team("Hélène Lefevre", "Marc Dupont"))
    assert "last_name_1" in refused.value.message_dict
    assert OnlineEntry.objects.count() == 0


def test_one_person_sends_one_entry_while_it_awaits_an_answer(club, organiser) -> None:
    tournament = concours(club, organiser)
    open_online(tournament, organiser, auto_accept=False)
    submit(tournament, team("Hélène Lefèvre", "Marc Dupont"))
    with pytest.raises(ValidationError) as refused:
        submit(tournament, team("Paul Martin", "HELENE lefevre"))
    assert "last_name_2" in refused.value.message_dict


def test_the_cap_puts_entries_on_a_waiting_list_that_moves_up_at_a_withdrawal_with_an_email(
    club, organiser, django_capture_on_commit_callbacks
) -> None:
    tournament = concours(club, organiser)
    open_online(tournament, organiser, cap=2)
    first = submit(tournament, team("Anne Blanc", "Bruno Noir"))
    submit(tournament, team("Carole Vert", "Denis Roux"))
    third = submit(tournament, team("Emma Gris", "Fabien Brun"), email="emma@example.org")
    fourth = submit(tournament, team("Gilles Rose", "Hugo Bleu"))
    assert [e.status for e in (third, fourth)] == [Entry.WAITING, Entry.WAITING]
    assert online.waiting_position(fourth) == 2
    assert tournament.competitors.count() == 2
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.competitor_withdraw(by=organiser, competitor=first.competitor)
    third.refresh_from_db()
    fourth.refresh_from_db()
    assert third.status == Entry.ACCEPTED and third.competitor is not None
    assert fourth.status == Entry.WAITING and online.waiting_position(fourth) == 1
    assert online.places_taken(tournament) == 2
    (message,) = mail.outbox
    assert message.to == ["emma@example.org"] and third.competitor.link_token in message.body


def test_waiting_and_pending_entries_are_never_competitors_so_never_drawn_nor_ranked(club, organiser) -> None:
    tournament = concours(club, organiser)
    open_online(tournament, organiser, cap=1, auto_accept=False)
    submit(tournament, team("Anne Blanc", "Bruno Noir"))
    assert tournament.competitors.count() == 0
    accepted = online.entry_accept(by=organiser, entry=OnlineEntry.objects.get())
    assert accepted.status == Entry.ACCEPTED
    second = submit(tournament, team("Carole Vert", "Denis Roux"))
    assert online.entry_accept(by=organiser, entry=second).status == Entry.WAITING
    assert tournament.competitors.count() == 1


def test_the_director_refuses_an_entry_and_its_registrant_is_told(
    club, organiser, django_capture_on_commit_callbacks
) -> None:
    tournament = concours(club, organiser)
    open_online(tournament, organiser, auto_accept=False)
    entry = submit(tournament, team("Anne Blanc", "Bruno Noir"), email="anne@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        online.entry_refuse(by=organiser, entry=entry)
    entry.refresh_from_db()
    assert entry.status == Entry.REFUSED and entry.competitor is None
    assert mail.outbox[-1].to == ["anne@example.org"] and "pas été retenue" in mail.outbox[-1].subject


def test_an_outsider_cannot_accept_an_entry(club, organiser, outsider) -> None:
    tournament = concours(club, organiser)
    open_online(tournament, organiser, auto_accept=False)
    entry = submit(tournament, team("Anne Blanc", "Bruno Noir"))
    with pytest.raises(PermissionDenied):
        online.entry_accept(by=outsider, entry=entry)


def test_two_players_looking_for_a_partner_are_paired_into_one_team_and_both_told(
    club, organiser, django_capture_on_commit_callbacks
) -> None:
    tournament = concours(club, organiser)
    open_online(tournament, organiser)
    anne = submit(tournament, [EntryPlayer("Blanc", "Anne")], email="anne@example.org", seeking_partner=True)
    bruno = submit(tournament, [EntryPlayer("Noir", "Bruno")], email="bruno@example.org", seeking_partner=True)
    assert {anne.status, bruno.status} == {Entry.SEEKING} and tournament.competitors.count() == 0
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        pair = online.entries_pair(by=organiser, first=anne, second=bruno)
    bruno.refresh_from_db()
    assert pair.status == Entry.ACCEPTED and bruno.status == Entry.PAIRED
    assert sorted(p.first_name for p in pair.competitor.players.all()) == ["Anne", "Bruno"]
    assert sorted(mail.outbox[-1].to) == ["anne@example.org", "bruno@example.org"]


def test_the_closing_date_and_the_licence_the_club_asks_for(club, organiser) -> None:
    tournament = concours(club, organiser)
    open_online(tournament, organiser, licence_required=True)
    with pytest.raises(ValidationError) as refused:
        submit(tournament, team("Anne Blanc", "Bruno Noir", licences=("123", "")))
    assert "licence_2" in refused.value.message_dict
    open_online(tournament, organiser, closes_at=timezone.now() - datetime.timedelta(minutes=1))
    with pytest.raises(ValidationError, match="ont fermé le"):
        submit(tournament, team("Anne Blanc", "Bruno Noir", licences=("123", "456")))


def test_a_raised_cap_lets_the_waiting_list_move_up(club, organiser) -> None:
    tournament = concours(club, organiser)
    open_online(tournament, organiser, cap=1)
    submit(tournament, team("Anne Blanc", "Bruno Noir"))
    waiting = submit(tournament, team("Carole Vert", "Denis Roux"))
    assert waiting.status == Entry.WAITING
    open_online(tournament, organiser, cap=2)
    waiting.refresh_from_db()
    assert waiting.status == Entry.ACCEPTED


# -- races ---------------------------------------------------------------------------------


def at_once(count: int, work) -> list:
    barrier = threading.Barrier(count)

    def run(i: int):
        try:
            barrier.wait(timeout=10)
            return work(i)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(run, range(count)))


@pytest.mark.django_db(transaction=True)
def test_entries_sent_at_once_into_the_last_place_take_it_once() -> None:
    club = ClubFactory()
    organiser = UserFactory()
    club.organisers.add(organiser)
    tournament = concours(club, organiser)
    open_online(tournament, organiser, cap=1)
    names = [team(f"Anne{i} Blanc{i}", f"Bruno{i} Noir{i}") for i in range(4)]
    entries = at_once(4, lambda i: submit(tournament, names[i]))
    statuses = sorted(e.status for e in entries)
    assert statuses == [Entry.ACCEPTED, Entry.WAITING, Entry.WAITING, Entry.WAITING]
    assert tournament.competitors.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_withdrawals_at_once_give_each_freed_place_to_one_waiting_entry() -> None:
    club = ClubFactory()
    organiser = UserFactory()
    club.organisers.add(organiser)
    tournament = concours(club, organiser)
    open_online(tournament, organiser, cap=2)
    accepted = [submit(tournament, team(f"Anne{i} Blanc{i}", f"Bruno{i} Noir{i}")) for i in range(2)]
    for i in range(3):
        submit(tournament, team(f"Carole{i} Vert{i}", f"Denis{i} Roux{i}"))
    at_once(2, lambda i: services.competitor_withdraw(by=organiser, competitor=accepted[i].competitor))
    assert online.places_taken(tournament) == 2
    assert OnlineEntry.objects.filter(status=Entry.WAITING).count() == 1


# -- views ---------------------------------------------------------------------------------


def form_data(**values: str) -> dict[str, str]:
    return {
        "last_name_1": "Lefèvre",
        "first_name_1": "Hélène",
        "licence_1": "",
        "last_name_2": "Dupont",
        "first_name_2": "Marc",
        "licence_2": "",
        "email": "helene@example.org",
        "phone": "",
        "affiliation": "",
        "name": "",
        **values,
    }


def test_the_public_page_offers_register_only_while_registration_online_is_open(club, organiser) -> None:
    tournament = concours(club, organiser)
    page = Client().get(reverse("public:ranking", kwargs={"slug": tournament.slug}))
    assert reverse("draw:register", kwargs={"slug": tournament.slug}) not in page.content.decode()
    open_online(tournament, organiser)
    page = Client().get(reverse("public:ranking", kwargs={"slug": tournament.slug}))
    assert reverse("draw:register", kwargs={"slug": tournament.slug}) in page.content.decode()


def test_the_public_form_registers_a_team_and_says_so(club, organiser, django_capture_on_commit_callbacks) -> None:
    tournament = concours(club, organiser)
    open_online(tournament, organiser, cap=10)
    url = reverse("draw:register", kwargs={"slug": tournament.slug})
    page = Client().get(url)
    assert "10 places restantes" in page.content.decode()
    client = Client(enforce_csrf_checks=True)
    client.get(url)
    token = client.cookies["csrftoken"].value
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {**form_data(), "csrfmiddlewaretoken": token}, follow=True)
    assert response.status_code == 200
    assert tournament.competitors.count() == 1
    assert "Vous êtes inscrits, numéro 1." in response.content.decode()
    (message,) = mail.outbox
    link = tournament.competitors.get().link_token
    assert f"http://testserver/soiree/{link}/" in message.body
    assert f"http://testserver/t/{tournament.slug}/" in message.body


def test_the_public_form_without_csrf_token_is_refused(club, organiser) -> None:
    tournament = concours(club, organiser)
    open_online(tournament, organiser)
    url = reverse("draw:register", kwargs={"slug": tournament.slug})
    response = Client(enforce_csrf_checks=True).post(url, form_data())
    assert response.status_code == 403 and OnlineEntry.objects.count() == 0


def test_errors_show_in_french_beside_their_fields_and_nothing_typed_is_lost(club, organiser) -> None:
    tournament = concours(club, organiser)
    open_online(tournament, organiser, licence_required=True)
    url = reverse("draw:register", kwargs={"slug": tournament.slug})
    response = Client(HTTP_ACCEPT_LANGUAGE="fr").post(url, form_data(email="", licence_1="77 123"))
    html = response.content.decode()
    assert response.status_code == 400
    assert re.search(r'id="field-email".*?class="error"', html, re.S)
    assert "Indiquez une adresse e-mail" in html
    assert 'value="Lefèvre"' in html and 'value="77 123"' in html
    assert OnlineEntry.objects.count() == 0


def test_the_public_form_never_creates_a_person_twice(club, organiser) -> None:
    PlayerFactory(club=club, last_name="Lefèvre", first_name="Hélène", licence="")
    tournament = concours(club, organiser)
    open_online(tournament, organiser)
    url = reverse("draw:register", kwargs={"slug": tournament.slug})
    Client().post(url, form_data(last_name_1="LEFEVRE", first_name_1="helene"))
    again = Client().post(url, form_data(last_name_2="Martin", first_name_2="Paul", email="paul@example.org"))
    assert again.status_code == 400
    assert Player.objects.filter(club=club, last_name__iexact="lefèvre").count() == 1
    assert tournament.competitors.count() == 1


def test_a_filled_honeypot_is_refused(club, organiser) -> None:
    tournament = concours(club, organiser)
    open_online(tournament, organiser)
    url = reverse("draw:register", kwargs={"slug": tournament.slug})
    response = Client().post(url, form_data(website_url="http://spam.example"))
    assert response.status_code == 400 and OnlineEntry.objects.count() == 0


def test_the_public_form_is_throttled_per_connection(club, organiser, settings) -> None:
    settings.ONLINE_ENTRIES_PER_HOUR = 2
    tournament = concours(club, organiser)
    open_online(tournament, organiser)
    url = reverse("draw:register", kwargs={"slug": tournament.slug})
    statuses = [Client().post(url, form_data(email="bad")).status_code for _ in range(3)]
    assert statuses == [400, 400, 429]


def test_junk_never_makes_a_500(club, organiser) -> None:
    tournament = concours(club, organiser)
    open_online(tournament, organiser)
    url = reverse("draw:register", kwargs={"slug": tournament.slug})
    response = Client().post(url, {"last_name_1": "x" * 5000, "email": "\x00@", "seeking_partner": "maybe"})
    assert response.status_code == 400
    assert Client().get(reverse("draw:register_done", kwargs={"slug": tournament.slug}) + "?e=junk").status_code == 404


def test_a_closed_registration_explains_itself(club, organiser) -> None:
    tournament = concours(club, organiser)
    open_online(tournament, organiser, closes_at=timezone.now() - datetime.timedelta(hours=1))
    html = Client().get(reverse("draw:register", kwargs={"slug": tournament.slug})).content.decode()
    assert "Les inscriptions en ligne ont fermé le" in html
    assert "<form" not in html.split("<main")[1]


def test_the_director_accepts_and_refuses_from_their_page(club, organiser, organiser_client) -> None:
    tournament = concours(club, organiser)
    open_online(tournament, organiser, auto_accept=False)
    first = submit(tournament, team("Anne Blanc", "Bruno Noir"))
    second = submit(tournament, team("Carole Vert", "Denis Roux"))
    page = organiser_client.get(reverse("manage:online", kwargs={"pk": tournament.pk}))
    assert "Anne Blanc" in page.content.decode()
    decide = "manage:online_decide"
    organiser_client.post(reverse(decide, kwargs={"pk": tournament.pk, "entry_id": first.pk}), {"decision": "accept"})
    organiser_client.post(reverse(decide, kwargs={"pk": tournament.pk, "entry_id": second.pk}), {"decision": "refuse"})
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, second.status) == (Entry.ACCEPTED, Entry.REFUSED)


def test_the_director_saves_the_settings_and_bad_values_stay_beside_their_field(
    club, organiser, organiser_client
) -> None:
    tournament = concours(club, organiser)
    url = reverse("manage:online", kwargs={"pk": tournament.pk})
    bad = organiser_client.post(url, {"is_open": "on", "cap": "-3", "auto_accept": "0"})
    assert bad.status_code == 400 and 'value="-3"' in bad.content.decode()
    organiser_client.post(url, {"is_open": "on", "cap": "12", "auto_accept": "0", "closes_at": "2030-01-01T18:00"})
    saved = online.online_settings(tournament)
    assert (saved.is_open, saved.cap, saved.auto_accept) == (True, 12, False)


def test_an_outsider_does_not_see_the_entries(club, organiser, outsider_client) -> None:
    tournament = concours(club, organiser)
    assert outsider_client.get(reverse("manage:online", kwargs={"pk": tournament.pk})).status_code == 403


def test_the_embed_page_may_be_framed_and_shows_the_next_concours_with_register(club, organiser) -> None:
    tournament = concours(club, organiser)
    open_online(tournament, organiser)
    response = Client().get(reverse("club_embed", kwargs={"slug": club.slug}))
    assert response.status_code == 200
    assert "X-Frame-Options" not in response
    csp = response["Content-Security-Policy"]
    assert (
        "frame-ancestors 'self' https: http:" in csp and "'none'" not in csp.split("frame-ancestors")[1].split(";")[0]
    )
    html = response.content.decode()
    assert tournament.name in html and 'target="_blank"' in html
    assert reverse("draw:register", kwargs={"slug": tournament.slug}) in html
    assert "<script" not in html
    other = Client().get(reverse("club_public", kwargs={"slug": club.slug}))
    assert other["X-Frame-Options"] == "DENY"


def test_the_embed_page_shows_the_live_ranking_on_the_night(club, organiser, running) -> None:
    tournament, _competitors = running(8, date=timezone.localdate())
    standings_rebuild(tournament_id=tournament.pk)
    html = Client().get(reverse("club_embed", kwargs={"slug": club.slug})).content.decode()
    assert "<ol>" in html and html.count("<li value=") == 8
    assert 'http-equiv="refresh"' not in html and "Recharger" in html


def test_a_melee_takes_one_player_an_entry(club, organiser) -> None:
    tournament = concours(club, organiser, format="melee")
    open_online(tournament, organiser)
    entry = submit(tournament, [EntryPlayer("Blanc", "Anne")])
    assert entry.status == Entry.ACCEPTED and entry.competitor.name == "Anne Blanc"
    with pytest.raises(ValidationError):
        submit(tournament, team("Carole Vert", "Denis Roux"))
    url = reverse("draw:register", kwargs={"slug": tournament.slug})
    assert "last_name_2" not in Client().get(url).content.decode()


def test_the_form_and_its_rules_read_in_english_too(club, organiser) -> None:
    tournament = concours(club, organiser)
    open_online(tournament, organiser, cap=1)
    submit(tournament, team("Anne Blanc", "Bruno Noir"))
    url = reverse("draw:register", kwargs={"slug": tournament.slug})
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.cookies["django_language"] = "en"
    html = client.get(url).content.decode()
    assert "Register for Concours du samedi" in html and "The tournament is full" in html
    html = client.post(url, form_data(email="")).content.decode()
    assert "Give an e-mail address: the confirmation is sent there." in html


def test_an_anonymised_player_s_entry_keeps_no_name_nor_contact(club, organiser) -> None:
    admin = UserFactory()
    club.organisers.add(admin, through_defaults={"role": "admin"})
    tournament = concours(club, organiser)
    open_online(tournament, organiser)
    entry = submit(tournament, team("Hélène Lefèvre", "Marc Dupont"), email="helene@example.org", phone="0612")
    helene = entry.competitor.players.get(first_name="Hélène")
    services.player_anonymise(by=admin, player=helene)
    entry.refresh_from_db()
    assert (entry.players, entry.email, entry.phone) == ([], "", "")
    assert "Lefèvre" not in entry.label and entry.label == entry.competitor.name
