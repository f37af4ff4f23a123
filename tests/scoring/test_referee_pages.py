"""The referee's page through the test client: a whole partie of each game, every kind of
bad hand shown back beside its field (in French), htmx swaps, replays and conflicts,
undo and correction, confirmation by the other side."""

from __future__ import annotations

import html
import re
import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Hand, TableResult
from tests.scoring.tables import make_table, numbers

pytestmark = pytest.mark.django_db

# One sound entry per game, as the form sends it, and what it scores.
ENTRIES: dict[str, tuple[dict[str, str], list[int]]] = {
    "belote_classique": ({"taker": "A", "contract": "hearts", "points_taker": "102"}, [102, 60]),
    "belote_moderne": ({"taker": "B", "contract": "tout_atout", "points_taker": "158", "belote_B": "2"}, [300, 594]),
    "belote_a_trois": (
        {"taker": "0", "contract": "spades", "points_0": "80", "points_1": "50", "points_2": "20"},
        [80, 50, 20],
    ),
    "tarot_a_trois": ({"taker": "0", "contract": "garde", "oudlers": "2", "points": "45,5"}, [120, -60, -60]),
}


def post(client: Client, table, data: dict[str, str], *, number: int, key: str | None = None, **headers: Any):
    body = {"mode": "new", "expected_number": str(number), "idempotency_key": key or uuid.uuid4().hex, **data}
    return client.post(reverse("referee:submit", args=[table.token]), body, **headers)


def beside(page: str, field: str) -> str:
    """The text of the error slot beside `field` (empty when the field is fine)."""
    found = re.search(rf'<div class="field-errors[^"]*" id="err-{re.escape(field)}"[^>]*>(.*?)</div>', page, re.S)
    assert found, f"no error slot beside {field}"
    return html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).strip()


def text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.mark.parametrize("game", sorted(ENTRIES))
def test_a_whole_partie_of_each_game_is_entered_from_the_page_and_ends_by_itself(client: Client, game: str) -> None:
    table = make_table(game, end_value=3)
    entry, scores = ENTRIES[game]
    page = client.get(reverse("referee:table", args=[table.token]))
    assert page.status_code == 200
    assert "Donne 1" in text(page) and 'id="hand-form"' in text(page)
    for number in (1, 2, 3):
        response = post(client, table, entry, number=number)
        assert response.status_code == 302, beside(text(response), "__all__")
    assert [hand.scores for hand in Hand.objects.filter(table=table)] == [scores] * 3
    result = TableResult.objects.get(table=table)
    assert result.finished and result.totals == [3 * score for score in scores]
    page = text(client.get(reverse("referee:table", args=[table.token])))
    winner = "C1" if scores[0] == max(scores) else "C2"
    assert f"Partie terminée : {winner} gagne." in page
    assert 'id="hand-form"' not in page
    refused = text(post(client, table, entry, number=4))
    assert "La partie est terminée : aucune donne ne peut suivre la donne 3." in refused
    assert numbers(table) == [1, 2, 3]


@pytest.mark.parametrize(
    ("game", "entry", "field", "message"),
    [
        (
            "belote_classique",
            {"taker": "A", "contract": "hearts", "points_taker": "100", "points_defence": "70"},
            "points_taker",
            "doivent faire 162 en tout",
        ),
        ("belote_classique", {"taker": "A", "contract": "hearts", "points_taker": "161"}, "points_taker", "161"),
        ("belote_classique", {"contract": "hearts", "points_taker": "100"}, "taker", "obligatoire"),
        ("belote_classique", {"taker": "A", "contract": "hearts", "points_taker": "abc"}, "points_taker", "entier"),
        (
            "belote_classique",
            {"taker": "A", "contract": "hearts", "points_taker": "100", "capot": "B"},
            "capot",
            "capot",
        ),
        (
            "belote_classique",
            {"taker": "A", "contract": "hearts", "points_taker": "100", "ann_A_0_kind": "carre", "ann_A_0_high": "7"},
            "ann_A_0_high",
            "carré de 7",
        ),
        (
            "belote_moderne",
            {"taker": "A", "contract": "sans_atout", "points_taker": "80", "belote_A": "1"},
            "belote_A",
            "sans atout",
        ),
        (
            "belote_a_trois",
            {"taker": "0", "contract": "spades", "points_0": "150", "points_1": "150", "points_2": "20"},
            "points_2",
            "95",
        ),
        (
            "belote_a_trois",
            {"taker": "0", "contract": "spades", "points_0": "80", "points_2": "20"},
            "points_1",
            "obligatoire",
        ),
        (
            "belote_a_trois",
            {"taker": "0", "contract": "spades", "points_0": "80", "points_1": "50", "points_2": "20", "capot": "2"},
            "capot",
            "capot",
        ),
        ("tarot_a_trois", {"taker": "0", "contract": "garde", "oudlers": "0", "points": "90"}, "points", "bouts"),
        ("tarot_a_trois", {"taker": "0", "contract": "garde", "oudlers": "2", "points": "45,3"}, "points", "demi"),
        ("tarot_a_trois", {"taker": "0", "contract": "garde", "oudlers": "2", "points": "x"}, "points", "chiffres"),
        (
            "tarot_a_trois",
            {"taker": "0", "contract": "garde", "oudlers": "0", "points": "50", "petit_au_bout": "taker"},
            "petit_au_bout",
            "bout",
        ),
        (
            "tarot_a_trois",
            {"taker": "0", "contract": "garde", "oudlers": "2", "points": "50", "chelem_made_by": "taker"},
            "chelem_made_by",
            "87",
        ),
    ],
)
def test_a_bad_hand_comes_back_as_typed_with_its_reason_beside_the_field(
    client: Client, game: str, entry: dict[str, str], field: str, message: str
) -> None:
    table = make_table(game)
    response = post(client, table, entry, number=1)
    assert response.status_code == 200
    page = text(response)
    assert message.lower() in beside(page, field).lower()
    # What was typed is still there, to be fixed rather than typed again.
    for name, value in entry.items():
        if name.startswith(("points", "ann_")) and not name.endswith(("kind", "high", "suit")):
            assert f'value="{value}"' in page
    assert not Hand.objects.filter(table=table).exists()


