"""Every page a director, a referee or a player sees passes axe-core with no serious or
critical violation, in French and English, on a phone and on a laptop.

axe-core comes inside the axe-playwright-python package (no download at run time); it
runs in Debian's Chromium on pages of a real tournament with a round drawn and played.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from axe_playwright_python.sync_playwright import Axe

from rounds.services import round_draw
from scoring.models import HandRevision
from scoring.services import hand_correct, hand_submit
from scoring.standings import standings_rebuild
from tests.factories import ClubFactory, UserFactory
from tests.scoring.tables import SOUND_HANDS
from tests.tournaments.conftest import new_tournament, register_many
from tournaments import services
from tournaments.models import Table

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
SERIOUS = {"serious", "critical"}


def night() -> dict[str, object]:
    club = ClubFactory(name="Amicale belote de Millau", slug="millau")
    director = UserFactory(username="directrice-a11y")
    club.organisers.add(director, through_defaults={"role": "admin"})
    links: list[str] = []
    services.invitation_create(
        by=director, club=club, email="invite@example.org", role="organiser", link_for=lambda t: links.append(t) or t
    )
    tournament = new_tournament(club, director, name="Concours accessible", entry_fee="8")
    services.tournament_set_status(by=director, tournament=tournament, status="registration")
    first, *_others = register_many(tournament, director, 5)
    # Lots beside the ranks, and a payment control on each competitor's row.
    services.prize_add(by=director, tournament=tournament, rank_from=1, rank_to=2, text="Un jambon")
    services.competitor_set_payment(by=director, competitor=first, status="paid", method="cash")
    services.tournament_set_status(by=director, tournament=tournament, status="running")
    rnd = round_draw(by=director, tournament=tournament)
    table = Table.objects.filter(round=rnd).order_by("number").first()
    hand, _ = SOUND_HANDS["belote_classique"]
    stored = hand_submit(table=table, raw=hand).hand
    hand_correct(hand=stored, raw={**hand, "points": {"A": 100, "B": 62}}, reason="Points mal lus", by=director)
    standings_rebuild(tournament_id=tournament.pk)
    assert HandRevision.objects.filter(table=table).exists()
    return {
        "club": club,
        "tournament": tournament,
        "table": table,
        "round": rnd,
        "hand": stored,
        "invitation": links[0],
        "competitor": first,
    }


def pages(data: dict[str, object]) -> tuple[list[str], list[str]]:
    """(public and referee pages, the director's pages) of the night."""
    t = data["tournament"]
    table = data["table"]
    club = data["club"]
    slug = t.slug  # type: ignore[attr-defined]
    public = [
        "/",
        "/login/",
        f"/t/{slug}/",
        f"/t/{slug}/round/1/",
        f"/t/{slug}/round/1/table/1/",
        f"/t/{slug}/c/1/",
        f"/t/{slug}/c/1/soiree/",
        f"/soiree/{data['competitor'].link_token}/",  # type: ignore[attr-defined]
        f"/t/{slug}/projector/",
        f"/t/{slug}/round/1/draw/",
        f"/t/{slug}/seat/?q=Nom",
        f"/t/{slug}/poster/",
        f"/r/{table.token}/",  # type: ignore[attr-defined]
        f"/club/{club.slug}/",  # type: ignore[attr-defined]
        f"/invitation/{data['invitation']}/",
        "/login/reset/",
        "/confidentialite/",
    ]
    director = [
        "/manage/",
        f"/manage/club/{club.pk}/",  # type: ignore[attr-defined]
        f"/manage/club/{club.pk}/players/",  # type: ignore[attr-defined]
        f"/manage/club/{club.pk}/players/add/",  # type: ignore[attr-defined]
        f"/manage/club/{club.pk}/players/import/",  # type: ignore[attr-defined]
        f"/manage/club/{club.pk}/tournaments/new/",  # type: ignore[attr-defined]
        f"/manage/tournament/{t.pk}/",  # type: ignore[attr-defined]
        f"/manage/tournament/{t.pk}/register/",  # type: ignore[attr-defined]
        f"/manage/tournament/{t.pk}/competitors/{data['competitor'].pk}/receipt/",  # type: ignore[attr-defined]
        f"/manage/tournament/{t.pk}/edit/",  # type: ignore[attr-defined]
        f"/manage/tournament/{t.pk}/forbidden/",  # type: ignore[attr-defined]
        f"/manage/tournament/{t.pk}/prizes/",  # type: ignore[attr-defined]
        f"/manage/tournament/{t.pk}/rounds/1/print/",  # type: ignore[attr-defined]
        f"/manage/t/{slug}/hands/",
        f"/manage/t/{slug}/hands/sheets/?round=1",
        f"/manage/t/{slug}/hands/table/{table.pk}/",  # type: ignore[attr-defined]
        f"/manage/t/{slug}/hands/{data['hand'].pk}/edit/",  # type: ignore[attr-defined]
        f"/manage/t/{slug}/hands/{data['hand'].pk}/delete/",  # type: ignore[attr-defined]
        f"/manage/t/{slug}/hands/table/{table.pk}/history/",  # type: ignore[attr-defined]
        f"/manage/t/{slug}/standings/",
        f"/manage/club/{club.pk}/members/",  # type: ignore[attr-defined]
        f"/manage/club/{club.pk}/settings/",  # type: ignore[attr-defined]
        "/manage/account/",
        "/manage/account/password/",
    ]
    return public, director


@pytest.fixture
def axe() -> Iterator[Axe]:
    yield Axe()


def serious_violations(axe: Axe, page) -> list[str]:
    results = axe.run(page)
    found = []
    for violation in results.response["violations"]:
        if violation.get("impact") in SERIOUS:
            targets = [", ".join(node["target"]) for node in violation["nodes"][:3]]
            found.append(f"{violation['id']} ({violation['impact']}): {violation['help']} at {targets}")
    return found


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_every_page_of_the_night_passes_axe_in_french_and_english_on_phone_and_laptop(
    browser, live_server, axe
) -> None:
    data = night()
    public, director = pages(data)
    problems: list[str] = []
    for language in ("fr-FR", "en-GB"):
        for size_name, size in SIZES.items():
            context = browser.new_context(viewport=size, locale=language)
            page = context.new_page()
            page.set_default_timeout(15_000)
            # The language follows the browser's Accept-Language; the cookie makes it sure.
            code = language[:2]
            context.add_cookies([{"name": "django_language", "value": code, "url": live_server.url}])
            for path in public:
                page.goto(live_server.url + path)
                problems += [f"{code} {size_name} {path}: {v}" for v in serious_violations(axe, page)]
            page.goto(live_server.url + "/login/")
            page.fill("input[name=username]", "directrice-a11y")
            page.fill("input[name=password]", "secret-pass-123")
            page.locator("main button[type=submit]").click()
            page.wait_for_load_state()
            for path in director:
                response = page.goto(live_server.url + path)
                assert response is not None and response.status == 200, path
                problems += [f"{code} {size_name} {path}: {v}" for v in serious_violations(axe, page)]
            # A page that asks before acting (withdrawing a team), reached by its button.
            page.goto(f"{live_server.url}/manage/tournament/{data['tournament'].pk}/")  # type: ignore[attr-defined]
            page.locator("#competitors form[action$='/withdraw/'] button").first.click()
            page.locator(".confirm").wait_for()
            problems += [f"{code} {size_name} confirm: {v}" for v in serious_violations(axe, page)]
            context.close()
    assert problems == [], "\n".join(problems)
