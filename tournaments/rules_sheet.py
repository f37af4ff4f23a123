"""The « Règlement du concours »: a tournament's rules written out in sentences, from its
settings, for the printable page (`public_views.rules_sheet`) a club pins up or hands out.

Each rule option of every game has one sentence per value here (`OPTION_SENTENCES`), in
the reader's language: « Une chute vaut 160 points plus le contrat. » The game's words
for the options themselves (labels, short choices) are in tournaments/games.py; what each
option does is docs/rules.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.template.defaultfilters import floatformat
from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

import engine
import engine.standings
from tournaments import games
from tournaments.models import Prize, Tournament
from tournaments.treasury import split_of

OPTION_SENTENCES: dict[tuple[str, Any], Promise] = {
    # Belote at four (classique, moderne, contrée where the option is shared).
    ("threshold", "totals"): gettext_lazy(
        "To make the contract the taker must score more than the defence, belote and announcements counted."
    ),
    ("threshold", "card_points"): gettext_lazy(
        "To make the contract the taker must take more than half the card points (82 of 162), bonuses aside."
    ),
    ("tie", "litige"): gettext_lazy(
        "When taker and defence are level, the defence scores its points and the taker's are held for the team "
        "that wins the next donne (litige)."
    ),
    ("tie", "dedans"): gettext_lazy("When taker and defence are level, the contract fails (dedans)."),
    ("tie", "made"): gettext_lazy("When taker and defence are level, the contract is made."),
    ("capot_value", 250): gettext_lazy("A side that takes every trick (capot) counts 250 points for its cards."),
    ("capot_value", 252): gettext_lazy(
        "A side that takes every trick (capot) counts 252 points for its cards: the dix de der is worth 100."
    ),
    ("capot_value", 162): gettext_lazy("A capot that was not bid earns no bonus: its cards count 162 points."),
    ("belote_when_dedans", "keep"): gettext_lazy("A taker who is dedans keeps its belote-rebelote."),
    ("belote_when_dedans", "defence"): gettext_lazy("A taker who is dedans loses its belote-rebelote to the defence."),
    ("announcement_tie", "nobody"): gettext_lazy("When the best announcements are equal, nobody scores them."),
    ("announcement_tie", "first_in_play"): gettext_lazy(
        "When the best announcements are equal, the side that announced first scores them."
    ),
    ("announcements", "on"): gettext_lazy("Announcements (tierce, cinquante, cent, carrés) are played."),
    ("announcements", "off"): gettext_lazy("Announcements are not played."),
    ("rounding", "none"): gettext_lazy("Scores are not rounded."),
    ("rounding", "nearest_ten"): gettext_lazy("Each score is rounded to the nearest ten, 5 up (85 makes 90)."),
    # Belote à 3.
    ("split_rounding", "down"): gettext_lazy(
        "Two opponents level with each other share a fallen taker's points, each half rounded down."
    ),
    ("split_rounding", "half_points"): gettext_lazy(
        "Two opponents level with each other share a fallen taker's points, half points kept."
    ),
    # Tarot.
    ("half_points", "to_winner"): gettext_lazy("A half point of card points goes to the side that wins the donne."),
    ("half_points", "exact"): gettext_lazy("A half point of card points is kept as it is."),
    ("primes", "multiplied"): gettext_lazy("The poignée and the petit au bout are multiplied with the contract."),
    ("primes", "fft"): gettext_lazy(
        "The poignée is added after the contract's multiplier (the federation's way); the petit au bout is multiplied."
    ),
    # Belote contrée.
    ("marque", "faits_et_contrat"): gettext_lazy(
        "A made contract scores the points made plus the bid; the defence scores its own points."
    ),
    ("marque", "contrat_seul"): gettext_lazy(
        "A made contract scores the bid alone, with its belote and announcements; the defence scores only its own."
    ),
    ("marque", "faits_seuls"): gettext_lazy(
        "A made contract scores the points made, without the bid; the defence scores its own points. The bid is "
        "never added: a fall gives the defence the chute alone, a coinche 160 × 2 or × 4."
    ),
    ("coinche_marque", "forfait"): gettext_lazy(
        "A coinché contract is paid as a lump sum: (160 + the bid) × 2, × 4 surcoinché, to the side that wins it "
        "(250 in place of 160 for a capot); the other side scores only its belote."
    ),
    ("coinche_marque", "points_faits"): gettext_lazy(
        "A made coinché contract scores the taker's points plus the bid, × 2 or × 4 surcoinché; the defence keeps "
        "its own points."
    ),
    ("chute", 160): gettext_lazy("A fall (chute) is worth 160 points plus the bid to the defence."),
    ("chute", 162): gettext_lazy("A fall (chute) is worth 162 points plus the bid to the defence."),
    ("belote_counts", "yes"): gettext_lazy("Belote-rebelote counts toward making the contract."),
    ("belote_counts", "no"): gettext_lazy(
        "Belote-rebelote does not count toward the contract; the team that holds it scores it all the same."
    ),
    ("capot_failed", 410): gettext_lazy("A failed capot bid gives the defence 410 points (160 + 250)."),
    ("capot_failed", 500): gettext_lazy("A failed capot bid gives the defence 500 points."),
    ("defence_capot", 160): gettext_lazy("A defence that takes every trick scores the usual fall."),
    ("defence_capot", 250): gettext_lazy("A defence that takes every trick scores 250 in place of the chute."),
    ("belote_multiplied", "no"): gettext_lazy(
        "Under a coinche the winner's belote-rebelote is added after the multiplier."
    ),
    ("belote_multiplied", "yes"): gettext_lazy(
        "Under a coinche the winner's belote-rebelote is multiplied with the rest."
    ),
    ("max_bid", 160): gettext_lazy("Bids go from 80 to 160 in tens, then capot."),
    ("max_bid", 180): gettext_lazy("Bids go from 80 to 180 in tens, then capot."),
    ("max_bid", "none"): gettext_lazy("Bids start at 80 and go up in tens without a ceiling, then capot."),
    ("sans_atout_tout_atout", "off"): gettext_lazy("Only suit contracts are played."),
    ("sans_atout_tout_atout", "on"): gettext_lazy(
        "Sans atout and tout atout are played too, their cards counted so that a donne is worth 162."
    ),
}

BYE_SENTENCES: dict[str, Promise] = {
    Tournament.ByePolicy.AVERAGE_WIN: gettext_lazy(
        "A competitor who sits out a round (exempt) is credited a won partie and the average points of the "
        "round's winners."
    ),
    Tournament.ByePolicy.FIXED: gettext_lazy(
        "A competitor who sits out a round (exempt) is credited a won partie and %(points)s points."
    ),
    Tournament.ByePolicy.NONE: gettext_lazy("A competitor who sits out a round (exempt) scores nothing for it."),
}
LATE_SENTENCES: dict[str, Promise] = {
    Tournament.LatePolicy.ABSENT: gettext_lazy(
        "A competitor who arrives late scores nothing for each round missed: a lost partie with 0 points."
    ),
    Tournament.LatePolicy.BYE: gettext_lazy(
        "A competitor who arrives late is credited, for each round missed, what a bye scores."
    ),
}
TABLE_DE_CINQ_SENTENCES: dict[str, Promise] = {
    Tournament.TableDeCinq.MORT: gettext_lazy(
        "At a table of five, the dealer sits each donne out (the mort) and scores 0 for it; the four others play "
        "tarot for four. The deal turns, so that each player is mort in turn, and the partie lasts %(donnes)s "
        "there."
    ),
    Tournament.TableDeCinq.TAROT_A_CINQ: gettext_lazy(
        "At a table of five, the five play tarot for five: the taker calls a king."
    ),
}


def option_sentence(name: str, value: Any) -> str:
    """One option's value in a sentence (the option's label and value where none is written)."""
    sentence = OPTION_SENTENCES.get((name, value))
    if sentence is not None:
        return str(sentence)
    label = str(games.OPTION_LABELS.get(name, name))
    return _("%(label)s: %(value)s") % {"label": label, "value": value}


WHOLE_POINTS = gettext_lazy("At four players the card points are whole: there is no half point.")


def option_sentences(game_code: str, options: dict[str, Any]) -> list[str]:
    """Every option of the game in sentences, the defaults filled in, in the engine's order."""
    game = engine.get_game(game_code)
    try:
        resolved = game.resolve_options(options)
    except engine.OptionError:
        resolved = game.resolve_options({})
    sentences = []
    for spec in game.option_specs:
        if spec.name == "half_points" and getattr(game, "whole_points", False):
            # Tarot à 4: the option changes nothing there (docs/rules.md, "Tarot à 4").
            sentences.append(str(WHOLE_POINTS))
            continue
        sentences.append(option_sentence(spec.name, resolved[spec.name]))
    return sentences


