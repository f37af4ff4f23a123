"""The round's clock: the director starts it with a duration, adds or takes off time, stops
it; the dashboard lists the tables still playing once the time is up, and the projectors
and the tables' phones get the end of the round and the server's time to count down."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from rounds.services import round_clock_adjust, round_clock_start, round_clock_stop, round_close, round_draw
from scoring.models import TableResult
from scoring.selectors.tables import table_progress
from tests.tournaments.conftest import client_for
from tournaments import selectors
from tournaments.models import Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(running, organiser):
    """A belote tournament of 6 teams (3 tables, 12 donnes a partie) with round 1 drawn."""
    tournament, _ = running(6)
    return tournament, round_draw(by=organiser, tournament=tournament, seed=3)


def _in_the_past(rnd: Round, minutes: int) -> None:
    """Move the clock's start `minutes` back, as if the round had been playing that long."""
    Round.objects.filter(pk=rnd.pk).update(clock_started_at=timezone.now() - datetime.timedelta(minutes=minutes))


def test_starting_the_clock_sets_when_the_round_ends(drawn, organiser) -> None:
    _, rnd = drawn
    start = timezone.now()
    rnd = round_clock_start(by=organiser, round=rnd, minutes=45, now=start)
    stored = Round.objects.get(pk=rnd.pk)
    assert stored.clock_started_at == start and stored.clock_minutes == 45
    assert stored.clock_ends_at == start + datetime.timedelta(minutes=45)


@pytest.mark.parametrize("minutes", [0, -5, 601])
def test_a_duration_outside_1_to_600_minutes_is_refused_beside_the_minutes(drawn, organiser, minutes) -> None:
    _, rnd = drawn
    with pytest.raises(ValidationError) as error:
        round_clock_start(by=organiser, round=rnd, minutes=minutes)
    assert "minutes" in error.value.message_dict
    assert Round.objects.get(pk=rnd.pk).clock_started_at is None


def test_a_closed_round_has_no_clock_to_start(drawn, organiser) -> None:
    _, rnd = drawn
    round_close(by=organiser, round=rnd, force=True)
    with pytest.raises(ValidationError):
        round_clock_start(by=organiser, round=rnd, minutes=30)


def test_only_the_clubs_organisers_run_the_clock(drawn, outsider) -> None:
    _, rnd = drawn
    with pytest.raises(PermissionDenied):
        round_clock_start(by=outsider, round=rnd, minutes=30)
    assert Round.objects.get(pk=rnd.pk).clock_minutes is None


def test_time_is_added_and_taken_off_within_the_limits(drawn, organiser) -> None:
    _, rnd = drawn
    round_clock_start(by=organiser, round=rnd, minutes=60)
    assert round_clock_adjust(by=organiser, round=rnd, minutes=10).clock_minutes == 70
    assert round_clock_adjust(by=organiser, round=rnd, minutes=-25).clock_minutes == 45
    with pytest.raises(ValidationError) as error:
        round_clock_adjust(by=organiser, round=rnd, minutes=-45)
    assert "minutes" in error.value.message_dict
    assert Round.objects.get(pk=rnd.pk).clock_minutes == 45


def test_time_cannot_be_added_to_a_clock_that_does_not_run(drawn, organiser) -> None:
    _, rnd = drawn
    with pytest.raises(ValidationError):
        round_clock_adjust(by=organiser, round=rnd, minutes=5)


def test_stopping_the_clock_forgets_it(drawn, organiser) -> None:
    _, rnd = drawn
    round_clock_start(by=organiser, round=rnd, minutes=60)
    round_clock_stop(by=organiser, round=rnd)
    stored = Round.objects.get(pk=rnd.pk)
    assert stored.clock_ends_at is None and selectors.round_clock(stored) is None


def test_no_table_is_late_before_the_time_is_up(drawn, organiser) -> None:
    tournament, rnd = drawn
    rnd = round_clock_start(by=organiser, round=rnd, minutes=60)
    clock = selectors.round_clock(rnd)
    assert clock is not None and not clock.over
    assert selectors.late_tables(tournament, selectors.drawn_tables(rnd, progress=table_progress(rnd)), clock) == []


def test_once_the_time_is_up_the_unfinished_tables_are_late(drawn, organiser) -> None:
    tournament, rnd = drawn
    rnd = round_clock_start(by=organiser, round=rnd, minutes=60)
    TableResult.objects.create(table=rnd.tables.get(number=1), totals=[800, 600], donnes_played=12, finished=True)
    TableResult.objects.create(table=rnd.tables.get(number=2), totals=[312, 250], donnes_played=7)
    later = rnd.clock_ends_at + datetime.timedelta(seconds=1)
    clock = selectors.round_clock(rnd, now=later)
    late = selectors.late_tables(tournament, selectors.drawn_tables(rnd, progress=table_progress(rnd)), clock)
    assert [(t.number, t.donnes_played, t.donnes_to_play) for t in late] == [(2, 7, 12), (3, 0, 12)]


