# Find (and under CI, start) the PostgreSQL and Redis the test suite uses (sourced).
# Exports DATABASE_URL and ATOUT_TEST_REDIS_URL when they are reachable.

ATOUT_PG_URL="${ATOUT_PG_URL:-postgres://postgres@127.0.0.1:5432/atout}"
ATOUT_REDIS_URL="${ATOUT_REDIS_URL:-redis://127.0.0.1:6379/9}"

pg_reachable() {
  .venv/bin/python - "$ATOUT_PG_URL" <<'PY' >/dev/null 2>&1
import sys
from urllib.parse import urlsplit
import psycopg
u = urlsplit(sys.argv[1])
psycopg.connect(host=u.hostname, port=u.port or 5432, user=u.username or "postgres",
                password=u.password or None, dbname="postgres", connect_timeout=3).close()
PY
}

redis_reachable() {
  .venv/bin/python - "$ATOUT_REDIS_URL" <<'PY' >/dev/null 2>&1
import sys
import redis
redis.Redis.from_url(sys.argv[1], socket_connect_timeout=3).ping()
PY
}

start_postgres() {
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    local version
    for version in $(ls /etc/postgresql); do
      pg_ctlcluster --skip-systemctl-redirect "$version" main start >/dev/null 2>&1 || true
    done
  fi
}

start_redis() {
  if command -v redis-server >/dev/null 2>&1; then
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
      --dir /tmp --logfile /tmp/atout-redis.log >/dev/null 2>&1 || true
  fi
}

wait_for() {
  local check=$1 i
  for i in $(seq 1 20); do
    "$check" && return 0
    sleep 1
  done
  return 1
}

atout_services() {
  local ci="${CI:-}"
  if ! pg_reachable && [ "$ci" = "true" ]; then
    echo "==> PostgreSQL is not answering: trying to start it"
    start_postgres
    wait_for pg_reachable || true
  fi
  if pg_reachable; then
    export DATABASE_URL="$ATOUT_PG_URL"
    echo "==> Database tests on PostgreSQL ($ATOUT_PG_URL)"
  elif [ "$ci" = "true" ]; then
    echo "FATAL: CI=true but PostgreSQL is unreachable at $ATOUT_PG_URL. The suite must run on PostgreSQL." >&2
    exit 1
  else
    unset DATABASE_URL
    echo "==> PostgreSQL unreachable at $ATOUT_PG_URL: FALLING BACK to SQLite (database tests are not on PostgreSQL)"
  fi

  if ! redis_reachable && [ "$ci" = "true" ]; then
    echo "==> Redis is not answering: trying to start it"
    start_redis
    wait_for redis_reachable || true
  fi
  if redis_reachable; then
    export ATOUT_TEST_REDIS_URL="$ATOUT_REDIS_URL"
    echo "==> Celery worker tests on Redis ($ATOUT_REDIS_URL)"
  elif [ "$ci" = "true" ]; then
    echo "FATAL: CI=true but Redis is unreachable at $ATOUT_REDIS_URL. The worker tests need it." >&2
    exit 1
  else
    unset ATOUT_TEST_REDIS_URL
    echo "==> Redis unreachable at $ATOUT_REDIS_URL: tasks run eagerly and the real-worker tests are skipped"
  fi
}
