"""The tournament model: clubs, players, tournaments, competitors, rounds, tables, seats.

Terms (concours, doublette, mêlée, competitor, round, table, seat, side, bye):
docs/glossary.md. Formats: `teams` (doublettes formées), `melee`, `individual` (the games
played alone). A round's draw is Round -> Table -> Seat.

Rules about what may change when live in `tournaments/services/`, not here.
"""

from __future__ import annotations

import datetime
import secrets
from decimal import Decimal
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from tournaments.text import Fold

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class Club(models.Model):
    name = models.CharField(_("name"), max_length=200, unique=True)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    town = models.CharField(_("town"), max_length=120, blank=True)
    # Everyone who manages the club, whatever their role (Membership): a club administrator
    # organises too. tournaments.access decides who may do what.
    organisers: models.ManyToManyField[User, Membership] = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        through="Membership",
        related_name="clubs",
        blank=True,
        verbose_name=_("organisers"),
    )
    # A short hash of the logo's bytes (ClubLogo), empty without a logo: the logo's URL
    # carries it, so a browser may keep a logo for good and fetches a new one at once.
    logo_version = models.CharField(max_length=16, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("club_public", kwargs={"slug": self.slug})

    @property
    def logo_url(self) -> str:
        """The logo's address (versioned), or "" when the club has none."""
        if not self.logo_version:
            return ""
        return reverse("club_logo", kwargs={"slug": self.slug}) + f"?v={self.logo_version}"


class ClubLogo(models.Model):
    """A club's logo: a PNG or JPEG, re-encoded on upload (tournaments/logos.py), kept in
    the database (backed up with it, served by a view) and apart from Club, so that
    loading a club never loads the image."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, primary_key=True, related_name="logo")
    data = models.BinaryField()
    content_type = models.CharField(max_length=20)
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.club} ({self.content_type}, {self.width}×{self.height})"


class Membership(models.Model):
    """A user's place in a club: administrator (manages the club and its people, and
    organises) or organiser (players and tournaments only)."""

    class Role(models.TextChoices):
        ADMIN = "admin", _("Club administrator")
        ORGANISER = "organiser", _("Organiser")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.ORGANISER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "user__username"]
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="membership_unique")]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")

    def __str__(self) -> str:
        return f"{self.user} · {self.club} ({self.role})"

    @property
    def is_admin(self) -> bool:
        return self.role == self.Role.ADMIN


class Invitation(models.Model):
    """An invitation to join a club with a role, sent by e-mail as a link.

    The link carries a random secret; only its SHA-256 is stored (`token_hash`), so the
    database alone opens nothing. The link works once (`accepted_at`) and until
    `expires_at`; a new invitation to the same address replaces the pending one.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(_("email"))
    role = models.CharField(_("role"), max_length=16, choices=Membership.Role.choices, default="organiser")
    token_hash = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["club", "-created_at"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.email} → {self.club} ({self.role})"


# The players a public reader never sees named on a page that follows people from one
# tournament to the next (a player's history, a season): those who opted out of a public
# history and those anonymised. One rule, asked by every such page, file and API answer
# (`Player.followed_publicly`, `PUBLICLY_UNNAMED`, `UNNAMED_LABEL`): docs/glossary.md.
PUBLICLY_UNNAMED = Q(public_history=False) | Q(anonymised_at__isnull=False)
# What such a page says in place of their name.
UNNAMED_LABEL = _("Player not shown")


