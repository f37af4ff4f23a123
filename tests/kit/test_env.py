"""`env_url`: the address a setting names, checked at start-up rather than guessed at."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from kit.env import env_url


@pytest.mark.parametrize(
    ("given", "read"),
    [
        ("http://192.168.1.20:8000", "http://192.168.1.20:8000"),
        ("http://192.168.1.20:8000/", "http://192.168.1.20:8000"),
        (" https://atout.example.org ", "https://atout.example.org"),
        ("http://[fd00::1]:8000", "http://[fd00::1]:8000"),
    ],
)
def test_an_address_is_read_without_its_trailing_slash(monkeypatch, given: str, read: str) -> None:
    monkeypatch.setenv("ATOUT_PUBLIC_URL", given)
    assert env_url("ATOUT_PUBLIC_URL") == read


def test_an_unset_or_empty_address_is_the_default(monkeypatch) -> None:
    monkeypatch.delenv("ATOUT_PUBLIC_URL", raising=False)
    assert env_url("ATOUT_PUBLIC_URL") == ""
    monkeypatch.setenv("ATOUT_PUBLIC_URL", "  ")
    assert env_url("ATOUT_PUBLIC_URL", "http://x") == "http://x"


@pytest.mark.parametrize(
    "given",
    ["192.168.1.20:8000", "ftp://192.168.1.20", "http://", "http://host/atout/", "http://host?x=1", "http://host:port"],
)
def test_anything_but_a_scheme_a_host_and_a_port_is_refused_with_the_variable_s_name(monkeypatch, given) -> None:
    monkeypatch.setenv("ATOUT_PUBLIC_URL", given)
    with pytest.raises(ImproperlyConfigured, match="ATOUT_PUBLIC_URL"):
        env_url("ATOUT_PUBLIC_URL")