@dataclass(frozen=True, slots=True)
class RulesSheet:
    """What the « Règlement du concours » page says, each part in the reader's language."""

    tournament: Tournament
    game: str
    format: str
    rounds: str
    partie: str
    preset: str
    scoring: list[str]
    tables: list[str]
    criteria: list[str]
    draw: list[str]
    byes: list[str]
    entry: str
    prizes: list[Prize] = field(default_factory=list)
    # The prize money and how ties share it (no line without prize money).
    prize_money: list[str] = field(default_factory=list)


def _donnes(count: int) -> str:
    return ngettext("%(count)s donne", "%(count)s donnes", count) % {"count": count}


def _partie(tournament: Tournament) -> str:
    if tournament.end_rule == Tournament.EndRule.TARGET:
        return _("A partie is won by the first side to reach %(target)s points.") % {
            "target": number_format(tournament.end_value, force_grouping=True)
        }
    return _("A partie is played in %(donnes)s; the side with the most points wins it.") % {
        "donnes": _donnes(tournament.end_value)
    }


def _tables(tournament: Tournament) -> list[str]:
    lines = []
    seating = games.seating_label(tournament)
    if seating:
        lines.append(_("Seating: %(seating)s.") % {"seating": seating})
    if games.has_table_de_cinq(tournament.game):
        sentence = TABLE_DE_CINQ_SENTENCES.get(tournament.table_de_cinq)
        if sentence is not None:
            five = games.table_donnes(tournament, 5)
            donnes = _donnes(five) if five is not None else _("as at the other tables, to the target")
            lines.append(str(sentence) % {"donnes": donnes})
    if tournament.confirmation_required:
        lines.append(_("Each donne entered at a table is confirmed by a player of the other side."))
    return lines


