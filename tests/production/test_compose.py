"""The Docker stack, checked without Docker: docker/compose.yaml and docker/Dockerfile
are parsed, and everything they name must exist in the project.

- every service built from Atout's image runs a command the project has (gunicorn on
  atout.wsgi with its config module, `celery -A atout`, management commands that exist);
- every variable the stack hands to the site is one the settings read, and every
  variable the settings read is documented in .env.example;
- every long-running service has a health check;
- the Dockerfile copies files that exist, runs as a non-root user, and its collectstatic
  step really works with its build-time settings.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import ROOT

DOCKER = ROOT / "docker"
# The modules whose environment reads make up "the settings" of a running Atout.
SETTINGS_READERS = [
    ROOT / "atout" / "settings.py",
    ROOT / "serving" / "gunicorn_conf.py",
    ROOT / "serving" / "healthcheck.py",
]
_READ = re.compile(r"""(?:env_\w+|os\.environ\.get|os\.getenv)\(\s*["']([A-Z][A-Z0-9_]*)["']""")
_INTERPOLATED = re.compile(r"\$\{([A-Z][A-Z0-9_]*)")


def variables_read_by_the_settings() -> set[str]:
    return {name for path in SETTINGS_READERS for name in _READ.findall(path.read_text())}


def env_file_variables(path: Path) -> set[str]:
    names = set()
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            names.add(line.split("=", 1)[0].strip())
    return names


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load((DOCKER / "compose.yaml").read_text())


@pytest.fixture(scope="module")
def atout_services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The services that run Atout's own image (the others are stock postgres and redis)."""
    return {name: svc for name, svc in compose["services"].items() if svc.get("build", {}).get("dockerfile")}


def _dependencies() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [re.split(r"[\[<>=~! ]", dep, maxsplit=1)[0].lower() for dep in project["dependencies"]]


def _module_file(dotted: str) -> Path:
    path = ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py") if path.with_suffix(".py").exists() else path / "__init__.py"


def assert_command_exists(argv: list[str]) -> None:
    """Fail unless `argv` runs something this project really has."""
    program = argv[0]
    if program == "gunicorn":
        assert "gunicorn" in _dependencies()
        config = argv[argv.index("-c") + 1]
        assert config.startswith("python:"), config
        assert _module_file(config.removeprefix("python:")).exists(), config
        app_module, _, app_name = argv[-1].partition(":")
        assert _module_file(app_module).exists(), argv[-1]
        assert f"{app_name or 'application'} =" in _module_file(app_module).read_text()
    elif program == "celery":
        assert "celery" in _dependencies()
        assert argv[argv.index("-A") + 1] == "atout"
        assert "app = Celery(" in (ROOT / "atout" / "celery.py").read_text()
        assert argv[3] in {"worker", "beat", "inspect"}, argv
    elif program == "python" and argv[1] == "manage.py":
        from django.core.management import get_commands

        assert argv[2] in get_commands(), f"manage.py has no command {argv[2]!r}"
    elif program == "python" and argv[1] == "-m":
        assert _module_file(argv[2]).exists(), argv
    else:
        pytest.fail(f"unknown command {argv}")


def test_the_stack_has_web_worker_migrate_postgres_and_redis(compose: dict[str, Any]) -> None:
    assert set(compose["services"]) == {"migrate", "web", "worker", "postgres", "redis"}
    # No scheduler: nothing in the settings asks Celery beat for a periodic job.
    assert "CELERY_BEAT_SCHEDULE" not in (ROOT / "atout" / "settings.py").read_text()


def test_every_service_of_atouts_image_runs_a_command_the_project_has(
    atout_services: dict[str, dict[str, Any]],
) -> None:
    assert set(atout_services) == {"migrate", "web", "worker"}
    for service in atout_services.values():
        assert_command_exists(service["command"])


def test_the_web_service_runs_the_images_default_command(atout_services: dict[str, dict[str, Any]]) -> None:
    cmd = re.search(r"^CMD (.+)$", (DOCKER / "Dockerfile").read_text(), re.M)
    assert cmd is not None
    assert atout_services["web"]["command"] == yaml.safe_load(cmd.group(1))


def test_web_and_worker_wait_for_the_migrations_and_the_broker(atout_services: dict[str, dict[str, Any]]) -> None:
    for name in ("web", "worker"):
        depends = atout_services[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully"
        assert depends["redis"]["condition"] == "service_healthy"
    assert atout_services["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert atout_services["migrate"]["restart"] == "no"


def test_every_long_running_service_has_a_health_check(compose: dict[str, Any]) -> None:
    for name, service in compose["services"].items():
        if name == "migrate":
            continue
        test = service.get("healthcheck", {}).get("test")
        assert test, f"{name} has no health check"
    assert_command_exists(compose["services"]["web"]["healthcheck"]["test"][1:])
    worker_check = shlex.split(compose["services"]["worker"]["healthcheck"]["test"][1])
    assert_command_exists(worker_check)


def test_the_database_and_the_broker_keep_their_data_in_volumes(compose: dict[str, Any]) -> None:
    assert "pgdata:/var/lib/postgresql/data" in compose["services"]["postgres"]["volumes"]
    assert set(compose["volumes"]) == {"pgdata", "redisdata"}


def test_every_variable_the_stack_sets_is_one_the_settings_read(
    compose: dict[str, Any], atout_services: dict[str, dict[str, Any]]
) -> None:
    read = variables_read_by_the_settings()
    for name, service in atout_services.items():
        unknown = set(service.get("environment", {})) - read
        assert not unknown, f"{name} sets variables no setting reads: {unknown}"
        assert service["env_file"] == [{"path": ".env", "required": True}]
    # docker/.env is made from docker/env.example: each of its variables is read by the
    # settings, or by compose itself (interpolated in compose.yaml).
    interpolated = set(_INTERPOLATED.findall((DOCKER / "compose.yaml").read_text()))
    unknown = env_file_variables(DOCKER / "env.example") - read - interpolated
    assert not unknown, f"docker/env.example has variables nothing reads: {unknown}"


def test_every_variable_the_settings_read_is_documented_in_env_example() -> None:
    read = variables_read_by_the_settings()
    assert {"SECRET_KEY", "DATABASE_URL", "WEB_CONCURRENCY", "STATIC_ROOT", "LOG_FORMAT"} <= read
    missing = read - env_file_variables(ROOT / ".env.example")
    assert not missing, f".env.example does not list {missing}"


def test_the_dockerfile_copies_files_that_exist_and_installs_from_pyproject() -> None:
    text = (DOCKER / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim$", text, re.M)
    copies = re.findall(r"^COPY (.+)$", text, re.M)
    assert copies
    for line in copies:
        *sources, _dest = line.split()
        for source in sources:
            assert (ROOT / source).exists(), f"COPY {source}: no such file in the project"
    assert "pip install --no-deps -e ." in text


def test_the_image_holds_every_package_app_and_folder_the_site_needs() -> None:
    from django.conf import settings

    copies = re.findall(r"^COPY (.+)$", (DOCKER / "Dockerfile").read_text(), re.M)
    copied = {source for line in copies for source in line.split()[:-1]}
    find = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    packages = {pattern.rstrip("*").rstrip(".") for pattern in find["include"]}
    local_apps = {app.split(".")[0] for app in settings.INSTALLED_APPS if (ROOT / app.split(".")[0]).is_dir()}
    needed = packages | local_apps | {"manage.py", "templates", "static", "locale", "pyproject.toml"}
    missing = needed - copied
    assert not missing, f"docker/Dockerfile does not copy {missing}"


def test_the_image_runs_as_a_non_root_user_with_a_health_check() -> None:
    text = (DOCKER / "Dockerfile").read_text()
    users = re.findall(r"^USER (\S+)$", text, re.M)
    assert users and users[-1] not in {"root", "0"}
    healthcheck = re.search(r"^HEALTHCHECK .* CMD (\[.+\])$", text, re.M)
    assert healthcheck is not None
    assert_command_exists(yaml.safe_load(healthcheck.group(1)))


def test_the_build_time_secret_never_reaches_the_images_environment() -> None:
    text = (DOCKER / "Dockerfile").read_text()
    env_block = re.search(r"^ENV (.+?)\n\n", text, re.M | re.S)
    assert env_block is not None
    assert "SECRET_KEY" not in env_block.group(1)
    assert "DEBUG=false" in env_block.group(1)


def _collectstatic_step() -> dict[str, str]:
    """The variables the Dockerfile gives its collectstatic step."""
    text = (DOCKER / "Dockerfile").read_text().replace("\\\n", " ")
    run = next(line for line in text.splitlines() if "collectstatic" in line)
    step = run.split("&&")[-1]
    words = shlex.split(step)
    assignments = dict(word.split("=", 1) for word in words if re.fullmatch(r"[A-Z_]+=.*", word))
    assert words[len(assignments) :] == ["python", "manage.py", "collectstatic", "--noinput"]
    return assignments


def test_the_images_collectstatic_step_works_with_its_build_time_settings(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key not in {"SECRET_KEY", "ALLOWED_HOSTS", "DEBUG"}}
    env.update(_collectstatic_step(), DEBUG="false", STATIC_ROOT=str(tmp_path / "static"))
    result = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    manifest = (tmp_path / "static" / "staticfiles.json").read_text()
    assert "css/atout.css" in manifest
    assert list((tmp_path / "static" / "css").glob("atout.*.css.gz")), "WhiteNoise did not compress"
