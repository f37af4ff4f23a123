"""The palmarès: the lot each rank wins, beside the rank on the public ranking, the
projector, the printed page, the PDF and the CSV (a "Lot" column), once the director has
recorded lots; a shared rank wins the lots of the places it holds (tournaments/palmares.py)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from rounds.services import round_close
from scoring.exports import ranking_csv
from scoring.pdf import ranking_pdf
from scoring.selectors import standings as standings_selectors
from scoring.services import hand_submit
from scoring.standings import standings_rebuild
from tests.scoring.tables import director_of, make_table
from tournaments import services, treasury
from tournaments.models import Competitor, Round, Table, Tournament
from tournaments.palmares import Palmares, lots_text

pytestmark = pytest.mark.django_db

WIN_A = {"taker": "A", "contract": "hearts", "points": {"A": 102, "B": 60}}


@pytest.fixture
def played(django_capture_on_commit_callbacks) -> Table:
    """Two tables of round 1; table 1 played one donne (C1 ahead of C2, C3 and C4 level)."""
    table = make_table(tables=2)
    with django_capture_on_commit_callbacks(execute=True):
        hand_submit(table=table, raw=WIN_A)
    return table


def with_lots(tournament: Tournament, *, final: bool = True) -> None:
    """Lots for ranks 1 to 3; with `final`, the round closed and the tournament finished
    (the lots show beside the final ranking only)."""
    director = director_of(tournament)
    services.prize_add(by=director, tournament=tournament, rank_from=1, text="Un jambon", value="60")
    services.prize_add(by=director, tournament=tournament, rank_from=2, rank_to=3, text="Un saucisson")
    if final:
        round_close(by=director, round=Round.objects.get(tournament=tournament, number=1), force=True)
        services.tournament_set_status(by=director, tournament=tournament, status="finished")
        tournament.refresh_from_db()


def test_a_ranking_in_play_promises_no_lot_anywhere(played: Table, client: Client) -> None:
    tournament = played.round.tournament
    with_lots(tournament, final=False)
    for name in ("ranking", "projector"):
        body = client.get(url(tournament, name)).content.decode()
        assert "prize-lot" not in body and "Un jambon" not in body
    header = client.get(url(tournament, "ranking_csv")).content.decode("utf-8").lstrip("\ufeff").splitlines()[0]
    assert "Lot" not in header.split(";")
    assert b"Un jambon" not in client.get(url(tournament, "ranking_pdf")).content


def url(tournament: Tournament, name: str = "ranking") -> str:
    return reverse(f"public:{name}", kwargs={"slug": tournament.slug})


def test_without_lots_the_ranking_and_its_files_are_as_before(played: Table, client: Client) -> None:
    tournament = played.round.tournament
    assert "prize-lot" not in client.get(url(tournament)).content.decode()
    header = client.get(url(tournament, "ranking_csv")).content.decode("utf-8").lstrip("\ufeff").splitlines()[0]
    assert "Lot" not in header.split(";")


def test_each_rank_shows_its_lot_on_the_ranking_page(played: Table, client: Client) -> None:
    tournament = played.round.tournament
    snapshot = standings_rebuild(tournament_id=tournament.pk)
    with_lots(tournament)
    body = client.get(url(tournament)).content.decode()
    assert body.count('class="prize-lot"') == sum(1 for row in snapshot.rows if row["rank"] <= 3)
    first = next(row for row in snapshot.rows if row["rank"] == 1)
    row_html = body.split(f'href="/t/{tournament.slug}/c/{first["number"]}/">')[1].split("</tr>")[0]
    assert "Un jambon" in row_html


def test_a_shared_rank_shows_the_lots_of_the_places_it_holds(played: Table, client: Client) -> None:
    tournament = played.round.tournament
    snapshot = standings_rebuild(tournament_id=tournament.pk)
    ranks = [row["rank"] for row in snapshot.rows]
    shared = next(rank for rank in ranks if ranks.count(rank) > 1 and rank <= 3)
    with_lots(tournament)
    lines = ranking_csv(snapshot, treasury.palmares_shown(tournament)).lstrip("\ufeff").splitlines()
    lots = {line.split(";")[-1] for line in lines[1:] if line.split(";")[0] == str(shared)}
    # The ranks tied hold places `shared` to `shared + count - 1`: their lots, shared
    # unless every place held wins the same one (places 2 and 3: a saucisson each).
    held = Palmares(lots=list(tournament.prizes.order_by("rank_from"))).award(shared, ranks.count(shared))
    assert held is not None and lots == {lots_text(held)}
    if shared == 2 and ranks.count(shared) == 2:
        assert lots == {"Un saucisson"}


def test_the_lots_added_after_the_ranking_was_shown_appear_at_the_next_poll(played: Table, client: Client) -> None:
    tournament = played.round.tournament
    first = client.get(url(tournament), HTTP_HX_REQUEST="true")
    etag = first["ETag"]
    assert client.get(url(tournament), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag).status_code == 304
    with_lots(tournament)
    # Each web process keeps a polled tournament a moment (scoring/selectors/standings.py).
    standings_selectors.forget_polled(tournament.slug)
    again = client.get(url(tournament), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200 and "Un jambon" in again.content.decode()


def test_the_projector_shows_the_lot_beside_the_rank(played: Table, client: Client) -> None:
    tournament = played.round.tournament
    with_lots(tournament)
    body = client.get(url(tournament, "projector")).content.decode()
    assert "Un jambon" in body and "Un saucisson" in body


def test_the_csv_has_a_lot_column(played: Table, client: Client) -> None:
    tournament = played.round.tournament
    with_lots(tournament)
    text = client.get(url(tournament, "ranking_csv"), HTTP_ACCEPT_LANGUAGE="fr").content.decode("utf-8")
    lines = text.lstrip("\ufeff").splitlines()
    assert lines[0].split(";")[-1] == "Lot"
    by_rank = {int(line.split(";")[0]): line.split(";")[-1] for line in lines[1:]}
    assert by_rank[1] == "Un jambon"
    assert all(lot == "" for rank, lot in by_rank.items() if rank > 3)


def test_the_pdf_prints_the_lot_under_the_name(played: Table) -> None:
    tournament = played.round.tournament
    snapshot = standings_rebuild(tournament_id=tournament.pk)
    with_lots(tournament)
    text = ranking_pdf(tournament, snapshot, compress=False, prizes=treasury.palmares_shown(tournament)).decode(
        "latin-1"
    )
    assert "(Lot : Un jambon)" in text and "(Lot : Un saucisson)" in text


def test_the_pdf_download_follows_a_lot_added_after_it_was_drawn(played: Table, client: Client, monkeypatch) -> None:
    from scoring import pdf

    tournament = played.round.tournament
    drawn: list[object] = []
    real = pdf.ranking_pdf
    monkeypatch.setattr(pdf, "ranking_pdf", lambda *a, **k: drawn.append(k.get("prizes")) or real(*a, **k))
    client.get(url(tournament, "ranking_pdf"))
    with_lots(tournament)
    client.get(url(tournament, "ranking_pdf"))
    assert [len(getattr(prizes, "lots", ())) for prizes in drawn] == [0, 2]


def with_money(tournament: Tournament) -> None:
    """A fixed pool of 100 € split 50 / 30 / 20 € for places 1 to 3, and a lot for place 1."""
    director = director_of(tournament)
    services.prize_money_set(
        by=director, tournament=tournament, pool_kind="fixed", pool_value="100", split_kind="amount",
        split=["50", "30", "20"],
    )  # fmt: skip
    services.prize_add(by=director, tournament=tournament, rank_from=1, text="Un jambon")


def test_the_final_ranking_shows_the_prize_money_and_a_tie_shares_the_money_of_its_places(
    played: Table, client: Client
) -> None:
    tournament = played.round.tournament
    snapshot = standings_rebuild(tournament_id=tournament.pk)
    # After one donne at table 1: C1 1st, C2 2nd, C3 and C4 tied 3rd (places 3 and 4).
    assert [(row["number"], row["rank"]) for row in snapshot.rows] == [(1, 1), (2, 2), (3, 3), (4, 3)]
    with_money(tournament)
    body = client.get(url(tournament)).content.decode()
    assert "prize-money" not in body
    director = director_of(tournament)
    round_close(by=director, round=Round.objects.get(tournament=tournament, number=1), force=True)
    services.tournament_set_status(by=director, tournament=tournament, status="finished")
    tournament.refresh_from_db()
    snapshot = standings_rebuild(tournament_id=tournament.pk)
    standings_selectors.forget_polled(tournament.slug)
    body = client.get(url(tournament)).content.decode()

    def marks(number: int) -> str:
        row = body.split(f'href="/t/{tournament.slug}/c/{number}/">')[1].split("</tr>")[0]
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row.split("</td>")[0])).strip()

    assert marks(1) == "C1 Gains : 50 € Lot : Un jambon"
    assert marks(2) == "C2 Gains : 30 €"
    # The two tied 3rd hold places 3 and 4: the 20 € of place 3, half each.
    assert marks(3) == marks(4).replace("C4", "C3") == "C3 Gains : 10 €"

    lines = client.get(url(tournament, "ranking_csv")).content.decode("utf-8").lstrip("\ufeff").splitlines()
    assert lines[0].split(";")[-2:] == ["Gains (€)", "Lot"]
    assert [line.split(";")[-2:] for line in lines[1:]] == [
        ["50,00", "Un jambon"],
        ["30,00", ""],
        ["10,00", ""],
        ["10,00", ""],
    ]
    text = ranking_pdf(tournament, snapshot, compress=False, prizes=treasury.palmares_shown(tournament))
    # The euro sign is byte 0x80 of the PDF's standard fonts (cp1252), written \200.
    assert b"(Gains : 50 \\200)" in text and b"(Gains : 10 \\200)" in text
    soiree = client.get(
        reverse("soiree:page", args=[Competitor.objects.get(tournament=tournament, number=4).link_token])
    )
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", soiree.content.decode()))
    assert "Classement final : 3 Gains : 10 €" in words and "Lot" not in words.split("Classement final")[1][:60]
