# Shared set-up for ./run and ./test (sourced, not executed): a virtualenv in .venv with
# the project installed, reinstalled only when pyproject.toml changes.
# Usage: atout_setup [extras]   e.g. atout_setup test

atout_python() {
  # The newest Python 3.11+ on the machine.
  local candidate
  for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
      echo "$candidate"
      return 0
    fi
  done
  echo "Atout needs Python 3.11 or newer; none was found on PATH." >&2
  return 1
}

atout_setup() {
  local extras="${1:-}" python stamp wanted
  if [ ! -x .venv/bin/python ]; then
    python=$(atout_python)
    echo "==> Creating the virtualenv in .venv ($($python --version))"
    "$python" -m venv .venv
    .venv/bin/python -m pip install --quiet --upgrade pip
  fi
  stamp=.venv/.atout-installed
  wanted="$(sha256sum pyproject.toml | cut -d' ' -f1) extras=${extras}"
  if [ ! -f "$stamp" ] || ! grep -qxF "$wanted" "$stamp"; then
    echo "==> Installing Atout and its dependencies${extras:+ (with $extras)}"
    if [ -n "$extras" ]; then
      .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[${extras}]"
    else
      .venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
    fi
    # A test install satisfies a plain run too: record both.
    printf '%s\n%s\n' "$wanted" "$(sha256sum pyproject.toml | cut -d' ' -f1) extras=" >"$stamp"
  fi
  case ",${extras}," in
    *,test,*)
      atout_chromium
      atout_nginx
      ;;
  esac
  .venv/bin/python manage.py compile_catalogues
}

# The browser the browser tests drive: Debian's chromium, installed with apt when missing
# (never a downloaded browser). Called by `atout_setup test`.
atout_chromium() {
  if [ -x /usr/bin/chromium ]; then
    return 0
  fi
  echo "==> Installing Debian's chromium for the browser tests"
  local sudo=""
  [ "$(id -u)" = "0" ] || sudo="sudo -n"
  if $sudo apt-get update -qq >/dev/null && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; then
    return 0
  fi
  if [ "${CI:-}" = "true" ]; then
    echo "FATAL: CI=true and chromium could not be installed with apt." >&2
    exit 1
  fi
  echo "==> chromium is missing and could not be installed: the browser tests will be skipped"
}

# The proxy the tests through nginx start in front of the site (tests/nginx.py, with the
# configuration of serving/nginx.py): Debian's nginx, installed with apt when missing, as
# chromium is. Called by `atout_setup test`. Debian's package starts no nginx of its own
# in a container (policy-rc.d); where it does, that one listens on port 80, beside the
# tests' own.
atout_nginx() {
  if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
    return 0
  fi
  echo "==> Installing Debian's nginx for the tests through nginx"
  local sudo=""
  [ "$(id -u)" = "0" ] || sudo="sudo -n"
  if $sudo apt-get update -qq >/dev/null && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null; then
    return 0
  fi
  if [ "${CI:-}" = "true" ]; then
    echo "FATAL: CI=true and nginx could not be installed with apt." >&2
    exit 1
  fi
  echo "==> nginx is missing and could not be installed: the tests through nginx will be skipped"
}
