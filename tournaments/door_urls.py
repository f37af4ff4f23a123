"""The door's pages, under its secret link: /door/<token>/, namespace "door" (tournaments/door_views.py)."""

from django.urls import path

from tournaments import door_views

app_name = "door"

urlpatterns = [
    path("<str:token>/", door_views.page, name="page"),
    path("<str:token>/search/", door_views.search, name="search"),
    path("<str:token>/c/<int:number>/p/<int:player_id>/", door_views.confirm, name="confirm"),
    path("<str:token>/arrive/", door_views.arrive, name="arrive"),
]
