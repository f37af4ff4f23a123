"""The results files' URLs, mounted at the site's root by atout/urls.py (namespace "results")."""

from django.urls import path

from results import views

urlpatterns = [
    path("results/schema/atout-results-<int:version>.json", views.schema, name="schema"),
    path("manage/t/<slug:slug>/results.json", views.results_json, name="json"),
    path("manage/t/<slug:slug>/results.csv", views.results_csv, name="csv"),
    path("manage/s/<slug:slug>/results/", views.season_import, name="season_import"),
]
