"""A tournament director's Saturday night, walked in Debian's Chromium in one scenario.

A belote concours of 24 teams where every donne needs the other side's confirmation: 23
teams are checked in, one is not there yet. The director (a laptop) draws round 1; the
draw projector (1280×720) turns its pages by itself; a referee on a phone enters a donne
that waits for the other side, which the dashboard shows until it is confirmed; the 24th
team arrives and is checked in for round 2; the rest of round 1 is played, a donne of
table 2 is corrected and read back in words in the history; round 1 is closed and round
2 drawn with the late team seated; a 360 px phone reads the ranking mid-round 2. Each
step leaves a screenshot in test-results/screenshots/director-night-*.png.
"""

from __future__ import annotations

import pytest

import rounds.services
from scoring.models import Hand, HandRevision, TableResult
from scoring.services import hand_confirm, hand_submit
from tests.e2e.conftest import screenshot
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.tournaments.conftest import new_tournament
from tournaments import services
from tournaments.models import Competitor, Round, Seat, Table, Tournament

SEED = 20261205
DONNES = 4
LAPTOP = {"width": 1280, "height": 800}
PASSWORD = "secret-pass-123"
# 24 teams: a first and a second player's family name each; the last one comes late.
FAMILIES = [
    ("Alibert", "Bonnet"), ("Castan", "Delmas"), ("Escande", "Fabre"), ("Gineste", "Huc"),
    ("Issaly", "Jouve"), ("Lacombe", "Marty"), ("Nègre", "Olier"), ("Pagès", "Quintard"),
    ("Rouquette", "Soulié"), ("Teulier", "Vaissière"), ("Vidal", "Bessière"), ("Cayla", "Roques"),
    ("Albouy", "Bru"), ("Carrière", "Durand"), ("Estival", "Foulquier"), ("Gaubert", "Hermet"),
    ("Izard", "Julien"), ("Lagarrigue", "Maury"), ("Nayrolles", "Ouradou"), ("Puech", "Rigal"),
    ("Sabatier", "Tarroux"), ("Valette", "Bouloc"), ("Calmels", "Déléris"), ("Vigouroux", "Ladoux"),
]  # fmt: skip
LATE = "Vigouroux – Ladoux"


def saturday_night() -> tuple[Tournament, list[Competitor]]:
    """The club, its director and the concours of 24 teams, 23 of them checked in."""
    club = ClubFactory(name="Amicale belote de Millau", slug="amicale-millau")
    director = UserFactory(username="directeur-samedi")
    club.organisers.add(director)
    tournament = new_tournament(
        club, director, name="Concours du samedi soir", confirmation_required=True, end_value=DONNES
    )
    services.tournament_set_status(by=director, tournament=tournament, status="registration")
    teams = []
    for index, (first, second) in enumerate(FAMILIES):
        players = [
            PlayerFactory(club=club, last_name=first, first_name="Jean"),
            PlayerFactory(club=club, last_name=second, first_name="Marie"),
        ]
        present = index < len(FAMILIES) - 1
        teams.append(
            services.competitor_register(by=director, tournament=tournament, players=players, checked_in=present)
        )
    services.tournament_set_status(by=director, tournament=tournament, status="running")
    tournament.refresh_from_db()
    assert teams[-1].name == LATE and teams[-1].status == Competitor.Status.REGISTERED
    return tournament, teams


def log_in(page, base: str) -> None:
    page.goto(base + "/login/")
    page.fill("input[name=username]", "directeur-samedi")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state()


def tap(page, field: str, label: str) -> None:
    page.locator(f"#f-{field} label.chip", has_text=label).first.click()


def donne(number: int, table_number: int, taker: str = "") -> dict[str, object]:
    """A sound belote donne: takers alternate (unless `taker` says), the contract is made."""
    taker = taker or "AB"[number % 2]
    made = 82 + 10 * ((number + table_number) % 6)
    points = {taker: made, "B" if taker == "A" else "A": 162 - made}
    return {"taker": taker, "contract": ["hearts", "spades", "diamonds", "clubs"][number % 4], "points": points}


