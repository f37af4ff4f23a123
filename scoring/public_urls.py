"""The live public pages of a tournament, mounted at /t/<slug>/ (namespace "public")."""

from django.urls import path

from scoring.views import public as views

app_name = "public"

urlpatterns = [
    path("", views.ranking, name="ranking"),
    path("after/<int:number>/", views.ranking_after, name="ranking_after"),
    path("projector/", views.projector, name="projector"),
    path("round/<int:number>/", views.round_results, name="round"),
    path("round/<int:number>/table/<int:table>/", views.table_score, name="table"),
    path("c/<int:number>/", views.competitor, name="competitor"),
    path("qr.svg", views.qr_code, name="qr"),
    path("poster/", views.poster, name="poster"),
    path("ranking.csv", views.ranking_csv, name="ranking_csv"),
    path("ranking.pdf", views.ranking_pdf, name="ranking_pdf"),
    path("print/", views.ranking_print, name="ranking_print"),
]
