"""The director's desk forms: several players registered at once, two records merged.

They check shapes; the rules (one person never twice, who may be merged) live in the
services (tournaments/services/bulk.py, merge.py).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from tournaments.forms import PlayerChoiceField
from tournaments.models import Club, Player
from tournaments.services import NewPlayer, PastedLine

MAX_PASTE = 40_000


class PlayersTicked(forms.ModelMultipleChoiceField):  # type: ignore[type-arg]  # not subscriptable at run time
    """Club players as the registration picker lists them: last name first, then the licence."""

    def label_from_instance(self, obj: Player) -> str:
        label = f"{obj.last_name} {obj.first_name}".strip()
        return f"{label} ({obj.licence})" if obj.licence else label


class TickForm(forms.Form):
    """Players ticked in the club's list (the order of the list is the order of the teams)."""

    players = PlayersTicked(label=_("Players"), queryset=Player.objects.none(), widget=forms.CheckboxSelectMultiple)
    checked_in = forms.BooleanField(label=_("Checked in now"), required=False)

    def __init__(self, *args: Any, available: QuerySet[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = self.fields["players"]
        assert isinstance(players, forms.ModelMultipleChoiceField)
        players.queryset = available
        players.error_messages["required"] = _("Tick at least one player.")

    def ticked(self, order: list[str]) -> list[Player]:
        """The ticked players in the order they were listed (the order of `order`, the ids sent)."""
        chosen = {str(p.pk): p for p in self.cleaned_data["players"]}
        return [chosen[pk] for pk in dict.fromkeys(order) if pk in chosen]


class PasteForm(forms.Form):
    """A pasted list of names, one a line; `lines` (once read) adds a choice for each line
    that needs one: which of the club's namesakes, or whether to create a new player."""

    text = forms.CharField(
        label=_("Names, one per line"),
        max_length=MAX_PASTE,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text=_("« Prénom Nom » or « Nom Prénom », a licence number after the name if known."),
    )
    checked_in = forms.BooleanField(label=_("Checked in now"), required=False)

    def __init__(self, *args: Any, lines: list[PastedLine] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lines = lines or []
        for line in self.lines:
            n = line.line
            if line.status == "choose":
                self.fields[f"choice_{n}"] = forms.TypedChoiceField(
                    label=_("Which player?"),
                    choices=[(p.pk, _player_choice(p)) for p in line.candidates],
                    coerce=int,
                    widget=forms.RadioSelect,
                    required=False,
                )
            elif line.status == "new":
                self.fields[f"create_{n}"] = forms.BooleanField(label=_("Create this player"), required=False)
                self.fields[f"first_{n}"] = forms.CharField(
                    label=_("first name"), max_length=100, required=False, initial=line.first_name
                )
                self.fields[f"last_{n}"] = forms.CharField(
                    label=_("last name"), max_length=100, required=False, initial=line.last_name
                )

    def rows(self) -> list[tuple[PastedLine, list[forms.BoundField]]]:
        """Each line read, with the fields it asks for (none when the player is found)."""
        prefixes = ("choice", "create", "first", "last")
        return [
            (line, [self[f"{p}_{line.line}"] for p in prefixes if f"{p}_{line.line}" in self.fields])
            for line in self.lines
        ]

    def players(self) -> list[Player | NewPlayer]:
        """The players of the lines in order, once every line is settled; the lines that are
        not get an error beside them and the list is empty."""
        data = self.cleaned_data
        chosen: list[Player | NewPlayer] = []
        for line in self.lines:
            n = line.line
            if line.status == "error":
                self.add_error(None, _("Line %(line)s: %(error)s") % {"line": n, "error": line.error})
            elif line.status == "found" and line.found is not None:
                chosen.append(line.found)
            elif line.status == "choose":
                picked = next((p for p in line.candidates if p.pk == data.get(f"choice_{n}")), None)
                if picked is None:
                    self.add_error(f"choice_{n}", _("Choose which player this line names."))
                else:
                    chosen.append(picked)
            elif not data.get(f"create_{n}"):
                self.add_error(f"create_{n}", _("Not in the club: tick to create them, or remove the line."))
            elif not (data.get(f"first_{n}") or "").strip() or not (data.get(f"last_{n}") or "").strip():
                self.add_error(f"last_{n}", _("Give the first and the last name."))
            else:
                chosen.append(
                    NewPlayer(
                        last_name=data[f"last_{n}"],
                        first_name=data[f"first_{n}"],
                        licence=line.licence,
                        public_history=False,
                    )
                )
        return chosen if not self.errors else []


def _player_choice(player: Player) -> str:
    label = f"{player.full_name}"
    details = [d for d in (player.licence, player.affiliation) if d]
    return f"{label} ({', '.join(details)})" if details else label


class MergeForm(forms.Form):
    """The record kept and the record merged into it, both of the club."""

    kept = PlayerChoiceField(label=_("Record kept"), queryset=Player.objects.none())
    merged = PlayerChoiceField(
        label=_("Record merged into it (then deleted)"),
        queryset=Player.objects.none(),
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = Player.objects.filter(club=club, anonymised_at__isnull=True)
        for name in ("kept", "merged"):
            field = self.fields[name]
            assert isinstance(field, PlayerChoiceField)
            field.queryset = players
            field.empty_label = _("— choose a player —")
