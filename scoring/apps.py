from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        # `tasks` is imported for its registrations: the services queue the tasks by name
        # (scoring/enqueue.py), and this process must find each one, to run it at once
        # when there is no broker.
        from django.db.models.signals import post_delete, post_save, pre_save

        from kit.fastjson import use_for_psycopg
        from scoring import receivers, tasks  # noqa: F401
        from tournaments.models import Player, Tournament
        from tournaments.signals import (
            names_erased,
            players_merged,
            screen_messages_changed,
            standings_refresh_requested,
        )

        use_for_psycopg()
        # What tournaments/ tells whoever keeps a ranking, without importing scoring/.
        standings_refresh_requested.connect(receivers.standings_refresh, dispatch_uid="scoring.standings_refresh")
        names_erased.connect(receivers.names_erased, dispatch_uid="scoring.names_erased")
        players_merged.connect(receivers.players_merged, dispatch_uid="scoring.players_merged")
        screen_messages_changed.connect(
            receivers.screen_messages_changed, dispatch_uid="scoring.screen_messages_changed"
        )
        # The public draws' files follow the draw and the names it shows (scoring/live_draw.py).
        standings_refresh_requested.connect(receivers.draw_changed, dispatch_uid="scoring.live_draw_changed")
        names_erased.connect(receivers.names_erased_in_draws, dispatch_uid="scoring.live_draw_names_erased")
        players_merged.connect(receivers.names_erased_in_draws, dispatch_uid="scoring.live_draw_players_merged")
        post_save.connect(receivers.player_saved, sender=Player, dispatch_uid="scoring.live_draw_player_saved")
        # The public rankings' files follow their tournament (scoring/live_files.py).
        pre_save.connect(receivers.tournament_saving, sender=Tournament, dispatch_uid="scoring.live_files_saving")
        post_save.connect(receivers.tournament_saved, sender=Tournament, dispatch_uid="scoring.live_files_saved")
        post_delete.connect(receivers.tournament_deleted, sender=Tournament, dispatch_uid="scoring.live_files_deleted")
