"""The organiser's season pages, mounted at /manage/ (namespace "season_manage")."""

from django.urls import path

from scoring.views import season_manage as views

app_name = "season_manage"

urlpatterns = [
    path("club/<int:club_id>/seasons/new/", views.season_create, name="create"),
    path("s/<slug:slug>/", views.season_edit, name="edit"),
    path("s/<slug:slug>/jobs/", views.jobs_partial, name="jobs"),
]
