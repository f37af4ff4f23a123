"""The organiser's season form: name, dates, scheme, the placing table as one line, tournaments."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from seasons.models import Season
from seasons.services import MAX_NAME, parse_placing_points
from tournaments.models import Club, Tournament

DATE_WIDGET = forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"})


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=MAX_NAME)
    starts = forms.DateField(label=_("Starts"), required=False, widget=DATE_WIDGET)
    ends = forms.DateField(label=_("Ends"), required=False, widget=DATE_WIDGET)
    scheme = forms.ChoiceField(label=_("Scheme"), choices=Season.Scheme.choices)
    placing_points = forms.CharField(
        label=_("Points by placing"),
        required=False,
        max_length=1000,
        help_text=_("Points of the 1st, 2nd, 3rd place…, separated by commas: 25, 20, 16, 13, 11, 10, 9, 8, 7, 6"),
    )
    tournaments = forms.ModelMultipleChoiceField(
        label=_("Tournaments"),
        queryset=Tournament.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["tournaments"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = Tournament.objects.filter(club=club).order_by("-date", "name")

    @staticmethod
    def initial_for(season: Season) -> dict[str, Any]:
        return {
            "name": season.name,
            "starts": season.starts,
            "ends": season.ends,
            "scheme": season.scheme,
            "placing_points": ", ".join(str(points) for points in season.placing_points),
            "tournaments": list(season.tournaments.all()),
        }

    def clean_placing_points(self) -> list[int]:
        return parse_placing_points(self.cleaned_data.get("placing_points") or "")
