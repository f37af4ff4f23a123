"""What the API answers: the public shape of tournaments, draws, hands and rankings.

Read-only serializers, fed by the selectors. Private player data never appears: a
player is a first name, a last name and the club they play for; no licence number, no
email, no phone, in any answer. (Licence numbers identify people in federation lists;
a league's site has no need of them.) A table's secret appears in no public answer:
only its organisers read it (api.views.organiser.RoundSecretsView), as on the sheets.

Terms (side, donne, partie): docs/glossary.md; a side is an index into the game's sides.
Numbers that may be halves (tarot à 3 with `half_points: exact`) are plain JSON numbers.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.schema import HAND_REF
from api.selectors import round_clock_data
from scoring.models import Hand
from tournaments.models import Competitor, Round, Tournament


@extend_schema_field(OpenApiTypes.NUMBER)
class NumberField(serializers.Field[Any, Any, Any, Any]):
    """An int or a float as stored (a score, a total, a criterion's value)."""

    def to_representation(self, value: Any) -> Any:
        return value


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(key) or _has_nul(item) for key, item in value.items())
    if isinstance(value, list):
        return any(_has_nul(item) for item in value)
    return False


class StorableJSONField(serializers.JSONField):
    """Any JSON value the database can store: PostgreSQL's jsonb refuses the NUL character."""

    default_error_messages = {"nul": _("JSON text may not contain the NUL character (\\u0000).")}

    def to_internal_value(self, data: Any) -> Any:
        value = super().to_internal_value(data)
        if _has_nul(value):
            self.fail("nul")
        return value


@extend_schema_field({"$ref": HAND_REF})
class HandField(StorableJSONField):
    """A hand as a request carries it: documented as one of the games' hands (api.schema),
    read as any JSON the database can store, and judged by the engine for the table's game."""


class ClubSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    slug = serializers.SlugField()


class TournamentSummarySerializer(serializers.Serializer[Any]):
    slug = serializers.SlugField(help_text="The tournament's key in every URL of the API and the site.")
    name = serializers.CharField()
    club = ClubSerializer()
    date = serializers.DateField()
    game = serializers.ChoiceField(choices=Tournament.Game.choices)
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    rounds_planned = serializers.IntegerField()
    updated_at = serializers.DateTimeField()


class RoundClockSerializer(serializers.Serializer[Any]):
    started_at = serializers.DateTimeField()
    minutes = serializers.IntegerField(help_text="The round's duration, time added or taken off included.")
    ends_at = serializers.DateTimeField(help_text="When the round's time is up (the server's time).")


class RoundSummarySerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Round.Status.choices)
    method = serializers.ChoiceField(
        choices=Round.Method.choices,
        help_text="`random`, `swiss`, or `seeded`: round 1 by the players' Atout ratings, the strongest apart.",
    )
    seed = serializers.IntegerField(help_text="The draw's seed: the same seed and entries give the same draw.")
    drawn_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)
    forced = serializers.BooleanField(help_text="Closed with tables still playing (their results forced).")
    clock = serializers.SerializerMethodField(help_text="The round's clock, null when none runs.")

    @extend_schema_field(RoundClockSerializer(allow_null=True))
    def get_clock(self, rnd: Round | dict[str, Any]) -> dict[str, Any] | None:
        # The round itself, or the selectors' dict of it that carries the round.
        found = rnd["round"] if isinstance(rnd, dict) else rnd
        clock = round_clock_data(found)
        return RoundClockSerializer(clock).data if clock is not None else None


class PrizeSerializer(serializers.Serializer[Any]):
    rank_from = serializers.IntegerField()
    rank_to = serializers.IntegerField(help_text="Equal to rank_from for a lot of one rank.")
    text = serializers.CharField(help_text="What the lot is.")
    value = serializers.DecimalField(max_digits=8, decimal_places=2, allow_null=True, help_text="In euros.")


