"""A round's life where it needs the results: the draw, which reads the ranking, and the close.

Above `tournaments` (the rows: rounds, tables, seats, byes) and `scoring` (hands, results,
ranking), so that the arrows between them go one way: tournaments/ imports neither.
"""
