"""The seasons' URLs: one list of patterns per audience, each mounted by atout/urls.py at its
own prefix and in its own namespace (as scoring/urls.py does)."""

from django.urls import path

from seasons.views import manage, public

# A season's public ranking: /s/<slug>/, namespace "season".
season_patterns = [
    path("", public.season_ranking, name="ranking"),
    path("csv/", public.season_csv, name="csv"),
    path("pdf/", public.season_pdf, name="pdf"),
    path("rebuild/", public.season_rebuild, name="rebuild"),
]

# The organiser's season pages: /manage/, namespace "season_manage".
season_manage_patterns = [
    path("club/<int:club_id>/seasons/new/", manage.season_create, name="create"),
    path("s/<slug:slug>/", manage.season_edit, name="edit"),
    path("s/<slug:slug>/jobs/", manage.jobs_partial, name="jobs"),
]