def play_and_confirm(table: Table, first: int, last: int, taker: str = "") -> None:
    """Side A's referee enters donnes first..last and a player of side B confirms each."""
    for number in range(first, last + 1):
        stored = hand_submit(table=table, raw=donne(number, table.number, taker), entered_side=0).hand
        assert stored is not None and stored.status == Hand.Status.PENDING
        hand_confirm(hand=stored, side=1)


def table_numbers_shown(page) -> list[int]:
    texts = page.evaluate(
        "[...document.querySelectorAll('.draw-tables > li')].filter(t => !t.hidden)"
        ".map(t => t.querySelector('.draw-number').innerText)"
    )
    return [int(text.split()[-1]) for text in texts]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_directors_saturday_night_from_the_draw_to_the_ranking_on_a_phone(
    browser, live_server, monkeypatch, settings
) -> None:
    # The address the phones use: the table links and codes are shown, not a warning.
    settings.ATOUT_PUBLIC_URL = live_server.url
    # Every draw of the night, from the dashboard too, takes the same seed: the same seats.
    monkeypatch.setattr(rounds.services, "_new_seed", lambda: SEED)
    tournament, teams = saturday_night()
    base = live_server.url
    dashboard_url = f"{base}/manage/tournament/{tournament.pk}/"

    # -- 1. The director draws round 1 from the dashboard. -----------------------------
    director = browser.new_context(viewport=LAPTOP, locale="fr-FR").new_page()
    director.set_default_timeout(15_000)
    log_in(director, base)
    director.goto(dashboard_url)
    assert "23 au pointage" in director.locator("#competitors").inner_text()
    screenshot(director, "director-night-01-dashboard-before-the-draw")
    director.get_by_role("button", name="Tirage de la ronde 1", exact=True).click()
    director.get_by_text("Ronde 1 tirée.").wait_for()
    # 23 teams present: 11 tables and one team exempt.
    assert director.locator("#round table.tables tbody tr").count() == 11
    assert "Exempt" in director.locator("#round").inner_text()
    round_1 = Round.objects.get(tournament=tournament, number=1)
    assert round_1.seed == SEED
    screenshot(director, "director-night-02-round-1-drawn")

    # -- 2. The draw projector turns its pages by itself. ------------------------------
    projector = browser.new_context(viewport={"width": 1280, "height": 720}, locale="fr-FR").new_page()
    projector.clock.install()
    projector.goto(f"{base}/t/{tournament.slug}/round/1/draw/")
    first_page = table_numbers_shown(projector)
    assert first_page[0] == 1 and 0 < len(first_page) < 11, "the first screen shows part of the draw"
    for table in projector.locator(".draw-tables > li:not([hidden])").all():
        box = table.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 720, "a table of the first page is cut off"
    assert projector.locator(".projector-page").inner_text().startswith("Page 1 /")
    pages = int(projector.locator(".projector-page").inner_text().split("/")[-1])
    screenshot(projector, "director-night-03-draw-projector-page-1")
    seen = set(first_page)
    for number in range(2, pages + 1):
        projector.clock.run_for(10_500)
        projector.wait_for_function(
            f"() => document.querySelector('.projector-page').textContent.startsWith('Page {number} /')"
        )
        shown = table_numbers_shown(projector)
        assert not seen & set(shown), "a later page shows other tables than the pages before"
        seen.update(shown)
        screenshot(projector, f"director-night-04-draw-projector-page-{number}")
    assert seen == set(range(1, 12)), "every table shows on some page"
    projector.context.close()

    # -- 3. A donne waits for the other side's confirmation. ---------------------------
    table_1 = Table.objects.get(round=round_1, number=1)
    side_a, side_b = (seat.competitor.name for seat in table_1.seats.order_by("side"))
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="fr-FR", device_scale_factor=2, has_touch=True
    ).new_page()
    phone.set_default_timeout(15_000)
    phone.goto(f"{base}/r/{table_1.token}/")
    # Where each team sits, in French words.
    assert "(Nord–Sud)" in phone.locator("main").inner_text() and "(Est–Ouest)" in phone.locator("main").inner_text()
    tap(phone, "entered_side", side_a)
    tap(phone, "taker", side_a)
    tap(phone, "contract", "cœur")
    phone.locator("#id_points_taker").fill("102")
    send = phone.locator("#hand-form button[type=submit]")
    send.scroll_into_view_if_needed()
    send.click()
    phone.get_by_text("La donne 1 est enregistrée.").wait_for()
    confirm = phone.get_by_role("button", name=f"Confirmer pour {side_b}")
    assert confirm.count() == 1 and phone.get_by_role("button", name=f"Confirmer pour {side_a}").count() == 0
    # Right under the summary of the donne just sent.
    assert phone.locator("#entry .notice").evaluate("el => el.nextElementSibling.id") == "pending"
    assert confirm.is_visible()
    screenshot(phone, "director-night-05-referee-donne-waiting")

    director.goto(dashboard_url)
    waiting = director.locator("#round .pending-count")
    assert waiting.inner_text().startswith("1 donne à confirmer (table 1)")
    row_1 = director.locator("#round table.tables tbody tr").first
    assert "1 donne à confirmer" in row_1.inner_text()
    screenshot(director, "director-night-06-dashboard-donne-to-confirm")

    confirm.click()
    phone.locator("#pending").get_by_text("La donne 1 est confirmée.").wait_for()
    screenshot(phone, "director-night-07-referee-donne-confirmed")
    director.goto(dashboard_url)
    assert director.locator("#round .pending-count").count() == 0
    assert "à confirmer" not in director.locator("#round").inner_text()
    assert "1 donne jouée" in director.locator("#round table.tables tbody tr").first.inner_text()

    # -- 4. The 24th team arrives during round 1. ------------------------------------
    late_row = director.locator("#competitors tbody tr", has_text=LATE)
    late_row.get_by_role("button", name="Pointer", exact=True).click()
    director.wait_for_function(
        "() => [...document.querySelectorAll('#competitors tbody tr')]"
        f".some(r => r.innerText.includes('{LATE}') && r.querySelector('button[aria-pressed=true]'))"
    )
    assert "arrive à la ronde 2" in late_row.inner_text()
    assert "24 au pointage" in director.locator("#competitors").inner_text()
    late = Competitor.objects.get(pk=teams[-1].pk)
    assert late.status == Competitor.Status.CHECKED_IN and late.joined_round == 2
    late_row.scroll_into_view_if_needed()
    screenshot(director, "director-night-08-late-team-checked-in")

    # -- 5. The rest of round 1, then a correction at table 2. -----------------------
    play_and_confirm(table_1, 2, DONNES)
    for table in Table.objects.filter(round=round_1).exclude(pk=table_1.pk).order_by("number"):
        play_and_confirm(table, 1, DONNES)
    assert TableResult.objects.filter(table__round=round_1, finished=True).count() == 11

    director.goto(dashboard_url)
    director.locator("#round").get_by_role("link", name="Donnes : corriger, supprimer, historique").click()
    table_2_row = director.locator("table.data tbody tr").nth(1)
    assert table_2_row.locator("td").first.inner_text() == "2"
    table_2_row.get_by_role("link", name="Donnes", exact=True).click()
    director.get_by_role("link", name="Corriger").first.click()
    taker_points = int(director.locator("#id_points_taker").input_value())
    director.locator("#id_points_taker").fill(str(taker_points - 10))
    director.locator("#id_points_defence").fill(str(162 - taker_points + 10))
    director.locator("[name=reason]").fill("Points mal recopiés : 10 de trop au preneur")
    screenshot(director, "director-night-09-correcting-table-2")
    director.get_by_role("button", name="Enregistrer la correction").click()
    director.get_by_text("La donne 1 est corrigée.").wait_for()
    screenshot(director, "director-night-10-table-2-corrected")
    director.get_by_role("link", name="Historique de toutes les modifications").click()
    director.wait_for_load_state()
    correction = director.locator(".revision.action-update").first
    words = correction.inner_text()
    assert words.startswith("Donne 1 : Corrigée")
    assert "Points mal recopiés : 10 de trop au preneur" in words
    assert f"{taker_points - 10}" in words and f"{taker_points}" in words
    # Said in French words, never the stored code of the donne.
    for code in ("{", "'contract'", "hearts", "taker", "points_taker"):
        assert code not in words, f"the history shows {code!r}"
    assert "Contrat\n♠ pique" in words and "Preneur" in words
    # The confirmation of each donne names the team that confirmed it.
    table_2 = Table.objects.get(round=round_1, number=2)
    confirmer = table_2.seats.get(side=1).competitor.name
    confirmation = director.locator(".revision.action-confirm").last.inner_text()
    assert confirmation.startswith("Donne 1 : Confirmée") and f"Confirmée par\n{confirmer}" in confirmation
    screenshot(director, "director-night-11-history-of-table-2")
    assert HandRevision.objects.filter(table__round=round_1, table__number=2, action="update").count() == 1

    # -- 6. Round 1 closed, round 2 drawn: the late team is seated. ------------------
    director.goto(dashboard_url)
    director.get_by_role("button", name="Clore la ronde 1", exact=True).click()
    director.wait_for_load_state()
    director.get_by_role("button", name="Tirage de la ronde 2", exact=True).click()
    director.get_by_text("Ronde 2 tirée.").wait_for()
    assert director.locator("#round h2").inner_text().startswith("Ronde 2")
    assert director.locator("#round table.tables tbody tr").count() == 12
    assert LATE in director.locator("#round table.tables").inner_text()
    screenshot(director, "director-night-12-round-2-drawn")
    round_2 = Round.objects.get(tournament=tournament, number=2)
    late_seat = Seat.objects.select_related("table").get(round=round_2, competitor=late)

    # -- 7. The ranking on a 360 px phone, mid-round 2. ------------------------------
    # The late team's partie is over (it lost), another table has one donne counted.
    late_side = "AB"[late_seat.side]
    other_side = "B" if late_side == "A" else "A"
    play_and_confirm(late_seat.table, 1, DONNES, taker=other_side)
    other = Table.objects.filter(round=round_2).exclude(pk=late_seat.table_id).order_by("number").first()
    assert other is not None
    play_and_confirm(other, 1, 1)
    small = browser.new_context(viewport={"width": 360, "height": 780}, locale="fr-FR", has_touch=True).new_page()
    small.goto(f"{base}/t/{tournament.slug}/")
    small.locator("#ranking tbody tr").nth(23).wait_for()
    assert small.evaluate("() => document.documentElement.scrollWidth") <= 360
    assert small.locator("#ranking .ranking-progress").inner_text() == "Ronde 1 terminée, ronde 2 en cours"
    headers = [h.strip() for h in small.locator("#ranking thead th").all_inner_texts()]
    played = headers.index("Jouées")
    rows = small.locator("#ranking tbody tr")
    late_ranked = rows.filter(has=small.get_by_role("link", name=LATE, exact=True))
    assert rows.first.get_by_role("link").inner_text() != LATE
    assert late_ranked.locator("td").nth(played).inner_text() == "1"
    assert small.locator("#ranking .in-play", has_text="en cours, 1 donne").count() == 2
    screenshot(small, "director-night-13-ranking-on-a-360-phone")
    small.context.close()
    phone.context.close()
    director.context.close()
