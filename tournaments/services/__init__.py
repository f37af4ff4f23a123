"""Every write of the tournament side, one function per use case, each in a transaction.

One module per seam (`players`, `tournament`, `registration`, `bulk` for registering many
at once, `money` for entry fees and lots, `clubs` for clubs and their people, `privacy` for
the players' data rights, `merge` for two records of one player, `club_log` for the club's
log, `door` for the players' self check-in, `online` for registration online); import
them from here (`from tournaments import services`), which is the services' one address. Drawing and
closing rounds need the results and the ranking: their services are in rounds/services.py,
above scoring.

Services are named `<noun>_<verb>`, take keyword arguments only, and take `by`, the user
acting: each one checks through `tournaments.access` that `by` organises the club
concerned (PermissionDenied otherwise) before it changes anything; the door's check-in
alone takes the door's secret link instead (`door_check_in`: the players have no account). A rule broken by the
request raises `ValidationError`, keyed by the field it concerns when there is one, with a
message in the active language; views show it beside that field.

What may change when, by tournament status:

- *draft*: everything; nobody can register yet.
- *registration*: everything; players register and check in (*pointage*).
- *running*: rounds are drawn and played; the game, format, end of a partie, rule options
  and ranking criteria are fixed; late arrivals may still join before round 2. Once the
  first round is drawn, the seating of tarot à 4 and à 5 (tables of 4 or of 5 first,
  tables of 3 allowed or not) is fixed too.
- *finished*: only the name, date and visibility. The entry fee changes until then;
  payments and the prize list (*lots*) at any status (`money`).

Terms (late arrival): docs/glossary.md. The rounds a late arrival missed are recorded as
byes with reason "late", which the bye policy credits.
"""

from tournaments.services.bulk import BulkResult, PastedLine, competitors_register_many, pasted_lines_read
from tournaments.services.clubs import (
    INVITATION_LIFETIME,
    club_create,
    club_update,
    invitation_accept,
    invitation_accept_new_account,
    invitation_cancel,
    invitation_create,
    invitation_open,
    member_remove,
    member_set_role,
)
from tournaments.services.door import DoorAnswer, door_check_in, door_link_renew, door_link_revoke, door_open
from tournaments.services.merge import MergePreview, players_merge, players_merge_preview
from tournaments.services.money import (
    competitor_owes,
    competitor_set_payment,
    prize_add,
    prize_delete,
    prize_money_set,
    prize_update,
)

# The withdrawal with the waiting list of registration online moving up into the place freed.
from tournaments.services.online import competitor_withdraw
from tournaments.services.players import (
    SAME_PERSON,
    NewPlayer,
    player_create,
    player_update,
    players_import,
    players_import_preview,
)
from tournaments.services.privacy import ErasedPlayers, anonymous_name, identity_digests, player_anonymise
from tournaments.services.registration import (
    competitor_check_in,
    competitor_link_renew,
    competitor_link_revoke,
    competitor_register,
    competitor_reinstate,
    competitors_check_in_all,
    forbidden_pair_add,
    forbidden_pair_remove,
)
from tournaments.services.screen import (
    SCREEN_MESSAGE_MAX_MINUTES,
    screen_message_errors,
    screen_message_post,
    screen_message_withdraw,
)
from tournaments.services.tournament import (
    EDITABLE_WHEN_FINISHED,
    FIXED_ONCE_DRAWN,
    LOCKED_WHEN_RUNNING,
    TRANSITIONS,
    tournament_create,
    tournament_frozen_fields,
    tournament_set_status,
    tournament_settings_errors,
    tournament_update,
)

__all__ = [
    "EDITABLE_WHEN_FINISHED",
    "FIXED_ONCE_DRAWN",
    "INVITATION_LIFETIME",
    "LOCKED_WHEN_RUNNING",
    "SAME_PERSON",
    "SCREEN_MESSAGE_MAX_MINUTES",
    "TRANSITIONS",
    "BulkResult",
    "DoorAnswer",
    "ErasedPlayers",
    "MergePreview",
    "NewPlayer",
    "PastedLine",
    "anonymous_name",
    "club_create",
    "club_update",
    "competitor_check_in",
    "competitor_link_renew",
    "competitor_link_revoke",
    "competitor_owes",
    "competitor_register",
    "competitor_reinstate",
    "competitor_set_payment",
    "competitor_withdraw",
    "competitors_check_in_all",
    "competitors_register_many",
    "door_check_in",
    "door_link_renew",
    "door_link_revoke",
    "door_open",
    "forbidden_pair_add",
    "forbidden_pair_remove",
    "identity_digests",
    "invitation_accept",
    "invitation_accept_new_account",
    "invitation_cancel",
    "invitation_create",
    "invitation_open",
    "member_remove",
    "member_set_role",
    "pasted_lines_read",
    "player_anonymise",
    "player_create",
    "player_update",
    "players_import",
    "players_import_preview",
    "players_merge",
    "players_merge_preview",
    "prize_add",
    "prize_delete",
    "prize_money_set",
    "prize_update",
    "screen_message_errors",
    "screen_message_post",
    "screen_message_withdraw",
    "tournament_create",
    "tournament_frozen_fields",
    "tournament_set_status",
    "tournament_settings_errors",
    "tournament_update",
]
