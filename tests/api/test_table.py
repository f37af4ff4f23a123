"""Entry at the table through the API: the table's secret, idempotency, conflicts, errors."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from rounds.services import round_close
from scoring.models import Hand, HandRevision
from scoring.services import table_token_revoke
from tests.api.conftest import API, enter, referee, sound_hand

pytestmark = pytest.mark.django_db


def test_the_secret_opens_its_table_and_says_what_comes_next(played) -> None:
    tournament, rnd = played(4)
    table = rnd.tables.get(number=2)
    response = referee(table).get(f"{API}/table/")
    assert response.status_code == 200
    body = response.json()
    assert (body["tournament"], body["table"]["round"], body["table"]["number"]) == (tournament.slug, 1, 2)
    assert body["next_number"] == 1 and body["finished"] is False
    assert table.token not in response.content.decode()


def test_the_tables_read_is_four_queries_none_sorted_by_the_tournament(played) -> None:
    """Read by every referee's app at each round: the token's table, its seats, its hands
    and its result, each sorted by its own columns (the models' default ordering would join
    the round and the tournament to sort one table's rows)."""
    _tournament, rnd = played(4)
    table = rnd.tables.get(number=1)
    for number in (1, 2):
        assert enter(table, sound_hand(), expected_number=number).status_code == 201
    with CaptureQueriesContext(connection) as queries:
        response = referee(table).get(f"{API}/table/")
    assert response.status_code == 200
    assert [hand["number"] for hand in response.json()["table"]["hands"]] == [1, 2]
    assert len(queries.captured_queries) == 4
    orders = [q["sql"].partition(" ORDER BY ")[2] for q in queries.captured_queries]
    assert not [order for order in orders if "tournaments_tournament" in order or "tournaments_round" in order]


def test_a_donne_entered_is_scored_stored_and_counted(played) -> None:
    _tournament, rnd = played(4)
    table = rnd.tables.get(number=1)
    response = enter(table, sound_hand(), expected_number=1)
    assert response.status_code == 201
    body = response.json()
    assert body["hand"]["number"] == 1 and body["hand"]["scores"] == [102, 60]
    assert body["replayed"] is False and body["result"]["totals"] == [102, 60]
    # Entered as a referee's donne (the same rules as the form), recorded as from the API.
    assert HandRevision.objects.get(table=table).author_label == "API"


def test_a_resend_with_the_same_idempotency_key_stores_nothing_new(played) -> None:
    _tournament, rnd = played(4)
    table = rnd.tables.get(number=1)
    first = enter(table, sound_hand(), key="entry-42", expected_number=1)
    again = enter(table, sound_hand(), key="entry-42", expected_number=1)
    assert first.status_code == 201
    assert again.status_code == 200 and again.json()["replayed"] is True
    assert again.json()["hand"]["number"] == 1
    assert Hand.objects.filter(table=table).count() == 1


def test_the_same_idempotency_key_with_another_hand_is_a_422_naming_the_stored_donne(played) -> None:
    _tournament, rnd = played(4)
    table = rnd.tables.get(number=1)
    assert enter(table, sound_hand(), key="entry-7", expected_number=1).status_code == 201
    other = {"taker": "B", "contract": "clubs", "points": {"A": 60, "B": 102}}
    response = referee(table).post(
        f"{API}/table/hands/", {"raw": other, "expected_number": 2}, format="json",
        HTTP_IDEMPOTENCY_KEY="entry-7", HTTP_ACCEPT_LANGUAGE="en",
    )  # fmt: skip
    assert response.status_code == 422
    [error] = response.json()["errors"]
    assert error["code"] == "idempotency_key_reused" and error["field"] == "Idempotency-Key"
    assert "donne 1" in error["message"]
    # The new hand was not dropped silently into a replay, nor stored.
    assert [hand.raw for hand in Hand.objects.filter(table=table)] == [sound_hand()]


def test_a_resend_of_a_donne_taken_back_since_is_a_409_and_stores_nothing(played) -> None:
    _tournament, rnd = played(4)
    table = rnd.tables.get(number=1)
    assert enter(table, sound_hand(), key="entry-9", expected_number=1).status_code == 201
    assert referee(table).delete(f"{API}/table/hands/1/").status_code in (200, 204)
    response = enter(table, sound_hand(), key="entry-9", expected_number=1)
    assert response.status_code == 409
    [error] = response.json()["errors"]
    assert (error["code"], error["field"]) == ("hand_removed", "Idempotency-Key")
    assert not Hand.objects.filter(table=table).exists()


def test_a_resend_of_the_first_entry_after_a_correction_is_still_a_replay(played) -> None:
    _tournament, rnd = played(4)
    table = rnd.tables.get(number=1)
    enter(table, sound_hand(), key="entry-8", expected_number=1)
    corrected = {"taker": "A", "contract": "hearts", "points": {"A": 92, "B": 70}}
    assert referee(table).put(f"{API}/table/hands/1/", {"raw": corrected}, format="json").status_code == 200
    again = enter(table, sound_hand(), key="entry-8", expected_number=1)
    assert again.status_code == 200 and again.json()["replayed"] is True
    assert again.json()["hand"]["raw"] == corrected


def test_a_donne_stored_by_another_phone_is_a_409_with_that_donne(played) -> None:
    _tournament, rnd = played(4)
    table = rnd.tables.get(number=1)
    assert enter(table, sound_hand(), expected_number=1).status_code == 201
    other = {"taker": "B", "contract": "spades", "points": {"A": 40, "B": 122}}
    response = enter(table, other, expected_number=1)
    assert response.status_code == 409
    body = response.json()
    assert body["errors"][0]["code"] == "donne_taken" and body["errors"][0]["field"] == "expected_number"
    assert body["hand"]["scores"] == [102, 60]
    assert Hand.objects.filter(table=table).count() == 1


def test_a_hand_that_breaks_a_rule_is_a_400_naming_each_field_with_the_engines_code(played) -> None:
    _tournament, rnd = played(4)
    table = rnd.tables.get(number=1)
    response = enter(table, {"taker": "A", "contract": "hearts", "points": {"A": 100, "B": 100}})
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert errors and all(error["field"].startswith("raw") for error in errors)
    assert all(error["code"] and error["message"] for error in errors)
    assert not Hand.objects.filter(table=table).exists()


def test_errors_speak_french_by_default_and_english_when_asked(played) -> None:
    _tournament, rnd = played(4)
    table = rnd.tables.get(number=1)
    bad = {"taker": "C", "contract": "hearts", "points": {"A": 102, "B": 60}}
    french = referee(table).post(f"{API}/table/hands/", {"raw": bad}, format="json")
    english = referee(table).post(f"{API}/table/hands/", {"raw": bad}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert french.status_code == english.status_code == 400
    assert [e["code"] for e in french.json()["errors"]] == [e["code"] for e in english.json()["errors"]]
    assert french.json()["errors"][0]["message"] != english.json()["errors"][0]["message"]
    assert french.headers["Content-Language"] == "fr" and english.headers["Content-Language"] == "en"


def test_a_malformed_body_is_a_400_in_the_same_shape(played) -> None:
    _tournament, rnd = played(4)
    table = rnd.tables.get(number=1)
    response = referee(table).post(f"{API}/table/hands/", {"expected_number": "x"}, format="json")
    assert response.status_code == 400
    fields = {error["field"]: error["code"] for error in response.json()["errors"]}
    assert fields == {"raw": "required", "expected_number": "invalid"}


def test_a_donne_after_the_end_of_the_partie_is_a_409(played) -> None:
    _tournament, rnd = played(4, end_value=1)
    table = rnd.tables.get(number=1)
    assert enter(table, sound_hand()).status_code == 201
    response = enter(table, sound_hand())
    assert response.status_code == 409
    assert response.json()["errors"][0]["code"] == "partie_finished"


def test_a_key_longer_than_the_service_keeps_is_named_by_its_header(played) -> None:
    _tournament, rnd = played(4)
    response = enter(rnd.tables.get(number=1), sound_hand(), key="k" * 65)
    assert response.status_code == 400
    assert response.json()["errors"][0] == {
        "field": "Idempotency-Key",
        "code": "bad_key",
        "message": response.json()["errors"][0]["message"],
    }


def test_without_a_secret_the_table_endpoints_answer_401(played) -> None:
    played(4)
    client = APIClient()
    for response in (client.get(f"{API}/table/"), client.post(f"{API}/table/hands/", {"raw": {}}, format="json")):
        assert response.status_code == 401
        assert response.headers["WWW-Authenticate"] == "X-Table-Token"
        assert response.json()["errors"][0]["code"] == "not_authenticated"


def test_an_unknown_secret_is_a_401_and_an_organisers_login_opens_no_table(played, api) -> None:
    played(4)
    client = APIClient()
    client.credentials(HTTP_X_TABLE_TOKEN="x" * 32)
    assert client.get(f"{API}/table/").json()["errors"][0]["code"] == "unknown_table_token"
    # An organiser's API token is not a table's secret.
    assert api.get(f"{API}/table/").status_code == 401


def test_a_referees_secret_opens_one_table_only(played) -> None:
    _tournament, rnd = played(4)
    first, second = rnd.tables.get(number=1), rnd.tables.get(number=2)
    assert enter(first, sound_hand()).status_code == 201
    assert enter(second, sound_hand()).status_code == 201
    # The second table's pending donne cannot be confirmed, nor seen, with the first's secret.
    assert referee(first).get(f"{API}/table/").json()["table"]["number"] == 1
    assert Hand.objects.filter(table=first).count() == 1 and Hand.objects.filter(table=second).count() == 1


def test_a_withdrawn_secret_and_a_closed_round_are_403(played, organiser) -> None:
    _tournament, rnd = played(4)
    table, other = rnd.tables.get(number=1), rnd.tables.get(number=2)
    table_token_revoke(table=table, by=organiser)
    response = referee(table).get(f"{API}/table/")
    assert response.status_code == 403 and response.json()["errors"][0]["code"] == "token_revoked"
    round_close(by=organiser, round=rnd, force=True)
    response = referee(other).post(f"{API}/table/hands/", {"raw": sound_hand()}, format="json")
    assert response.status_code == 403 and response.json()["errors"][0]["code"] == "round_closed"


def test_guessing_secrets_is_cut_short_with_429_but_the_right_one_still_opens(played, settings) -> None:
    settings.REFEREE_TOKEN_MISSES = 3
    _tournament, rnd = played(4)
    table = rnd.tables.get(number=1)
    guesser = APIClient()
    for attempt in range(3):
        guesser.credentials(HTTP_X_TABLE_TOKEN=f"wrong-guess-{attempt:08d}")
        assert guesser.get(f"{API}/table/").status_code == 401
    guesser.credentials(HTTP_X_TABLE_TOKEN="wrong-guess-99999999")
    response = guesser.get(f"{API}/table/")
    assert response.status_code == 429
    assert response.json()["errors"][0]["code"] == "too_many_wrong_tokens"
    # The referee's app shares the guesser's address (one Wi-Fi): its secret still opens.
    assert referee(table).get(f"{API}/table/").status_code == 200
    assert enter(table, sound_hand()).status_code == 201


def test_another_side_confirms_a_pending_donne_and_then_it_counts(played) -> None:
    _tournament, rnd = played(4, confirmation_required=True)
    table = rnd.tables.get(number=1)
    stored = enter(table, sound_hand(), entered_side=0).json()
    assert stored["hand"]["status"] == "pending" and stored["result"]["totals"] == [0, 0]
    same_side = referee(table).post(f"{API}/table/hands/1/confirm/", {"side": 0}, format="json")
    assert same_side.status_code == 400 and same_side.json()["errors"][0]["code"] == "same_side"
    confirmed = referee(table).post(f"{API}/table/hands/1/confirm/", {"side": 1}, format="json")
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"
    assert referee(table).get(f"{API}/table/").json()["table"]["result"]["totals"] == [102, 60]
    missing = referee(table).post(f"{API}/table/hands/9/confirm/", {"side": 1}, format="json")
    assert missing.status_code == 404 and missing.json()["errors"][0]["code"] == "not_found"


CALLED_KING = {"taker": 2, "partner": 4, "contract": "garde", "oudlers": 2, "points": 45.5}


def confirm(table, side: object, language: str = "fr") -> Any:
    return referee(table).post(
        f"{API}/table/hands/1/confirm/", {"side": side}, format="json", HTTP_ACCEPT_LANGUAGE=language
    )


def test_at_a_tarot_a_cinq_table_any_of_the_five_seats_confirms_and_no_sixth(played) -> None:
    _tournament, rnd = played(5, game="tarot_a_cinq", confirmation_required=True)
    table = rnd.tables.get(number=1)
    stored = enter(table, CALLED_KING, entered_side=3)
    assert stored.status_code == 201 and stored.json()["hand"]["status"] == "pending"
    outside = confirm(table, 5)
    assert outside.status_code == 400
    assert outside.json() == {
        "errors": [
            {
                "field": "side",
                "code": "bad_side",
                "message": "Il n’y a pas de camp 5 à cette table : ses camps vont de 0 à 4.",
            }
        ]
    }
    assert Hand.objects.get(table=table).status == "pending"
    last_seat = confirm(table, 4)
    assert last_seat.status_code == 200 and last_seat.json()["status"] == "confirmed"


def test_a_tarot_a_cinq_donne_is_entered_from_seat_4_but_not_from_seat_5(played) -> None:
    _tournament, rnd = played(5, game="tarot_a_cinq", confirmation_required=True)
    table = rnd.tables.get(number=1)
    refused = referee(table).post(
        f"{API}/table/hands/", {"raw": CALLED_KING, "entered_side": 5}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert refused.status_code == 400
    assert refused.json()["errors"] == [
        {
            "field": "entered_side",
            "code": "bad_side",
            "message": "There is no side 5 at this table: its sides are 0 to 4.",
        }
    ]
    assert not Hand.objects.filter(table=table).exists()
    assert enter(table, CALLED_KING, entered_side=4).status_code == 201
    corrected = referee(table).put(
        f"{API}/table/hands/1/", {"raw": CALLED_KING, "entered_side": 7}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert corrected.status_code == 400 and corrected.json()["errors"][0]["field"] == "entered_side"
    assert Hand.objects.get(table=table).entered_side == 4


def test_a_belote_table_has_two_sides_to_confirm_from(played) -> None:
    _tournament, rnd = played(4, confirmation_required=True)
    table = rnd.tables.get(number=1)
    assert enter(table, sound_hand(), entered_side=0).status_code == 201
    for side in (2, 4, 32_767):
        outside = confirm(table, side)
        assert outside.status_code == 400, side
        [error] = outside.json()["errors"]
        assert (error["field"], error["code"]) == ("side", "bad_side")
        assert error["message"].endswith("ses camps vont de 0 à 1."), error
    # Out of the storage's range or not a number: refused on the field too, never a 500.
    for side in (-1, 40_000, "deux"):
        assert confirm(table, side).status_code == 400, side
    assert confirm(table, 1).status_code == 200


def test_the_table_corrects_its_last_donne_and_only_its_last(played) -> None:
    _tournament, rnd = played(4, end_value=4)
    table = rnd.tables.get(number=1)
    for number in (1, 2):
        assert enter(table, sound_hand(), expected_number=number).status_code == 201
    corrected = {"taker": "B", "contract": "spades", "points": {"A": 40, "B": 122}}
    stale = referee(table).put(f"{API}/table/hands/1/", {"raw": corrected}, format="json")
    assert stale.status_code == 409 and stale.json()["errors"][0]["code"] == "sheet_changed"
    broken = referee(table).put(f"{API}/table/hands/2/", {"raw": {**corrected, "points": {"A": 40}}}, format="json")
    assert broken.status_code == 400 and broken.json()["errors"][0]["field"].startswith("raw.points")
    response = referee(table).put(f"{API}/table/hands/2/", {"raw": corrected}, format="json")
    assert response.status_code == 200
    assert response.json()["hand"]["scores"] == [40, 122] and response.json()["result"]["totals"] == [142, 182]
    assert HandRevision.objects.filter(table=table, action="update").get().author_label == "API"


def test_the_table_takes_back_its_last_donne_until_the_partie_is_over(played) -> None:
    _tournament, rnd = played(4, end_value=2)
    table = rnd.tables.get(number=1)
    assert referee(table).delete(f"{API}/table/hands/1/").json()["errors"][0]["code"] == "no_hand"
    assert enter(table, sound_hand(), expected_number=1).status_code == 201
    undone = referee(table).delete(f"{API}/table/hands/1/")
    assert undone.status_code == 200 and undone.json()["result"]["totals"] == [0, 0]
    assert not Hand.objects.filter(table=table).exists()
    assert HandRevision.objects.filter(table=table, action="delete").count() == 1
    for number in (1, 2):
        assert enter(table, sound_hand(), expected_number=number).status_code == 201
    over = referee(table).delete(f"{API}/table/hands/2/")
    assert over.status_code == 409 and over.json()["errors"][0]["code"] == "partie_finished"
    assert Hand.objects.filter(table=table).count() == 2