class Player(models.Model):
    """A club's player. Contact data is private: never shown on a public page or in the API."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="players", verbose_name=_("club"))
    last_name = models.CharField(_("last name"), max_length=100)
    first_name = models.CharField(_("first name"), max_length=100)
    licence = models.CharField(_("licence number"), max_length=30, blank=True, db_index=True)
    # A concours welcomes players of other clubs: the club that keeps the record (`club`,
    # whose organisers manage it) is not always the club the player plays for.
    affiliation = models.CharField(
        _("club played for"), max_length=200, blank=True, help_text=_("Leave empty for a player of this club.")
    )
    email = models.EmailField(_("email"), blank=True)
    phone = models.CharField(_("phone"), max_length=30, blank=True)
    # Set when a club administrator anonymised the player (their name replaced, their
    # licence and contact details erased, their results kept): docs/architecture.md.
    anonymised_at = models.DateTimeField(null=True, blank=True, editable=False)
    # What is kept to recognise an anonymised player in data that still names them (an
    # archive exported before the erasure): keyed digests of their name, licence and
    # e-mail, never the data itself (tournaments/services/privacy.py). Empty otherwise.
    erased_identity = models.JSONField(default=dict, blank=True, editable=False)
    # Whether the player's public page lists their results (name and club only); off: 404.
    public_history = models.BooleanField(_("show their results on a public page"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # The French order: Bérard before Boyer, Émile among the E (tournaments/text.py).
        ordering = [Fold("last_name"), Fold("first_name"), "last_name", "first_name"]
        indexes = [models.Index(fields=["club", "last_name", "first_name"])]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.full_name

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def club_label(self) -> str:
        """The club the player plays for, as shown and as used to keep clubs apart."""
        return self.affiliation or self.club.name

    @property
    def followed_publicly(self) -> bool:
        """Whether a public reader may see this player named from one tournament to the next
        (their own history page, a partner in someone else's, a season): `PUBLICLY_UNNAMED`."""
        return self.public_history and self.anonymised_at is None


class Tournament(models.Model):
    class Game(models.TextChoices):
        BELOTE_CLASSIQUE = "belote_classique", _("Belote (classic)")
        BELOTE_MODERNE = "belote_moderne", _("Belote moderne (no trump / all trumps)")
        BELOTE_A_TROIS = "belote_a_trois", _("Belote for three")
        TAROT_A_TROIS = "tarot_a_trois", _("Tarot for three")
        TAROT_A_QUATRE = "tarot_a_quatre", _("Tarot for four (tables of 5 when needed)")
        TAROT_A_CINQ = "tarot_a_cinq", _("Tarot for five (a called king)")
        BELOTE_CONTREE = "belote_contree", _("Belote contrée (coinche)")

    class Format(models.TextChoices):
        TEAMS = "teams", _("Fixed teams of two")
        MELEE = "melee", _("Mêlée: partners drawn each round")
        INDIVIDUAL = "individual", _("Individual")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class EndRule(models.TextChoices):
        DONNES = "donnes", _("A fixed number of donnes")
        TARGET = "target", _("A target score")

    class PairingMethod(models.TextChoices):
        RANDOM = "random", _("Random draw every round")
        SWISS = "swiss", _("Swiss system (close in the standings)")

    class FirstRoundOrder(models.TextChoices):
        # How round 1 is drawn (later rounds: `pairing_method`). By rating: the players'
        # Atout ratings (ratings/) keep the strongest apart (docs/rules.md).
        RANDOM = "random", _("At random")
        RATING = "rating", _("By Atout rating (the strongest apart)")

    class ByePolicy(models.TextChoices):
        AVERAGE_WIN = "average_win", _("A won partie with the average points of the round's winners")
        FIXED = "fixed", _("A won partie with a fixed number of points")
        NONE = "none", _("Nothing")

    class LatePolicy(models.TextChoices):
        # What a late arrival scores for each round it missed (docs/rules.md).
        ABSENT = "absent", _("Nothing: a lost partie with 0 points")
        BYE = "bye", _("What a bye scores")

    class TablePreference(models.TextChoices):
        # Tarot à 4 and à 5 seat tables of 4 and of 5 (tournaments/games.py); the other
        # games have one table size and keep this empty.
        FOUR_FIRST = "four_first", _("Tables of 4, and of 5 where the count calls for it")
        FIVE_FIRST = "five_first", _("Tables of 5, and of 4 where the count calls for it")

    class DoorRule(models.TextChoices):
        # When a team checks itself in at the door (tournaments/services/door.py).
        EACH = "each", _("Each of its players checks in")
        ONE = "one", _("One player may say both are here")

    class TableDeCinq(models.TextChoices):
        # What a table of five plays at a tarot à 4 tournament: the engine's tarot à 4
        # setting `table_de_cinq` (docs/rules.md, "The table of five"). Other games keep
        # the default, which means nothing for them.
        MORT = "mort", _("Tarot for four, the dealer sitting each donne out (the mort)")
        TAROT_A_CINQ = "tarot_a_cinq", _("Tarot for five, with a called king")

    class PrizePool(models.TextChoices):
        NONE = "none", _("No prize money")
        SHARE = "share", _("A share of the takings")
        FIXED = "fixed", _("A fixed pool")

    class PrizeSplit(models.TextChoices):
        PERCENT = "percent", _("Percentages of the pool")
        AMOUNT = "amount", _("Fixed amounts")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("public address"), max_length=80, unique=True)
    date = models.DateField(_("date"))
    game = models.CharField(_("game"), max_length=32, choices=Game.choices)
    format = models.CharField(_("format"), max_length=16, choices=Format.choices)
    rounds_planned = models.PositiveSmallIntegerField(_("rounds"), default=4)
    end_rule = models.CharField(_("a partie ends after"), max_length=8, choices=EndRule.choices, default="donnes")
    end_value = models.PositiveIntegerField(_("donnes or target score"), default=12)
    pairing_method = models.CharField(
        _("draw of later rounds"), max_length=8, choices=PairingMethod.choices, default="swiss"
    )
    criteria = models.JSONField(_("ranking criteria"), default=list, blank=True)
    match_points = models.JSONField(_("match points"), default=dict, blank=True)
    first_round_order = models.CharField(
        _("order of round 1"), max_length=8, choices=FirstRoundOrder.choices, default="random"
    )
    bye_policy = models.CharField(_("bye"), max_length=16, choices=ByePolicy.choices, default="average_win")
    bye_points = models.PositiveIntegerField(_("points for a bye (fixed policy)"), default=0)
    late_policy = models.CharField(_("late arrival"), max_length=16, choices=LatePolicy.choices, default="absent")
    separate_clubs_rounds = models.PositiveSmallIntegerField(_("keep clubs apart for the first rounds"), default=0)
    # Tarot à 4 and à 5 only; empty: the game's own preference (an archive from before
    # the setting). Fixed once the first round is drawn.
    table_preference = models.CharField(
        _("seating"), max_length=12, choices=TablePreference.choices, blank=True, default=""
    )
    allow_tables_of_three = models.BooleanField(_("tables of 3 allowed"), default=False)
    # Tarot à 4 only; fixed once the first round is drawn. Tournaments made before the
    # setting existed played tarot à 5 at their tables of five and keep doing so (the
    # migration gives them `tarot_a_cinq`).
    table_de_cinq = models.CharField(
        _("a table of five plays"), max_length=16, choices=TableDeCinq.choices, default=TableDeCinq.MORT
    )
    rule_options = models.JSONField(_("rule options"), default=dict, blank=True)
    confirmation_required = models.BooleanField(_("hands confirmed by the other side"), default=False)
    is_public = models.BooleanField(_("public"), default=True)
    # What each competitor pays to play (euros); 0: free entry. Recorded at check-in on
    # the competitor (payment_status, payment_method, amount_paid).
    entry_fee = models.DecimalField(
        _("entry fee (€)"),
        max_digits=7,
        decimal_places=2,
        default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0"))],
    )
    # The prize money (*dotation*, tournaments/palmares.py): a pool, a share of the takings
    # (a percentage of the entry fees received) or a fixed sum, split by place as
    # percentages of the pool or as fixed amounts (`prize_split`: one decimal string per
    # place, first place first). No pool: no money beside the lots in kind.
    prize_pool_kind = models.CharField(
        _("prize money"), max_length=8, choices=PrizePool.choices, default=PrizePool.NONE
    )
    prize_pool_value = models.DecimalField(
        _("share of the takings (%) or pool (€)"), max_digits=8, decimal_places=2, default=Decimal("0")
    )
    prize_split_kind = models.CharField(
        _("split by place as"), max_length=8, choices=PrizeSplit.choices, default=PrizeSplit.PERCENT
    )
    prize_split = models.JSONField(_("split by place"), default=list, blank=True)
    # Self check-in at the door (« Pointage »): a tablet on the door's secret link
    # (`Door`), each player finding their name; the team rule says when a team of two is in.
    self_check_in = models.BooleanField(_("self check-in at the door"), default=False)
    door_rule = models.CharField(
        _("a team is checked in at the door when"), max_length=8, choices=DoorRule.choices, default=DoorRule.EACH
    )
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default="draft")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-date", "name"]
        indexes = [models.Index(fields=["club", "date"]), models.Index(fields=["status", "date"])]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("public:ranking", kwargs={"slug": self.slug})

    @property
    def sides_per_table(self) -> int:
        return 3 if self.format == self.Format.INDIVIDUAL else 2

    @property
    def seats_per_table(self) -> int:
        return 3 if self.format == self.Format.INDIVIDUAL else 4


