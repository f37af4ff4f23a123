"""The referee's pages, reached by a table's secret link (`/r/<token>/`).

One page per table: the score so far, the entry form of the game, the table sheet.
With htmx the form is checked by the engine as the referee types (`validate`, which
swaps only the error slots beside each field) and sent without reloading (`submit`,
which swaps the form and refreshes the score and the sheet out of band); without
JavaScript every action is a plain form post followed by a redirect, and a refused
entry comes back typed as it was, with its errors.

The page keeps a *journal* on the phone (static/js/referee.js): every donne the server
acknowledged for the table's open round. When the sheet no longer holds one of them (the
laptop died and a copy of its database was restored), the page sends it again here
(`journal_resend`), under its key, and the director's dashboard counts it.

Terms (donne, partie, table sheet, pending, journal): docs/glossary.md.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.contrib import messages
from django.http import HttpResponse, JsonResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from kit.requests import SiteRequest
from scoring.access import referee_table
from scoring.forms.base import ConfirmForm, HandForm
from scoring.forms.belote import BeloteForm
from scoring.forms.games import hand_form_class
from scoring.messages import rule_error_text
from scoring.models import Hand, RefereeCall
from scoring.partie import table_game, tournament_options_or_defaults
from scoring.selectors.tables import HandCheck, SideInfo, TableSheet, hand_check, table_sheet, table_sides
from scoring.services import (
    HAND_REMOVED,
    KEY_REUSED,
    HandRefused,
    hand_confirm,
    hand_correct_last,
    hand_submit,
    hand_undo_last,
    referee_call,
)
from tournaments import selectors as tournament_selectors
from tournaments.models import Table

NEW, CORRECT = "new", "correct"


def _form(table: Table, sides: list[SideInfo], data: QueryDict | None = None, **kwargs: Any) -> HandForm:
    tournament = table.round.tournament
    game = table_game(table)
    return hand_form_class(game.code)(
        data,
        game=game,
        options=tournament_options_or_defaults(tournament),
        sides=sides,
        ask_side=tournament.confirmation_required,
        **kwargs,
    )


def _new_form(table: Table, sheet: TableSheet) -> HandForm:
    # A fresh key per entry: a resend of this entry (dropped connection, offline queue)
    # carries it and gets the stored hand back instead of a second one.
    initial: dict[str, Any] = {"idempotency_key": uuid.uuid4().hex, "expected_number": sheet.next_number}
    game = table_game(table)
    mort_after = getattr(game, "mort_after", None)
    if mort_after is not None:
        # A table of five with a mort: the deal turns from the last donne's mort.
        last = sheet.last.hand.raw if sheet.last is not None else None
        initial["mort"] = str(mort_after(last.get("mort") if isinstance(last, dict) else None))
    return _form(table, sheet.sides, initial=initial)


def _correct_form(table: Table, sheet: TableSheet) -> HandForm | None:
    last = sheet.last
    if last is None:
        return None
    raw = last.hand.raw if isinstance(last.hand.raw, dict) else {}
    form = _form(table, sheet.sides, initial={"expected_number": last.number}, initial_raw=raw)
    if last.hand.entered_side is not None:
        form.initial.setdefault("entered_side", last.hand.entered_side)
    return form


def _bound(table: Table, sides: list[SideInfo], data: QueryDict) -> HandForm:
    form = _form(table, sides, data)
    form.is_valid()
    return form


def _mode(request: SiteRequest) -> str:
    return CORRECT if request.POST.get("mode") == CORRECT else NEW


def _expected(form: HandForm) -> int | None:
    value = form.cleaned_data.get("expected_number") if hasattr(form, "cleaned_data") else None
    return value if isinstance(value, int) else None


def _author_label(form: HandForm, sides: list[SideInfo]) -> str:
    side = form.entered_side
    return sides[side].label if side is not None and 0 <= side < len(sides) else ""


def _scores_text(sides: list[SideInfo], scores: list[Any]) -> str:
    return " · ".join(f"{side.label} {score}" for side, score in zip(sides, scores, strict=False))


def _preview(check: HandCheck, sides: list[SideInfo]) -> str:
    if check.score is None:
        return ""
    text = _("If sent: %(scores)s.") % {"scores": _scores_text(sides, list(check.score.scores))}
    if check.ends_partie:
        text += " " + _("This donne ends the partie.")
    return text


def _urls(table: Table) -> dict[str, str]:
    token = table.token
    return {
        name: reverse(f"referee:{name}", args=[token])
        for name in ("table", "validate", "submit", "correct_last", "undo", "sheet", "journal")
    }


def _context(
    request: SiteRequest,
    table: Table,
    sheet: TableSheet,
    *,
    form: HandForm | None,
    mode: str = NEW,
    notice: dict[str, Any] | None = None,
    preview: str = "",
) -> dict[str, Any]:
    tournament = sheet.tournament
    totals = json.dumps(form.contract_totals()) if isinstance(form, BeloteForm) else ""
    return {
        "table": table,
        "round": table.round,
        "tournament": tournament,
        "game_label": tournament.get_game_display(),
        "sheet": sheet,
        "form": None if sheet.finished and mode == NEW else form,
        "form_body": f"scoring/referee_form_{form.body}.html" if form is not None else "",
        "mode": mode,
        "notice": notice,
        "preview": preview,
        "urls": _urls(table),
        "contract_totals": totals,
        "confirmation": tournament.confirmation_required,
        "referee": True,
        # Read only where a template draws the call: the full page, and the sheet's poll
        # (the call's status out of band), not the entry form's swaps.
        "referee_call": lambda: _open_call(table),
        "call_reasons": RefereeCall.Reason.choices,
    }


def _respond(request: SiteRequest, context: dict[str, Any], *, status: int = 200) -> HttpResponse:
    """The full page, or for htmx the entry form with the score and sheet out of band."""
    template = "scoring/referee_swap.html" if request.htmx else "scoring/referee.html"
    return render(request, template, context, status=status)


def _stored_notice(hand: Hand, sheet: TableSheet, text: str, action: str) -> dict[str, Any]:
    return {
        "kind": "ok",
        "text": text,
        "scores": _scores_text(sheet.sides, list(hand.scores)),
        "journal": _journal_note(action, hand),
    }


def _journal_note(action: str, hand: Hand) -> dict[str, Any] | None:
    """What the phone's journal learns from an answer (static/js/referee.js): the entry
    under `key` was stored as donne `number`, corrected, or taken back (`action`)."""
    if not hand.idempotency_key:
        return None
    return {"action": action, "key": hand.idempotency_key, "number": hand.number}


@never_cache
@require_GET
@referee_table
def table_page(request: SiteRequest, table: Table) -> HttpResponse:
    sheet = table_sheet(table)
    return _respond(request, _context(request, table, sheet, form=_new_form(table, sheet)))


@never_cache
@require_GET
@referee_table
def sheet_part(request: SiteRequest, table: Table) -> HttpResponse:
    """The sheet alone (polled by the page, so that two phones at a table agree)."""
    sheet = table_sheet(table)
    return render(request, "scoring/referee_sheet_swap.html", _context(request, table, sheet, form=None))


@never_cache
@require_GET
@referee_table
def clock_part(request: SiteRequest, table: Table) -> HttpResponse:
    """The time left in the table's round (polled by the page; static/js/clock.js counts down)."""
    return render(request, "tournaments/clock.html", {"clock": tournament_selectors.round_clock(table.round)})


