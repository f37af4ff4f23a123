"""A player's tournaments: the organisers' page and the public one (scoring/selectors/history.py)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from scoring.selectors.history import player_history
from tournaments import access
from tournaments.models import Player


@login_required
@require_safe
def player_history_manage(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    """Every tournament the club's player played, private ones included: organisers only."""
    club = access.club_for_user_or_403(request.user, club_id)
    player = access.player_for_user_or_403(request.user, club, player_id)
    context = {"club": club, "player": player, "played": player_history(player)}
    return render(request, "scoring/player_history.html", context)


@require_safe
def player_public(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's public tournaments, name and club only; 404 when they opted out or were anonymised."""
    player = get_object_or_404(Player.objects.select_related("club"), pk=player_id)
    if not player.followed_publicly:
        raise Http404("no public history")
    context = {"player": player, "played": player_history(player, public_only=True)}
    return render(request, "scoring/player_public.html", context)
