"""The director's hand pages, mounted at /manage/t/<slug>/hands/ (namespace "hands")."""

from django.urls import path

from scoring.views import manage as views

app_name = "hands"

urlpatterns = [
    path("", views.index, name="index"),
    path("sheets/", views.sheets, name="sheets"),
    path("table/<int:table_id>/", views.table_hands, name="table"),
    path("table/<int:table_id>/history/", views.history, name="history"),
    path("table/<int:table_id>/link/", views.table_link, name="link"),
    path("<int:hand_id>/edit/", views.edit, name="edit"),
    path("<int:hand_id>/delete/", views.delete, name="delete"),
]
