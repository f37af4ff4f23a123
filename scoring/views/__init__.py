"""The scoring side's pages, one module per audience: `public` (the live ranking, rounds,
tables and exports of a tournament), `referee` (a table's secret link), `manage` (the
director's hand pages), `standings_manage` (the director's standings page) and `history`
(a player's tournaments). Their URLs are in scoring/urls.py; the seasons' pages are in
seasons/views/.
"""