@require_POST
@referee_table
def validate(request: SiteRequest, table: Table) -> HttpResponse:
    """The engine's opinion while the referee types: only the error slots are swapped."""
    sides = table_sides(table)
    form = _bound(table, sides, request.POST)
    check = hand_check(table, form.raw(), replace_last=_mode(request) == CORRECT)
    # Fields not filled in yet are not errors while typing; the submit says so.
    form.add_rule_errors(check.errors, skip_required=True)
    context = {"form": form, "preview": _preview(check, sides), "slots_oob": True}
    return render(request, "scoring/referee_checks.html", context)


@require_POST
@referee_table
def submit(request: SiteRequest, table: Table) -> HttpResponse:
    sides = table_sides(table)
    form = _bound(table, sides, request.POST)
    if not (form.is_valid() and form.require_side()):
        form.add_rule_errors(hand_check(table, form.raw()).errors)
        return _respond(request, _context(request, table, table_sheet(table, sides), form=form))
    try:
        outcome = hand_submit(
            table=table,
            raw=form.raw(),
            idempotency_key=form.cleaned_data.get("idempotency_key") or None,
            expected_number=_expected(form),
            via=Hand.Via.REFEREE,
            author_label=_author_label(form, sides),
            entered_side=form.entered_side,
        )
    except HandRefused as refused:
        sheet = table_sheet(table, sides)
        if any(error.code in (KEY_REUSED, HAND_REMOVED) for error in refused.errors) and not sheet.finished:
            # The key went with a donne already stored (a resend edited since it left), or
            # with one deleted since: say which, and keep this entry under a new key,
            # aimed at the next donne.
            notice = {"kind": "conflict", "text": " ".join(rule_error_text(error) for error in refused.errors)}
            form = _renumbered(table, sheet, form, request.POST, new_key=True)
            return _respond(request, _context(request, table, sheet, form=form, notice=notice))
        form.add_rule_errors(refused.errors)
        if sheet.finished:
            # No form any more: say why this entry was not stored.
            notice = {"kind": "error", "text": " ".join(rule_error_text(error) for error in refused.errors)}
            return _respond(request, _context(request, table, sheet, form=None, notice=notice))
        if any(error.code == "sheet_changed" for error in refused.errors):
            form = _renumbered(table, sheet, form, request.POST)
        return _respond(request, _context(request, table, sheet, form=form))
    sheet = table_sheet(table, sides, outcome.hands, outcome.played)
    hand = outcome.hand
    assert hand is not None
    if outcome.conflict:
        notice = {
            "kind": "conflict",
            "text": _(
                "Donne %(number)s was already entered from another phone, as shown. Your entry was not stored: "
                "it is still below. If it is the next donne, check it and send it; otherwise clear it."
            )
            % {"number": hand.number},
            "scores": _scores_text(sheet.sides, list(hand.scores)),
        }
        form = _renumbered(table, sheet, form, request.POST)
        return _respond(request, _context(request, table, sheet, form=form, notice=notice))
    text = _("Donne %(number)s is stored.") % {"number": hand.number}
    if not request.htmx:
        if hand.status == Hand.Status.PENDING:
            text += " " + _("It counts once a player of another side confirms it below.")
        messages.success(request, text)
        return redirect("referee:table", token=table.token)
    notice = _stored_notice(hand, sheet, text, "stored")
    return _respond(request, _context(request, table, sheet, form=_new_form(table, sheet), notice=notice))