def test_the_engine_checks_as_the_referee_types_without_nagging_about_empty_fields(client: Client) -> None:
    table = make_table()
    response = client.post(
        reverse("referee:validate", args=[table.token]),
        {"mode": "new", "expected_number": "1", "contract": "hearts", "points_taker": "161"},
        HTTP_HX_REQUEST="true",
    )
    page = text(response)
    assert 'id="err-points_taker" hx-swap-oob="true"' in page
    assert "161" in beside(page, "points_taker")
    # No taker yet: that is said on sending, not while typing.
    assert beside(page, "taker") == ""
    sound = client.post(
        reverse("referee:validate", args=[table.token]),
        {"mode": "new", "expected_number": "1", "taker": "A", "contract": "hearts", "points_taker": "102"},
        HTTP_HX_REQUEST="true",
    )
    assert "Si vous envoyez : C1 102 · C2 60." in text(sound)
    assert not Hand.objects.filter(table=table).exists()


def test_with_htmx_the_form_comes_back_fresh_and_the_score_and_sheet_follow_out_of_band(client: Client) -> None:
    table = make_table()
    response = post(client, table, ENTRIES["belote_classique"][0], number=1, HTTP_HX_REQUEST="true")
    page = text(response)
    assert response.status_code == 200
    assert page.lstrip().startswith('<section id="entry"')
    assert '<section id="score" class="score" hx-swap-oob="true"' in page
    assert 'id="sheet" class="sheet" hx-swap-oob="true"' in page
    assert "La donne 1 est enregistrée." in page and "Donne 2" in page
    assert 'name="expected_number" value="2"' in page


def test_a_resent_entry_is_stored_once(client: Client) -> None:
    table = make_table()
    entry = ENTRIES["belote_classique"][0]
    post(client, table, entry, number=1, key="same-entry")
    again = post(client, table, entry, number=1, key="same-entry", follow=True)
    assert "La donne 1 est enregistrée." in text(again)
    assert numbers(table) == [1]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("fr", "La clé de cette saisie a déjà servi pour la donne 1, avec une autre donne"),
        ("en", "This entry's key was already used for donne 1, with another hand: nothing was stored."),
    ],
)
def test_a_key_sent_again_with_another_hand_is_refused_naming_the_donne_and_the_entry_kept(
    client: Client, language: str, said: str
) -> None:
    # A queued entry edited after its first send went through: the resend is not a replay.
    table = make_table()
    post(client, table, ENTRIES["belote_classique"][0], number=1, key="k-edited")
    edited = {"taker": "B", "contract": "clubs", "points_taker": "100"}
    response = post(client, table, edited, number=1, key="k-edited", HTTP_HX_REQUEST="true",
                    HTTP_ACCEPT_LANGUAGE=language)  # fmt: skip
    page = text(response)
    assert response.status_code == 200 and said in page
    # Kept as typed, aimed at the next donne, under a new key so that it can be sent.
    assert 'value="100"' in page and 'name="expected_number" value="2"' in page
    assert 'name="idempotency_key"' in page and 'value="k-edited"' not in page
    assert numbers(table) == [1]
    assert Hand.objects.get(table=table).raw["taker"] == "A"


def test_a_queued_entry_whose_donne_was_taken_back_since_is_refused_and_kept_under_a_new_key(client: Client) -> None:
    table = make_table()
    entry = ENTRIES["belote_classique"][0]
    post(client, table, entry, number=1, key="k-queued")
    client.post(reverse("referee:undo", args=[table.token]), {"number": "1"})
    again = text(post(client, table, entry, number=1, key="k-queued", HTTP_HX_REQUEST="true"))
    assert "Cette saisie a été enregistrée comme donne 1, puis supprimée de la feuille" in again
    assert 'value="102"' in again and 'value="k-queued"' not in again
    assert numbers(table) == []


