"""Every write to hands: entry at the table, the referee's undo and correction, the
director's corrections and deletions, confirmation by the other side, table links.

Terms (donne number, idempotency key, expected number and conflict, pending hand):
docs/glossary.md. Deleting a donne moves the later ones up, so numbers keep no gaps.

Concurrency: every service runs in one transaction and first locks the table's row
(`select_for_update`), so writers of one table queue up while other tables go on; the
unique constraints on (table, number) and (table, idempotency_key) back that up. Each
write that changes a TableResult asks for a standings refresh once it has committed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from engine.core import Number, OptionError, RuleError
from engine.match import MatchResult
from scoring.messages import rule_error_text, rule_errors_by_field
from scoring.models import Hand, HandRevision, RefereeCall, TableResult
from scoring.partie import (
    hand_errors,
    partie_play,
    score_fields,
    scored_fields,
    table_game,
    table_result_write,
    tournament_options,
)
from scoring.standings import standings_schedule_refresh
from tournaments.models import Round, Table, Tournament, new_table_token

IDEMPOTENCY_KEY_MAX = 64
# The refusal of an idempotency key sent again with another hand than the one stored under it.
KEY_REUSED = "idempotency_key_reused"
# The refusal of an entry whose hand was stored, then deleted here: what this site removed
# stays removed, whatever resend comes later (its DELETE revision keeps the key).
HAND_REMOVED = "hand_removed"
# The reason a hand's history gives for an entry sent again from a referee's phone.
RECOVERED_REASON = gettext_noop("Sent again from the referee's phone: the server had lost it (a copy restored).")


class HandRefused(Exception):
    """The write was refused; `errors` say why, their fields relative to the hand."""

    def __init__(self, errors: Sequence[RuleError]) -> None:
        super().__init__("; ".join(error.message for error in errors))
        self.errors: tuple[RuleError, ...] = tuple(errors)

    def by_field(self) -> dict[str, list[str]]:
        """The reasons in the active language, grouped by the hand's field ("" for the hand)."""
        return rule_errors_by_field(self.errors)


@dataclass(frozen=True)
class HandOutcome:
    """What a write did: the hand concerned, and how it came to be.

    `created`: a new hand was stored. `replayed`: the idempotency key was seen before and
    `hand` is the hand stored then. `conflict`: the donne the caller meant to enter was
    stored already (from another phone); `hand` is that one and nothing was written.
    """

    hand: Hand | None
    created: bool = False
    replayed: bool = False
    conflict: bool = False
    result: TableResult | None = None
    # The table's hands once the write is done (when the service read them anyway), and
    # the engine's partie of them, so that the page showing the sheet needs neither read
    # them nor play them again.
    hands: tuple[Hand, ...] | None = None
    played: MatchResult | None = None


def _refusal(code: str, template: str, field_path: str = "", **params: Any) -> HandRefused:
    return HandRefused([RuleError(field_path, code, template, params)])


def _require_side(table: Table, side: int | None, field_path: str) -> None:
    """Refuse a side the table does not have: its game's sides are 0 to n - 1 (two teams at
    belote at four, each player at the games for three and at tarot's four or five)."""
    if side is None:
        return
    count = len(table_game(table).sides)
    if not 0 <= side < count:
        raise _refusal(
            "bad_side",
            gettext_noop("There is no side {side} at this table: its sides are 0 to {last}."),
            field_path,
            side=side,
            last=count - 1,
        )


def _lock_table(table: Table) -> Table:
    """Lock the table's row for this transaction; return the table, its round as it is now.

    Only the table row is locked (`FOR UPDATE OF`), never its round or tournament, so the
    other tables of the room keep writing while this one waits. Plain SQL: this runs for
    every donne, and the ORM spends more time building the joined locking query than
    the database spends running it.
    """
    # Only the models' own table names are put in the SQL; the id goes as a parameter.
    tables, rounds = Table._meta.db_table, Round._meta.db_table
    # SQLite has no row locks: its writers already queue for the whole database.
    lock = " FOR UPDATE OF t" if connection.features.has_select_for_update_of else ""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT r.status FROM {tables} t JOIN {rounds} r ON r.id = t.round_id WHERE t.id = %s{lock}",
            [table.pk],
        )
        row = cursor.fetchone()
    if row is None:
        raise Table.DoesNotExist(f"no table {table.pk}")
    # The round read under the lock: a round closed meanwhile refuses this write.
    table.round.status = row[0]
    return table


