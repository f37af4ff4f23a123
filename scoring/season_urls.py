"""A season's public ranking, mounted at /s/<slug>/ (namespace "season")."""

from django.urls import path

from scoring.views import seasons as views

app_name = "season"

urlpatterns = [
    path("", views.season_ranking, name="ranking"),
    path("csv/", views.season_csv, name="csv"),
    path("pdf/", views.season_pdf, name="pdf"),
    path("rebuild/", views.season_rebuild, name="rebuild"),
]
