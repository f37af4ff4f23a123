"""What only a club's organisers read: its players' private fields, entry-fee payments,
seasons as they are edited and their rebuild jobs, and a player's whole history.

These shapes appear in the answers of organiser endpoints only (api.views.club); the
public serializers (api.serializers) never include them, so a licence, an e-mail, a phone
or a payment cannot slip into a public answer by a shared field. A player's public
history (`PublicHistorySerializer`) reuses the public `PlayerSerializer`.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers import ClubSerializer, NumberField, PlayerSerializer
from scoring.models import Job
from seasons.models import Season
from seasons.services import MAX_NAME, MAX_PLACING_ENTRIES
from tournaments.models import Competitor, Player, Tournament
from tournaments.services.money import MAX_AMOUNT

# The placing table's points are whole numbers of up to nine digits (the page's limit).
MAX_PLACING_POINTS = 999_999_999
# Limits of the players' columns (tournaments.models.Player).
NAME_MAX, LICENCE_MAX, AFFILIATION_MAX, PHONE_MAX = 100, 30, 200, 30


# -- players -------------------------------------------------------------------------------


class RatingSerializer(serializers.Serializer[Any]):
    """A player's Atout rating (docs/rules.md, "The Atout rating")."""

    value = serializers.FloatField(source="ordinal", help_text="The rating: estimated level minus three uncertainties.")
    parties = serializers.IntegerField(help_text="Parties of finished tournaments it rests on.")
    updated_at = serializers.DateTimeField()


class ClubPlayerSerializer(serializers.Serializer[Any]):
    """A player of the club as its organisers see them: contact details and licence included."""

    id = serializers.IntegerField()
    last_name = serializers.CharField()
    first_name = serializers.CharField()
    licence = serializers.CharField(help_text="The federation licence number (empty when unknown).")
    affiliation = serializers.CharField(help_text="The club the player plays for, when not this one (else empty).")
    club = serializers.CharField(source="club_label", help_text="The club the player plays for.")
    email = serializers.CharField()
    phone = serializers.CharField()
    public_history = serializers.BooleanField(help_text="false: the player opted out of the public history page.")
    anonymised = serializers.SerializerMethodField(help_text="Anonymised on request: name and details erased.")
    rating = serializers.SerializerMethodField(help_text="null until a partie of a finished tournament counts.")
    created_at = serializers.DateTimeField()

    def get_anonymised(self, player: object) -> bool:
        return getattr(player, "anonymised_at", None) is not None

    @extend_schema_field(RatingSerializer(allow_null=True))
    def get_rating(self, player: Player) -> dict[str, Any] | None:
        # The reverse one-to-one of ratings.PlayerRating (select_related("rating") in lists);
        # a player without one raises RelatedObjectDoesNotExist, an AttributeError.
        rating = getattr(player, "rating", None)
        if rating is None or not rating.parties:
            return None
        return dict(RatingSerializer(rating).data)


class PlayerWriteSerializer(serializers.Serializer[Any]):
    """A new player of the club, or the fields to change (those left out stay as they are)."""

    last_name = serializers.CharField(max_length=NAME_MAX, allow_blank=True)
    first_name = serializers.CharField(max_length=NAME_MAX, allow_blank=True)
    licence = serializers.CharField(max_length=LICENCE_MAX, allow_blank=True, required=False, default="")
    affiliation = serializers.CharField(
        max_length=AFFILIATION_MAX,
        allow_blank=True,
        required=False,
        default="",
        help_text="The club the player plays for, when not this one.",
    )
    email = serializers.EmailField(allow_blank=True, required=False, default="")
    phone = serializers.CharField(max_length=PHONE_MAX, allow_blank=True, required=False, default="")
    public_history = serializers.BooleanField(
        required=False, default=True, help_text="false: no public history page (/joueur/<id>/) for this player."
    )


class PlayerUpdateSerializer(PlayerWriteSerializer):
    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, partial=True, **kwargs)  # type: ignore[arg-type]


class PlayedTournamentSerializer(serializers.Serializer[Any]):
    """One tournament a player played, as their stored ranking tells it."""

    tournament = serializers.SlugField(source="tournament.slug")
    name = serializers.CharField(source="tournament.name")
    date = serializers.DateField()
    game = serializers.ChoiceField(source="tournament.game", choices=Tournament.Game.choices)
    club = serializers.CharField(source="tournament.club.name", help_text="The club that ran the tournament.")
    competitor = serializers.CharField(source="competitor_name", help_text="The name the player played under.")
    rank = serializers.IntegerField(allow_null=True, help_text="null until the tournament ranks them.")
    ranked = serializers.IntegerField(help_text="How many competitors the ranking counts.")
    points = NumberField(allow_null=True)
    final = serializers.BooleanField(help_text="The tournament is finished: the rank is final.")
    partners = serializers.ListField(child=serializers.CharField(), help_text="The other players of the team.")


