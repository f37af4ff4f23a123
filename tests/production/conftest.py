"""Fixtures of the production tests: nginx in front of the live server (tests/nginx.py)."""

from tests.nginx import live_root, nginx, site_requests  # noqa: F401 (fixtures)
