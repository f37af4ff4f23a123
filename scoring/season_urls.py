"""A season's public ranking, mounted at /s/<slug>/ (namespace "season")."""

from django.urls import path

from scoring import season_views as views

app_name = "season"

urlpatterns = [
    path("", views.season_ranking, name="ranking"),
    path("rebuild/", views.season_rebuild, name="rebuild"),
]
