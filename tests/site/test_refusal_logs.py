"""Issue 26, item 11: a refused request is one line in the log, never a traceback.

Django wrote a permission denied, a suspicious request or a malformed body with its whole
traceback (twenty lines and more), on a line of its own beside the request's: anyone
could grow the logs at will. Each refusal is now the request's one line, with its reason
(kit.logs.OneLineRefusals); a server error keeps its traceback. The lines are read as
the site's own logging configuration writes them (tests/site_log.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.site_log import WrittenLog, site_log

pytestmark = pytest.mark.django_db


def _outsider_reads_another_clubs_player() -> Client:
    client = Client()
    club, theirs = ClubFactory(), ClubFactory()
    user = UserFactory()
    theirs.organisers.add(user, through_defaults={"role": "organiser"})
    client.force_login(user)
    player = PlayerFactory(club=club)
    return client.get(reverse("player_history", args=[club.pk, player.pk]))


REFUSALS: dict[str, tuple[Callable[[], object], int, str]] = {
    "permission denied": (_outsider_reads_another_clubs_player, 403, "PermissionDenied: not an organiser of this club"),
    "CSRF failure": (
        lambda: Client(enforce_csrf_checks=True).post("/login/", {"username": "x", "password": "y"}),
        403,
        "Forbidden (CSRF cookie not set.)",
    ),
    "host not served (suspicious operation)": (
        lambda: Client().get("/", headers={"Host": "evil.example"}),
        400,
        "Invalid HTTP_HOST header: 'evil.example'",
    ),
    "form body not UTF-8 (bad request)": (
        lambda: Client().post("/login/", b"username=%FF", content_type="application/x-www-form-urlencoded"),
        400,
        "a form body that is not UTF-8 (BadRequest)",
    ),
    "body too large (suspicious operation)": (
        lambda: Client().post("/login/", b"x=" + b"a" * 3_000_000, content_type="application/x-www-form-urlencoded"),
        413,
        "(RequestDataTooBig)",
    ),
    "method not allowed": (
        lambda: Client().get(reverse("manage:invitation_cancel", args=[1, 1])),
        405,
        "Method Not Allowed (GET)",
    ),
}


def _lines_of(log: WrittenLog, response: object) -> list[str]:
    request_id = response["X-Request-ID"]  # type: ignore[index]
    return log.lines(f"request_id={request_id}")


@pytest.mark.parametrize("kind", list(REFUSALS))
def test_a_refusal_is_the_requests_one_line_with_its_reason(kind: str) -> None:
    send, status, reason = REFUSALS[kind]
    # A site in use: an empty one leads its management pages to /setup/ (accounts.middleware).
    UserFactory(username="quelquun")
    with site_log() as log:
        response = send()
    assert response.status_code == status  # type: ignore[attr-defined]
    assert "Traceback" not in log.text
    (line,) = _lines_of(log, response)
    assert "atout.request request" in line and f"status={status}" in line
    assert reason in line, line
    # Nor did Django write the reason on a line of its own.
    assert not [other for other in log.lines() if " django." in other], log.text


def test_a_page_not_found_is_one_line() -> None:
    with site_log() as log:
        response = Client().get("/no-such-page/")
    assert response.status_code == 404
    (line,) = log.text.splitlines()
    assert "status=404" in line and "Not Found" not in line


def test_a_refusal_outside_a_request_is_one_line_without_its_traceback() -> None:
    with site_log() as log:
        try:
            raise PermissionDenied("not a site administrator")
        except PermissionDenied:
            logging.getLogger("atout.somewhere").warning("refused", exc_info=True)
    (line,) = log.text.splitlines()
    assert line.endswith("refused (PermissionDenied: not a site administrator)")


@pytest.mark.urls("tests.production.logging_urls")
def test_a_server_error_keeps_its_traceback() -> None:
    with site_log() as log:
        response = Client(raise_request_exception=False).get("/broken/")
    assert response.status_code == 500
    assert "Traceback (most recent call last)" in log.text
    assert "RuntimeError: the scoring went wrong" in log.text