def _renumbered(table: Table, sheet: TableSheet, form: HandForm, data: QueryDict, *, new_key: bool = False) -> HandForm:
    """The typed entry kept as it was, now aimed at the sheet's next donne (under a new key)."""
    if sheet.finished:
        return form
    fresh = data.copy()
    fresh["expected_number"] = str(sheet.next_number)
    if new_key:
        fresh["idempotency_key"] = uuid.uuid4().hex
    renumbered = _bound(table, sheet.sides, fresh)
    for name, errors in form.errors.items():
        for error in errors:
            renumbered.add_error(None if name == "__all__" else name, error)
    return renumbered


def _journal_answer(outcome: str, status: int, message: str = "", number: int | None = None) -> JsonResponse:
    return JsonResponse({"outcome": outcome, "number": number, "message": message}, status=status)


@require_POST
@referee_table
def journal_resend(request: SiteRequest, table: Table) -> HttpResponse:
    """One donne of the phone's journal, sent again: the server had acknowledged it, and
    its sheet no longer holds it (a copy of the database restored since).

    The phone sends the entry as it was first sent, under its idempotency key and aimed
    at the donne it was stored as, naming the round and tournament it was kept for: a
    donne is never stored in another round than its own. The answer says what became of
    it (JSON `outcome`): `stored` (a hand marked `recovered_from_phone`), `held` (the
    server has it after all), `waiting` (an earlier donne is missing: send it again
    later, once another phone sent that one), `taken` (another donne holds its number
    now), `removed` (deleted here since), `refused` (the entry no longer goes in) or
    `elsewhere` (kept for another round).
    """
    rnd = table.round
    if request.POST.get("journal_round") != str(rnd.number) or request.POST.get("journal_tournament") != (
        rnd.tournament.slug
    ):
        return _journal_answer("elsewhere", 409, _("This donne was kept for another round: it is not sent here."))
    sides = table_sides(table)
    form = _bound(table, sides, request.POST)
    key = form.cleaned_data.get("idempotency_key") if form.is_valid() else None
    if not (key and form.require_side()):
        problems = " ".join(str(message) for messages_ in form.errors.values() for message in messages_)
        return _journal_answer("refused", 400, problems or _("This entry has no key: it cannot be sent again."))
    try:
        outcome = hand_submit(
            table=table,
            raw=form.raw(),
            idempotency_key=key,
            expected_number=_expected(form),
            via=Hand.Via.REFEREE,
            author_label=_author_label(form, sides),
            entered_side=form.entered_side,
            recovered=True,
        )
    except HandRefused as refused:
        codes = {error.code for error in refused.errors}
        text = " ".join(rule_error_text(error) for error in refused.errors)
        if "sheet_changed" in codes:
            return _journal_answer("waiting", 409, text, _expected(form))
        return _journal_answer("removed" if HAND_REMOVED in codes else "refused", 409, text, _expected(form))
    hand = outcome.hand
    assert hand is not None
    if outcome.conflict:
        message = _(
            "Donne %(number)s kept on this phone was not sent again: the sheet already has another donne %(number)s."
        ) % {"number": hand.number}
        return _journal_answer("taken", 409, message, hand.number)
    return _journal_answer("stored" if outcome.created else "held", 201 if outcome.created else 200, "", hand.number)