def _hands(table: Table) -> list[Hand]:
    return list(Hand.objects.filter(table=table).order_by("number"))


def _play(table: Table, raws: Sequence[Any]) -> MatchResult:
    try:
        return partie_play(table.round.tournament, raws, table_game(table))
    except OptionError:
        # The tournament's stored options are the director's configuration, not the
        # referee's input: say so rather than fail.
        raise _refusal(
            "bad_rule_options",
            gettext_noop("The tournament's rule options are not valid: ask the director to check them."),
        ) from None


class HandState(TypedDict):
    """A hand as a revision keeps it, before or after a change (HandRevision.before/after)."""

    number: int
    raw: Any  # the hand as entered (the engine's hand object, as JSON)
    scores: list[Number]
    outcome: str
    reserve_in: int
    reserve_out: int
    status: str
    options: dict[str, Any]  # the rule options it was scored with
    confirmed_by_side: NotRequired[int]  # after a confirmation: the side that agreed


def _snapshot(hand: Hand) -> HandState:
    """A hand as a revision keeps it (before or after a change)."""
    return {
        "number": hand.number,
        "raw": hand.raw,
        "scores": hand.scores,
        "outcome": hand.outcome,
        "reserve_in": hand.reserve_in,
        "reserve_out": hand.reserve_out,
        "status": hand.status,
        "options": hand.options,
    }


def _revision(
    hand: Hand,
    action: str,
    *,
    before: HandState | None,
    after: HandState | None,
    reason: str = "",
    author: User | None = None,
    author_label: str = "",
) -> HandRevision:
    return HandRevision.objects.create(
        table_id=hand.table_id,
        hand=hand,
        number=hand.number,
        action=action,
        before=before,
        after=after,
        reason=reason,
        author=author if author is not None and author.is_authenticated else None,
        author_label=author_label[:120],
        # A deletion keeps the key: the tombstone that hand_submit reads.
        idempotency_key=hand.idempotency_key if action == HandRevision.Action.DELETE else None,
    )


def _refresh(table: Table, hands: Sequence[Hand] | None = None, played: MatchResult | None = None) -> TableResult:
    """Rewrite the TableResult; once committed, ask for the standings if it changed.

    `hands` are all the table's hands now and `played` their partie, when the caller has them.
    """
    result, changed = table_result_write(table, hands, played)
    if changed:
        tournament_id = table.round.tournament_id
        transaction.on_commit(lambda: standings_schedule_refresh(tournament_id=tournament_id))
    return result


def _check_entry(result: MatchResult, index: int) -> None:
    """Refuse the partie when hand `index` (or any earlier hand) breaks a rule."""
    own = hand_errors(result, index)
    if own:
        raise HandRefused(own)
    prefix = f"hands.{index}"
    earlier = [error for error in result.errors if error.field != prefix and not error.field.startswith(prefix + ".")]
    if earlier:
        raise _later_donne_refusal(earlier[0])


def _later_donne_refusal(error: RuleError) -> HandRefused:
    """Another donne of the partie breaks a rule once this change is made."""
    parts = error.field.split(".")
    number = int(parts[1]) + 1 if len(parts) > 1 and parts[1].isdigit() else 0
    return _refusal(
        "other_donne",
        gettext_noop("Donne {number} would no longer be valid: {problem}"),
        number=number,
        problem=rule_error_text(error),
    )


def _rescore(
    tournament: Tournament,
    hands: Sequence[Hand],
    result: MatchResult,
    *,
    skip: Hand | None = None,
    author: User | None = None,
    author_label: str = "",
    reason: str = "",
) -> None:
    """Store the partie's scores on each hand whose score moved (reserves ripple on).

    A correction to one donne can change what the next ones score (a litige reserve, a
    belote moderne multiplier held in it), so every later hand is written again from
    the engine's partie and keeps a `rescore` revision of the change.
    """
    options = tournament_options(tournament)
    for hand, fields in zip(hands, scored_fields(result), strict=False):
        if hand is skip:
            continue
        current = {name: getattr(hand, name) for name in fields}
        if current == fields and hand.options == options:
            continue
        before = _snapshot(hand)
        for name, value in fields.items():
            setattr(hand, name, value)
        hand.options = options
        hand.version += 1
        hand.save()
        _revision(
            hand,
            HandRevision.Action.RESCORE,
            before=before,
            after=_snapshot(hand),
            reason=reason,
            author=author,
            author_label=author_label,
        )


