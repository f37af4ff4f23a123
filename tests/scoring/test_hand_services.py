"""The hand services: entry, replays, conflicts, the end of a partie, undo and corrections,
the director's changes with their history, confirmation by the other side."""

from __future__ import annotations

import pytest

import engine
from scoring import services
from scoring.models import Hand, HandRevision, TableResult
from scoring.partie import table_result_refresh
from scoring.services import (
    HandRefused,
    hand_confirm,
    hand_correct,
    hand_correct_last,
    hand_delete,
    hand_submit,
    hand_undo_last,
    table_token_renew,
    table_token_revoke,
)
from tests.scoring.tables import LITIGE, SOUND_HANDS, director_of, make_table, numbers
from tournaments.models import Round

pytestmark = pytest.mark.django_db

HAND = SOUND_HANDS["belote_classique"][0]


def result_of(table) -> TableResult:
    return TableResult.objects.get(table=table)


@pytest.mark.parametrize("game", sorted(SOUND_HANDS))
def test_a_hand_is_stored_exactly_as_entered_with_its_score_and_rule_options(game: str) -> None:
    table = make_table(game)
    raw, scores = SOUND_HANDS[game]
    outcome = hand_submit(table=table, raw=raw, idempotency_key="k1", expected_number=1, author_label="C1")
    hand = Hand.objects.get(pk=outcome.hand.pk)
    assert outcome.created and not outcome.conflict
    assert (hand.number, hand.raw, hand.scores) == (1, raw, scores)
    # Every option resolved, so the hand can be re-scored as it was even if defaults change.
    assert hand.options == engine.get_game(game).resolve_options({})
    assert hand.entered_via == "referee" and hand.idempotency_key == "k1"
    assert result_of(table).totals == scores
    revision = HandRevision.objects.get(hand=hand)
    assert (revision.action, revision.before, revision.after["raw"], revision.author_label) == (
        "create",
        None,
        raw,
        "C1",
    )


def test_a_refused_hand_says_why_field_by_field_and_stores_nothing() -> None:
    table = make_table()
    bad = {"taker": "A", "contract": "hearts", "points": {"A": 100, "B": 70}, "capot": "C"}
    with pytest.raises(HandRefused) as refused:
        hand_submit(table=table, raw=bad)
    fields = {error.field for error in refused.value.errors}
    assert {"points", "capot"} <= fields
    assert not Hand.objects.filter(table=table).exists()
    assert not TableResult.objects.filter(table=table).exists()


def test_a_resend_with_the_same_key_returns_the_stored_hand_and_adds_nothing() -> None:
    table = make_table()
    first = hand_submit(table=table, raw=HAND, idempotency_key="same", expected_number=1)
    again = hand_submit(table=table, raw=HAND, idempotency_key="same", expected_number=1)
    assert again.replayed and not again.created
    assert again.hand.pk == first.hand.pk
    assert numbers(table) == [1]


def test_a_hand_the_director_deleted_never_comes_back_whatever_resend_comes_later() -> None:
    table = make_table()
    first = hand_submit(table=table, raw=HAND, idempotency_key="phone-k1", expected_number=1)
    hand_submit(table=table, raw=LITIGE, idempotency_key="phone-k2", expected_number=2)
    hand_delete(hand=first.hand, reason="Entered at the wrong table", by=director_of(table.round.tournament))
    assert numbers(table) == [1]
    for expected in (1, 2, None):
        with pytest.raises(HandRefused) as refused:
            hand_submit(table=table, raw=HAND, idempotency_key="phone-k1", expected_number=expected)
        [error] = refused.value.errors
        assert (error.code, error.params["number"]) == (services.HAND_REMOVED, 1)
    assert [hand.idempotency_key for hand in Hand.objects.filter(table=table)] == ["phone-k2"]
    # The deletion's revision is the tombstone: it keeps the key; no other revision does.
    keys = set(HandRevision.objects.filter(table=table).values_list("action", "idempotency_key"))
    assert keys == {("create", None), ("delete", "phone-k1")}


