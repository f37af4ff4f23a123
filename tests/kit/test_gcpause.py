"""The collector pause around bulk work: always given back as it was."""

from __future__ import annotations

import gc

import pytest

from kit.gcpause import gc_paused


def test_the_collector_is_paused_inside_and_resumed_after_even_on_an_error() -> None:
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), gc_paused():
        raise RuntimeError("boom")
    assert gc.isenabled()


def test_a_pause_inside_a_pause_leaves_the_outer_one_in_charge() -> None:
    with gc_paused():
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_someone_else_disabled_stays_disabled() -> None:
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
