"""The table sheet says what was entered, so that players can check it: at tarot the called
partner or « seul », the poignée, the petit au bout and the chelem of each donne; in the
correction history's one-line summary of a contrée donne, its bid."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from scoring.services import hand_submit
from tests.scoring.tables import SOUND_HANDS, director_of, make_table
from tests.scoring.test_tarot_tables import tarot_evening

pytestmark = pytest.mark.django_db


def sheet_lines(page: str) -> list[str]:
    """Each donne's line of the table sheet, as text."""
    rows = page.split('id="donne-')[1:]
    return [" ".join(html.unescape(row.split("</tr>", 1)[0]).split()) for row in rows]


def test_the_tarot_sheet_shows_the_partner_seul_poignee_petit_au_bout_and_chelem(client: Client) -> None:
    (five,) = tarot_evening("tarot_a_cinq", (5,))
    garde = {"contract": "garde", "oudlers": 2, "points": 46}
    hand_submit(table=five, raw={"taker": 2, "partner": 4, **garde})
    hand_submit(
        table=five,
        raw={
            "taker": 1,
            "partner": 1,
            **garde,
            "poignee": {"size": "simple", "by": "taker"},
            "petit_au_bout": "defence",
        },
    )
    hand_submit(
        table=five,
        raw={
            "taker": 0,
            "partner": 3,
            "contract": "garde_sans",
            "oudlers": 3,
            "points": 91,
            "chelem": {"announced": True, "made_by": "taker"},
        },
    )
    page = client.get(reverse("referee:table", args=[five.token])).content.decode()
    first, second, third = sheet_lines(page)
    assert "partenaire : C5" in first and "seul" not in first and "poignée" not in first
    assert "seul" in second and "poignée : simple, montrée par le preneur" in second
    assert "petit au bout : la défense" in second
    assert "partenaire : C4" in third and "chelem : annoncé, réussi par le preneur" in third


def test_the_history_line_of_a_contree_donne_shows_its_bid(client: Client) -> None:
    table = make_table("belote_contree")
    tournament = table.round.tournament
    hand_submit(table=table, raw=SOUND_HANDS["belote_contree"][0], author_label="C1")
    client.force_login(director_of(tournament))
    page = html.unescape(client.get(reverse("hands:history", args=[tournament.slug, table.pk])).content.decode())
    bid = SOUND_HANDS["belote_contree"][0]["bid"]
    summaries = [cell.split("</td>", 1)[0] for cell in page.split('<td class="num">1</td><td>')[1:]]
    assert summaries and all(f"{bid} " in summary for summary in summaries)