def test_a_donne_taken_back_at_the_table_is_not_brought_back_by_a_resend_of_its_entry() -> None:
    table = make_table()
    hand_submit(table=table, raw=HAND, idempotency_key="queued", expected_number=1)
    hand_undo_last(table=table, expected_number=1)
    with pytest.raises(HandRefused) as refused:
        hand_submit(table=table, raw=HAND, idempotency_key="queued", expected_number=1)
    assert refused.value.errors[0].code == services.HAND_REMOVED
    assert numbers(table) == []
    # The same donne typed again is a new entry, under a new key: it goes in.
    assert hand_submit(table=table, raw=HAND, idempotency_key="typed-again", expected_number=1).created


def test_the_key_of_a_hand_deleted_at_another_table_is_no_bar_here() -> None:
    table = make_table(tables=2)
    other = table.round.tables.get(number=2)
    hand_submit(table=other, raw=HAND, idempotency_key="shared", expected_number=1)
    hand_undo_last(table=other, expected_number=1)
    assert hand_submit(table=table, raw=HAND, idempotency_key="shared", expected_number=1).created


def test_a_donne_another_phone_stored_first_comes_back_as_a_conflict_with_what_was_stored() -> None:
    table = make_table()
    stored = hand_submit(table=table, raw=HAND, idempotency_key="phone-1", expected_number=1)
    other = {"taker": "B", "contract": "clubs", "points": {"A": 62, "B": 100}}
    late = hand_submit(table=table, raw=other, idempotency_key="phone-2", expected_number=1)
    assert late.conflict and not late.created
    assert late.hand.pk == stored.hand.pk and late.hand.raw == HAND
    assert numbers(table) == [1]


def test_an_entry_aimed_past_the_next_donne_is_refused_with_the_right_number() -> None:
    table = make_table()
    with pytest.raises(HandRefused) as refused:
        hand_submit(table=table, raw=HAND, expected_number=3)
    assert refused.value.errors[0].code == "sheet_changed"
    assert refused.value.errors[0].params["number"] == 1


def test_a_litige_reserve_goes_to_the_winner_of_the_next_donne() -> None:
    table = make_table()
    hand_submit(table=table, raw=LITIGE)
    assert result_of(table).reserve == 81
    second = hand_submit(table=table, raw={"taker": "B", "contract": "clubs", "points": {"A": 62, "B": 100}})
    assert second.hand.reserve_in == 81 and second.hand.scores == [62, 181]
    assert result_of(table).reserve == 0 and result_of(table).totals == [62, 262]


def test_the_partie_finishes_by_itself_shows_the_winner_and_refuses_another_donne() -> None:
    table = make_table(end_value=2)
    hand_submit(table=table, raw=HAND)
    assert not result_of(table).finished
    hand_submit(table=table, raw=HAND)
    result = result_of(table)
    assert result.finished and result.winner_side == 0 and result.donnes_played == 2
    with pytest.raises(HandRefused) as refused:
        hand_submit(table=table, raw=HAND)
    assert refused.value.errors[0].code == "partie_finished"
    assert numbers(table) == [1, 2]


def test_a_cancelled_donne_does_not_count_as_played() -> None:
    table = make_table(end_value=1)
    hand_submit(table=table, raw={"cancelled": True})
    assert not result_of(table).finished and result_of(table).donnes_played == 0
    hand_submit(table=table, raw=HAND)
    assert result_of(table).finished


def test_a_partie_to_a_target_ends_when_a_side_passes_it() -> None:
    table = make_table(end_rule="target", end_value=300)
    big = {"taker": "A", "contract": "hearts", "points": {"A": 162, "B": 0}, "capot": "A"}
    hand_submit(table=table, raw=big)
    assert not result_of(table).finished
    hand_submit(table=table, raw=big)
    assert result_of(table).finished and result_of(table).winner_side == 0


def test_a_closed_round_refuses_the_referee_but_not_the_director() -> None:
    table = make_table()
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.CLOSED)
    with pytest.raises(HandRefused) as refused:
        hand_submit(table=table, raw=HAND)
    assert refused.value.errors[0].code == "round_closed"
    director = director_of(table.round.tournament)
    outcome = hand_submit(table=table, raw=HAND, via="director", entered_by=director)
    assert outcome.created and outcome.hand.entered_by == director


