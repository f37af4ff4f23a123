"""Django settings for Atout.

Everything that differs between a laptop and a server comes from the environment through
the typed readers of `kit.env`; `.env.example` lists every variable. The defaults serve a
bare machine (SQLite and a generated SECRET_KEY in the project folder, Celery tasks run
eagerly, local-memory cache).
With DEBUG off the site refuses to start without a real SECRET_KEY and ALLOWED_HOSTS.
"""

from __future__ import annotations

from datetime import timedelta
from email.utils import parseaddr
from pathlib import Path

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from whitenoise.compress import Compressor  # type: ignore[import-untyped]  # WhiteNoise ships no type hints

from kit import redis_guard
from kit.env import env_bool, env_database, env_float, env_int, env_list, env_networks, env_str, env_url
from kit.logs import FILTERS, console_handler
from kit.secret_key import project_secret

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", True)

# The key every development process shares (./run, manage.py) is venue mode's too: one
# generated key kept in the project folder (kit.secret_key), so that moving from ./run to
# venue mode, or restarting either, logs nobody out. SECRET_KEY in the environment wins;
# production (DEBUG off) never reads the file and needs SECRET_KEY.
SECRET_KEY = env_str("SECRET_KEY") or (project_secret(BASE_DIR) if DEBUG else "")
# The fixed key development once used: refused in production, in case it was copied there.
_DEV_SECRET = "dev-only-insecure-secret-key-never-use-in-production"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
# The address phones open the site at (http://192.168.1.20:8000): every QR code, printed
# link and poster carries it. Empty: the address the director's browser used, which is
# this computer itself when that is 127.0.0.1 (the table sheets and the poster then say
# so). Venue mode sets it to the room's address it found (serving.venue).
ATOUT_PUBLIC_URL = env_url("ATOUT_PUBLIC_URL")

if not DEBUG:
    if not SECRET_KEY or SECRET_KEY == _DEV_SECRET or len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5:
        raise ImproperlyConfigured("DEBUG is off: set SECRET_KEY to a random value of at least 50 characters.")
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("DEBUG is off: set ALLOWED_HOSTS to the host names the site answers to.")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "axes",
    "atout",
    "accounts",
    "tournaments",
    "scoring",
    "ratings",
    "seasons",
    "archive",
    "results",
    "relay",
    "api",
    "push",
]

MIDDLEWARE = [
    # First, so that every line a request causes carries its id (see atout.middleware).
    "atout.middleware.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # The live ranking's polls by visitors without a session stop here (scoring.middleware).
    "scoring.middleware.LivePollMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Before anything reads the query string, request.POST or the session: a NUL
    # character anywhere, or a form body that is not UTF-8, is refused (400).
    "atout.middleware.RequestTextMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # Gzip for the public reads, never over a CSRF token (BREACH): inside the CSRF
    # middleware, so that it still sees whether the body asked for a token. The
    # middlewares outside it only set headers and cookies.
    "atout.middleware.PublicGZipMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A site with no account at all sends its login and management pages to /setup/,
    # where the first administrator is made in the browser (accounts.middleware).
    "accounts.middleware.FirstRunMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its answer.
    "axes.middleware.AxesMiddleware",
]

if not DEBUG:
    # Static files from gunicorn itself in production; runserver and the test server
    # serve them through django.contrib.staticfiles while DEBUG is on.
    MIDDLEWARE.insert(
        MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
        "whitenoise.middleware.WhiteNoiseMiddleware",
    )

ROOT_URLCONF = "atout.urls"
WSGI_APPLICATION = "atout.wsgi.application"
ASGI_APPLICATION = "atout.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.signup",
            ],
        },
    },
]

DATABASES = {"default": env_database("DATABASE_URL", "sqlite:///db.sqlite3", str(BASE_DIR))}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several referees write at once even on the embedded database: wait for the lock
    # rather than fail, and use WAL so readers never block the writer.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The live ranking's polls are served a new version at most every this many seconds
