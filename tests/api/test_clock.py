"""The round's clock through the API: read with the round and its tables, run by organisers."""

from __future__ import annotations

import pytest

from tests.api.conftest import API, referee
from tournaments.models import Round

pytestmark = pytest.mark.django_db


def test_a_round_without_a_clock_says_null(played, anonymous) -> None:
    tournament, _ = played(4)
    body = anonymous.get(f"{API}/tournaments/{tournament.slug}/rounds/1/").json()
    assert body["clock"] is None


def test_an_organiser_starts_adjusts_and_stops_the_clock(played, api, anonymous) -> None:
    tournament, rnd = played(4)
    url = f"{API}/tournaments/{tournament.slug}/rounds/1/clock/"
    started = api.post(url, {"action": "start", "minutes": 45}, format="json")
    assert started.status_code == 200 and started.json()["clock"]["minutes"] == 45
    adjusted = api.post(url, {"action": "adjust", "minutes": 5}, format="json").json()["clock"]
    stored = Round.objects.get(pk=rnd.pk)
    assert adjusted["minutes"] == 50 and stored.clock_minutes == 50
    table = anonymous.get(f"{API}/tournaments/{tournament.slug}/rounds/1/tables/1/").json()
    assert table["clock"]["ends_at"] == adjusted["ends_at"]
    listed = anonymous.get(f"{API}/tournaments/{tournament.slug}/rounds/").json()
    assert listed[0]["clock"]["minutes"] == 50
    assert api.post(url, {"action": "stop"}, format="json").json()["clock"] is None


def test_the_tables_phone_reads_the_clock_of_its_round(played, api) -> None:
    tournament, rnd = played(4)
    api.post(f"{API}/tournaments/{tournament.slug}/rounds/1/clock/", {"action": "start", "minutes": 30}, format="json")
    info = referee(rnd.tables.get(number=1)).get(f"{API}/table/").json()
    assert info["table"]["clock"]["minutes"] == 30


def test_a_changed_clock_changes_the_rounds_etag(played, api, anonymous) -> None:
    tournament, _ = played(4)
    url = f"{API}/tournaments/{tournament.slug}/rounds/1/"
    before = anonymous.get(url)["ETag"]
    api.post(url + "clock/", {"action": "start", "minutes": 30}, format="json")
    after = anonymous.get(url, HTTP_IF_NONE_MATCH=before)
    assert after.status_code == 200 and after.json()["clock"]["minutes"] == 30


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"action": "start", "minutes": 0}, 400),
        ({"action": "start", "minutes": 601}, 400),
        ({"action": "start"}, 400),
        ({"action": "wind"}, 400),
        ({"action": "adjust", "minutes": 5}, 409),
    ],
)
def test_refused_clock_requests(played, api, body, status) -> None:
    tournament, rnd = played(4)
    answer = api.post(f"{API}/tournaments/{tournament.slug}/rounds/1/clock/", body, format="json")
    assert answer.status_code == status and answer.json()["errors"]
    assert Round.objects.get(pk=rnd.pk).clock_started_at is None


def test_an_outsider_cannot_run_the_clock(played, outsider_api) -> None:
    tournament, rnd = played(4)
    url = f"{API}/tournaments/{tournament.slug}/rounds/1/clock/"
    assert outsider_api.post(url, {"action": "start", "minutes": 30}, format="json").status_code in (403, 404)
    assert Round.objects.get(pk=rnd.pk).clock_started_at is None
