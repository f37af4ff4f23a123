"""gunicorn's logger as production configures it (serving/gunicorn_conf.py)."""

from __future__ import annotations

import pytest
from gunicorn.config import Config
from gunicorn.glogging import Logger

from serving import gunicorn_conf


def configured(logger_class: type[Logger]) -> Logger:
    cfg = Config()
    cfg.set("logconfig_dict", gunicorn_conf.logconfig_dict)
    cfg.set("logger_class", logger_class)
    return cfg.logger_class(cfg)


def test_production_uses_the_site_logger() -> None:
    cfg = Config()
    cfg.set("logger_class", gunicorn_conf.logger_class)
    assert cfg.logger_class is gunicorn_conf.SiteLogger


def test_no_access_line_is_built_for_a_request(monkeypatch: pytest.MonkeyPatch) -> None:
    def atoms(*_args: object) -> dict[str, str]:
        raise AssertionError("an access line was built")

    monkeypatch.setattr(Logger, "atoms", atoms)
    # gunicorn's own logger builds the line under this configuration, though nothing prints it...
    with pytest.raises(AssertionError, match="access line"):
        configured(Logger).access(None, None, {}, None)
    # ...the site's does not (Atout's middleware logs the request).
    assert configured(gunicorn_conf.SiteLogger).access(None, None, {}, None) is None


def test_the_site_logger_still_reports_gunicorn_errors(capsys: pytest.CaptureFixture[str]) -> None:
    configured(gunicorn_conf.SiteLogger).error("worker %s timed out", 7)
    assert "ERROR gunicorn.error worker 7 timed out" in capsys.readouterr().err
