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

# Debian's package $1 installed with apt, for $2 (said in the messages), unless `$3` (a
# shell test) finds it there already. Under CI=true a failed install stops the set-up; on
# a developer's machine the tests that need it are skipped.
atout_apt() {
  local package="$1" purpose="$2" present="$3"
  if eval "$present"; then
    return 0
  fi
  echo "==> Installing Debian's $package for $purpose"
  local sudo=""
  [ "$(id -u)" = "0" ] || sudo="sudo -n"
  if $sudo apt-get update -qq >/dev/null && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >/dev/null; then
    return 0
  fi
  if [ "${CI:-}" = "true" ]; then
    echo "FATAL: CI=true and $package could not be installed with apt." >&2
    exit 1
  fi
  echo "==> $package is missing and could not be installed: $purpose will be skipped"
}

# The browser the browser tests drive: Debian's chromium, installed with apt when missing
# (never a downloaded browser). Called by `atout_setup test`.
atout_chromium() {
  atout_apt chromium "the browser tests" "[ -x /usr/bin/chromium ]"
}

# The proxy the tests through nginx start in front of the site (tests/nginx.py, with the
# configuration of serving/nginx.py): Debian's nginx, installed with apt when missing, as
# chromium is. Called by `atout_setup test`. Debian's package starts no nginx of its own
# in a container (policy-rc.d); where it does, that one listens on port 80, beside the
# tests' own.
atout_nginx() {
  atout_apt nginx "the tests through nginx" "command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]"
}