def _require_open(rnd: Round) -> None:
    if rnd.status != Round.Status.OPEN:
        raise _refusal(
            "round_closed",
            gettext_noop("Round {number} is closed: hands can no longer be entered from the table."),
            number=rnd.number,
        )


def _reason_required(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise _refusal("reason_required", gettext_noop("Give the reason for this change."), "reason")
    return reason


# -- entry at the table ----------------------------------------------------------------


def _require_same_entry(stored: Hand, raw: Any) -> None:
    """Refuse a key sent again with another hand: a replay must be the entry it stood for.

    The entry first sent with the key is what its CREATE revision kept (the hand itself
    may have been corrected since, and a resend of the first entry is still a replay).
    """
    if stored.raw == raw:
        return
    first = stored.revisions.filter(action=HandRevision.Action.CREATE).values_list("after", flat=True).first()
    if isinstance(first, dict) and first.get("raw") == raw:
        return
    raise _refusal(
        KEY_REUSED,
        gettext_noop(
            "This entry's key was already used for donne {number}, with another hand: nothing was stored. "
            "Check the sheet, then send this hand again as a new donne if it is one."
        ),
        number=stored.number,
    )


def _require_not_removed(table: Table, key: str) -> None:
    """Refuse an entry whose hand was stored under `key`, then deleted (undone at the
    table, deleted by the director): a resend must not bring it back."""
    removed = (
        HandRevision.objects.filter(table=table, action=HandRevision.Action.DELETE, idempotency_key=key)
        .order_by("-at")
        .values_list("number", flat=True)
        .first()
    )
    if removed is not None:
        raise _refusal(
            HAND_REMOVED,
            gettext_noop(
                "This entry was stored as donne {number}, then deleted from the sheet: it is not stored again."
            ),
            number=removed,
        )


@transaction.atomic
def hand_submit(
    *,
    table: Table,
    raw: Any,
    idempotency_key: str | None = None,
    expected_number: int | None = None,
    entered_by: User | None = None,
    via: str = Hand.Via.REFEREE,
    author_label: str = "",
    entered_side: int | None = None,
    recovered: bool = False,
) -> HandOutcome:
    """Store the next donne of `table` as entered (`raw`), scored by the engine.

    Refused (HandRefused) when the round is closed (except for the director), when the
    partie is already over, or when the hand breaks a rule; every error is given with
    its field. A known idempotency key returns the hand stored with it, and the key of a
    hand deleted since is refused (HAND_REMOVED); an `expected_number` already taken
    returns that donne as a conflict. `recovered`: the entry comes from a phone's journal,
    which the server had acknowledged and lost since (a copy restored); a hand it stores
    says so (`recovered_from_phone`, and its revision's reason).
    """
    locked = _lock_table(table)
    tournament = locked.round.tournament
    key = (idempotency_key or "").strip() or None
    if key is not None and len(key) > IDEMPOTENCY_KEY_MAX:
        raise _refusal("bad_key", gettext_noop("This entry's key is too long; reload the page."))
    # Every hand of the table, read under the lock: the key check and the next number
    # both come from this one read.
    hands = _hands(locked)
    stored = next((hand for hand in hands if key is not None and hand.idempotency_key == key), None)
    if stored is not None:
        _require_same_entry(stored, raw)
        return HandOutcome(hand=stored, replayed=True, result=TableResult.objects.filter(table=locked).first())
    if key is not None:
        _require_not_removed(locked, key)
    if via != Hand.Via.DIRECTOR:
        _require_open(locked.round)
    number = hands[-1].number + 1 if hands else 1
    if expected_number is not None and expected_number != number:
        taken = next((hand for hand in hands if hand.number == expected_number), None)
        if taken is not None:
            return HandOutcome(hand=taken, conflict=True, result=TableResult.objects.filter(table=locked).first())
        raise _refusal(
            "sheet_changed",
            gettext_noop("The table sheet has changed: donne {number} is the next one. Check and send again."),
            number=number,
        )
    _require_side(locked, entered_side, "entered_side")
    result = _play(locked, [hand.raw for hand in hands] + [raw])
    _check_entry(result, len(hands))
    score = result.scores[len(hands)]
    reserve_in = hands[-1].reserve_out if hands else 0
    pending = tournament.confirmation_required and via == Hand.Via.REFEREE
    hand = Hand.objects.create(
        table=locked,
        number=number,
        raw=raw,
        options=tournament_options(tournament),
        status=Hand.Status.PENDING if pending else Hand.Status.CONFIRMED,
        entered_by=entered_by if entered_by is not None and entered_by.is_authenticated else None,
        entered_via=via,
        entered_side=entered_side,
        idempotency_key=key,
        recovered_from_phone=recovered,
        **score_fields(score, reserve_in),
    )
    _revision(hand, HandRevision.Action.CREATE, before=None, after=_snapshot(hand), author=entered_by,
              author_label=author_label, reason=RECOVERED_REASON if recovered else "")  # fmt: skip
    hands.append(hand)
    return HandOutcome(
        hand=hand, created=True, result=_refresh(locked, hands, result), hands=tuple(hands), played=result
    )


def _last_hand_for_referee(locked: Table, expected_number: int | None) -> tuple[list[Hand], Hand]:
    """The table's hands and its last one, if the referee may still change it."""
    _require_open(locked.round)
    hands = _hands(locked)
    if not hands:
        raise _refusal("no_hand", gettext_noop("No donne has been entered yet."))
    last = hands[-1]
    if expected_number is not None and expected_number != last.number:
        raise _refusal(
            "sheet_changed",
            gettext_noop("The table sheet has changed: donne {number} is the last one. Check it and try again."),
            number=last.number,
        )
    if _play(locked, [hand.raw for hand in hands]).finished:
        raise _refusal(
            "partie_finished",
            gettext_noop("The partie is over: only the director can change its donnes now."),
        )
    return hands, last


@transaction.atomic
def hand_undo_last(*, table: Table, expected_number: int | None = None, author_label: str = "") -> Hand:
    """Take back the table's last donne (the referee, until the partie is over).

    Returns the removed hand (no longer in the database; its revision stays).
    """
    locked = _lock_table(table)
    _hands_list, last = _last_hand_for_referee(locked, expected_number)
    _revision(
        last,
        HandRevision.Action.DELETE,
        before=_snapshot(last),
        after=None,
        reason=gettext_noop("Undone at the table"),
        author_label=author_label,
    )
    last.delete()
    _refresh(locked)
    return last


@transaction.atomic
def hand_correct_last(
    *,
    table: Table,
    raw: Any,
    expected_number: int | None = None,
    author_label: str = "",
    entered_side: int | None = None,
) -> HandOutcome:
    """Replace the table's last donne with a corrected entry (the referee, until the end).

    At a tournament with confirmation, the corrected hand waits for confirmation again.
    """
    locked = _lock_table(table)
    hands, last = _last_hand_for_referee(locked, expected_number)
    tournament = locked.round.tournament
    _require_side(locked, entered_side, "entered_side")
    result = _play(locked, [hand.raw for hand in hands[:-1]] + [raw])
    _check_entry(result, len(hands) - 1)
    before = _snapshot(last)
    last.raw = raw
    last.options = tournament_options(tournament)
    for name, value in score_fields(result.scores[-1], last.reserve_in).items():
        setattr(last, name, value)
    if tournament.confirmation_required:
        last.status = Hand.Status.PENDING
        last.entered_side = entered_side
    last.version += 1
    last.save()
    _revision(
        last,
        HandRevision.Action.UPDATE,
        before=before,
        after=_snapshot(last),
        reason=gettext_noop("Corrected at the table"),
        author_label=author_label,
    )
    return HandOutcome(hand=last, result=_refresh(locked, hands, result))


@transaction.atomic
def hand_confirm(*, hand: Hand, side: int, author_label: str = "") -> Hand:
    """A player of `side` agrees with a pending hand: from now on it counts.

    Refused when `side` is the side that entered it (the other side must agree), when it
    is not a side of the game, or when the round is closed.
    """
    locked = _lock_table(hand.table)
    _require_open(locked.round)
    current = Hand.objects.filter(pk=hand.pk, table=locked).first()
    if current is None:
        raise _refusal("hand_gone", gettext_noop("This donne is no longer on the sheet."))
    _require_side(locked, side, "side")
    if current.status == Hand.Status.CONFIRMED:
        return current
    if current.entered_side is not None and current.entered_side == side:
        raise _refusal(
            "same_side",
            gettext_noop("A player of another side must confirm the donne, not the side that entered it."),
            "side",
        )
    before = _snapshot(current)
    current.status = Hand.Status.CONFIRMED
    current.version += 1
    current.save(update_fields=["status", "version", "updated_at"])
    _revision(
        current,
        HandRevision.Action.CONFIRM,
        before=before,
        after=_snapshot(current) | {"confirmed_by_side": side},
        author_label=author_label,
    )
    _refresh(locked)
    return current


# -- the director ----------------------------------------------------------------------


@transaction.atomic
def hand_correct(*, hand: Hand, raw: Any, reason: str, by: User | None) -> HandOutcome:
    """The director replaces any donne of any table, at any time, giving a reason.

    The whole partie is scored again: a correction ripples through the litige reserves
    and can move the end. A correction that would leave another donne invalid (a donne
    after the new end, say) is refused with that donne's number. The corrected hand
    counts at once: the director's word needs no confirmation.
    """
    reason = _reason_required(reason)
    locked = _lock_table(hand.table)
    tournament = locked.round.tournament
    hands = _hands(locked)
    index = next((i for i, stored in enumerate(hands) if stored.pk == hand.pk), None)
    if index is None:
        raise _refusal("hand_gone", gettext_noop("This donne is no longer on the sheet."))
    raws = [stored.raw for stored in hands]
    raws[index] = raw
    result = _play(locked, raws)
    _check_entry(result, index)
    target = hands[index]
    before = _snapshot(target)
    target.raw = raw
    target.status = Hand.Status.CONFIRMED
    reserve_in = hands[index - 1].reserve_out if index else 0
    for name, value in score_fields(result.scores[index], reserve_in).items():
        setattr(target, name, value)
    target.options = tournament_options(tournament)
    target.version += 1
    target.save()
    _revision(target, HandRevision.Action.UPDATE, before=before, after=_snapshot(target), reason=reason, author=by)
    _rescore(tournament, hands, result, skip=target, author=by, reason=reason)
    return HandOutcome(hand=target, result=_refresh(locked, hands, result))


@transaction.atomic
def hand_delete(*, hand: Hand, reason: str, by: User | None) -> TableResult:
    """The director removes any donne, giving a reason; the later donnes move up one.

    The revision keeps the hand as it was; the remaining partie is scored again.
    """
    reason = _reason_required(reason)
    locked = _lock_table(hand.table)
    tournament = locked.round.tournament
    target = Hand.objects.filter(pk=hand.pk, table=locked).first()
    if target is None:
        raise _refusal("hand_gone", gettext_noop("This donne is no longer on the sheet."))
    _revision(target, HandRevision.Action.DELETE, before=_snapshot(target), after=None, reason=reason, author=by)
    number = target.number
    target.delete()
    # Renumber one row at a time, lowest first: (table, number) is unique at every step.
    for later in Hand.objects.filter(table=locked, number__gt=number).order_by("number"):
        later.number -= 1
        later.save(update_fields=["number", "updated_at"])
    hands = _hands(locked)
    result = _play(locked, [stored.raw for stored in hands])
    _rescore(tournament, hands, result, author=by, reason=reason)
    return _refresh(locked, hands, result)


@transaction.atomic
def table_token_revoke(*, table: Table, by: User | None = None) -> Table:
    """The table's link stops working at once (a lost phone, a link shared too widely)."""
    locked = _lock_table(table)
    locked.token_revoked = True
    locked.save(update_fields=["token_revoked"])
    return locked


@transaction.atomic
def table_token_renew(*, table: Table, by: User | None = None) -> Table:
    """A new secret link for the table; the old one stops working (print the new QR code)."""
    locked = _lock_table(table)
    locked.token = new_table_token()
    locked.token_revoked = False
    locked.save(update_fields=["token", "token_revoked"])
    return locked


@transaction.atomic
def referee_call(*, table: Table, reason: str = "") -> RefereeCall:
    """The table calls the referee: its open call, or a new one. One open call per table:
    pressing again updates the reason (and counts the repeat) instead of adding a call."""
    if reason not in RefereeCall.Reason.values:
        reason = ""
    locked = _lock_table(table)
    call = RefereeCall.objects.select_for_update().filter(table=locked, handled_at=None).first()
    if call is None:
        return RefereeCall.objects.create(table=locked, reason=reason)
    call.reason = reason or call.reason
    call.repeats += 1
    call.save(update_fields=["reason", "repeats", "updated_at"])
    return call


@transaction.atomic
def referee_call_handle(*, call: RefereeCall, by: User | None = None) -> RefereeCall:
    """The director went to the table: the call leaves the dashboard (and stays in the history)."""
    locked = RefereeCall.objects.select_for_update().get(pk=call.pk)
    if locked.handled_at is None:
        locked.handled_at = timezone.now()
        locked.handled_by = by
        locked.save(update_fields=["handled_at", "handled_by", "updated_at"])
    return locked
