"""The director's standings pages, mounted at /manage/t/<slug>/standings/ (namespace "standings_manage")."""

from django.urls import path

from scoring.views import standings_manage as views

app_name = "standings_manage"

urlpatterns = [
    path("", views.index, name="index"),
    path("jobs/", views.jobs_partial, name="jobs"),
    path("recalculate/", views.recalculate, name="recalculate"),
    path("jobs/<int:job_id>/retry/", views.retry, name="retry"),
]
