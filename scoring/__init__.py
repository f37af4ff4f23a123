"""Hands as entered, their scores, table results, standings, and the background jobs."""
