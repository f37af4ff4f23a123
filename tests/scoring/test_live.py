"""The live ranking: updated by every stored or corrected hand, read by pages that poll it.

Personas: a *visitor* follows a public tournament without an account; the *director*
organises its club.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import StandingsRefresh, StandingsSnapshot
from scoring.selectors import standings as standings_selectors
from scoring.services import hand_correct, hand_submit
from scoring.standings import standings_rebuild, standings_refresh
from tests.scoring.tables import director_of, make_table
from tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db

WIN_A = {"taker": "A", "contract": "hearts", "points": {"A": 102, "B": 60}}
WIN_B = {"taker": "B", "contract": "spades", "points": {"A": 40, "B": 122}}


def live(table: Table) -> StandingsSnapshot:
    return StandingsSnapshot.objects.filter(tournament=table.round.tournament).latest("version")


def points(snapshot: StandingsSnapshot) -> dict[str, float]:
    return {row["name"]: row["points"] for row in snapshot.rows}


def enter(table: Table, raw: dict, capture) -> None:
    # The services ask for the refresh once their transaction commits.
    with capture(execute=True):
        hand_submit(table=table, raw=raw)


def test_a_stored_hand_moves_the_live_ranking_at_once(django_capture_on_commit_callbacks) -> None:
    table = make_table()
    enter(table, WIN_A, django_capture_on_commit_callbacks)
    first = live(table)
    assert points(first) == {"C1": 102, "C2": 60}
    enter(table, WIN_B, django_capture_on_commit_callbacks)
    second = live(table)
    assert second.version > first.version
    assert points(second) == {"C1": 142, "C2": 182}
    assert [row["name"] for row in second.rows] == ["C2", "C1"]


def test_a_director_correction_moves_the_live_ranking(django_capture_on_commit_callbacks) -> None:
    table = make_table()
    enter(table, WIN_A, django_capture_on_commit_callbacks)
    hand = table.hands.get(number=1)
    with django_capture_on_commit_callbacks(execute=True):
        hand_correct(hand=hand, raw=WIN_B, reason="wrong team", by=director_of(table.round.tournament))
    assert points(live(table)) == {"C1": 40, "C2": 122}


def test_a_refresh_finds_nothing_to_do_once_a_later_one_has_built_its_ticket(
    django_capture_on_commit_callbacks,
) -> None:
    table = make_table()
    enter(table, WIN_A, django_capture_on_commit_callbacks)
    state = StandingsRefresh.objects.get(pk=table.round.tournament_id)
    assert state.built == state.requested == 1
    version = live(table).version
    # A second task for the same ticket, as a burst of hands leaves behind: skipped.
    assert standings_refresh(tournament_id=table.round.tournament_id, ticket=1) is False
    assert live(table).version == version


def test_a_ticket_left_to_a_rebuild_holding_the_lock_is_served_after_it(django_capture_on_commit_callbacks) -> None:
    table = make_table()
    enter(table, WIN_A, django_capture_on_commit_callbacks)
    tournament_id = table.round.tournament_id
    # A hand's refresh that found a rebuild holding the lock left its ticket unbuilt.
    StandingsRefresh.objects.filter(pk=tournament_id).update(requested=5)
    with django_capture_on_commit_callbacks(execute=True):
        standings_rebuild(tournament_id=tournament_id)
    state = StandingsRefresh.objects.get(pk=tournament_id)
    assert state.built == state.requested == 5


def test_an_unchanged_ranking_is_not_written_again_as_a_new_version(django_capture_on_commit_callbacks) -> None:
    table = make_table()
    enter(table, WIN_A, django_capture_on_commit_callbacks)
    version = live(table).version
    assert standings_refresh(tournament_id=table.round.tournament_id) is True
    assert live(table).version == version


# -- pages -----------------------------------------------------------------------------


@pytest.fixture
def running(django_capture_on_commit_callbacks) -> Table:
    table = make_table(tables=2)
    enter(table, WIN_A, django_capture_on_commit_callbacks)
    return table


def url(at: Table, name: str = "ranking", **kwargs: object) -> str:
    return reverse(f"public:{name}", kwargs={"slug": at.round.tournament.slug, **kwargs})


def test_a_visitor_reads_the_ranking_without_an_account(running: Table, client: Client) -> None:
    response = client.get(url(running))
    assert response.status_code == 200
    body = response.content.decode()
    assert "C1" in body and "102" in body
    # It polls its file (scoring/live_files.py) every second.
    assert f'hx-get="/live/{running.round.tournament.slug}/fr-ranking.html" hx-trigger="every 1s"' in body
    # The htmx configuration that keeps a 304 from blanking the ranking.
    assert '{"code":"304","swap":false}' in body


def test_the_ranking_partial_answers_304_until_the_ranking_moves(
    running: Table, client: Client, django_capture_on_commit_callbacks
) -> None:
    first = client.get(url(running), headers={"HX-Request": "true"})
    assert first.status_code == 200 and first["ETag"]
    assert "<html" not in first.content.decode() and 'id="ranking"' in first.content.decode()
    unchanged = client.get(url(running), headers={"HX-Request": "true", "If-None-Match": first["ETag"]})
    assert unchanged.status_code == 304 and unchanged.content == b""
    enter(running, WIN_B, django_capture_on_commit_callbacks)
    moved = client.get(url(running), headers={"HX-Request": "true", "If-None-Match": first["ETag"]})
    assert moved.status_code == 200 and moved["ETag"] != first["ETag"]
    assert "142" in moved.content.decode()
    # The new partial carries its own ETag for the next poll.
    assert "If-None-Match" in moved.content.decode() and moved["ETag"].strip('"') in moved.content.decode()


def test_the_ranking_page_reads_a_few_rows_whatever_the_number_of_teams(
    running: Table, client: Client, django_assert_max_num_queries
) -> None:
    with django_assert_max_num_queries(10):
        assert client.get(url(running)).status_code == 200
    # A poll of the page's own address (a page opened before the files): through the chain.
    with django_assert_max_num_queries(3):
        assert client.get(url(running), headers={"HX-Request": "true"}).status_code == 200


def test_unknown_draft_and_private_tournaments_are_404_for_a_visitor(running: Table, client: Client) -> None:
    assert client.get("/t/no-such-tournament/").status_code == 404
    tournament = running.round.tournament
    tournament.is_public = False
    tournament.save()
    assert client.get(url(running)).status_code == 404
    assert client.get(url(running, "projector")).status_code == 404
    tournament.is_public, tournament.status = True, "draft"
    tournament.save()
    assert client.get(url(running)).status_code == 404


def test_the_director_sees_a_private_tournament_ranking(running: Table, client: Client) -> None:
    tournament = running.round.tournament
    tournament.is_public = False
    tournament.save()
    client.force_login(director_of(tournament))
    assert client.get(url(running)).status_code == 200


def test_what_a_visitor_can_send_is_a_404_or_405_never_a_500(running: Table, client: Client) -> None:
    for path in (
        url(running, "round", number=99),
        url(running, "table", number=1, table=99),
        url(running, "competitor", number=999),
        url(running, "ranking_after", number=7),
        "/t/no-such/qr.svg",
        "/t/no-such/ranking.csv",
        # Numbers past what the database columns hold.
        url(running, "round", number=10**20),
        url(running, "table", number=1, table=10**20),
        url(running, "competitor", number=10**20),
        url(running, "ranking_after", number=10**20),
    ):
        assert client.get(path).status_code == 404, path
    assert client.post(url(running)).status_code == 405
    assert client.get(url(running), headers={"HX-Request": "true", "If-None-Match": "garbage"}).status_code == 200


def test_a_round_page_shows_every_table_running_score(running: Table, client: Client) -> None:
    body = client.get(url(running, "round", number=1)).content.decode()
    assert "C1" in body and "C4" in body and "102" in body


def test_a_table_page_shows_the_partie_donne_by_donne(running: Table, client: Client) -> None:
    page = client.get(url(running, "table", number=1, table=1))
    body = page.content.decode()
    assert page.status_code == 200 and "102" in body and "60" in body
    partial = client.get(url(running, "table", number=1, table=1), headers={"HX-Request": "true"})
    again = client.get(
        url(running, "table", number=1, table=1), headers={"HX-Request": "true", "If-None-Match": partial["ETag"]}
    )
    assert again.status_code == 304


def test_a_competitor_page_lists_their_parties_with_their_opponents(running: Table, client: Client) -> None:
    body = client.get(url(running, "competitor", number=1)).content.decode()
    assert "C2" in body and "102" in body


def test_the_projector_shows_the_ranking_in_large_type_and_pages_by_itself(running: Table, client: Client) -> None:
    body = client.get(url(running, "projector")).content.decode()
    assert 'class="projector"' in body and "projector.js" in body and "C1" in body
    partial = client.get(url(running, "projector"), headers={"HX-Request": "true"})
    assert partial.status_code == 200 and "<html" not in partial.content.decode()


def test_the_qr_code_leads_to_the_public_ranking(running: Table, client: Client) -> None:
    response = client.get(url(running, "qr"))
    assert response["Content-Type"] == "image/svg+xml"
    assert response.content.lstrip().startswith(b"<svg")
    poster = client.get(url(running, "poster")).content.decode()
    assert "http://testserver" + url(running) in poster


def test_the_csv_export_opens_in_a_french_spreadsheet(running: Table, client: Client) -> None:
    tournament = running.round.tournament
    tournament.criteria = ["wins", "points"]
    tournament.save()
    response = client.get(url(running, "ranking_csv"), HTTP_ACCEPT_LANGUAGE="fr")
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    lines = text.lstrip("\ufeff").splitlines()
    assert lines[0].split(";")[0] == "Rang"
    assert lines[1].split(";")[:3] == ["1", "1", "C1"]


def test_a_team_name_is_never_a_spreadsheet_formula(running: Table, client: Client) -> None:
    tournament = running.round.tournament
    tournament.competitors.filter(number=1).update(name="=HYPERLINK(1)")
    standings_rebuild(tournament_id=tournament.pk)
    text = client.get(url(running, "ranking_csv")).content.decode("utf-8")
    assert ";'=HYPERLINK(1);" in text


def test_the_printable_ranking_has_no_polling(running: Table, client: Client) -> None:
    body = client.get(url(running, "ranking_print")).content.decode()
    assert "C1" in body and "hx-trigger" not in body


def test_the_ranking_downloads_as_a_pdf(running: Table, client: Client) -> None:
    response = client.get(url(running, "ranking_pdf"), HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-") and response.content.rstrip().endswith(b"%%EOF")
    assert 'filename="' + running.round.tournament.slug + '-classement.pdf"' in response["Content-Disposition"]
    assert "PDF" in client.get(url(running)).content.decode()


def test_a_long_ranking_fills_several_pages_every_team_printed_accents_kept_or_softened() -> None:
    from scoring.pdf import printable, ranking_pdf

    table = make_table(tables=60)
    tournament = table.round.tournament
    tournament.competitors.filter(number=1).update(name="Équipe d’Aurélie & Łukasz")
    snapshot = standings_rebuild(tournament_id=tournament.pk)
    document = ranking_pdf(tournament, snapshot, compress=False)
    assert document.count(b"/Type /Page\n") >= 3 or document.count(b"/Type /Page ") >= 3
    text = document.decode("latin-1")
    for row in snapshot.rows:
        assert f"({row['name']})" in text or row["name"] == "Équipe d’Aurélie & Łukasz", row["name"]
    # French letters print as they are; a Polish Ł loses its stroke rather than becoming a box.
    assert printable("Équipe d’Aurélie & Łukasz") == "Équipe d’Aurélie & Lukasz"


def test_a_tournament_without_a_ranking_yet_still_prints_its_pdf(client: Client) -> None:
    from scoring.pdf import ranking_pdf

    table = make_table(tables=1)
    tournament = table.round.tournament
    StandingsSnapshot.objects.filter(tournament=tournament).delete()
    response = client.get(url(table, "ranking_pdf"))
    assert response.status_code == 200 and response.content.startswith(b"%PDF-")
    text = ranking_pdf(tournament, None, compress=False).decode("latin-1")
    assert "(No ranking yet: it appears with the first results.)" in text or "Pas encore de classement" in text


def test_the_pdf_is_drawn_once_per_ranking_version(running: Table, client: Client, monkeypatch) -> None:
    from django.core.cache import cache

    from scoring import pdf

    cache.clear()
    drawn = []
    real = pdf.ranking_pdf
    monkeypatch.setattr(pdf, "ranking_pdf", lambda *args, **kwargs: drawn.append(1) or real(*args, **kwargs))
    first = client.get(url(running, "ranking_pdf")).content
    assert client.get(url(running, "ranking_pdf")).content == first and len(drawn) == 1
    # A new ranking version: drawn again.
    tournament = running.round.tournament
    standings_rebuild(tournament_id=tournament.pk)
    client.get(url(running, "ranking_pdf"))
    assert len(drawn) == 2


def test_a_version_written_in_this_process_is_polled_at_once(django_capture_on_commit_callbacks) -> None:
    # The web process keeps the polled tournament a moment (scoring/selectors/standings.py);
    # the writer's signal drops it when this process writes a newer version.
    table = make_table()
    tournament = table.round.tournament
    Tournament.objects.filter(pk=tournament.pk).update(is_public=True, status="running")
    enter(table, WIN_A, django_capture_on_commit_callbacks)
    first = standings_selectors.polled_tournament(tournament.slug)
    enter(table, WIN_B, django_capture_on_commit_callbacks)
    again = standings_selectors.polled_tournament(tournament.slug)
    assert again.standings_version == live(table).version > first.standings_version


def test_the_ranking_after_a_round_is_offered_once_the_round_is_closed(
    running: Table, client: Client, django_capture_on_commit_callbacks
) -> None:
    from rounds.services import round_close

    after = url(running, "ranking_after", number=1)
    # Round 1 in play: only the live ranking; a link to « after round 1 » shared too early leads there.
    assert "Classement après la ronde" not in client.get(url(running)).content.decode()
    early = client.get(after)
    assert early.status_code == 302 and early["Location"] == url(running)
    with django_capture_on_commit_callbacks(execute=True):
        round_close(by=director_of(running.round.tournament), round=running.round, force=True)
    body = client.get(url(running)).content.decode()
    assert "Classement après la ronde" in body and f'href="{after}"' in body
    assert client.get(after).status_code == 200
