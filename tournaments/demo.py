"""What the demo data is called: its organiser's account, its club, its tournaments.

`manage.py demo` (atout/management/commands/demo.py) makes them through the services; the
names here are how the others find them again (`simulate_round --demo`, the venue's
warning about the demo account), from any floor of the house.
"""

from __future__ import annotations

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-atout"
CLUB_NAME = "Belote Club de Démo"
CLUB_SLUG = "belote-club-de-demo"
CONCOURS_NAME = "Concours de belote de la Saint-Nicolas"
TAROT_NAME = "Soirée tarot à trois"
CONTREE_NAME = "Concours de belote contrée du club"
TAROT_A_QUATRE_NAME = "Soirée tarot du club"
# Last month's concours, played out and finished: the players' Atout ratings come from it.
FINISHED_NAME = "Concours de la Sainte-Catherine"
# The demo tournaments whose round 1 `simulate_round --demo` plays, in that order.
PLAYED_DEMOS = [CONCOURS_NAME, CONTREE_NAME, TAROT_A_QUATRE_NAME]