def new_table_token() -> str:
    """A secret link's token (192 random bits): a table's referee link, a competitor's « Ma soirée »."""
    return secrets.token_urlsafe(24)


class Competitor(models.Model):
    """What is ranked: a fixed team, or one player (mêlée and the games for three)."""

    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        CHECKED_IN = "checked_in", _("Checked in")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    class Payment(models.TextChoices):
        UNPAID = "unpaid", _("Not paid")
        PAID = "paid", _("Paid")
        FREE = "free", _("Free entry")

    class PaymentMethod(models.TextChoices):
        CASH = "cash", _("Cash")
        CARD = "card", _("Card")
        TRANSFER = "transfer", _("Transfer")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="competitors")
    number = models.PositiveIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=200)
    players = models.ManyToManyField(Player, related_name="competitors", verbose_name=_("players"))
    club = models.ForeignKey(Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    # The club the competitor plays for, shared by all its players (empty for a team of two
    # clubs): the draw keeps equal affiliations apart for the first rounds when asked.
    affiliation = models.CharField(_("club played for"), max_length=200, blank=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default="registered")
    joined_round = models.PositiveSmallIntegerField(_("first round played"), default=1)
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    # The entry fee (tournaments/services/money.py): paid with a method and an amount
    # (the tournament's fee unless said otherwise), not paid, or free (invited, organiser).
    payment_status = models.CharField(_("entry fee"), max_length=8, choices=Payment.choices, default="unpaid")
    payment_method = models.CharField(
        _("payment method"), max_length=8, choices=PaymentMethod.choices, blank=True, default=""
    )
    amount_paid = models.DecimalField(_("amount paid (€)"), max_digits=7, decimal_places=2, default=Decimal("0"))
    # When the entry was recorded as paid (empty unless paid), and who last recorded its
    # payment status (the treasurer's payments page: who took the money).
    paid_at = models.DateTimeField(_("paid at"), null=True, blank=True)
    payment_recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The competitor's personal link to « Ma soirée » (/soiree/<token>/), a secret like a
    # table's referee link (the same token, revoked and renewed the same way by the director:
    # tournaments/services/registration.py). Never carried by an archive.
    link_token = models.CharField(max_length=64, unique=True, default=new_table_token)
    link_revoked = models.BooleanField(default=False)
    # Checked in by its players at the door (tournaments/services/door.py), not by the
    # director's hand: the desk marks it. A check-in or its undoing at the desk clears it.
    self_checked_in = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="competitor_number_unique")]
        verbose_name = _("competitor")
        verbose_name_plural = _("competitors")

    def __str__(self) -> str:
        return self.name


