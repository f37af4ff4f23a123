"""Clubs, players, tournaments, competitors, rounds, tables and seats."""
