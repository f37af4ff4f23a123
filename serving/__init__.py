"""How Atout is served and kept, outside the Django project itself.

- `gunicorn_conf`: gunicorn's configuration in production, Docker and venue mode.
- `healthcheck`: the container's health probe (`python -m serving.healthcheck`).
- `venue`: venue mode, `./run --venue`: the site served on a room's Wi-Fi from a laptop.
- `lan`: finding the laptop's address on the room's network, sending nothing.
- `backups`: the copies of the night's database venue mode keeps, and their restore.
- `nginx`: nginx in front of the site as the tests and the benches run it, with production's
  `/live/` location (docker/nginx-live.conf).
"""