# (scoring/live_files.py, scoring/live_ranking.py): a hand shows within it plus one poll.
# 0: every version at once.
RANKING_PUBLISH_SECONDS = env_float("ATOUT_RANKING_PUBLISH_SECONDS", 1.0)
# Phones and projectors poll the public ranking's file every this many seconds: a file the
# web server sends without Python (docs/live-refresh.md, "Polls served as files").
RANKING_POLL_SECONDS = env_float("ATOUT_RANKING_POLL_SECONDS", 1.0)
# A public ranking longer than this many rows is served to phones in pages of it, each its
# own file: a phone polls the page it shows, not the whole ranking (the projector shows all).
RANKING_PAGE_ROWS = max(10, env_int("ATOUT_RANKING_PAGE_ROWS", 100))
# The draw's projectors poll their round's file every this many seconds (scoring/live_draw.py):
# a table moved or a round drawn again shows on the screens within it.
DRAW_POLL_SECONDS = env_int("ATOUT_DRAW_POLL_SECONDS", 10)
# Where the public rankings' files are written (scoring/live_files.py): a folder every web
# node, every worker and nginx share (docker/compose.yaml: the `live` volume).
LIVE_ROOT = Path(env_str("ATOUT_LIVE_ROOT", str(BASE_DIR / "var" / "live")))

# The relay (relay/, docs/relay.md): a venue laptop pushes its night to the club's hosted
# Atout at RELAY_URL with an API token of an organiser of the club there. Empty: no relay.
RELAY_URL = env_str("RELAY_URL").rstrip("/")
RELAY_TOKEN = env_str("RELAY_TOKEN")
# Seconds each call to the hosted site may take, and between two passes of `relay_push --loop`.
RELAY_TIMEOUT = env_int("RELAY_TIMEOUT", 10)
RELAY_EVERY = env_int("RELAY_EVERY", 5)
# « Ma soirée » polls its page every this many seconds (scoring/views/soiree.py), more
# slowly than the ranking's 3 s: one page per competitor, and at a busy night's pace its
# own rank moves between nearly every two polls, so most of its polls are a new page, not
# a 304 (docs/live-refresh.md, "The 300-team night").
SOIREE_POLL_SECONDS = env_int("ATOUT_SOIREE_POLL_SECONDS", 10)

_cache_url = env_str("CACHE_URL")
CACHES = {
    "default": (
        # Django's Redis cache, answering as an empty one at once while Redis is away or
        # frozen (atout.cache, kit.redis_guard).
        {"BACKEND": "atout.cache.TolerantRedisCache", "LOCATION": _cache_url}
        if _cache_url
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "atout"}
    )
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes first: it refuses a locked-out login before any password is checked.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# E-mail: invitations to a club and password resets. Printed on the console (./run's
# terminal) unless EMAIL_HOST names an SMTP server; .env.example lists the variables.
EMAIL_HOST = env_str("EMAIL_HOST")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not EMAIL_USE_SSL)
if EMAIL_USE_SSL and EMAIL_USE_TLS:
    raise ImproperlyConfigured("EMAIL_USE_SSL and EMAIL_USE_TLS exclude each other: set one of them.")
EMAIL_PORT = env_int("EMAIL_PORT", 465 if EMAIL_USE_SSL else 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Atout <atout@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", _("French")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "Europe/Paris")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where collectstatic writes and WhiteNoise reads; the Docker image and the tests set their own.
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# collectstatic compresses each file with gzip and Brotli: the pages name the hashed
# files only, and the API pages' source maps (half the bytes) are read by developer
# tools alone, so neither the unhashed copies nor the maps are compressed. A venue
# laptop starts ~4× sooner (docs/operating.md).
WHITENOISE_KEEP_ONLY_HASHED_FILES = True
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "map")

