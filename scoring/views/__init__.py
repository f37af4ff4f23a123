"""The scoring side's pages, one module per audience: `public` (the live ranking, rounds,
tables and exports of a tournament), `seasons` (a season's public ranking), `referee`
(a table's secret link), `manage` (the director's hand pages), `standings_manage` (the
director's standings page), `season_manage` (the organiser's season pages) and `history`
(a player's tournaments). Their URLs are in scoring/urls.py.
"""