class Door(models.Model):
    """A tournament's door: the secret link a tablet at the entrance opens for the players'
    self check-in (« Pointage »), a token like a table's, withdrawn and renewed by the
    director the same way. Made the first time the director asks for it; a row apart from
    the tournament, so that no archive carries the link (it opens this site's door only)."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, primary_key=True, related_name="door")
    token = models.CharField(max_length=64, unique=True, default=new_table_token)
    revoked = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"{self.tournament} · door"


class Arrival(models.Model):
    """One player of a competitor said « Je suis là » at the door (or was said present by
    a partner, when the tournament's door rule lets one say both are here)."""

    competitor = models.ForeignKey(Competitor, on_delete=models.CASCADE, related_name="arrivals")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]
        constraints = [models.UniqueConstraint(fields=["competitor", "player"], name="arrival_once")]

    def __str__(self) -> str:
        return f"{self.competitor}: {self.player}"


class Prize(models.Model):
    """A lot of the prize list (*palmarès*): what the ranks rank_from to rank_to win each."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="prizes")
    rank_from = models.PositiveSmallIntegerField(_("from rank"))
    rank_to = models.PositiveSmallIntegerField(_("to rank"))
    text = models.CharField(_("lot"), max_length=200)
    value = models.DecimalField(_("value (€)"), max_digits=8, decimal_places=2, null=True, blank=True)

    class Meta:
        ordering = ["tournament", "rank_from"]
        constraints = [
            models.CheckConstraint(condition=Q(rank_to__gte=models.F("rank_from")), name="prize_ranks_ordered"),
            models.CheckConstraint(condition=Q(rank_from__gte=1), name="prize_rank_from_positive"),
        ]
        verbose_name = _("lot")
        verbose_name_plural = _("lots")

    def __str__(self) -> str:
        return f"{self.ranks_label} · {self.text}"

    @property
    def ranks_label(self) -> str:
        return str(self.rank_from) if self.rank_from == self.rank_to else f"{self.rank_from}–{self.rank_to}"

    def covers(self, rank: int) -> bool:
        return self.rank_from <= rank <= self.rank_to


class ForbiddenPair(models.Model):
    """Two competitors the director keeps apart (family, same household...)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="forbidden_pairs")
    first = models.ForeignKey(Competitor, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Competitor, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(_("reason"), max_length=200, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "first", "second"], name="forbidden_pair_unique"),
            models.CheckConstraint(condition=~Q(first=models.F("second")), name="forbidden_pair_distinct"),
        ]

    def __str__(self) -> str:
        return f"{self.first} ≠ {self.second}"