def test_half_way_through_a_table_a_quarter_of_its_partie_behind_is_pointed_out(drawn, organiser) -> None:
    tournament, rnd = drawn
    rnd = round_clock_start(by=organiser, round=rnd, minutes=60)
    TableResult.objects.create(table=rnd.tables.get(number=1), totals=[300, 200], donnes_played=6)
    TableResult.objects.create(table=rnd.tables.get(number=2), totals=[200, 100], donnes_played=4)
    half_way = rnd.clock_started_at + datetime.timedelta(minutes=30)
    clock = selectors.round_clock(rnd, now=half_way)
    behind = selectors.tables_behind(tournament, selectors.drawn_tables(rnd, progress=table_progress(rnd)), clock)
    # Six donnes expected: table 2 is two behind (less than a quarter of 12), table 3 six.
    assert [t.number for t in behind] == [3]


def test_the_dashboard_lists_the_late_tables_once_the_time_is_up(drawn, organiser) -> None:
    tournament, rnd = drawn
    round_clock_start(by=organiser, round=rnd, minutes=30)
    TableResult.objects.create(table=rnd.tables.get(number=2), totals=[312, 250], donnes_played=7)
    client = client_for(organiser)
    polled = client.get(reverse("manage:dashboard_round", args=[tournament.pk])).content.decode()
    assert "Temps écoulé" not in polled
    _in_the_past(rnd, 31)
    polled = client.get(reverse("manage:dashboard_round", args=[tournament.pk])).content.decode()
    assert "Temps écoulé : 3 tables jouent encore." in polled
    assert "Table 2 : 7 / 12 donnes jouées" in polled and "Table 3 : 0 / 12 donnes jouées" in polled


def test_the_director_starts_changes_and_stops_the_clock_from_the_dashboard(drawn, organiser) -> None:
    tournament, rnd = drawn
    client = client_for(organiser)
    url = reverse("manage:round_clock", args=[tournament.pk, 1])
    page = client.get(reverse("manage:dashboard", args=[tournament.pk])).content.decode()
    assert "Lancer l’horloge" in page and 'value="60"' in page
    client.post(url, {"clock-action": "start", "clock-minutes": "50"})
    assert Round.objects.get(pk=rnd.pk).clock_minutes == 50
    page = client.get(reverse("manage:dashboard", args=[tournament.pk])).content.decode()
    assert "data-clock-ends=" in page and "Modifier le temps" in page
    client.post(url, {"clock-action": "adjust", "clock-minutes": "-10"})
    assert Round.objects.get(pk=rnd.pk).clock_minutes == 40
    client.post(url, {"clock-action": "stop"})
    assert Round.objects.get(pk=rnd.pk).clock_minutes is None


def test_a_refused_duration_comes_back_beside_the_field_in_french(drawn, organiser) -> None:
    tournament, rnd = drawn
    url = reverse("manage:round_clock", args=[tournament.pk, 1])
    answer = client_for(organiser).post(url, {"clock-action": "start", "clock-minutes": "900"}, HTTP_HX_REQUEST="true")
    html = answer.content.decode()
    assert answer.status_code == 200
    assert 'id="field-clock-minutes"' in html and "Une ronde dure entre 1 et 600 minutes." in html
    assert Round.objects.get(pk=rnd.pk).clock_started_at is None


@pytest.mark.parametrize(
    "body",
    [{}, {"clock-action": "start"}, {"clock-action": "start", "clock-minutes": "soixante"}, {"clock-action": "x"}],
)
def test_a_malformed_clock_request_is_no_server_error(drawn, organiser, body) -> None:
    tournament, rnd = drawn
    url = reverse("manage:round_clock", args=[tournament.pk, 1])
    client = client_for(organiser)
    assert client.post(url, body).status_code == 302
    assert client.post(url, body, HTTP_HX_REQUEST="true").status_code == 200
    assert Round.objects.get(pk=rnd.pk).clock_started_at is None


def test_the_projectors_get_the_end_of_the_round_and_the_servers_time(drawn, organiser) -> None:
    tournament, rnd = drawn
    part = Client().get(reverse("draw:clock", kwargs={"slug": tournament.slug}))
    assert part.status_code == 200 and b"data-clock-ends" not in part.content
    rnd = round_clock_start(by=organiser, round=rnd, minutes=30)
    html = Client().get(reverse("draw:clock", kwargs={"slug": tournament.slug})).content.decode()
    ends = rnd.clock_ends_at.astimezone(datetime.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    assert f'data-clock-ends="{ends}"' in html and 'data-clock-now="' in html
    assert "Temps restant" in html and 'data-over-label="Temps écoulé"' in html
    # A public tournament's pages wrap the clock's file (scoring/live_screens.py): the end,
    # the page's own time around it, and the file's address to poll.
    for page in (
        reverse("public:projector", kwargs={"slug": tournament.slug}),
        reverse("draw:round", args=[tournament.slug, 1]),
    ):
        html = Client().get(page).content.decode()
        assert f'data-clock-ends="{ends}"' in html and 'class="round-clock-frame" data-clock-now="' in html
        assert f'hx-get="/live/{tournament.slug}/fr-clock.html"' in html
        assert reverse("draw:clock", kwargs={"slug": tournament.slug}) not in html


def test_the_tables_phone_shows_time_is_up_in_red(drawn, organiser) -> None:
    _, rnd = drawn
    round_clock_start(by=organiser, round=rnd, minutes=1)
    table = rnd.tables.get(number=1)
    page = Client().get(reverse("referee:table", args=[table.token])).content.decode()
    assert reverse("referee:clock", args=[table.token]) in page
    _in_the_past(rnd, 2)
    html = Client().get(reverse("referee:clock", args=[table.token])).content.decode()
    assert "clock-over" in html and "Temps écoulé" in html
