"""The scoring side's forms: the hand entry forms (`base` for what every game's form
shares, one module per game family, `belote` and `tarot`, and `games` for which form a
game uses) and the standings rules form (`standings`). Import them from their modules.
The season form is in seasons/forms.py."""