@require_POST
@referee_table
def undo(request: SiteRequest, table: Table) -> HttpResponse:
    number = request.POST.get("number", "")
    notice: dict[str, Any]
    try:
        removed = hand_undo_last(table=table, expected_number=int(number) if number.isdigit() else None)
        notice = {
            "kind": "ok",
            "text": _("Donne %(number)s was taken back.") % {"number": removed.number},
            "journal": _journal_note("removed", removed),
        }
    except HandRefused as refused:
        notice = {"kind": "error", "text": " ".join(rule_error_text(error) for error in refused.errors)}
    sheet = table_sheet(table)
    if not request.htmx:
        (messages.success if notice["kind"] == "ok" else messages.error)(request, notice["text"])
        return redirect("referee:table", token=table.token)
    return _respond(request, _context(request, table, sheet, form=_new_form(table, sheet), notice=notice))


@require_http_methods(["GET", "POST"])
@referee_table
def correct_last(request: SiteRequest, table: Table) -> HttpResponse:
    """The last donne, in the entry form, to be corrected (until the partie is over)."""
    sheet = table_sheet(table)
    if request.method == "GET":
        form = _correct_form(table, sheet)
        if form is None or sheet.finished:
            return redirect("referee:table", token=table.token)
        return _respond(request, _context(request, table, sheet, form=form, mode=CORRECT))
    form = _bound(table, sheet.sides, request.POST)
    if not (form.is_valid() and form.require_side()):
        form.add_rule_errors(hand_check(table, form.raw(), replace_last=True).errors)
        return _respond(request, _context(request, table, sheet, form=form, mode=CORRECT))
    try:
        outcome = hand_correct_last(
            table=table,
            raw=form.raw(),
            expected_number=_expected(form),
            author_label=_author_label(form, sheet.sides),
            entered_side=form.entered_side,
        )
    except HandRefused as refused:
        form.add_rule_errors(refused.errors)
        return _respond(request, _context(request, table, table_sheet(table), form=form, mode=CORRECT))
    hand = outcome.hand
    assert hand is not None
    text = _("Donne %(number)s is corrected.") % {"number": hand.number}
    if not request.htmx:
        messages.success(request, text)
        return redirect("referee:table", token=table.token)
    sheet = table_sheet(table)
    notice = _stored_notice(hand, sheet, text, "corrected")
    return _respond(request, _context(request, table, sheet, form=_new_form(table, sheet), notice=notice))


@require_POST
@referee_table
def confirm(request: SiteRequest, table: Table, number: int) -> HttpResponse:
    """A player of another side confirms a pending donne on the same phone."""
    sheet = table_sheet(table)
    form = ConfirmForm(request.POST, sides=sheet.sides)
    hand = Hand.objects.filter(table=table, number=number).first()
    error = ""
    if hand is None:
        error = _("Donne %(number)s is not on the sheet.") % {"number": number}
    elif not form.is_valid():
        error = " ".join(str(message) for messages_ in form.errors.values() for message in messages_)
    else:
        try:
            side = form.cleaned_data["side"]
            hand_confirm(hand=hand, side=side, author_label=sheet.sides[side].label)
        except HandRefused as refused:
            error = " ".join(rule_error_text(item) for item in refused.errors)
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, _("Donne %(number)s is confirmed.") % {"number": number})
        return redirect("referee:table", token=table.token)
    context = _context(request, table, table_sheet(table), form=None)
    # Said where the button was, right under the donne just sent.
    context.update(confirm_error=error, confirmed_number=None if error else number)
    return render(request, "scoring/referee_sheet_swap.html", context)


def _open_call(table: Table) -> RefereeCall | None:
    return RefereeCall.objects.filter(table=table, handled_at=None).first()


@require_POST
@referee_table
def call(request: SiteRequest, table: Table) -> HttpResponse:
    """« Appeler l'arbitre »: the director's dashboard shows the call until handled. One open
    call per table: pressing again only updates its reason."""
    made = referee_call(table=table, reason=request.POST.get("reason", ""))
    if made.repeats == 0:
        text = _("The referee is called.")
    else:
        text = _("The referee was already called: the call is updated.")
    if not request.htmx:
        messages.success(request, text)
        return redirect("referee:table", token=table.token)
    context = {"table": table, "referee_call": made, "call_reasons": RefereeCall.Reason.choices, "call_done": text}
    return render(request, "scoring/referee_call.html", context)