# « Ma soirée »'s notifications (push/, docs/push.md). The VAPID key pair: given whole
# (production: the web and the workers share it), else kept in a file generated on its
# first use (`.vapid-key` in the project folder with DEBUG on: ./run and venue mode share
# it); neither, and the pages say notifications are unavailable.
PUSH_VAPID_PRIVATE_KEY = env_str("ATOUT_VAPID_PRIVATE_KEY")
PUSH_VAPID_KEY_FILE = env_str("ATOUT_VAPID_KEY_FILE") or (str(BASE_DIR / ".vapid-key") if DEBUG else "")
# Who the push services may write to about this site's messages (VAPID's `sub`).
PUSH_VAPID_SUBJECT = env_str("ATOUT_VAPID_SUBJECT") or f"mailto:{parseaddr(DEFAULT_FROM_EMAIL)[1] or 'atout@localhost'}"
# The push services the site posts to (host names, each with its subdomains): the browsers'
# own. Anything else a page sends as an endpoint is refused, so that the site never posts
# to an address of someone's choosing.
PUSH_SERVICE_HOSTS = env_list(
    "ATOUT_PUSH_SERVICE_HOSTS",
    [
        "fcm.googleapis.com",
        "android.googleapis.com",
        "push.services.mozilla.com",
        "push.apple.com",
        "notify.windows.com",
    ],
)
# A plain-HTTP endpoint on this machine (127.0.0.1, localhost, ::1) is accepted too: the
# tests' own push service. Off in production.
PUSH_ALLOW_LOCAL_HTTP = env_bool("ATOUT_PUSH_ALLOW_LOCAL_HTTP", DEBUG)
# Seconds a call to a push service may take, to connect and for its answer.
PUSH_TIMEOUT = env_int("ATOUT_PUSH_TIMEOUT", 5)

# Celery: with no broker configured, tasks run eagerly in the calling process.
EMBEDDED_BROKER_URL = "memory://localhost/"
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
if CELERY_TASK_ALWAYS_EAGER:
    # Celery still takes a producer to serialise an eager task: kombu's in-process
    # transport lends it one, with no network and no "No hostname was supplied" warning.
    CELERY_BROKER_URL = EMBEDDED_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A send never holds a request up (kit.redis_guard): every connection to the broker gives
# up after about a second, to connect and for each answer (a frozen Redis answers nothing
# and would hold it for ever), and a send that failed is not tried again here. The message
# only carries work already stored (scoring.tasks.OwedTask): the workers' sweep sends it
# again (atout.celery). A worker reconnects on its own, as before.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_timeout": redis_guard.TIMEOUT,
    "socket_connect_timeout": redis_guard.TIMEOUT,
}
CELERY_BROKER_CONNECTION_TIMEOUT = redis_guard.TIMEOUT
CELERY_TASK_PUBLISH_RETRY = False
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "atout")
# Processes per worker (`celery worker` default: one per CPU). Scale out with more workers.
CELERY_WORKER_CONCURRENCY = env_int("CELERY_WORKER_CONCURRENCY", 0) or None
# The consumer that outlives a broker dropped with a message unacknowledged (atout.celery).
CELERY_WORKER_CONSUMER = "atout.celery:BrokerLossConsumer"
# Keep Django's LOGGING in the worker, so its lines look like the web's (see kit.logs).
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# Celery's Django fixup closes every database connection before and after each task
# unless told to reuse them, and a new PostgreSQL connection costs ~5 ms: a third of a
# live-ranking refresh. Connections are kept as the web keeps them instead (CONN_MAX_AGE,
# health checks), checked around every task by atout.celery; the fixup itself recycles
# them only after this many tasks.
CELERY_DB_REUSE_MAX = 1000

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "api.authentication.ApiTokenAuthentication",
    ],
    # JSON only, bounded and without NUL characters (api.parsers), for every DRF view.
    "DEFAULT_PARSER_CLASSES": ["api.parsers.BoundedJSONParser"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Atout API",
    "DESCRIPTION": "Tournaments, draws, hands and standings of French card-game tournaments.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The API's description (errors, authentication, ETags) is written beside its code.
    # The games' hands come after the enum hook, which must not pull their choices out.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.describe",
        "api.schema.hand_schemas",
    ],
    # Separate request and response components: a field the server fills is not asked for.
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI and Redoc served from the installed sidecar package: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # One named enum per choice set, where several models call their field "status".
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "CompetitorStatusEnum": "tournaments.models.Competitor.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "HandStatusEnum": "scoring.models.Hand.Status",
        "PairingMethodEnum": "tournaments.models.Tournament.PairingMethod",
    },
}

