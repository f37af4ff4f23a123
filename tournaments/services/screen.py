"""The director's messages on the screens (the projectors and every « Ma soirée » page)."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.access import require_organiser
from tournaments.models import SCREEN_MESSAGE_LENGTH, ScreenMessage, Tournament
from tournaments.signals import screen_messages_changed

# The longest time a message may be given (a whole night).
SCREEN_MESSAGE_MAX_MINUTES = 24 * 60


def screen_message_errors(*, text: str, minutes: int | None) -> dict[str, str]:
    """What is wrong with a message, by field (French first through gettext)."""
    errors: dict[str, str] = {}
    if not text.strip():
        errors["text"] = _("Write the message to show.")
    elif len(text.strip()) > SCREEN_MESSAGE_LENGTH:
        errors["text"] = _("A message has at most %(limit)s characters (this one has %(count)s).") % {
            "limit": SCREEN_MESSAGE_LENGTH,
            "count": len(text.strip()),
        }
    if minutes is not None and not 1 <= minutes <= SCREEN_MESSAGE_MAX_MINUTES:
        errors["minutes"] = _("Between 1 and %(limit)s minutes, or empty to keep it until withdrawn.") % {
            "limit": SCREEN_MESSAGE_MAX_MINUTES
        }
    return errors


@transaction.atomic
def screen_message_post(*, by: User, tournament: Tournament, text: str, minutes: int | None = None) -> ScreenMessage:
    """Show `text` on the tournament's screens, for `minutes` or until withdrawn."""
    require_organiser(by, tournament.club)
    errors = screen_message_errors(text=text, minutes=minutes)
    if errors:
        raise ValidationError(errors)
    now = timezone.now()
    expires = now + datetime.timedelta(minutes=minutes) if minutes else None
    message = ScreenMessage.objects.create(tournament=tournament, text=text.strip(), expires_at=expires, author=by)
    _changed(tournament.pk)
    return message


@transaction.atomic
def screen_message_withdraw(*, by: User, message: ScreenMessage) -> ScreenMessage:
    """Take the message off the screens (they drop it on their next poll)."""
    require_organiser(by, message.tournament.club)
    locked = ScreenMessage.objects.select_for_update().get(pk=message.pk)
    if locked.withdrawn_at is None:
        locked.withdrawn_at = timezone.now()
        locked.save(update_fields=["withdrawn_at"])
        _changed(locked.tournament_id)
    return locked


def _changed(tournament_id: int) -> None:
    """Tell whoever listens (tournaments.signals.screen_messages_changed) once committed."""
    transaction.on_commit(
        lambda: screen_messages_changed.send_robust(sender=ScreenMessage, tournament_id=tournament_id)
    )