def test_a_donne_entered_from_another_phone_first_is_shown_and_the_entry_kept(client: Client) -> None:
    table = make_table()
    post(client, table, ENTRIES["belote_classique"][0], number=1)
    mine = {"taker": "B", "contract": "clubs", "points_taker": "100"}
    page = text(post(client, table, mine, number=1, HTTP_HX_REQUEST="true"))
    assert "La donne 1 a déjà été saisie depuis un autre téléphone" in page
    assert "C1 102 · C2 60" in page
    assert 'value="100"' in page and 'name="expected_number" value="2"' in page
    assert numbers(table) == [1]


def test_the_referee_takes_back_and_corrects_the_last_donne_from_the_page(client: Client) -> None:
    table = make_table()
    entry = ENTRIES["belote_classique"][0]
    post(client, table, entry, number=1)
    post(client, table, entry, number=2)
    undo = client.post(reverse("referee:undo", args=[table.token]), {"number": "2"}, follow=True)
    assert "La donne 2 est annulée." in text(undo)
    assert numbers(table) == [1]
    form = text(client.get(reverse("referee:correct_last", args=[table.token])))
    assert "Corriger la donne 1" in form and 'value="102"' in form
    corrected = client.post(
        reverse("referee:correct_last", args=[table.token]),
        {"mode": "correct", "expected_number": "1", "taker": "A", "contract": "hearts", "points_taker": "72"},
        follow=True,
    )
    assert "La donne 1 est corrigée." in text(corrected)
    assert Hand.objects.get(table=table).scores == [0, 162]


def test_a_correction_of_the_last_donne_that_breaks_a_rule_keeps_the_donne_and_the_typing(client: Client) -> None:
    table = make_table()
    post(client, table, ENTRIES["belote_classique"][0], number=1)
    response = client.post(
        reverse("referee:correct_last", args=[table.token]),
        {"mode": "correct", "expected_number": "1", "taker": "A", "contract": "hearts", "points_taker": "1"},
    )
    assert "1" in beside(text(response), "points_taker") and 'value="1"' in text(response)
    assert Hand.objects.get(table=table).scores == [102, 60]


def test_with_confirmation_the_other_side_confirms_on_the_same_page(client: Client) -> None:
    table = make_table(confirmation=True)
    entry = ENTRIES["belote_classique"][0]
    unsaid = post(client, table, entry, number=1)
    assert "camp" in beside(text(unsaid), "entered_side")
    post(client, table, {**entry, "entered_side": "0"}, number=1)
    page = text(client.get(reverse("referee:table", args=[table.token])))
    assert "à confirmer" in page and "1 donne attend sa confirmation" in page
    assert "Confirmer pour C2" in page and "Confirmer pour C1" not in page
    assert TableResult.objects.get(table=table).totals == [0, 0]
    confirm = reverse("referee:confirm", args=[table.token, 1])
    same = client.post(confirm, {"side": "0"}, follow=True)
    assert "pas le camp qui l’a saisie" in text(same)
    done = client.post(confirm, {"side": "1"}, follow=True)
    assert "La donne 1 est confirmée." in text(done)
    assert TableResult.objects.get(table=table).totals == [102, 60]


def test_the_page_says_where_each_side_sits_in_words_not_the_draws_code(client: Client) -> None:
    table = make_table()
    # As the draw seats two teams: North-South and East-West, stored as codes.
    for seat in table.seats.all():
        seat.position = "NS" if seat.side == 0 else "EW"
        seat.save(update_fields=["position"])
    page = text(client.get(reverse("referee:table", args=[table.token])))
    assert "(Nord–Sud)" in page and "(Est–Ouest)" in page
    assert "(NS)" not in page and "(EW)" not in page
    client.cookies["django_language"] = "en"
    english = text(client.get(reverse("referee:table", args=[table.token])))
    assert "(North–South)" in english and "(East–West)" in english


def test_the_page_speaks_english_to_an_english_phone(client: Client) -> None:
    table = make_table()
    client.cookies["django_language"] = "en"
    response = post(client, table, {"taker": "A", "contract": "hearts", "points_taker": "161"}, number=1)
    assert "No set of tricks is worth exactly 161 points" in beside(text(response), "points_taker")


def test_whatever_the_phone_sends_the_answer_is_never_a_server_error(client: Client) -> None:
    table = make_table()
    junk = {
        "taker": "Z",
        "contract": "<script>",
        "points_taker": "9" * 40,
        "points_defence": "-5",
        "expected_number": "abc",
        "idempotency_key": "k" * 200,
        "capot": "AB",
        "ann_A_0_kind": "quinte",
        "entered_side": "7",
    }
    for name in ("submit", "validate", "correct_last"):
        response = client.post(reverse(f"referee:{name}", args=[table.token]), junk)
        assert response.status_code in (200, 302), name
    assert client.get(reverse("referee:submit", args=[table.token])).status_code == 405
    assert client.post(reverse("referee:confirm", args=[table.token, 9]), {"side": "x"}).status_code == 302
    assert client.post(reverse("referee:undo", args=[table.token]), {"number": "x"}).status_code == 302
    assert not Hand.objects.filter(table=table).exists()
