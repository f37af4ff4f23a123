"""The scoring side's URLs: one list of patterns per audience, each mounted by atout/urls.py
at its own prefix and in its own namespace (the list's docstring line says which).

The live public pages come after the draw's include (tournaments/public_urls.py) at the
same /t/<slug>/ prefix, so that the draw's paths win over theirs.
"""

from django.urls import path

from scoring.views import draw, embed, history, manage, public, referee, soiree, standings_manage
from tournaments import public_urls

# The draw's pages of a tournament: /t/<slug>/, namespace "draw". The page of a round's
# draw is scoring's (a public tournament's wraps its file: scoring/live_draw.py); the
# others, tournaments' (tournaments/public_urls.py).
draw_patterns = [
    path("round/<int:number>/draw/", draw.round_draw, name="round"),
    *public_urls.urlpatterns,
]

# The live public pages of a tournament: /t/<slug>/, namespace "public".
public_patterns = [
    path("", public.ranking, name="ranking"),
    path("after/<int:number>/", public.ranking_after, name="ranking_after"),
    path("projector/", public.projector, name="projector"),
    path("round/<int:number>/", public.round_results, name="round"),
    path("round/<int:number>/table/<int:table>/", public.table_score, name="table"),
    path("c/<int:number>/", public.competitor, name="competitor"),
    path("c/<int:number>/soiree/", soiree.public, name="soiree"),
    path("qr.svg", public.qr_code, name="qr"),
    path("poster/", public.poster, name="poster"),
    path("ranking.csv", public.ranking_csv, name="ranking_csv"),
    path("ranking.pdf", public.ranking_pdf, name="ranking_pdf"),
    path("print/", public.ranking_print, name="ranking_print"),
]

# A public ranking's file, /live/<slug>/<language>-<kind>.html (scoring/live_files.py).
live_file = public.live_file

# A player's tournaments, the organisers' page and the public one: the root, no namespace.
history_patterns = [
    path(
        "manage/club/<int:club_id>/players/<int:player_id>/history/",
        history.player_history_manage,
        name="player_history",
    ),
    path("joueur/<int:player_id>/", history.player_public, name="player_public"),
]

# The director's standings page: /manage/t/<slug>/standings/, namespace "standings_manage".
standings_manage_patterns = [
    path("", standings_manage.index, name="index"),
    path("jobs/", standings_manage.jobs_partial, name="jobs"),
    path("recalculate/", standings_manage.recalculate, name="recalculate"),
    path("jobs/<int:job_id>/retry/", standings_manage.retry, name="retry"),
]

# The director's hand pages: /manage/t/<slug>/hands/, namespace "hands".
hands_patterns = [
    path("", manage.index, name="index"),
    path("sheets/", manage.sheets, name="sheets"),
    path("table/<int:table_id>/", manage.table_hands, name="table"),
    path("table/<int:table_id>/history/", manage.history, name="history"),
    path("table/<int:table_id>/link/", manage.table_link, name="link"),
    path("calls/", manage.calls, name="calls"),
    path("calls/<int:call_id>/handled/", manage.call_handled, name="call_handled"),
    path("<int:hand_id>/edit/", manage.edit, name="edit"),
    path("<int:hand_id>/delete/", manage.delete, name="delete"),
]

# Everything under a table's secret link: /r/<token>/, namespace "referee".
referee_patterns = [
    path("<str:token>/", referee.table_page, name="table"),
    path("<str:token>/sheet/", referee.sheet_part, name="sheet"),
    path("<str:token>/clock/", referee.clock_part, name="clock"),
    path("<str:token>/validate/", referee.validate, name="validate"),
    path("<str:token>/hands/", referee.submit, name="submit"),
    path("<str:token>/last/", referee.correct_last, name="correct_last"),
    path("<str:token>/undo/", referee.undo, name="undo"),
    path("<str:token>/journal/", referee.journal_resend, name="journal"),
    path("<str:token>/hands/<int:number>/confirm/", referee.confirm, name="confirm"),
    path("<str:token>/call/", referee.call, name="call"),
]

# A competitor's « Ma soirée » by its personal link: /soiree/<token>/, namespace "soiree".
soiree_patterns = [
    path("<str:token>/", soiree.by_link, name="page"),
    path("<str:token>/screen/", soiree.screen, name="screen"),
]

# A club's embed page, for an <iframe> on its own website: /club/<slug>/embed/.
embed_patterns = [
    path("club/<slug:slug>/embed/", embed.club_embed_framed, name="club_embed"),
]
