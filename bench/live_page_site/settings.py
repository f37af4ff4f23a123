"""Atout's settings, with the bench's URLs (Atout's plus a bare view)."""

from atout.settings import *  # noqa: F403

ROOT_URLCONF = "live_page_site.urls"