# Production hardening: on unless DEBUG; each can be relaxed from the environment (a venue
# laptop serving plain HTTP on a room's Wi-Fi turns SECURE_SSL_REDIRECT off).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
if env_bool("BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# The container's health probe asks over plain HTTP from inside: never redirect it.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
# The proxies whose X-Forwarded-For names the client (addresses or networks, comma-separated):
# the wrong-table-link limit and the login throttle count per client (kit.clients).
TRUSTED_PROXIES = env_networks("TRUSTED_PROXIES")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): scripts and styles from the site's own static files
# only, no inline script, no eval. QR codes are inline SVG or data: images. The API's
# Redoc page alone adds what its bundle needs (api.urls).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# The organiser's login (and the admin's): django-axes locks out an account from one client
# address after repeated failures, for a while; other addresses and accounts go on. The
# locks are listed (and can be lifted) in the admin, under "Access attempts".
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "kit.clients.client_address"
AXES_LOCKOUT_CALLABLE = "atout.views.login_locked_out"
# The forgotten password's e-mails, throttled as the login is: so many requests per address
# and per client address (kit.clients) within the window, then 429 (accounts.views).
PASSWORD_RESET_PER_ADDRESS = env_int("PASSWORD_RESET_PER_ADDRESS", 3)
PASSWORD_RESET_PER_CLIENT = env_int("PASSWORD_RESET_PER_CLIENT", 10)
PASSWORD_RESET_WINDOW = timedelta(hours=1)
# Open sign-up (accounts.signup): anyone may make an account at /signup/ (the address
# confirmed by a link) and then a club of their own. Off (a venue laptop, a federation's
# private server): accounts come only by invitation, and clubs from site administrators.
OPEN_SIGNUP = env_bool("ATOUT_OPEN_SIGNUP", True)
# Sign-ups and resent confirmation links, throttled as the forgotten password's e-mails
# are: so many per address and per client within the window, then 429.
SIGNUP_PER_ADDRESS = env_int("SIGNUP_PER_ADDRESS", 3)
SIGNUP_PER_CLIENT = env_int("SIGNUP_PER_CLIENT", 10)
SIGNUP_WINDOW = timedelta(hours=1)
# Registration online (« S'inscrire », tournaments/online_views.py): so many posts of the
# public form per client address within an hour, then 429.
ONLINE_ENTRIES_PER_HOUR = env_int("ONLINE_ENTRIES_PER_HOUR", 20)
# How long a confirmation link works; an account not confirmed by then may be taken again.
SIGNUP_CONFIRM_LIFETIME = timedelta(days=3)

# One line per request and per job, with the request id on every line, a refusal in one
# line, no secret whole (kit.logs): LOG_FORMAT=kv for key=value lines, json for one
# JSON object per line.
LOG_FORMAT = env_str("LOG_FORMAT", "kv")
if LOG_FORMAT not in {"kv", "json"}:
    raise ImproperlyConfigured(f"LOG_FORMAT must be kv or json, not {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": FILTERS,
    "formatters": {
        "kv": {"()": "kit.logs.KeyValueFormatter"},
        "json": {"()": "kit.logs.JsonFormatter"},
    },
    "handlers": {"console": console_handler(LOG_FORMAT)},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        # Every line goes through the console handler: Django's own handlers (a console
        # while DEBUG is on, the e-mail to ADMINS) would write it again, unfiltered.
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        "django.db.backends": {"level": "WARNING"},
        # runserver's own access line would double the request line of atout.middleware;
        # its warnings (a 404's request line) go through the console handler.
        "django.server": {"handlers": ["console"], "level": "WARNING", "propagate": False},
        # A Celery worker gives this logger a handler of its own unless it has one.
        "celery.task": {"handlers": ["console"], "propagate": False},
    },
}