class Round(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("In play")
        CLOSED = "closed", _("Closed")

    class Method(models.TextChoices):
        # The tournament's pairing methods, and round 1 by rating (Tournament.first_round_order).
        RANDOM = "random", _("Random draw every round")
        SWISS = "swiss", _("Swiss system (close in the standings)")
        SEEDED = "seeded", _("By Atout rating (the strongest apart)")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default="open")
    method = models.CharField(max_length=8, choices=Method.choices)
    seed = models.BigIntegerField(_("draw seed"))
    repeats = models.JSONField(default=list, blank=True)
    # Pairs seated together despite a forbidden meeting or a shared club (competitor ids),
    # when no draw avoided it: shown to the director like the repeats.
    conflicts = models.JSONField(default=list, blank=True)
    drawn_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    forced = models.BooleanField(default=False)
    # The round's clock: started by the director with a duration, time added or taken
    # off by changing the minutes; both empty when no clock runs (rounds/services.py).
    clock_started_at = models.DateTimeField(_("clock started at"), null=True, blank=True)
    clock_minutes = models.PositiveSmallIntegerField(_("round duration (minutes)"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")

    def __str__(self) -> str:
        return f"{self.tournament} · {self.number}"

    @property
    def clock_ends_at(self) -> datetime.datetime | None:
        """When the round's time is up, or None when no clock runs."""
        if self.clock_started_at is None or self.clock_minutes is None:
            return None
        return self.clock_started_at + datetime.timedelta(minutes=self.clock_minutes)


class Table(models.Model):
    """One table of one round. Its secret token is the referee's access to it."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField(_("table"))
    token = models.CharField(max_length=64, unique=True, default=new_table_token)
    token_revoked = models.BooleanField(default=False)

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_number_unique")]
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self) -> str:
        return f"{self.round} · T{self.number}"


class Seat(models.Model):
    """A competitor's place at a table: its side, and its position (N/E/S/W or 1/2/3)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    competitor = models.ForeignKey(Competitor, on_delete=models.PROTECT, related_name="seats")
    side = models.PositiveSmallIntegerField()
    position = models.CharField(max_length=2)

    class Meta:
        ordering = ["table", "side", "position"]
        constraints = [
            # A competitor sits at one table per round: the database guards it.
            models.UniqueConstraint(fields=["round", "competitor"], name="seat_one_table_per_round"),
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.position}: {self.competitor}"


class Bye(models.Model):
    """A competitor left out of a round's draw (exempt), and what the bye policy credits."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    competitor = models.ForeignKey(Competitor, on_delete=models.PROTECT, related_name="byes")
    reason = models.CharField(max_length=16, default="draw")  # draw | late (joined after this round)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "competitor"], name="bye_unique")]

    def __str__(self) -> str:
        return f"{self.round}: {self.competitor} ({self.reason})"


SCREEN_MESSAGE_LENGTH = 140


class ScreenMessage(models.Model):
    """A short message of the director shown on the projectors and every « Ma soirée »
    page while active: until withdrawn, or until `expires_at` when a time was chosen."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="screen_messages")
    text = models.CharField(_("message"), max_length=SCREEN_MESSAGE_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-pk")

    def __str__(self) -> str:
        return self.text


class ClubLogEntry(models.Model):
    """One line of a club's log: who did what to the club's records, and when, for its
    administrators to read (/manage/club/<id>/log/). Written by the services whose work
    cannot be seen afterwards (two players merged into one: the merged record is gone).

    `text` is written in the site's language (LANGUAGE_CODE), as the anonymous name is: a
    record every reader shares. `player` is the player it concerns, so that anonymising
    them rewrites the text (tournaments/services/privacy.py): an erased name stays erased.
    """

    class Action(models.TextChoices):
        PLAYERS_MERGED = "players_merged", _("Players merged")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="log_entries")
    at = models.DateTimeField(auto_now_add=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    action = models.CharField(_("action"), max_length=32, choices=Action.choices)
    player = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    text = models.TextField(_("what was done"))

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["club", "-at"])]
        verbose_name = _("club log entry")
        verbose_name_plural = _("club log entries")

    def __str__(self) -> str:
        return f"{self.club} · {self.at:%Y-%m-%d %H:%M} · {self.action}"


class OnlineRegistration(models.Model):
    """How a public tournament takes registrations online (« S'inscrire »): open or not, a
    cap on competitors with a waiting list, a closing time, each entry accepted at once or
    by the director's hand, the licence asked or not (tournaments/services/online.py).

    A row apart from the tournament, made the first time the director sets it, as the
    door is: the club's way of taking entries, not a rule of the game; no archive carries it.
    """

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, primary_key=True, related_name="online")
    is_open = models.BooleanField(_("registration online"), default=False)
    # Competitors in the tournament (not withdrawn), whoever registered them; past it an
    # online entry waits on the list. Empty: no cap.
    cap = models.PositiveIntegerField(_("most competitors"), null=True, blank=True)
    closes_at = models.DateTimeField(_("registration online closes"), null=True, blank=True)
    auto_accept = models.BooleanField(_("accept entries automatically"), default=True)
    licence_required = models.BooleanField(_("licence number required"), default=False)

    def __str__(self) -> str:
        return f"{self.tournament} · online"