def _entry(tournament: Tournament) -> str:
    if not tournament.entry_fee:
        return _("Entry is free.")
    per = _("per team") if tournament.format == Tournament.Format.TEAMS else _("per player")
    amount = number_format(Decimal(tournament.entry_fee), decimal_pos=2)
    return _("Entry fee: %(amount)s € %(per)s.") % {"amount": amount, "per": per}


def _prize_money(tournament: Tournament) -> list[str]:
    """The prize money as the players read it before the night (tournaments/palmares.py)."""
    kind = tournament.prize_pool_kind
    split = split_of(tournament)
    if kind == Tournament.PrizePool.NONE or not split:
        return []
    value = floatformat(tournament.prize_pool_value, "-2")
    if kind == Tournament.PrizePool.SHARE:
        pool = _("Prize money: %(share)s %% of the entry fees received.") % {"share": value}
    else:
        pool = _("Prize money: %(pool)s €.") % {"pool": value}
    unit = "%" if tournament.prize_split_kind == Tournament.PrizeSplit.PERCENT else "€"
    places = ", ".join(
        _("place %(place)s: %(amount)s %(unit)s") % {"place": place, "amount": floatformat(amount, "-2"), "unit": unit}
        for place, amount in enumerate(split, start=1)
    )
    return [
        pool,
        _("Split: %(places)s.") % {"places": places},
        _("Competitors tied share the prizes of the places they hold, the money in equal parts."),
    ]


def _draw(tournament: Tournament) -> list[str]:
    lines = [
        _("Round 1: %(order)s.") % {"order": tournament.get_first_round_order_display()},
        _("Rounds 2 and after: %(method)s.") % {"method": tournament.get_pairing_method_display()},
    ]
    if tournament.separate_clubs_rounds:
        lines.append(
            ngettext(
                "Players of the same club are kept apart in the first round.",
                "Players of the same club are kept apart in the first %(count)s rounds.",
                tournament.separate_clubs_rounds,
            )
            % {"count": tournament.separate_clubs_rounds}
        )
    return lines


def rules_sheet(tournament: Tournament) -> RulesSheet:
    """The tournament's rules sheet, from its settings as they are now."""
    bye = BYE_SENTENCES.get(tournament.bye_policy)
    late = LATE_SENTENCES.get(tournament.late_policy)
    byes = [str(bye) % {"points": tournament.bye_points} if bye is not None else tournament.get_bye_policy_display()]
    byes.append(str(late) if late is not None else tournament.get_late_policy_display())
    chosen = tournament.criteria or engine.standings.default_criteria(tournament.game)
    criteria = [games.criterion_label(key) for key in chosen]
    return RulesSheet(
        tournament=tournament,
        game=tournament.get_game_display(),
        format=tournament.get_format_display(),
        rounds=ngettext("%(count)s round", "%(count)s rounds", tournament.rounds_planned)
        % {"count": tournament.rounds_planned},
        partie=_partie(tournament),
        preset=games.tournament_preset(tournament).label,
        scoring=option_sentences(tournament.game, tournament.rule_options or {}),
        tables=_tables(tournament),
        criteria=criteria,
        draw=_draw(tournament),
        byes=byes,
        entry=_entry(tournament),
        prizes=list(tournament.prizes.all()),
        prize_money=_prize_money(tournament),
    )