def test_the_referee_takes_back_the_last_donne_until_the_partie_is_over() -> None:
    table = make_table(end_value=3)
    hand_submit(table=table, raw=HAND)
    hand_submit(table=table, raw=LITIGE)
    removed = hand_undo_last(table=table, expected_number=2)
    assert removed.number == 2 and numbers(table) == [1]
    assert result_of(table).totals == [102, 60] and result_of(table).reserve == 0
    assert HandRevision.objects.filter(table=table, action="delete", number=2).exists()
    hand_submit(table=table, raw=HAND)
    hand_submit(table=table, raw=HAND)
    with pytest.raises(HandRefused) as refused:
        hand_undo_last(table=table, expected_number=3)
    assert refused.value.errors[0].code == "partie_finished"


def test_the_referee_undoes_only_the_donne_on_their_screen() -> None:
    table = make_table()
    hand_submit(table=table, raw=HAND)
    hand_submit(table=table, raw=HAND)
    with pytest.raises(HandRefused):
        hand_undo_last(table=table, expected_number=1)
    assert numbers(table) == [1, 2]


def test_the_referee_corrects_the_last_donne_and_its_score_follows() -> None:
    table = make_table()
    hand_submit(table=table, raw=HAND)
    corrected = {"taker": "A", "contract": "hearts", "points": {"A": 60, "B": 102}}
    outcome = hand_correct_last(table=table, raw=corrected, expected_number=1)
    assert outcome.hand.raw == corrected and outcome.hand.scores == [0, 162] and outcome.hand.version == 2
    assert result_of(table).totals == [0, 162]
    revision = HandRevision.objects.get(table=table, action="update")
    assert revision.before["scores"] == [102, 60] and revision.after["scores"] == [0, 162]


def test_a_wrong_correction_of_the_last_donne_is_refused_and_keeps_the_donne() -> None:
    table = make_table()
    hand_submit(table=table, raw=HAND)
    with pytest.raises(HandRefused):
        hand_correct_last(table=table, raw={"taker": "A", "contract": "hearts", "points": {"A": 1, "B": 161}})
    assert Hand.objects.get(table=table).raw == HAND


def test_the_director_corrects_any_donne_with_a_reason_and_the_partie_is_scored_again() -> None:
    table = make_table()
    director = director_of(table.round.tournament)
    first = hand_submit(table=table, raw=LITIGE).hand
    hand_submit(table=table, raw={"taker": "B", "contract": "clubs", "points": {"A": 62, "B": 100}})
    # Donne 1 was a litige whose 81 went to donne 2's winner; corrected, nothing is held.
    made = {"taker": "A", "contract": "hearts", "points": {"A": 92, "B": 70}}
    hand_correct(hand=first, raw=made, reason="Points misread", by=director)
    second = Hand.objects.get(table=table, number=2)
    assert second.reserve_in == 0 and second.scores == [62, 100]
    assert result_of(table).totals == [154, 170]
    update = HandRevision.objects.get(table=table, action="update")
    assert (update.reason, update.author, update.before["raw"], update.after["raw"]) == (
        "Points misread",
        director,
        LITIGE,
        made,
    )
    rescore = HandRevision.objects.get(table=table, action="rescore")
    assert rescore.number == 2 and rescore.before["scores"] == [62, 181] and rescore.after["scores"] == [62, 100]


def test_the_director_must_give_a_reason() -> None:
    table = make_table()
    hand = hand_submit(table=table, raw=HAND).hand
    with pytest.raises(HandRefused) as refused:
        hand_correct(hand=hand, raw=LITIGE, reason="  ", by=director_of(table.round.tournament))
    assert refused.value.errors[0].field == "reason"
    assert Hand.objects.get(pk=hand.pk).raw == HAND


