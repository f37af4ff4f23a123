"""Public URLs of one tournament, mounted at /t/<slug>/ (namespace "draw").

The draw of a round (`draw:round`) is scoring's (scoring.urls.draw_patterns), added to this
namespace by atout/urls.py: its page wraps a public tournament's files (scoring/live_screens.py)."""

from django.urls import path

from tournaments import online_views, public_views

app_name = "draw"

# The draw's page of a round, "round/<int:number>/draw/" (name "round"), is scoring's: a
# public tournament's wraps the draw's file (scoring/urls.py `draw_patterns` adds it here).
urlpatterns = [
    path("clock/", public_views.round_clock, name="clock"),
    path("screen/", public_views.screen, name="screen"),
    path("seat/", public_views.seat_finder, name="seat"),
    path("seat/qr.svg", public_views.seat_finder_qr, name="seat_qr"),
    path("rules/", public_views.rules_sheet, name="rules"),
    # « S'inscrire »: registration online (tournaments/online_views.py).
    path("register/", online_views.register, name="register"),
    path("register/done/", online_views.register_done, name="register_done"),
]
