"""Small typed readers for settings taken from the environment.

Each reader returns the variable parsed to its type, or the default when the variable is
unset or empty; a value that cannot be parsed is a configuration error, raised at start-up
with the variable's name rather than guessed at.
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _raw(name: str) -> str | None:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return None
    return value.strip()


def env_str(name: str, default: str = "") -> str:
    value = _raw(name)
    return default if value is None else value


def env_bool(name: str, default: bool) -> bool:
    value = _raw(name)
    if value is None:
        return default
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (true/false), not {value!r}")


def env_int(name: str, default: int) -> int:
    value = _raw(name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {value!r}") from None


def env_float(name: str, default: float) -> float:
    value = _raw(name)
    if value is None:
        return default
    try:
        found = float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, not {value!r}") from None
    if found != found or found in (float("inf"), float("-inf")):
        raise ImproperlyConfigured(f"{name} must be a finite number, not {value!r}")
    return found


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    value = _raw(name)
    if value is None:
        return list(default or [])
    return [item.strip() for item in value.split(",") if item.strip()]


def env_url(name: str, default: str = "") -> str:
    """A site's address, `http(s)://host[:port]`, without a path; given back without a
    trailing slash, so that a path from `reverse()` can follow it."""
    value = _raw(name)
    if value is None:
        return default
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ImproperlyConfigured(f"{name} must be an address like http://192.168.1.20:8000, not {value!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ImproperlyConfigured(f"{name} must be a scheme, a host and a port only, not {value!r}")
    try:
        parts.port  # noqa: B018  (reading it checks it)
    except ValueError:
        raise ImproperlyConfigured(f"{name}: the port of {value!r} is not a number") from None
    return f"{parts.scheme}://{parts.netloc}"


def env_networks(name: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """Comma-separated IP addresses or networks (`127.0.0.1, 10.0.0.0/8, fd00::/8`)."""
    networks = []
    for item in env_list(name):
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ImproperlyConfigured(f"{name}: {item!r} is not an IP address or network") from None
    return tuple(networks)


@dataclass(frozen=True)
class DatabaseUrl:
    """A parsed `DATABASE_URL`: `sqlite:///path` or `postgres://user:pass@host:port/name`."""

    url: str

    def as_django(self, base_dir: str) -> dict[str, object]:
        parts = urlsplit(self.url)
        scheme = parts.scheme.lower()
        if scheme == "sqlite":
            # sqlite:///relative.db is relative to the project; sqlite:////abs/path is absolute.
            path = unquote(parts.path)
            if path.startswith("//"):
                path = path[1:]
            elif path.startswith("/"):
                path = os.path.join(base_dir, path[1:])
            return {"ENGINE": "django.db.backends.sqlite3", "NAME": path or os.path.join(base_dir, "db.sqlite3")}
        if scheme in {"postgres", "postgresql", "pgsql"}:
            options = {key: values[-1] for key, values in parse_qs(parts.query).items()}
            config: dict[str, object] = {
                "ENGINE": "django.db.backends.postgresql",
                "NAME": unquote(parts.path.lstrip("/")) or "atout",
                "USER": unquote(parts.username or ""),
                "PASSWORD": unquote(parts.password or ""),
                "HOST": parts.hostname or "",
                "PORT": str(parts.port or ""),
                "CONN_MAX_AGE": int(options.pop("conn_max_age", "60")),
                "CONN_HEALTH_CHECKS": True,
            }
            if options:
                config["OPTIONS"] = options
            return config
        raise ImproperlyConfigured(f"DATABASE_URL: unsupported scheme {scheme!r} (use sqlite:// or postgres://)")


def env_database(name: str, default: str, base_dir: str) -> dict[str, object]:
    return DatabaseUrl(env_str(name, default)).as_django(base_dir)
