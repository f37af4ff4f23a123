"""The director's round actions and desk (the tournament's dashboard and its in-place
actions), mounted at /manage/ in the namespace "manage" beside the tournaments' pages
(atout/urls.py joins the two lists)."""

from django.urls import path

from rounds import desk, views

urlpatterns = [
    path("tournament/<int:pk>/", desk.dashboard, name="dashboard"),
    path("tournament/<int:pk>/round-status/", desk.dashboard_round, name="dashboard_round"),
    path("tournament/<int:pk>/competitors/<int:competitor_id>/check-in/", desk.competitor_check_in, name="check_in"),
    path("tournament/<int:pk>/competitors/check-in-all/", desk.check_in_all, name="check_in_all"),
    path("tournament/<int:pk>/competitors/<int:competitor_id>/withdraw/", desk.competitor_withdraw, name="withdraw"),
    path("tournament/<int:pk>/competitors/<int:competitor_id>/reinstate/", desk.competitor_reinstate, name="reinstate"),
    path("tournament/<int:pk>/competitors/<int:competitor_id>/payment/", desk.competitor_payment, name="payment"),
    path("tournament/<int:pk>/competitors/<int:competitor_id>/receipt/", desk.competitor_receipt, name="receipt"),
    path("tournament/<int:pk>/competitors/<int:competitor_id>/link/", desk.competitor_link, name="competitor_link"),
    path("tournament/<int:pk>/room/", desk.dashboard_room, name="dashboard_room"),
    path("tournament/<int:pk>/door/", desk.door, name="door"),
    path("tournament/<int:pk>/door/poster/", desk.door_poster, name="door_poster"),
    path("tournament/<int:pk>/door/link/", desk.door_link, name="door_link"),
    path("tournament/<int:pk>/screen/", desk.screen_message_post, name="screen_message"),
    path(
        "tournament/<int:pk>/screen/<int:message_id>/withdraw/",
        desk.screen_message_withdraw,
        name="screen_message_withdraw",
    ),
    path("tournament/<int:pk>/rounds/draw/", views.round_draw, name="round_draw"),
    path("tournament/<int:pk>/rounds/<int:number>/redraw/", views.round_redraw, name="round_redraw"),
    path("tournament/<int:pk>/rounds/<int:number>/close/", views.round_close, name="round_close"),
    path("tournament/<int:pk>/rounds/<int:number>/clock/", views.round_clock, name="round_clock"),
]
