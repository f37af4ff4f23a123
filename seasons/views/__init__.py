"""The seasons' pages, one module per audience: `public` (a season's ranking, its CSV and
PDF, and the organisers' rebuild button on it) and `manage` (the organisers' season
pages). Their URLs are in seasons/urls.py.
"""
