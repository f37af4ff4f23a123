"""The organiser's URLs, mounted at /manage/ in the namespace "manage" with the rounds'
actions and the tournament's dashboard (rounds/urls.py; atout/urls.py joins the two lists)."""

from django.urls import path

from tournaments import club_views, desk_views, money_views, online_views, views

urlpatterns = [
    path("", views.clubs, name="clubs"),
    path("clubs/new/", club_views.club_create, name="club_create"),
    path("club/<int:club_id>/", views.club, name="club"),
    path("club/<int:club_id>/settings/", club_views.club_settings, name="club_settings"),
    path("club/<int:club_id>/members/", club_views.members, name="members"),
    path("club/<int:club_id>/members/<int:membership_id>/role/", club_views.member_role, name="member_role"),
    path("club/<int:club_id>/members/<int:membership_id>/remove/", club_views.member_remove, name="member_remove"),
    path(
        "club/<int:club_id>/invitations/<int:invitation_id>/cancel/",
        club_views.invitation_cancel,
        name="invitation_cancel",
    ),
    path("club/<int:club_id>/players/", views.players, name="players"),
    path("club/<int:club_id>/players/add/", views.player_add, name="player_add"),
    path("club/<int:club_id>/players/<int:player_id>/", views.player_edit, name="player_edit"),
    path("club/<int:club_id>/players/import/", views.players_import, name="players_import"),
    path("club/<int:club_id>/players/merge/", desk_views.players_merge, name="players_merge"),
    path("club/<int:club_id>/log/", desk_views.club_log, name="club_log"),
    path(
        "club/<int:club_id>/players/<int:player_id>/anonymise/",
        club_views.player_anonymise,
        name="player_anonymise",
    ),
    path("club/<int:club_id>/tournaments/new/", views.tournament_create, name="tournament_create"),
    path("tournament/<int:pk>/edit/", views.tournament_edit, name="tournament_edit"),
    path("tournament/<int:pk>/status/", views.tournament_status, name="tournament_status"),
    path("tournament/<int:pk>/register/", desk_views.register, name="register"),
    path("tournament/<int:pk>/register/ticked/", desk_views.register_ticked, name="register_ticked"),
    path("tournament/<int:pk>/register/pasted/", desk_views.register_pasted, name="register_pasted"),
    path("tournament/<int:pk>/online/", online_views.entries, name="online"),
    path("tournament/<int:pk>/online/<int:entry_id>/", online_views.entry_decide, name="online_decide"),
    path("tournament/<int:pk>/online/pair/", online_views.entries_pair, name="online_pair"),
    path("tournament/<int:pk>/prizes/", money_views.prizes, name="prizes"),
    path("tournament/<int:pk>/prizes/money/", money_views.prize_money, name="prize_money"),
    path("tournament/<int:pk>/prizes/<int:prize_id>/", money_views.prize_edit, name="prize_edit"),
    path("tournament/<int:pk>/prizes/<int:prize_id>/delete/", money_views.prize_delete, name="prize_delete"),
    path("tournament/<int:pk>/payments/", money_views.payments, name="payments"),
    path("tournament/<int:pk>/payments.csv", money_views.payments_csv, name="payments_csv"),
    path("tournament/<int:pk>/forbidden/", views.forbidden, name="forbidden"),
    path("tournament/<int:pk>/forbidden/<int:pair_id>/delete/", views.forbidden_delete, name="forbidden_delete"),
    path("tournament/<int:pk>/rounds/<int:number>/print/", views.round_print, name="round_print"),
]
