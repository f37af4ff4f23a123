"""Presets: named sets of every option (and setting) a tournament chooses in one step,
beside the options in each game's module (issue 27)."""

from __future__ import annotations

import pytest

import engine
from engine.core import OptionError
from engine.games.belote_contree import BeloteContree

CONTREE = BeloteContree()


@pytest.mark.parametrize("code", sorted(engine.GAMES))
def test_every_game_has_presets_the_first_being_its_defaults(code: str) -> None:
    game = engine.GAMES[code]
    assert game.presets
    first = game.presets[0]
    assert dict(first.options) == game.resolve_options({})
    assert dict(first.settings) == game.resolve_settings({})


@pytest.mark.parametrize("code", sorted(engine.GAMES))
def test_each_preset_sets_every_option_and_setting_with_allowed_values(code: str) -> None:
    game = engine.GAMES[code]
    codes = [p.code for p in game.presets]
    assert len(set(codes)) == len(codes)
    for preset in game.presets:
        assert set(preset.options) == {spec.name for spec in game.option_specs}
        assert game.resolve_options(preset.options) == dict(preset.options)
        assert set(preset.settings) == {spec.name for spec in game.setting_specs}
        assert preset.name and preset.description


@pytest.mark.parametrize("code", sorted(engine.GAMES))
def test_no_two_presets_of_a_game_are_the_same_rules(code: str) -> None:
    game = engine.GAMES[code]
    rules = [(tuple(sorted(p.options.items())), tuple(sorted(p.settings.items()))) for p in game.presets]
    assert len(set(rules)) == len(rules)


def test_contree_has_the_federation_concours_and_one_preset_per_reading() -> None:
    assert [p.code for p in CONTREE.presets] == [
        "concours",
        "ffb",
        "chute_162",
        "points_faits",
        "faits_seuls",
        "contrat_seul",
    ]
    assert CONTREE.get_preset("concours").name == "Competition (Atout's default)"
    assert CONTREE.get_preset("ffb").name == "Federation (FFB)"
    assert CONTREE.get_preset("chute_162").options["chute"] == 162
    assert CONTREE.get_preset("points_faits").options["coinche_marque"] == "points_faits"
    faits_seuls = CONTREE.get_preset("faits_seuls").options
    assert (faits_seuls["marque"], faits_seuls["defence_capot"]) == ("faits_seuls", 250)


def test_the_ffb_preset_carries_the_federations_capot_252_made_and_250_coinche() -> None:
    options = CONTREE.get_preset("ffb").options
    capot = {"taker": "A", "bid": 100, "contract": "hearts", "points": {"A": 162, "B": 0}, "capot": "A"}
    assert CONTREE.validate(capot, options) == []
    assert CONTREE.score(capot, options).scores == (350, 0)  # 252 + 100, rounded
    assert CONTREE.score({**capot, "coinche": 1}, options).scores == (700, 0)  # (250 + 100) x 2
    assert CONTREE.score({**capot, "coinche": 2}, options).scores == (1400, 0)


def test_tarot_presets_are_the_federations_and_the_clubs_with_the_table_of_five() -> None:
    for code in ("tarot_a_trois", "tarot_a_quatre", "tarot_a_cinq"):
        game = engine.GAMES[code]
        assert [p.code for p in game.presets] == ["club", "fft"]
        assert game.get_preset("fft").options["primes"] == "fft"
        assert game.get_preset("club").options["primes"] == "multiplied"
    quatre = engine.GAMES["tarot_a_quatre"]
    assert quatre.get_preset("fft").settings == {"table_de_cinq": "mort"}
    assert quatre.resolve_settings({}) == {"table_de_cinq": "mort"}
    assert [spec.choices for spec in quatre.setting_specs] == [("mort", "tarot_a_cinq")]


def test_belote_classique_and_moderne_have_their_defaults_and_the_federations() -> None:
    for code in ("belote_classique", "belote_moderne"):
        game = engine.GAMES[code]
        assert [p.code for p in game.presets] == ["atout", "ffb"]
        assert game.get_preset("ffb").options["capot_value"] == 252


def test_an_unknown_preset_is_refused() -> None:
    with pytest.raises(OptionError, match="no preset 'fft'"):
        CONTREE.get_preset("fft")


def test_matching_and_nearest_preset() -> None:
    ffb = dict(CONTREE.get_preset("ffb").options)
    assert CONTREE.matching_preset(ffb) is CONTREE.get_preset("ffb")
    assert CONTREE.matching_preset({}) is CONTREE.get_preset("concours")
    changed = {**ffb, "rounding": "none"}
    assert CONTREE.matching_preset(changed) is None
    assert CONTREE.nearest_preset(changed) == (CONTREE.get_preset("ffb"), 1)
    quatre = engine.GAMES["tarot_a_quatre"]
    assert quatre.matching_preset({}, {"table_de_cinq": "tarot_a_cinq"}) is None
    assert quatre.nearest_preset({}, {"table_de_cinq": "tarot_a_cinq"}) == (quatre.get_preset("club"), 1)


def test_the_description_lists_presets_and_settings() -> None:
    described = engine.GAMES["tarot_a_quatre"].describe()
    assert described["settings"]["table_de_cinq"]["choices"] == ["mort", "tarot_a_cinq"]
    assert [p["code"] for p in described["presets"]] == ["club", "fft"]
    assert described["presets"][1]["settings"] == {"table_de_cinq": "mort"}
