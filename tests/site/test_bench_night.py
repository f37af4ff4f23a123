"""The night benchmark's pure helpers (bench/night.py and what it shares with
bench/federation.py in bench/nightkit.py): its arguments, its percentiles,
its reading of the ranking's version (a part's `data-version`, an ETag's), its hand →
visible reckoning and its last line; its reading of the polled parts of the pages as the
site serves them (the live ranking's and the projector's files, polled by date;
« Ma soirée », polled by ETag), what a poller keeps of each answer, and the web's CPU by
kind of request (bench/benchkit.py's CpuMeter). The suite never runs the bench itself (it
starts servers and takes minutes)."""

from __future__ import annotations

import gzip
import json
import math
import subprocess
import sys
import time
from email.utils import parsedate_to_datetime
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.append(str(BENCH))

import benchkit  # noqa: E402
import night  # noqa: E402  (bench/night.py, with bench/ on the path as `python bench/night.py` has it)
import nightkit  # noqa: E402  (what night.py shares with bench/federation.py)

from tests.scoring.tables import make_table  # noqa: E402


def test_importing_the_bench_loads_neither_locust_nor_gevent():
    # locust patches the standard library for gevent when imported: only main() may do it.
    code = (
        f"import sys; sys.path.insert(0, {str(BENCH)!r}); import night; "
        "print(sorted({'locust', 'gevent'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]"


def test_arguments_have_a_real_nights_defaults():
    args = night.parse_args([])
    assert (args.teams, args.rounds, args.donnes, args.pace, args.phones, args.projectors) == (300, 3, 12, 10.0, 2, 4)
    assert args.soirees == 1
    assert nightkit.think_seconds(args.pace) == 15.0


def test_arguments_are_read():
    args = night.parse_args(["--teams", "40", "--rounds", "2", "--pace", "5", "--duration", "90", "--donnes", "6"])
    assert (args.teams, args.rounds, args.pace, args.duration, args.donnes) == (40, 2, 5.0, 90.0, 6)
    assert nightkit.think_seconds(args.pace) == 30.0


@pytest.mark.parametrize(
    "argv",
    [
        ["--teams", "3"],
        ["--pace", "0"],
        ["--pace", "nan"],
        ["--pace", "-2"],
        ["--rounds", "0"],
        ["--phones", "-1"],
        ["--soirees", "-1"],
        ["--nginx-workers", "0"],
        ["--nginx-workers", "many"],
    ],
)
def test_arguments_out_of_range_are_refused(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        night.parse_args(argv)
    assert exit_.value.code == 2
    assert "error" in capsys.readouterr().err


def test_percentiles_are_nearest_rank():
    values = [float(v) for v in range(100, 0, -1)]
    assert benchkit.percentile(values, 0.50) == 51.0
    assert benchkit.percentile(values, 0.95) == 95.0
    assert benchkit.percentile(values, 0.99) == 99.0
    assert benchkit.percentile([7.0], 0.99) == 7.0
    assert math.isnan(benchkit.percentile([], 0.95))
    assert nightkit.spread([3.0, 1.0, 2.0]) == {"n": 3, "p50": 2.0, "p95": 3.0, "p99": 3.0}


@pytest.mark.parametrize(
    ("etag", "version"),
    [
        ('"ranking-3-17-1764800000000-fr"', 17),
        ('W/"ranking-12-4-1-en"', 4),
        ('"after-5"', None),
        ("", None),
        (None, None),
    ],
)
def test_the_version_a_poll_shows_is_read_from_its_etag(etag, version):
    assert nightkit.etag_version(etag) == version


def test_a_hand_is_visible_once_a_phone_shows_a_version_built_past_its_ticket():
    # (statement started, tickets requested, ticket built, newest version)
    samples = [(0.9, 5, 4, 10), (1.05, 6, 4, 10), (1.2, 6, 6, 11), (1.6, 7, 7, 12)]
    timelines = {0: [(0.5, 10), (2.0, 11)], 1: [(0.7, 10), (1.5, 11)], 2: [(0.1, 10)]}
    delays, unseen = nightkit.visible_delays(
        [
            (1.0, [0, 1]),  # ticket ≤ 6, built by version 11: phone 1 shows it at 1.5
            (1.0, [0]),  # the same hand seen only by phone 0: at 2.0
            (1.3, [0]),  # ticket ≤ 7, in version 12: no phone ever showed it
            (1.0, [2]),  # a phone that never moved past version 10
            (2.5, [0]),  # acknowledged after the last sample: nothing to read
            (1.0, []),  # nobody polls for these teams
        ],
        samples,
        timelines,
    )
    assert delays == pytest.approx([0.5, 1.0])
    assert unseen == 4


def test_a_phone_that_showed_the_hand_before_its_acknowledgement_counts_zero():
    delays, unseen = nightkit.visible_delays([(1.0, [0])], [(1.01, 3, 3, 8)], {0: [(0.99, 8)]})
    assert (delays, unseen) == ([0.0], 0)


def test_a_phone_shown_an_older_version_for_a_moment_keeps_the_first_that_held_the_hand():
    # Phone 0 sees version 9, then 8 again (another web process, a second behind), then 10.
    timelines = {0: [(1.0, 9), (1.2, 8), (1.4, 10)]}
    delays, unseen = nightkit.visible_delays([(0.5, [0])], [(0.6, 4, 2, 7), (0.9, 5, 4, 9)], timelines)
    assert (delays, unseen) == ([pytest.approx(0.5)], 0)


def test_an_answer_is_read_with_its_bytes_on_the_wire_and_its_body_as_sent():
    body = gzip.compress(b"<table>ranking-1-2-3-fr</table>")
    raw = b'HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nETag: W/"x"\r\nContent-Length: %d\r\n\r\n' % len(body)
    answer = nightkit.read_answer(raw + body)
    assert (answer.status_code, answer.headers["etag"], answer.wire) == (200, 'W/"x"', len(raw) + len(body))
    assert answer.content == body and answer.text == "<table>ranking-1-2-3-fr</table>"
    not_modified = nightkit.read_answer(b'HTTP/1.1 304 Not Modified\r\nETag: "x"\r\n\r\n')
    assert (not_modified.status_code, not_modified.content, not_modified.text) == (304, b"", "")
    assert nightkit.read_answer(b"").status_code == 0


def test_the_last_line_is_one_json_object_with_the_required_keys():
    figures = {key: 1 for key in night.SUMMARY_KEYS} | {"visible_p95_ms": float("nan"), "entry_p95_ms": 12.34567}
    line = night.summary_line(figures)
    assert "\n" not in line
    parsed = json.loads(line)
    assert set(night.SUMMARY_KEYS) <= set(parsed)
    assert parsed["visible_p95_ms"] is None
    assert parsed["entry_p95_ms"] == 12.346
    with pytest.raises(KeyError, match="lost"):
        night.summary_line({key: 1 for key in night.SUMMARY_KEYS if key != "lost"})


# -- the pages' polled parts, as the site serves them ----------------------------------------


@pytest.mark.django_db
def test_a_soiree_page_is_polled_as_its_htmx_would_and_its_etag_holds(client: Client):
    table = make_table(tables=2)
    competitor = table.round.tournament.competitors.get(number=1)
    page_path = reverse("soiree:page", args=[competitor.link_token])
    page = client.get(page_path)
    parts = nightkit.polled_parts(page.content.decode())
    # A public concours's strip of messages is its file (scoring/live_screens.py), as on the projector.
    assert set(parts) == {"soirée", "screen"}
    live, screen = parts["soirée"], parts["screen"]
    # Every SOIREE_POLL_SECONDS (10 s by default), as the page's htmx says.
    assert (live.path, live.target, live.seconds, live.at_load) == (page_path, "soiree", 10.0, False)
    slug = table.round.tournament.slug
    assert (screen.path, screen.target, screen.seconds) == (f"/live/{slug}/fr-screen.html", "screen-messages", 10.0)
    assert screen.etag == "" and parsedate_to_datetime(screen.since)
    # The headers the bench sends are those htmx would: each part answers 304 with the tag or date read from the page.
    for part in (live, screen):
        headers = nightkit.poll_headers(part, f"http://127.0.0.1{page_path}")
        assert headers.get("If-None-Match", "") == part.etag and headers.get("If-Modified-Since", "") == part.since
        assert headers["HX-Target"] == part.target
        answer = client.get(part.path, headers=headers)
        assert answer.status_code == 304, part
        assert benchkit.request_kind("GET", part.path, True) == part.kind


@pytest.mark.django_db
def test_the_projector_polls_its_file_every_second_not_at_its_messages_period(client: Client):
    table = make_table(tables=2)
    slug = table.round.tournament.slug
    parts = nightkit.polled_parts(client.get(f"/t/{slug}/projector/").content.decode())
    assert set(parts) == {"projector", "screen", "clock"}
    projector = parts["projector"]
    assert (projector.path, projector.seconds, projector.etag) == (f"/live/{slug}/fr-projector.html", 1.0, "")
    assert parsedate_to_datetime(projector.since) and projector.version is not None
    # The messages and the clock are files too (scoring/live_screens.py): the page holds them
    # as they are, so the clock no longer asks at load.
    assert (parts["screen"].seconds, parts["clock"].seconds, parts["clock"].at_load) == (10.0, 30.0, False)
    assert parts["screen"].path == f"/live/{slug}/fr-screen.html"
    assert parts["clock"].path == f"/live/{slug}/fr-clock.html"
    assert parts["clock"].etag == "" and parsedate_to_datetime(parts["clock"].since)


@pytest.mark.django_db
def test_the_ranking_polls_its_file_by_date_and_the_site_answers_304_to_the_pages_date(client: Client):
    table = make_table(tables=2)
    slug = table.round.tournament.slug
    parts = nightkit.polled_parts(client.get(f"/t/{slug}/").content.decode())
    assert set(parts) == {"ranking"}
    ranking = parts["ranking"]
    assert (ranking.path, ranking.target, ranking.etag) == (f"/live/{slug}/fr-ranking.html", "ranking", "")
    assert parsedate_to_datetime(ranking.since) and ranking.version is not None
    assert benchkit.request_kind("GET", ranking.path, True) == "ranking"
    # What the bench sends is what the page's htmx sends: the site (nginx's fallback) says 304 to it too.
    headers = nightkit.poll_headers(ranking, f"http://127.0.0.1/t/{slug}/")
    assert headers["If-Modified-Since"] == ranking.since and "If-None-Match" not in headers
    answer = client.get(ranking.path, headers=headers)
    assert answer.status_code == 304
    fresh = client.get(ranking.path)
    assert fresh.status_code == 200 and fresh["Last-Modified"] == ranking.since
    assert nightkit.data_version(b"".join(fresh).decode()) == ranking.version


def test_a_part_polled_by_date_is_read_with_its_date_and_version():
    page = (
        '<main><section id="ranking" hx-get="/live/nuit/fr-ranking.html" hx-trigger="every 1s" hx-swap="outerHTML" '
        'hx-headers=\'{"If-Modified-Since": "Sat, 05 Dec 2026 08:30:12 GMT"}\' data-version="17"></section></main>'
    )
    (part,) = nightkit.polled_parts(page).values()
    assert (part.kind, part.path, part.target) == ("ranking", "/live/nuit/fr-ranking.html", "ranking")
    assert part.seconds == 1.0
    assert (part.since, part.etag, part.version, part.at_load) == ("Sat, 05 Dec 2026 08:30:12 GMT", "", 17, False)
    headers = nightkit.poll_headers(part, "http://127.0.0.1/t/nuit/")
    assert headers["If-Modified-Since"] == "Sat, 05 Dec 2026 08:30:12 GMT" and "If-None-Match" not in headers
    assert headers["HX-Request"] == "true" and headers["HX-Target"] == "ranking"
    # The old form, by ETag: the version is the ETag's.
    old = (
        '<div id="ranking" hx-get="/t/nuit/" hx-trigger="every 3s" '
        'hx-headers=\'{"If-None-Match": "\\"ranking-3-9-1-fr\\""}\'>'
    )
    (by_etag,) = nightkit.polled_parts(old).values()
    assert (by_etag.kind, by_etag.etag, by_etag.since, by_etag.version) == ("ranking", '"ranking-3-9-1-fr"', "", 9)
    assert "If-Modified-Since" not in nightkit.poll_headers(by_etag, "http://127.0.0.1/t/nuit/")


def answer(status: int, body: str = "", **headers: str) -> nightkit.Answer:
    content = gzip.compress(body.encode())
    named = {name.replace("_", "-").lower(): value for name, value in headers.items()}
    return nightkit.Answer(status, {**named, "content-encoding": "gzip"} if body else named, content, len(content))


def test_a_200_brings_the_next_date_and_the_version_its_body_shows_a_304_keeps_them():
    part = nightkit.PolledPart("ranking", "/live/nuit/fr-ranking.html", "ranking", 1.0, "", False,
                               since="Sat, 05 Dec 2026 08:30:12 GMT", version=17)  # fmt: skip
    nightkit.follow(part, answer(304), read_version=True)
    assert (part.since, part.version) == ("Sat, 05 Dec 2026 08:30:12 GMT", 17)
    body = '<section id="ranking" data-version="18" hx-get="/live/nuit/fr-ranking.html"><td data-version="2">'
    nightkit.follow(part, answer(200, body, last_modified="Sat, 05 Dec 2026 08:30:15 GMT"), read_version=True)
    assert (part.since, part.version) == ("Sat, 05 Dec 2026 08:30:15 GMT", 18)
    # A failed poll changes nothing; a projector's poll reads no version (nobody needs it).
    nightkit.follow(part, answer(0), read_version=True)
    nightkit.follow(part, answer(200, '<section data-version="19">', last_modified="Sat, 05 Dec 2026 08:30:16 GMT"),
                    read_version=False)  # fmt: skip
    assert (part.since, part.version) == ("Sat, 05 Dec 2026 08:30:16 GMT", 18)


def test_a_part_polled_by_etag_follows_the_etag_and_its_version():
    part = nightkit.PolledPart("soirée", "/soiree/abc/", "soiree", 10.0, '"after-5"', False)
    nightkit.follow(part, answer(200, "<p>no version here</p>", etag='"after-6"'), read_version=False)
    assert (part.etag, part.since, part.version) == ('"after-6"', "", None)
    ranking = nightkit.PolledPart("ranking", "/t/nuit/", "ranking", 3.0, '"ranking-3-9-1-fr"', False, version=9)
    nightkit.follow(ranking, answer(200, "<table></table>", etag='"ranking-3-10-2-fr"'), read_version=True)
    assert (ranking.etag, ranking.version) == ('"ranking-3-10-2-fr"', 10)


def test_a_page_without_polled_parts_gives_none():
    assert nightkit.polled_parts('<p hx-get="/x/" hx-trigger="click">no</p><div hx-trigger="every 3s">') == {}


@pytest.mark.parametrize(
    ("method", "path", "htmx", "kind"),
    [
        ("GET", "/t/nuit/", True, "ranking"),
        ("GET", "/t/nuit/", False, "other"),
        ("GET", "/t/nuit/projector/", True, "projector"),
        ("GET", "/t/nuit/screen/", True, "screen"),
        ("GET", "/t/nuit/clock/", True, "clock"),
        ("GET", "/soiree/abc_DEF-1/", True, "soirée"),
        ("GET", "/soiree/abc/screen/", True, "soirée screen"),
        ("POST", "/api/v1/table/hands/", False, "entry"),
        ("GET", "/t/nuit/round/1/", True, "other"),
        ("GET", "/live/nuit-01/fr-ranking.html", True, "ranking"),
        ("GET", "/live/nuit-01/en-ranking.html", True, "ranking"),
        ("GET", "/live/nuit-01/fr-projector.html", True, "projector"),
        ("GET", "/live/nuit-01/fr-ranking-12.html", True, "ranking"),
        ("GET", "/live/nuit-01/fr-screen.html", True, "screen"),
        ("GET", "/live/nuit-01/en-clock.html", True, "clock"),
        ("GET", "/live/nuit-01/state.json", True, "other"),
        ("GET", "/live/nuit-01/fr-ranking.html.gz", True, "other"),
    ],
)
def test_requests_are_told_apart_by_kind(method, path, htmx, kind):
    assert benchkit.request_kind(method, path, htmx) == kind


# -- the web's CPU by kind of request --------------------------------------------------------


def burn(seconds: float) -> None:
    until = time.thread_time() + seconds
    while time.thread_time() < until:
        pass


def test_the_meter_sums_each_requests_own_cpu_by_kind_and_writes_it_for_the_bench(tmp_path):
    closed = []

    class Body(list):
        def close(self):
            burn(0.004)  # the answer's close (Django's request_finished) is the request's too
            closed.append(True)

    def app(environ, start_response):
        burn(0.02 if environ["PATH_INFO"].startswith("/soiree/") else 0.002)
        return Body([b"ok"])

    meter = benchkit.CpuMeter(app, tmp_path, every=0)
    for path in ["/soiree/abc/", "/soiree/abc/", "/t/nuit/"]:
        answer = meter({"REQUEST_METHOD": "GET", "PATH_INFO": path, "HTTP_HX_REQUEST": "true"}, None)
        assert list(answer) == [b"ok"]
        answer.close()
    assert closed == [True, True, True]
    totals = benchkit.read_cpu_meters(tmp_path)
    # At least what each request burnt, its close included (CPU time, not a wall clock).
    assert totals["soirée"][0] == 2 and totals["soirée"][1] >= 2 * (0.02 + 0.004)
    assert totals["ranking"][0] == 1 and totals["ranking"][1] >= 0.002 + 0.004
    assert set(totals) == {"soirée", "ranking"}
    # Every process writes its own file; the bench sums them.
    (tmp_path / "cpu-1.json").write_text(json.dumps({"ranking": [3, 0.5]}))
    assert benchkit.read_cpu_meters(tmp_path)["ranking"][0] == 4


def test_a_request_that_raises_is_counted_all_the_same(tmp_path):
    def app(environ, start_response):
        raise RuntimeError("boom")

    meter = benchkit.CpuMeter(app, tmp_path, every=0)
    with pytest.raises(RuntimeError):
        meter({"REQUEST_METHOD": "POST", "PATH_INFO": "/api/v1/table/hands/"}, None)
    assert benchkit.read_cpu_meters(tmp_path)["entry"][0] == 1


def test_cpu_per_poll_is_the_requests_own_plus_the_rest_spread_over_every_request():
    before = {"ranking": (10, 1.0), "entry": (5, 0.5)}
    after = {"ranking": (110, 2.0), "entry": (55, 1.5), "soirée": (40, 0.8)}
    served, rest_ms = nightkit.cpu_by_kind(4.0, before, after)
    # Over the window: 100 ranking polls in 1.0 s, 50 entries in 1.0 s, 40 soirées in 0.8 s;
    # gunicorn's 4.0 s less those 2.8 s, over 190 requests.
    assert served == {"ranking": (100, pytest.approx(10.0)), "entry": (50, pytest.approx(20.0)), "soirée": (40, 20.0)}
    assert rest_ms == pytest.approx(1000 * 1.2 / 190)
    assert math.isnan(nightkit.cpu_by_kind(1.0, {}, {})[1])


def test_polls_are_tallied_by_status_and_bytes():
    tally = nightkit.PollTally()
    for status, wire in [(200, 1000), (304, 200), (304, 200), (0, 0), (503, 100)]:
        tally.add(status, wire)
    assert (tally.polls, tally.failed, tally.bytes_per_poll) == (5, 2, 300.0)
    assert math.isnan(nightkit.PollTally().bytes_per_poll)


def test_guniorn_cpu_per_poll_is_what_it_spent_on_every_kind_over_every_poll_made():
    polls = {kind: nightkit.PollTally() for kind in ("ranking", "soirée", "clock")}
    for _ in range(90):
        polls["ranking"].add(304, 200)
    for _ in range(10):
        polls["soirée"].add(200, 900)
    # gunicorn served 2 of the ranking's polls (files missing), the 10 soirées, and hands (not polls).
    served = {"ranking": (2, 3.0), "soirée": (10, 1.5), "entry": (50, 20.0)}
    spent = 2 * (3.0 + 0.5) + 10 * (1.5 + 0.5)
    assert nightkit.polls_cpu_ms_per_poll(polls, served, 0.5) == pytest.approx(spent / 100)
    assert math.isnan(nightkit.polls_cpu_ms_per_poll({}, served, 0.5))
    assert nightkit.polls_cpu_ms_per_poll(polls, {}, float("nan")) == 0.0


def test_fewer_phones_than_teams_are_spread_over_the_field():
    assert nightkit.phones_of_night(2, 300) == 600 and nightkit.phones_of_night(0.2, 300) == 60
    assert nightkit.phones_of_night(0.001, 20) == 1 and nightkit.phones_of_night(0, 20) == 0
    assert [nightkit.phone_team(i, 2, 3) for i in range(6)] == [1, 1, 2, 2, 3, 3]
    teams = [nightkit.phone_team(i, 0.2, 300) for i in range(60)]
    assert teams[:3] == [1, 6, 11] and max(teams) <= 300 and len(set(teams)) == 60


def test_the_webs_share_is_gunicorn_over_gunicorn_and_the_worker_then_with_nginx():
    share, with_nginx = nightkit.web_shares(109.2, 515.6, 53.3)
    assert round(100 * share, 1) == 17.5 and round(100 * with_nginx, 1) == 24.0
    assert all(math.isnan(value) for value in nightkit.web_shares(0.0, 0.0, 1.0))
