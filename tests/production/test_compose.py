"""The Docker stack, checked without Docker: docker/compose.yaml and docker/Dockerfile
are parsed, and everything they name must exist in the project.

- every service built from Atout's image runs a command the project has (gunicorn on
  atout.wsgi with its config module, `celery -A atout`, management commands that exist);
- every variable the stack hands to the site is one the settings read, and every
  variable the settings read is documented in .env.example;
- every long-running service has a health check;
- web scales (`docker compose up --scale web=3`): it publishes no host port and has no
  container name, and nginx (docker/nginx.conf) reaches every replica by the service's
  name, with the headers docs/operating.md asks of a proxy;
- nginx serves the live ranking's files (docker/nginx-live.conf, included) from the volume
  web and worker write them to, at the path their ATOUT_LIVE_ROOT names;
- the Dockerfile copies files that exist, runs as a non-root user, and its collectstatic
  step really works with its build-time settings.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import ROOT

DOCKER = ROOT / "docker"
# Where docker/compose.yaml mounts docker/nginx-live.conf in the nginx container.
SNIPPET_MOUNT = "/etc/nginx/snippets/atout-live.conf"
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


def test_the_stack_has_nginx_web_worker_migrate_postgres_and_redis(compose: dict[str, Any]) -> None:
    assert set(compose["services"]) == {"nginx", "migrate", "web", "worker", "postgres", "redis"}
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
    assert set(compose["volumes"]) == {"pgdata", "redisdata", "live"}


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


# -- several web replicas behind nginx ------------------------------------------------------


@pytest.fixture(scope="module")
def nginx_conf() -> str:
    # Comments out: only the directives count.
    return "\n".join(line.split("#", 1)[0] for line in (DOCKER / "nginx.conf").read_text().splitlines())


def _upstream(conf: str, name: str) -> str:
    found = re.search(r"upstream\s+" + name + r"\s*\{([^}]*)\}", conf)
    assert found is not None, f"docker/nginx.conf has no upstream {name}"
    return found.group(1)


def test_web_scales_it_publishes_no_host_port_and_has_no_fixed_name(compose: dict[str, Any]) -> None:
    web = compose["services"]["web"]
    # A host port would be taken by the first replica and refuse the others.
    assert "ports" not in web and "container_name" not in web
    assert set(web["expose"]) == {"8000"}


def test_nginx_publishes_the_site_and_mounts_its_configuration(compose: dict[str, Any]) -> None:
    nginx = compose["services"]["nginx"]
    assert re.fullmatch(r"nginx:1\.(2[89]|[3-9]\d)[-.\w]*", nginx["image"]), "nginx 1.28+ resolves upstreams itself"
    assert nginx["ports"] == ["${WEB_PORT:-8000}:80"]
    assert "./nginx.conf:/etc/nginx/conf.d/default.conf:ro" in nginx["volumes"]
    assert (DOCKER / "nginx.conf").is_file()
    # The live ranking's location, the same file the tests' and the benches' nginx include
    # (serving/nginx.py), mounted where docker/nginx.conf includes it (not in conf.d/, whose
    # files nginx's main configuration includes at the http level).
    assert f"./nginx-live.conf:{SNIPPET_MOUNT}:ro" in nginx["volumes"]
    assert (DOCKER / "nginx-live.conf").is_file()
    assert nginx["depends_on"]["web"]["condition"] == "service_healthy"
    assert nginx["healthcheck"]["test"][-1] == "http://127.0.0.1/nginx-healthz"


def test_nginx_reaches_every_replica_of_web_by_its_compose_name(
    nginx_conf: str, atout_services: dict[str, dict[str, Any]]
) -> None:
    # Compose's DNS answers `web` with every replica; nginx asks it again (resolve), so a
    # replica added or restarted later is followed without a reload.
    assert re.search(r"^\s*resolver\s+127\.0\.0\.11\b", nginx_conf, re.M)
    site = _upstream(nginx_conf, "atout_site")
    assert re.search(r"server\s+web:8000\s+resolve;", site) and "zone " in site
    # The one upstream: no polls' address any more (the polls are files, below).
    assert re.findall(r"upstream\s+(\S+)\s*\{", nginx_conf) == ["atout_site"]
    assert "8001" not in nginx_conf and "GUNICORN_POLL_BIND" not in atout_services["web"]["environment"]
    # The port is the one gunicorn listens on in the web service (GUNICORN_BIND's default).
    assert "GUNICORN_BIND" not in atout_services["web"]["environment"]
    assert re.search(r"""env_int\(["']PORT["'], 8000\)""", (ROOT / "serving" / "gunicorn_conf.py").read_text())
    assert re.search(r"location\s+/\s*\{\s*proxy_pass\s+http://atout_site;", nginx_conf)


def test_nginx_serves_the_live_files_from_the_volume_web_and_worker_write_them_to(
    compose: dict[str, Any], atout_services: dict[str, dict[str, Any]], nginx_conf: str
) -> None:
    live_root = re.search(r"^\s*set\s+\$atout_live_root\s+(\S+);", nginx_conf, re.M)
    assert live_root is not None, "docker/nginx.conf sets no $atout_live_root"
    path = live_root.group(1)
    # The snippet included inside the server block, after the live root it reads.
    include = re.search(r"^\s*include\s+(\S+);", nginx_conf, re.M)
    assert include is not None and include.group(1) == SNIPPET_MOUNT
    assert include.start() > live_root.start()
    # web and worker write there (the settings read ATOUT_LIVE_ROOT), on the volume nginx reads.
    for name in ("web", "worker"):
        service = atout_services[name]
        assert service["environment"]["ATOUT_LIVE_ROOT"] == path, name
        assert f"live:{path}" in service["volumes"], name
    assert f"live:{path}:ro" in compose["services"]["nginx"]["volumes"]
    # The image has the folder, owned by its user (a fresh volume takes that owner).
    dockerfile = (DOCKER / "Dockerfile").read_text().replace("\\\n", " ")
    assert re.search(rf"mkdir -p {re.escape(path)}\b", dockerfile)
    assert re.search(rf"chown -R atout:atout {re.escape(str(Path(path).parent))}\b", dockerfile)
    # The snippet serves the files from that root: nothing else is read from it.
    snippet = "\n".join(line.split("#", 1)[0] for line in (DOCKER / "nginx-live.conf").read_text().splitlines())
    assert re.search(r"^\s*root\s+\$atout_live_root;", snippet, re.M)
    assert re.search(r"location\s+@atout_live_missing\s*\{\s*proxy_pass\s+http://atout_site;\s*\}", snippet)


def test_nginx_sends_what_the_site_needs_of_its_proxy(nginx_conf: str) -> None:
    headers = dict(re.findall(r"^\s*proxy_set_header\s+(\S+)\s+(\S+);", nginx_conf, re.M))
    assert headers == {
        "Host": "$http_host",
        "X-Forwarded-Proto": "$scheme",
        "X-Forwarded-For": "$proxy_add_x_forwarded_for",
        "X-Request-ID": "$request_id",
    }
    assert re.search(r"^\s*client_max_body_size\s+5m;", nginx_conf, re.M)
    # Balanced braces: every block closed.
    assert nginx_conf.count("{") == nginx_conf.count("}")


def test_nginx_accepts_its_configuration(tmp_path: Path) -> None:
    """`nginx -t` on docker/nginx.conf inside an http block, when nginx is installed here.

    The image's nginx (1.28) follows the replicas by name (`resolve`); an older nginx on
    this machine knows no `resolve` and would look `web` up at once, which only compose's
    DNS answers: for it the two are replaced (the rest of the file is checked as it is).
    """
    binary = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if binary is None:
        pytest.skip("nginx is not installed here: the configuration is checked by parsing only")
    version = subprocess.run([binary, "-v"], capture_output=True, text=True, timeout=30).stderr
    found = re.search(r"nginx/(\d+)\.(\d+)\.(\d+)", version)
    assert found is not None, version
    conf = (DOCKER / "nginx.conf").read_text().replace(SNIPPET_MOUNT, str(DOCKER / "nginx-live.conf"))
    if tuple(map(int, found.groups())) < (1, 27, 3):
        conf = conf.replace(" resolve;", ";").replace("server web:", "server 127.0.0.1:")
    (tmp_path / "site.conf").write_text(conf)
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    temp = " ".join(f"{kind}_temp_path {tmp_path / kind};" for kind in kinds)
    (tmp_path / "main.conf").write_text(
        f"pid {tmp_path / 'nginx.pid'}; error_log {tmp_path / 'error.log'};\n"
        f"events {{}}\nhttp {{ access_log off; {temp} include {tmp_path / 'site.conf'}; }}\n"
    )
    checked = subprocess.run(
        [binary, "-t", "-c", str(tmp_path / "main.conf"), "-e", str(tmp_path / "error.log")],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr
