"""A player's tournaments (scoring/views/history.py), mounted at the root by atout/urls.py."""

from django.urls import path

from scoring.views import history as views

urlpatterns = [
    path(
        "manage/club/<int:club_id>/players/<int:player_id>/history/",
        views.player_history_manage,
        name="player_history",
    ),
    path("joueur/<int:player_id>/", views.player_public, name="player_public"),
]