class TournamentDetailSerializer(TournamentSummarySerializer):
    end_rule = serializers.ChoiceField(choices=Tournament.EndRule.choices)
    end_value = serializers.IntegerField(help_text="Donnes per partie, or the target score.")
    pairing_method = serializers.ChoiceField(choices=Tournament.PairingMethod.choices)
    first_round_order = serializers.ChoiceField(
        choices=Tournament.FirstRoundOrder.choices,
        help_text="How round 1 is drawn: at random, or by the players' Atout ratings (the strongest apart).",
    )
    criteria = serializers.ListField(child=serializers.CharField(), help_text="Ranking criteria, in order.")
    bye_policy = serializers.ChoiceField(choices=Tournament.ByePolicy.choices)
    bye_points = serializers.IntegerField()
    late_policy = serializers.ChoiceField(
        choices=Tournament.LatePolicy.choices,
        help_text="What a late arrival scores for each round it missed: nothing (a lost partie), or a bye's credit.",
    )
    separate_clubs_rounds = serializers.IntegerField()
    table_preference = serializers.ChoiceField(
        choices=Tournament.TablePreference.choices,
        allow_blank=True,
        help_text="Tarot à 4 and à 5: which tables the draw fills first, of 4 (`four_first`) or of 5 "
        "(`five_first`), the other size where the count calls for it. Empty for the games at one table size.",
    )
    allow_tables_of_three = serializers.BooleanField(
        help_text="Tarot à 4 and à 5: a table of 3 (playing tarot à 3) as a last resort; when false, the players "
        "who fit no table of 4 or 5 sit out the round. Always false for the other games."
    )
    table_de_cinq = serializers.ChoiceField(
        choices=Tournament.TableDeCinq.choices,
        help_text="Tarot à 4: what a table of five plays: `mort` (the dealer sits each donne out and scores 0, the "
        "four others play tarot à 4; the partie lasts a quarter longer there) or `tarot_a_cinq` (tarot à 5, a "
        "called king). Means nothing for the other games.",
    )
    rule_options = serializers.DictField(child=serializers.JSONField(), help_text="The game's rule options.")
    preset = serializers.CharField(
        allow_null=True,
        help_text="The preset (GET /games/) the rule options and settings are, or the one they differ least from "
        "when `preset_modified`.",
    )
    preset_modified = serializers.BooleanField(help_text="True when the options and settings are no preset's.")
    confirmation_required = serializers.BooleanField()
    is_public = serializers.BooleanField()
    competitors_count = serializers.IntegerField()
    rounds = RoundSummarySerializer(many=True)
    entry_fee = serializers.DecimalField(
        max_digits=7, decimal_places=2, help_text="What each competitor pays to play, in euros (0: free entry)."
    )
    prizes = PrizeSerializer(many=True, help_text="The lots of the final ranking, by rank or range of ranks.")


class PlayerSerializer(serializers.Serializer[Any]):
    """A player's public fields, and nothing else."""

    id = serializers.IntegerField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    club = serializers.CharField(source="club_label", help_text="The club the player plays for.")


class CompetitorSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=Competitor.Status.choices)
    affiliation = serializers.CharField(help_text="The club all its players play for (empty for a mixed team).")
    joined_round = serializers.IntegerField()
    withdrawn_after_round = serializers.IntegerField(allow_null=True)
    players = PlayerSerializer(many=True)


class TournamentPlayerSerializer(PlayerSerializer):
    competitor = serializers.IntegerField(help_text="The number of the competitor the player belongs to.")


class CompetitorRefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    name = serializers.CharField()


class TableResultSerializer(serializers.Serializer[Any]):
    totals = serializers.ListField(child=NumberField(), help_text="Each side's total, by side index.")
    donnes_played = serializers.IntegerField()
    reserve = serializers.IntegerField(help_text="Litige points held for the next donne.")
    finished = serializers.BooleanField()
    winner_side = serializers.IntegerField(allow_null=True)
    forced = serializers.BooleanField()


class SeatSerializer(serializers.Serializer[Any]):
    side = serializers.IntegerField()
    position = serializers.CharField(help_text="NS/EW for a team, N/E/S/W in mêlée, 1/2/3 at a table of three.")
    competitor = CompetitorRefSerializer()


class DrawTableSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    seats = SeatSerializer(many=True)
    result = TableResultSerializer(allow_null=True)


class ByeSerializer(serializers.Serializer[Any]):
    competitor = CompetitorRefSerializer()
    reason = serializers.ChoiceField(choices=[("draw", "draw"), ("late", "late")])


class RoundDetailSerializer(RoundSummarySerializer):
    tables = DrawTableSerializer(many=True)
    byes = ByeSerializer(many=True)
    repeats = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="Pairs of competitor ids who meet again in this round (no draw avoided it).",
    )


class HandSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField(help_text="The donne's number at its table, from 1.")
    raw = serializers.JSONField(help_text="The hand exactly as entered (the engine's hand object).")
    scores = serializers.ListField(child=NumberField(), help_text="Each side's score for this donne.")
    outcome = serializers.CharField()
    reserve_in = serializers.IntegerField()
    reserve_out = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=Hand.Status.choices,
        help_text="pending: waiting for another side's confirmation; it does not count yet.",
    )
    entered_via = serializers.CharField()
    version = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class TableHandSerializer(HandSerializer):
    counted = serializers.BooleanField(help_text="Counts in the table's result (the confirmed prefix).")
    running = serializers.ListField(child=NumberField(), help_text="Each side's counted total after this donne.")


class TableSideSerializer(serializers.Serializer[Any]):
    side = serializers.IntegerField()
    competitors = CompetitorRefSerializer(many=True)


class TableDetailSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    number = serializers.IntegerField()
    sides = TableSideSerializer(many=True)
    hands = TableHandSerializer(many=True)
    result = TableResultSerializer(allow_null=True)
    clock = RoundClockSerializer(allow_null=True, help_text="The round's clock, null when none runs.")


class ColumnSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    # A declared field: DRF takes it off the class, so it never hides Field.label.
    label = serializers.CharField()  # type: ignore[assignment]


class PartieSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    side = serializers.IntegerField(allow_null=True)
    result = serializers.ChoiceField(choices=["win", "loss", "draw", "pending", "bye", "absent"])
    points = NumberField()
    against = NumberField()
    opponents = serializers.ListField(child=serializers.IntegerField(), help_text="Competitor ids.")
    partners = serializers.ListField(child=serializers.IntegerField(), help_text="Competitor ids (mêlée).")
    late = serializers.BooleanField(
        required=False, help_text="A round missed by a late arrival (result `absent`, or `bye` when credited as one)."
    )


class StandingRowSerializer(serializers.Serializer[Any]):
    competitor = serializers.IntegerField(help_text="The competitor's id.")
    number = serializers.IntegerField()
    name = serializers.CharField()
    rank = serializers.IntegerField(help_text="Shared by equal competitors: 1, 2, 2, 4.")
    wins = NumberField()
    points = NumberField()
    against = NumberField()
    difference = NumberField()
    played = serializers.IntegerField(help_text="Parties played at a table and finished (byes and rounds missed not).")
    byes = serializers.IntegerField()
    absences = serializers.IntegerField(
        required=False,
        help_text="Rounds missed by a late arrival, each scored as a lost partie (the `absent` late policy).",
    )
    withdrawn = serializers.BooleanField()
    values = serializers.ListField(child=NumberField(), help_text="The criteria's values, in the columns' order.")
    rounds = PartieSerializer(many=True)


class StandingsSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(allow_null=True, help_text="null before anything is ranked.")
    after_round = serializers.IntegerField(allow_null=True, help_text="The last round it counts (null before round 1).")
    built_at = serializers.DateTimeField(allow_null=True)
    columns = ColumnSerializer(many=True)
    rows = StandingRowSerializer(many=True)


class SeasonResultSerializer(serializers.Serializer[Any]):
    tournament = serializers.SlugField()
    name = serializers.CharField()
    rank = serializers.IntegerField()
    points = NumberField()


class SeasonRowSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(
        allow_null=True,
        help_text="The player's id; null for a player not shown (who keeps their results off public pages, "
        "or whose data was erased): their rank and totals stay, unnamed, for all but the club's organisers.",
    )
    name = serializers.CharField()
    rank = serializers.IntegerField()
    points = NumberField(help_text="Season points, every tournament of the season counted.")
    played = serializers.IntegerField(help_text="Tournaments played.")
    best = serializers.IntegerField(allow_null=True, help_text="Best rank.")
    results = SeasonResultSerializer(
        many=True,
        help_text="The player's tournaments that this reader may follow (the club's organisers: all of them).",
    )


class SeasonSummarySerializer(serializers.Serializer[Any]):
    slug = serializers.SlugField()
    name = serializers.CharField()
    club = ClubSerializer()
    scheme = serializers.CharField()


class SeasonDetailSerializer(SeasonSummarySerializer):
    tournaments = serializers.ListField(
        child=serializers.SlugField(),
        help_text="Slugs of its tournaments that this reader may follow (the club's organisers: all of them).",
    )
    version = serializers.IntegerField(allow_null=True)
    built_at = serializers.DateTimeField(allow_null=True)
    rows = SeasonRowSerializer(many=True)


class GameOptionSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    # DRF's metaclass takes declared fields off the class: no clash with Field.label at run time.
    label = serializers.CharField(help_text="What the option decides, in the reader's language.")  # type: ignore[assignment]
    default = serializers.JSONField()
    choices = serializers.ListField(child=serializers.JSONField(), help_text="Every value, the default first.")
    choice_labels = serializers.ListField(child=serializers.CharField(), help_text="Each value in words, in order.")
    description = serializers.CharField(help_text="The engine's English description.")


class PresetSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    name = serializers.CharField(help_text="In the reader's language (« Fédération (FFB) »).")
    description = serializers.CharField(help_text="What the preset is, in the reader's language.")
    options = serializers.DictField(child=serializers.JSONField(), help_text="Every rule option of the game.")
    settings = serializers.DictField(
        child=serializers.JSONField(), help_text="The game's tournament settings it sets (tarot à 4: `table_de_cinq`)."
    )


class GameSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    label = serializers.CharField(help_text="The game's name, in the reader's language.")  # type: ignore[assignment]
    players_per_table = serializers.IntegerField()
    formats = serializers.ListField(child=serializers.CharField())
    options = GameOptionSerializer(many=True)
    settings = GameOptionSerializer(many=True, help_text="Tournament settings the game's rules decide.")
    presets = PresetSerializer(many=True, help_text="Named sets of every option and setting, the defaults first.")
