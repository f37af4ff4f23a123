"""The rounds' tests play on the tournaments' personas and builders (tests/tournaments/conftest.py)."""

from tests.tournaments.conftest import club, organiser, other_club, outsider, running

__all__ = ["club", "organiser", "other_club", "outsider", "running"]
