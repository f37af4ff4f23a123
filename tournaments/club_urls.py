"""The clubs' public pages and the invitations' links (atout/urls.py mounts them at the root)."""

from django.urls import path

from tournaments import club_views

urlpatterns = [
    path("club/<slug:slug>/", club_views.club_public, name="club_public"),
    path("club/<slug:slug>/logo/", club_views.club_logo, name="club_logo"),
    path("invitation/<str:invitation_token>/", club_views.invitation, name="invitation"),
]