class ClubPlayerHistorySerializer(serializers.Serializer[Any]):
    player = ClubPlayerSerializer()
    tournaments = PlayedTournamentSerializer(many=True, help_text="Newest first, private tournaments included.")


class PublicHistorySerializer(serializers.Serializer[Any]):
    player = PlayerSerializer()
    tournaments = PlayedTournamentSerializer(many=True, help_text="Newest first, public tournaments only.")


# -- payments ------------------------------------------------------------------------------


class PaymentSerializer(serializers.Serializer[Any]):
    """A competitor's entry fee as check-in recorded it."""

    number = serializers.IntegerField(help_text="The competitor's number.")
    name = serializers.CharField()
    payment_status = serializers.ChoiceField(choices=Competitor.Payment.choices)
    payment_method = serializers.ChoiceField(
        choices=Competitor.PaymentMethod.choices, allow_blank=True, help_text="Empty unless paid."
    )
    amount_paid = serializers.DecimalField(max_digits=7, decimal_places=2, help_text="In euros.")


class PaymentWriteSerializer(serializers.Serializer[Any]):
    payment_status = serializers.ChoiceField(choices=Competitor.Payment.choices)
    payment_method = serializers.ChoiceField(
        choices=Competitor.PaymentMethod.choices,
        allow_blank=True,
        required=False,
        default="",
        help_text="cash, card or transfer: required when paid, refused otherwise.",
    )
    amount_paid = serializers.DecimalField(
        max_digits=7,
        decimal_places=2,
        min_value=0,
        max_value=MAX_AMOUNT,
        required=False,
        allow_null=True,
        help_text="In euros, when paid: the tournament's entry fee when omitted.",
    )


# -- seasons -------------------------------------------------------------------------------


class SeasonJobSerializer(serializers.Serializer[Any]):
    """A rebuild of the season: every tournament re-scored or re-ranked, then the season ranked."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Job.Status.choices)
    progress = serializers.IntegerField(help_text="Tournaments done so far.")
    total = serializers.IntegerField(help_text="Tournaments to do (0 until the worker starts).")
    percent = serializers.IntegerField()
    stale = serializers.BooleanField(help_text="No sign of the worker for a while: it may need a restart.")
    error = serializers.CharField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class SeasonManageSerializer(serializers.Serializer[Any]):
    """A season as its organisers edit it, with its latest rebuilds."""

    slug = serializers.SlugField(help_text="The season's public address; it stays when the name changes.")
    name = serializers.CharField()
    club = ClubSerializer()
    starts = serializers.DateField(allow_null=True)
    ends = serializers.DateField(allow_null=True)
    scheme = serializers.ChoiceField(choices=Season.Scheme.choices)
    placing_points = serializers.ListField(
        child=serializers.IntegerField(), help_text="Points of the 1st, 2nd, 3rd place... (scheme `placing`)."
    )
    tournaments = serializers.ListField(
        child=serializers.SlugField(), help_text="Slugs of the tournaments it counts, private ones included."
    )
    active = serializers.BooleanField(help_text="A rebuild is queued or running.")
    jobs = SeasonJobSerializer(many=True, help_text="The latest rebuilds, newest first.")


class SeasonWriteSerializer(serializers.Serializer[Any]):
    club = serializers.SlugField(help_text="The slug of a club you organise.")
    # Blank names pass here: the service refuses them with its own message, beside the others.
    name = serializers.CharField(max_length=MAX_NAME, allow_blank=True)
    starts = serializers.DateField(required=False, allow_null=True, default=None)
    ends = serializers.DateField(required=False, allow_null=True, default=None)
    scheme = serializers.ChoiceField(choices=Season.Scheme.choices, default=Season.Scheme.PLACING)
    placing_points = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=MAX_PLACING_POINTS),
        max_length=MAX_PLACING_ENTRIES,
        required=False,
        help_text="Points of the 1st, 2nd, 3rd place..., never more than the place above; "
        "the usual table (25, 20, 16...) when omitted at creation.",
    )
    tournaments = serializers.ListField(
        child=serializers.SlugField(),
        max_length=1000,
        required=False,
        default=list,
        help_text="Slugs of the club's tournaments the season counts.",
    )


class SeasonUpdateSerializer(SeasonWriteSerializer):
    """The fields to change; those left out stay as they are."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, partial=True, **kwargs)  # type: ignore[arg-type]
        self.fields.pop("club")


class RebuildSerializer(serializers.Serializer[Any]):
    rescore = serializers.BooleanField(
        help_text="true: every hand scored again, then ranked; false: ranked again only (new criteria, "
        "match points or bye policy)."
    )
