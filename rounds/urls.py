"""The director's round actions, mounted at /manage/ in the namespace "manage" beside the
tournaments' pages (atout/urls.py joins the two lists)."""

from django.urls import path

from rounds import views

urlpatterns = [
    path("tournament/<int:pk>/rounds/draw/", views.round_draw, name="round_draw"),
    path("tournament/<int:pk>/rounds/<int:number>/redraw/", views.round_redraw, name="round_redraw"),
    path("tournament/<int:pk>/rounds/<int:number>/close/", views.round_close, name="round_close"),
    path("tournament/<int:pk>/rounds/<int:number>/clock/", views.round_clock, name="round_clock"),
]
