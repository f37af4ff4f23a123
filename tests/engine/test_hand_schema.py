"""Each game's hand schema (`Game.hand_schema`, engine.games.hand_schema) says what its
validation reads: the same fields, the fields a played donne needs, each field's shape,
and never less than the engine accepts."""

from __future__ import annotations

import random
from typing import Any

import jsonschema
import pytest

import engine
from engine.core import Game
from engine.games.hand_schema import required_fields

# The games a tournament plays, and the table games played within them (the mort at five).
GAMES = sorted([*engine.GAMES, *engine.TABLE_GAMES])
DRAWN = 300


def schema_of(code: str) -> dict[str, Any]:
    return engine.get_game(code).hand_schema()


def fits(code: str, hand: Any) -> bool:
    return jsonschema.Draft202012Validator(schema_of(code)).is_valid(hand)


def problems(game: Game, hand: Any, **options: Any) -> list[tuple[str, str]]:
    return [(error.field, error.code) for error in game.validate(hand, game.resolve_options(options))]


def played_hand(code: str) -> dict[str, Any]:
    """A drawn donne of the game that was played (not redealt), valid under the defaults."""
    game = engine.get_game(code)
    for seed in range(100):
        hand = game.random_hand(random.Random(seed))
        if not hand.get("cancelled") and not problems(game, hand):
            return hand
    raise AssertionError(f"no played donne of {code} in 100 draws")


@pytest.mark.parametrize("code", GAMES)
def test_each_schema_is_valid_json_schema_titled_by_its_games_code(code: str) -> None:
    schema = schema_of(code)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["title"] == code and schema["type"] == "object"


@pytest.mark.parametrize("code", GAMES)
def test_the_schema_names_exactly_the_fields_the_engine_knows(code: str) -> None:
    game = engine.get_game(code)
    schema = schema_of(code)
    assert schema["additionalProperties"] is False
    for name in schema["properties"]:
        assert (name, "unknown_field") not in problems(game, {name: None}), name
    for stranger in ("note", "partner", "bid", "last_trick", "reserve_in", "oudlers"):
        if stranger not in schema["properties"]:
            assert (stranger, "unknown_field") in problems(game, {stranger: None}), stranger


@pytest.mark.parametrize("code", GAMES)
def test_every_hand_the_engine_draws_fits_its_schema(code: str) -> None:
    game = engine.get_game(code)
    # Belote moderne and classique draw announcements only where they are valid with them on.
    options = game.resolve_options({})
    for seed in range(DRAWN):
        hand = game.random_hand(random.Random(seed))
        assert game.validate(hand, options) == []
        assert fits(code, hand), (seed, hand)


@pytest.mark.parametrize("code", GAMES)
def test_the_required_fields_alone_make_a_valid_donne(code: str) -> None:
    hand = played_hand(code)
    minimal = {name: hand[name] for name in required_fields(schema_of(code))}
    assert fits(code, minimal)
    assert problems(engine.get_game(code), minimal) == []


@pytest.mark.parametrize("code", GAMES)
def test_each_required_field_left_out_is_refused_by_the_schema_and_by_the_engine_on_that_field(code: str) -> None:
    game = engine.get_game(code)
    hand = played_hand(code)
    required = required_fields(schema_of(code))
    assert required
    for name in required:
        without = {key: value for key, value in hand.items() if key != name}
        assert not fits(code, without), name
        assert (name, "required") in problems(game, without), name
    # And a field the schema leaves optional is never required by the engine on its own.
    for name in set(schema_of(code)["properties"]) - set(required):
        without = {key: value for key, value in hand.items() if key != name}
        assert (name, "required") not in problems(game, without), name


@pytest.mark.parametrize("code", GAMES)
def test_a_value_of_the_wrong_shape_is_refused_by_both_on_its_field(code: str) -> None:
    game = engine.get_game(code)
    hand = played_hand(code)
    for name in schema_of(code)["properties"]:
        wrong = {**hand, name: "neither-a-choice-nor-a-number"}
        assert not fits(code, wrong), name
        assert any(field == name or field.startswith(f"{name}.") for field, _ in problems(game, wrong)), name


@pytest.mark.parametrize("code", [code for code in GAMES if "cancelled" in schema_of(code)["properties"]])
def test_a_redealt_donne_needs_no_other_field(code: str) -> None:
    assert fits(code, {"cancelled": True})
    assert problems(engine.get_game(code), {"cancelled": True}) == []
    # cancelled: false is a played donne, which needs its fields.
    assert not fits(code, {"cancelled": False})


def test_only_the_games_that_redeal_take_cancelled() -> None:
    redealt = {code for code in GAMES if "cancelled" in schema_of(code)["properties"]}
    assert redealt == {"belote_classique", "belote_moderne", "belote_contree", "belote_a_trois"}


def test_contree_bids_80_or_more_in_tens_or_capot_and_coinches_0_to_2() -> None:
    hand = played_hand("belote_contree")
    for bid, fits_ in ((80, True), (160, True), (250, True), ("capot", True), (85, False), (70, False), ("x", False)):
        assert fits("belote_contree", {**hand, "bid": bid}) is fits_, bid
    for coinche, fits_ in ((0, True), (2, True), (None, True), (3, False), (-1, False)):
        assert fits("belote_contree", {**hand, "coinche": coinche}) is fits_, coinche
    # Above 160 only the tournament's max_bid decides: the schema takes it, the default refuses.
    assert problems(engine.GAMES["belote_contree"], {**hand, "bid": 250}) == [("bid", "out_of_range")]


def test_tarot_a_cinq_names_the_partner_and_seats_five_players() -> None:
    schema = schema_of("tarot_a_cinq")
    assert "partner" in required_fields(schema)
    assert schema["properties"]["partner"] == {**schema["properties"]["partner"], "minimum": 0, "maximum": 4}
    assert schema_of("tarot_a_quatre")["properties"]["taker"]["maximum"] == 3
    assert "partner" not in schema_of("tarot_a_quatre")["properties"]


def test_two_poignees_fit_at_four_and_five_only() -> None:
    two = [{"by": "taker", "size": "simple"}, {"by": "defence", "size": "simple"}]
    for code, fits_ in (("tarot_a_trois", False), ("tarot_a_quatre", True), ("tarot_a_cinq", True)):
        hand = {**played_hand(code), "poignee": two}
        assert fits(code, hand) is fits_, code
        assert (problems(engine.get_game(code), hand) == []) is fits_, code


def test_a_hand_may_fit_two_games_which_is_why_the_api_offers_any_of_them() -> None:
    # The game comes from the table: the body alone cannot always tell (api.schema).
    classique = played_hand("belote_classique")
    assert fits("belote_classique", classique) and fits("belote_moderne", classique)
    tarot = {"taker": 1, "contract": "garde", "oudlers": 2, "points": 46}
    assert fits("tarot_a_trois", tarot) and fits("tarot_a_quatre", tarot)