class OnlineEntry(models.Model):
    """One registration sent by the public form: the names as typed, kept apart from the
    competitors until accepted. A pending, waiting or refused entry is no competitor, so
    that no draw, check-in or ranking ever sees it; accepting it registers a competitor
    as the director's form does (one person never twice), and `competitor` points to it.

    *Seeking* is a single player of a team tournament looking for a partner (« cherche
    partenaire »): the director pairs two of them into one entry (`paired_into`)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Awaiting the organiser")
        WAITING = "waiting", _("On the waiting list")
        ACCEPTED = "accepted", _("Accepted")
        REFUSED = "refused", _("Refused")
        SEEKING = "seeking", _("Looking for a partner")
        PAIRED = "paired", _("Paired with a partner")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="online_entries")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    # [{"last_name", "first_name", "licence"}], one or two as the format wants.
    players = models.JSONField(default=list)
    name = models.CharField(_("team name"), max_length=200, blank=True)
    affiliation = models.CharField(_("club played for"), max_length=200, blank=True)
    email = models.EmailField(_("e-mail"))
    phone = models.CharField(_("phone"), max_length=30, blank=True)
    competitor = models.ForeignKey(
        Competitor, on_delete=models.SET_NULL, null=True, blank=True, related_name="online_entries"
    )
    paired_into = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    # The address of this site the registrant used, for the links the e-mails carry when
    # no request is at hand (the waiting list moving up at a withdrawal at the desk).
    site_url = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["tournament", "status", "created_at"])]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        names = [f"{p.get('first_name', '')} {p.get('last_name', '')}".strip() for p in self.players]
        # An entry whose players were anonymised keeps no name: its competitor's stands.
        return " – ".join(n for n in names if n) or (self.competitor.name if self.competitor is not None else "")
