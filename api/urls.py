"""The API's URLs: version 1 under /api/v1/, the OpenAPI schema and its browsable docs.

Tournaments are addressed by their public slug, rounds and tables by their numbers, as
on the public pages (/t/<slug>/round/<n>/table/<t>/). A path under /api/ that names
nothing answers 404 in the API's error shape, not the site's HTML page.
"""

from __future__ import annotations

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from api.views import club, organiser, public, relay, results, table
from api.views.fallback import not_found

app_name = "api"
# Redoc's bundle inserts its styles as <style> elements (styled-components), runs its
# search in a worker made from a blob: URL, and always shows Redocly's logo from their
# CDN: its page allows those three on top of the site's policy, and no more. Scripts stay
# the site's own files, without eval.
REDOC_POLICY = {
    "style-src": [UNSAFE_INLINE],
    "worker-src": ["blob:"],
    "img-src": ["https://cdn.redoc.ly/redoc/logo-mini.svg"],
}

tournament = "tournaments/<slug:slug>/"
round_ = tournament + "rounds/<int:number>/"
table_ = round_ + "tables/<int:table>/"

v1 = [
    path("tournaments/", organiser.TournamentsView.as_view(), name="tournaments"),
    path(tournament, organiser.TournamentView.as_view(), name="tournament"),
    path(tournament + "status/", organiser.TournamentStatusView.as_view(), name="tournament-status"),
    path(tournament + "competitors/", organiser.CompetitorsView.as_view(), name="competitors"),
    path(
        tournament + "competitors/<int:number>/check-in/",
        organiser.CompetitorCheckInView.as_view(),
        name="competitor-check-in",
    ),
    path(
        tournament + "competitors/<int:number>/withdraw/",
        organiser.CompetitorWithdrawView.as_view(),
        name="competitor-withdraw",
    ),
    path(
        tournament + "competitors/<int:number>/reinstate/",
        organiser.CompetitorReinstateView.as_view(),
        name="competitor-reinstate",
    ),
    path(tournament + "competitors/<int:number>/payment/", club.PaymentView.as_view(), name="payment"),
    path(tournament + "payments/", club.PaymentsView.as_view(), name="payments"),
    path(tournament + "players/", public.PlayerListView.as_view(), name="players"),
    path(tournament + "rounds/", organiser.RoundsView.as_view(), name="rounds"),
    path(round_, public.RoundDetailView.as_view(), name="round"),
    path(round_ + "close/", organiser.RoundCloseView.as_view(), name="round-close"),
    path(round_ + "clock/", organiser.RoundClockView.as_view(), name="round-clock"),
    path(round_ + "secrets/", organiser.RoundSecretsView.as_view(), name="round-secrets"),
    path(table_, public.TableDetailView.as_view(), name="table"),
    path(table_ + "hands/<int:donne>/", organiser.HandCorrectView.as_view(), name="hand"),
    path(tournament + "standings/", public.StandingsView.as_view(), name="standings"),
    path(tournament + "results/", results.ResultsFileView.as_view(), name="results-file"),
    path(tournament + "results/csv/", results.ResultsCsvView.as_view(), name="results-csv"),
    path(
        tournament + "standings/after/<int:number>/", public.StandingsAfterRoundView.as_view(), name="standings-after"
    ),
    path("games/", public.GamesView.as_view(), name="games"),
    path("clubs/", public.ClubListView.as_view(), name="clubs"),
    path("clubs/<slug:club>/players/", club.ClubPlayersView.as_view(), name="club-players"),
    path("clubs/<slug:club>/players/<int:player_id>/", club.ClubPlayerView.as_view(), name="club-player"),
    path(
        "clubs/<slug:club>/players/<int:player_id>/history/",
        club.ClubPlayerHistoryView.as_view(),
        name="club-player-history",
    ),
    path("players/<int:player_id>/history/", club.PublicHistoryView.as_view(), name="player-history"),
    path("seasons/", club.SeasonsView.as_view(), name="seasons"),
    path("seasons/<slug:slug>/", club.SeasonView.as_view(), name="season"),
    path("seasons/<slug:slug>/rebuild/", club.SeasonRebuildView.as_view(), name="season-rebuild"),
    path("seasons/<slug:slug>/results/", results.SeasonResultsImportView.as_view(), name="season-results-import"),
    path("relay/", relay.RelayView.as_view(), name="relay"),
    path("table/", table.TableInfoView.as_view(), name="table-current"),
    path("table/hands/", table.HandEntryView.as_view(), name="table-hands"),
    path("table/hands/<int:donne>/", table.LastHandView.as_view(), name="table-hand"),
    path("table/hands/<int:donne>/confirm/", table.HandConfirmView.as_view(), name="table-hand-confirm"),
]

urlpatterns = [
    path("v1/", include(v1)),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script as a file of its own (`?script`):
    # the site's Content-Security-Policy allows no inline script.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    path(
        "redoc/",
        csp_update(REDOC_POLICY)(SpectacularRedocView.as_view(url_name="api:schema")),
        name="redoc",
    ),
    # [\s\S]: a path with a newline in it names nothing either.
    re_path(r"^[\s\S]*\Z", not_found),
]
