"""The relay's two ends in one database: the venue's outbox and sender, the hosted API.

A venue club plays a night with the relay on; its outbox is posted, item by item, to the
API as the hosted site would receive it, for another club of the site (standing for the
club's hosted copy: a new identity, the hosted club's slug). The two-process test with a
cut network is tests/production/test_relay.py.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.test import override_settings

from archive.models import ArchiveIdentity
from relay import outbox, sending
from relay.models import Kind, Outgoing, RelayReceipt
from results.building import results_file
from results.checking import digest
from scoring.models import StandingsSnapshot
from tests.api.conftest import token_client
from tests.factories import ClubFactory, UserFactory
from tests.results.conftest import played_tournament
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
RELAY = {"RELAY_URL": "http://127.0.0.1:9", "RELAY_TOKEN": "t", "RELAY_TIMEOUT": 2}


def _hosted_items(venue: Tournament, club_slug: str, identity: str) -> list[dict[str, Any]]:
    """The venue's outbox as posted, addressed to the hosted club and identity."""
    outbox.changes_queue(tournament_id=venue.pk)
    items = []
    for item in Outgoing.objects.filter(tournament=venue).order_by("pk"):
        body = sending.envelope(item, Tournament.objects.select_related("club").get(pk=venue.pk), identity)
        body["club"] = club_slug
        if item.kind == Kind.RESULTS:
            body["data"]["id"] = identity
        items.append(body)
    return items


@pytest.fixture
def night() -> tuple[Tournament, Any, Any]:
    with override_settings(**RELAY):
        venue = played_tournament(ClubFactory(slug="salle"), rounds=2, teams=4, donnes=2)
    hosted_club = ClubFactory(slug="bc-rodez")
    director = UserFactory()
    hosted_club.organisers.add(director)
    return venue, hosted_club, token_client(director)


def test_the_venue_queues_every_version_it_wrote_then_its_draw_and_results_once() -> None:
    with override_settings(**RELAY):
        venue = played_tournament(ClubFactory(), rounds=2, teams=4, donnes=2)
        outbox.changes_queue(tournament_id=venue.pk)
        outbox.changes_queue(tournament_id=venue.pk)
    ranking = list(Outgoing.objects.filter(tournament=venue, kind=Kind.RANKING).values_list("key", flat=True))
    newest = StandingsSnapshot.objects.filter(tournament=venue).order_by("-version").first()
    assert newest is not None and ranking == list(range(1, newest.version + 1))
    assert Outgoing.objects.filter(tournament=venue, kind=Kind.DRAW).count() == 1
    assert Outgoing.objects.filter(tournament=venue, kind=Kind.RESULTS).count() == 1


def test_without_the_hosted_site_nothing_is_marked_sent() -> None:
    with override_settings(**RELAY):
        venue = played_tournament(ClubFactory(), rounds=1, teams=4, donnes=2)
        report = sending.relay_pass()
    assert report.unreachable and report.sent == 0
    assert not Outgoing.objects.filter(tournament=venue, sent_at__isnull=False).exists()


def test_the_hosted_copy_takes_each_item_once_and_ends_equal_to_the_venue(night: Any, client: Any) -> None:
    venue, hosted_club, api = night
    identity = str(uuid.uuid4())
    items = _hosted_items(venue, hosted_club.slug, identity)
    for body in items:
        answer = api.post("/api/v1/relay/", json.dumps(body), content_type="application/json")
        assert answer.status_code == 201, answer.json()
        again = api.post("/api/v1/relay/", json.dumps(body), content_type="application/json")
        assert (again.status_code, again.json()["done"]) == (200, "already")
    copy = ArchiveIdentity.objects.get(archive_id=identity).tournament
    assert copy.club == hosted_club and copy.status == Tournament.Status.FINISHED
    assert RelayReceipt.objects.filter(tournament=copy).count() == len(items)
    venue_versions = sorted(
        item["key"] for item in items if item["kind"] == Kind.RANKING
    )  # every version the venue wrote, kept there or pruned since
    assert sorted(StandingsSnapshot.objects.filter(tournament=copy).values_list("version", flat=True)) == venue_versions
    mine, theirs = results_file(tournament=copy), results_file(tournament=venue)
    for data in (mine, theirs):
        data.pop("id"), data.pop("club")
        data["tournament"].pop("slug")
    assert digest(mine) == digest(theirs)
    page = client.get(f"/t/{copy.slug}/", HTTP_ACCEPT_LANGUAGE="fr")
    assert page.status_code == 200 and "C1" in page.content.decode()


def test_while_running_the_hosted_ranking_says_it_comes_live_from_the_room(night: Any, client: Any) -> None:
    venue, hosted_club, api = night
    identity = str(uuid.uuid4())
    first = next(item for item in _hosted_items(venue, hosted_club.slug, identity) if item["kind"] == Kind.RANKING)
    first["tournament"]["status"] = "running"
    assert api.post("/api/v1/relay/", json.dumps(first), content_type="application/json").status_code == 201
    copy = ArchiveIdentity.objects.get(archive_id=identity).tournament
    page = client.get(f"/t/{copy.slug}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "En direct depuis la salle, mis à jour il y a" in page
    # In the ranking's polled fragment, with the moment the browser counts the seconds from
    # (static/js/relay.js): a phone left on the page sees it move.
    polled = client.get(f"/t/{copy.slug}/", HTTP_ACCEPT_LANGUAGE="fr", HTTP_HX_REQUEST="true").content.decode()
    assert 'class="relay-live' in polled and "data-relay-at=" in polled and 'class="relay-seconds"' in polled
    assert 'src="/static/js/relay.js"' in page or "js/relay" in page


def test_junk_a_foreign_club_and_another_clubs_tournament_are_refused_never_a_500(night: Any) -> None:
    venue, hosted_club, api = night
    identity = str(uuid.uuid4())
    item = _hosted_items(venue, hosted_club.slug, identity)[0]

    def post(body: Any) -> int:
        raw = body if isinstance(body, bytes) else json.dumps(body)
        return int(api.post("/api/v1/relay/", raw, content_type="application/json").status_code)

    assert post(b"{not json") == 400
    assert post(b"[" * 5000) == 400
    assert post([1, 2]) == 400
    assert post({**item, "kind": "hands"}) == 400
    assert post({**item, "key": -1}) == 400
    assert post({**item, "data": {**item["data"], "rows": [{"number": "x", "name": 3}]}}) == 400
    assert post({**item, "data": {**item["data"], "criteria": ["<script>"]}}) == 400
    assert post({**item, "tournament": {**item["tournament"], "game": "poker"}}) == 400
    assert post({**item, "club": "nowhere"}) == 404
    assert post({**item, "club": venue.club.slug}) == 403
    venue_identity = str(ArchiveIdentity.objects.get(tournament=venue).archive_id)
    assert post({**item, "tournament": {**item["tournament"], "id": venue_identity}}) == 409
    assert not RelayReceipt.objects.exists()
