"""The director's form for what the ranking depends on: rule options, criteria, byes.

It checks shapes and turns the posted strings into the configuration a job installs
(scoring/jobs.py); `jobs.standings_rules_change` checks the rules (tournaments.rules).

Rule option values can be strings or integers (`capot_value`: 250); the form carries each
choice as its JSON text so that `250` comes back as the integer the engine expects.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.standings import allowed_criteria
from tournaments import games
from tournaments.models import Tournament

CRITERIA_SLOTS = 4


class StandingsRulesForm(forms.Form):
    match_win = forms.IntegerField(label=_("Match points for a won partie"), min_value=0, max_value=1000)
    match_draw = forms.IntegerField(label=_("Match points for a drawn partie"), min_value=0, max_value=1000)
    match_loss = forms.IntegerField(label=_("Match points for a lost partie"), min_value=0, max_value=1000)
    bye_policy = forms.ChoiceField(label=_("Bye"), choices=Tournament.ByePolicy.choices)
    bye_points = forms.IntegerField(label=_("Points for a bye (fixed policy)"), min_value=0, max_value=100_000)
    rescore = forms.BooleanField(
        label=_("Re-score every hand even if the rule options stay the same"),
        required=False,
        help_text=_("After corrections made outside Atout, or to check the stored scores."),
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.option_names: list[str] = []
        for option in games.option_fields(tournament.game):
            name = f"option_{option.name}"
            self.option_names.append(option.name)
            self.fields[name] = forms.ChoiceField(
                label=option.label, choices=[(json.dumps(value), label) for value, label in option.choices]
            )
        choices = [("", "—")] + [(key, games.criterion_label(key)) for key in allowed_criteria(tournament.game)]
        for slot in range(1, CRITERIA_SLOTS + 1):
            self.fields[f"criterion_{slot}"] = forms.ChoiceField(
                label=_("Criterion %(n)s") % {"n": slot}, choices=choices, required=slot == 1
            )

    @classmethod
    def initial_for(cls, tournament: Tournament, config: dict[str, Any]) -> dict[str, Any]:
        points = config.get("match_points") or {}
        initial: dict[str, Any] = {
            "match_win": points.get("win", 2),
            "match_draw": points.get("draw", 1),
            "match_loss": points.get("loss", 0),
            "bye_policy": config.get("bye_policy"),
            "bye_points": config.get("bye_points") or 0,
        }
        resolved = games.option_fields(tournament.game)
        options = config.get("rule_options") or {}
        for option in resolved:
            initial[f"option_{option.name}"] = json.dumps(options.get(option.name, option.default))
        for slot, key in enumerate(config.get("criteria") or [], start=1):
            if slot <= CRITERIA_SLOTS:
                initial[f"criterion_{slot}"] = key
        return initial

    def option_fields(self) -> list[forms.BoundField]:
        return [self[f"option_{name}"] for name in self.option_names]

    def criteria_fields(self) -> list[forms.BoundField]:
        return [self[f"criterion_{slot}"] for slot in range(1, CRITERIA_SLOTS + 1)]

    def other_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("match_win", "match_draw", "match_loss", "bye_policy", "bye_points", "rescore")]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        chosen = [cleaned.get(f"criterion_{slot}") for slot in range(1, CRITERIA_SLOTS + 1)]
        chosen = [key for key in chosen if key]
        if len(set(chosen)) != len(chosen):
            self.add_error("criterion_2", _("Each criterion can be chosen once."))
        cleaned["criteria"] = chosen
        return cleaned

    def config(self) -> dict[str, Any]:
        """The configuration to install (valid form only)."""
        data = self.cleaned_data
        return {
            "rule_options": {name: json.loads(data[f"option_{name}"]) for name in self.option_names},
            "criteria": data["criteria"],
            "match_points": {"win": data["match_win"], "draw": data["match_draw"], "loss": data["match_loss"]},
            "bye_policy": data["bye_policy"],
            "bye_points": data["bye_points"],
        }