def test_a_correction_that_would_leave_a_donne_after_the_end_is_refused_naming_it() -> None:
    table = make_table(end_rule="target", end_value=500)
    capot = {"taker": "A", "contract": "hearts", "points": {"A": 162, "B": 0}, "capot": "A"}
    first = hand_submit(table=table, raw=HAND).hand
    hand_submit(table=table, raw=capot)
    hand_submit(table=table, raw=HAND)
    assert not result_of(table).finished
    with pytest.raises(HandRefused) as refused:
        hand_correct(hand=first, raw=capot, reason="capot", by=None)
    error = refused.value.errors[0]
    assert error.code == "other_donne" and error.params["number"] == 3


def test_the_director_deletes_a_donne_and_the_later_ones_move_up() -> None:
    table = make_table()
    hands = [hand_submit(table=table, raw=raw).hand for raw in (HAND, LITIGE, HAND)]
    hand_delete(hand=hands[0], reason="Entered twice", by=None)
    assert numbers(table) == [1, 2]
    assert [hand.raw for hand in Hand.objects.filter(table=table).order_by("number")] == [LITIGE, HAND]
    assert result_of(table).totals == [102 + 81, 81 + 60]
    deleted = HandRevision.objects.get(table=table, action="delete")
    assert deleted.hand is None and deleted.before["raw"] == HAND and deleted.reason == "Entered twice"


def test_with_confirmation_a_hand_counts_only_once_the_other_side_confirms_it() -> None:
    table = make_table(confirmation=True)
    first = hand_submit(table=table, raw=HAND, entered_side=0).hand
    second = hand_submit(table=table, raw=HAND, entered_side=1).hand
    assert first.status == second.status == "pending"
    assert result_of(table).totals == [0, 0] and result_of(table).donnes_played == 0
    with pytest.raises(HandRefused) as refused:
        hand_confirm(hand=first, side=0)
    assert refused.value.errors[0].code == "same_side"
    # The second is confirmed first: it waits behind donne 1, which is not yet agreed.
    hand_confirm(hand=second, side=0)
    assert result_of(table).totals == [0, 0]
    hand_confirm(hand=first, side=1)
    assert result_of(table).totals == [204, 120] and result_of(table).donnes_played == 2
    confirm = HandRevision.objects.filter(table=table, action="confirm", number=1).get()
    assert confirm.after["confirmed_by_side"] == 1


def test_a_director_correction_needs_no_confirmation() -> None:
    table = make_table(confirmation=True)
    hand = hand_submit(table=table, raw=HAND, entered_side=0).hand
    hand_correct(hand=hand, raw=LITIGE, reason="as agreed", by=None)
    assert Hand.objects.get(pk=hand.pk).status == "confirmed"
    assert result_of(table).totals == [0, 81]


def test_the_standings_are_asked_for_once_the_result_changed_and_committed(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks
) -> None:
    asked: list[int] = []
    monkeypatch.setattr(services, "standings_schedule_refresh", lambda *, tournament_id: asked.append(tournament_id))
    table = make_table(confirmation=True)
    with django_capture_on_commit_callbacks(execute=True):
        pending = hand_submit(table=table, raw=HAND, entered_side=0).hand
    # A first result row (all zeros) is new: the standings learn the table has begun.
    assert asked == [table.round.tournament_id]
    with django_capture_on_commit_callbacks(execute=True):
        hand_submit(table=table, raw=HAND, entered_side=0)
    assert len(asked) == 1, "a pending hand changes nothing that counts"
    with django_capture_on_commit_callbacks(execute=True):
        hand_confirm(hand=pending, side=1)
    assert len(asked) == 2


def test_a_withdrawn_link_can_be_renewed_with_a_new_secret() -> None:
    table = make_table()
    old = table.token
    assert table_token_revoke(table=table).token_revoked
    renewed = table_token_renew(table=table)
    assert not renewed.token_revoked and renewed.token != old and len(renewed.token) >= 32


def test_a_result_the_director_forced_is_left_as_it_is_by_later_hands() -> None:
    table = make_table()
    hand_submit(table=table, raw=HAND)
    TableResult.objects.filter(table=table).update(forced=True, totals=[0, 500], finished=True, winner_side=1)
    hand_submit(table=table, raw=HAND)
    assert table_result_refresh(table).totals == [0, 500]
    TableResult.objects.filter(table=table).update(forced=False)
    assert table_result_refresh(table).totals == [204, 120]
