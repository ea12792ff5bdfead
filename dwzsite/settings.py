"""Settings for dwzsite, read from the environment only (see README.md, "Configuration")."""

import os
from datetime import timedelta
from email.utils import getaddresses
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """Strict: only "True"/"False" (any case), "1"/"0"; anything else is a configuration error."""
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in ("true", "1"):
        return True
    if value.lower() in ("false", "0"):
        return False
    raise ImproperlyConfigured(f"{name} must be True or False, not {value!r}")


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    if value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None


DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set DJANGO_SECRET_KEY (or DJANGO_DEBUG=True for development).")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"  # noqa: S105 - only with DEBUG

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "whitenoise.runserver_nostatic",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_tables2",
    "django_filters",
    "crispy_forms",
    "crispy_bootstrap5",
    "django_htmx",
    "template_partials",
    "axes",
    "django_tasks",
    "django_tasks_db",
    "ratings",
    "leagues",
    "following",
]

# Background work (a DSB list import): stored in the database, run by `manage.py db_worker` (`make run`
# starts one). Tests run tasks immediately (settings_test.py).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "dwzsite.middleware.PermissionsPolicyMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Before any view: a NUL byte in a GET parameter answers 400, in the path 404 (PostgreSQL refuses NUL).
    "dwzsite.middleware.NulByteMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "dwzsite.middleware.SlidingSessionMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Public pages for anonymous visitors from the page cache (ETag, 304); after auth and messages.
    "dwzsite.page_cache.PageCacheMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A write that waited too long for the rating lock answers 503 with the posted input kept.
    "dwzsite.middleware.RatingLockBusyMiddleware",
    # Last: it turns a login refused for too many failures into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "dwzsite.urls"

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
                "ratings.web.context_processors.officer",
            ],
        },
    },
]

WSGI_APPLICATION = "dwzsite.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "0")),
        # A kept connection is checked before a request uses it: a restarted server costs one reconnect,
        # not one failed request per worker.
        conn_health_checks=True,
    )
}
# How long a rating write waits for the rating lock (a running import or recalculation) before the officer
# gets "Bitte gleich noch einmal" (HTTP 503, his input kept). gunicorn.conf.py's worker timeout stays above.
RATING_LOCK_TIMEOUT = int(os.environ.get("DWZ_LOCK_TIMEOUT", "20"))
# A save whose recalculation is estimated longer than this (seconds) evaluates the officer's own tournament
# at once and leaves the chain after it to a background job (ratings.services.background). The estimate:
# player entries of rated tournaments from the change date on x seconds per evaluation (measured end to end).
RECALCULATION_BACKGROUND_SECONDS = float(os.environ.get("DWZ_BACKGROUND_SECONDS", "5"))
RECALCULATION_SECONDS_PER_EVALUATION = float(os.environ.get("DWZ_SECONDS_PER_EVALUATION", "0.0001"))
# A background job waits for the rating lock this many times RATING_LOCK_TIMEOUT before it fails.
RECALCULATION_LOCK_ATTEMPTS = int(os.environ.get("DWZ_BACKGROUND_LOCK_ATTEMPTS", "180"))
# WO 6.2: a Wertungsreferent (not staff) may correct or delete a tournament up to one year after its end date
# (ratings.permissions). Off only in the test suite, whose fixtures have fixed dates years back.
OFFICER_CORRECTION_WINDOW = True
# Plausibility warnings before a tournament is rated (ratings.selectors.plausibility): on in every
# deployment; the test settings switch them off except in the tests marked ``plausibility``
# (settings_test.py, tests/conftest.py), so that tests of other rules need not confirm "Turnierende mehr als
# ein Jahr zurück" on every save.
PLAUSIBILITY_CHECKS = env_bool("DWZ_PLAUSIBILITY_CHECKS", True)
# A DSB list (command, admin upload, background import) is refused when its files unpack to more than this
# altogether, or a zip member of more than 1 MB packs tighter than this ratio: a zip bomb (issue 26).
DSB_LIST_MAX_UNCOMPRESSED_BYTES = env_int("DWZ_DSB_LIST_MAX_MB", 64) * 1024 * 1024
DSB_LIST_MAX_COMPRESSION_RATIO = env_int("DWZ_DSB_LIST_MAX_RATIO", 50)
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # IMMEDIATE makes every write transaction take SQLite's lock up front, so concurrent
    # recalculations queue (busy_timeout) instead of failing with "database is locked" at once.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        transaction_mode="IMMEDIATE",
        init_command=f"PRAGMA busy_timeout = {RATING_LOCK_TIMEOUT * 1000};",
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# SQLite builds the rating spans' value index without its INCLUDE columns (PostgreSQL reads a list at a
# day from that index alone); the index is the same otherwise.
SILENCED_SYSTEM_CHECKS = ["models.W040"]

# The results page posts one field per board cell (round, white, black, result) or grid cell, so it works
# without JavaScript. Django's default of 1,000 fields refused a 70-player 9-round Swiss (400). Supported:
# a 300-player 11-round Swiss (1,650 boards, 6,900 fields with participants and non-member ticks) and round
# robins up to 90 players (8,010 cells); the board formset stops at 2,000 boards (8,000 fields). The limit
# guards against parsing cost, and 12,000 fields still parse in milliseconds; the body stays bounded by
# DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB: a full 2,000-board post is about 160 kB).
DATA_UPLOAD_MAX_NUMBER_FIELDS = 12_000

# django-axes first: it refuses a locked-out login before any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("Deutsch")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# English dates unambiguous (7 Jun 2026, not 06/07/2026); German stays 07.06.2026.
FORMAT_MODULE_PATH = ["dwzsite.formats"]
TIME_ZONE = "Europe/Berlin"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
if DEBUG:
    # No collectstatic needed while developing: finders serve the files.
    STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"

LOGIN_URL = "/anmelden/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Login throttling (django-axes), on /anmelden/ and /admin/login/ alike: after AXES_FAILURE_LIMIT wrong
# passwords for one username from one address, that username is locked there for the cool-off period.
AXES_FAILURE_LIMIT = env_int("DJANGO_LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("DJANGO_LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# The cool-off runs from the lockout: a try while locked (even with the right password) does not extend it.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "ratings.web.accounts.lockout.login_locked_out"
AXES_CLIENT_IP_CALLABLE = "dwzsite.middleware.client_ip"
AXES_VERBOSE = False

# Request limits per client address (ratings/throttle.py, the address as for the login lockout): POSTs of the
# password reset form (each may send a mail) and requests to the JSON API, each per fixed window.
PASSWORD_RESET_LIMIT = env_int("DJANGO_PASSWORD_RESET_LIMIT", 5)
PASSWORD_RESET_WINDOW = 60 * env_int("DJANGO_PASSWORD_RESET_WINDOW_MINUTES", 60)
API_LIMIT = env_int("DWZ_API_LIMIT", 120)
API_WINDOW = env_int("DWZ_API_WINDOW_SECONDS", 60)
COMPLAINT_LIMIT = env_int("DWZ_COMPLAINT_LIMIT", 5)  # "Fehler melden" forms per address and window
COMPLAINT_WINDOW = 60 * env_int("DWZ_COMPLAINT_WINDOW_MINUTES", 60)
# Extension points of ratings that other apps fill without ratings importing them (dotted names, resolved at
# runtime): panels on the player's card, ``(request, *, player) -> dict | None`` with a ``template``; and
# functions ``(document) -> None`` adding paths and schemas to the API's OpenAPI document.
RATINGS_PLAYER_CARD_PANELS = ["leagues.web.public.panels.board_record"]
API_SCHEMA_EXTENSIONS = ["leagues.api.schema.extend"]
# Conditions ``() -> Q`` on Tournament for tournaments that are still being played although their stored end
# date (the day of the last game so far) has passed: a league division whose season goes on. The officer's
# WO 6.2 lists (not evaluated, not submitted) leave them out until they are complete.
RATINGS_RUNNING_TOURNAMENTS = ["leagues.selectors.running.running_division_tournaments"]
# Conditions ``() -> Q`` for tournaments another app keeps (a division's, from its match reports): the
# officer's pages refuse to change them.
RATINGS_KEPT_TOURNAMENTS = ["leagues.selectors.running.league_tournaments"]
# The counts must be shared by every gunicorn worker: a database table (``manage.py createcachetable``).
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "throttle": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "dwz_throttle",
        # One row per address and window. Past MAX_ENTRIES a set first deletes the expired rows and only
        # then a third of the live ones (the default 300 would drop live counts); every set counts the rows.
        "OPTIONS": {"MAX_ENTRIES": 10_000},
    },
}
THROTTLE_CACHE = "throttle"


def page_cache() -> dict:
    """The page cache (``dwzsite.page_cache``): shared by every worker and web server. A database table by
    default (``manage.py createcachetable``, run by ``make run``); ``CACHE_URL`` or ``REDIS_URL``
    (``redis://host:6379/0``) switches to django's Redis backend (docs/operations.md)."""
    url = os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL") or ""
    timeout = env_int("DWZ_PAGE_CACHE_TIMEOUT", 3600)
    if url.startswith(("redis://", "rediss://", "unix://")):
        return {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url, "TIMEOUT": timeout}
    if url:
        raise ImproperlyConfigured(f"CACHE_URL: only redis:// is understood, not {url!r}")
    # Keys carry the generation: old pages are never served, they only wait for the cull.
    return {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "dwz_pages",
        "TIMEOUT": timeout,
        "OPTIONS": {"MAX_ENTRIES": env_int("DWZ_PAGE_CACHE_ENTRIES", 20_000)},
    }


CACHES["pages"] = page_cache()
# Public pages and API answers for anonymous visitors, keyed by the ratings generation (issue 31).
PAGE_CACHE = env_bool("DWZ_PAGE_CACHE", True)
PAGE_CACHE_ALIAS = "pages"
# Each worker's own copies of the pages it served last, in front of the shared cache (dwzsite/page_cache.py).
PAGE_CACHE_LOCAL_BYTES = env_int("DWZ_PAGE_CACHE_LOCAL_MB", 32) * 1024 * 1024
# Views cached: those whose module starts with one of these; minus those of PAGE_CACHE_EXCLUDED_VIEWS.
PAGE_CACHE_VIEWS = ["ratings.web.public", "ratings.api", "leagues.web.public", "leagues.api"]
# The progress page of a recalculation changes while it runs, without a generation.
PAGE_CACHE_EXCLUDED_VIEWS = ["ratings.web.public.views.recalculation"]
# Cache-Control of a cached page: browsers and proxies keep it a minute, then show it while asking again.
PAGE_CACHE_MAX_AGE = env_int("DWZ_PAGE_CACHE_MAX_AGE", 60)
PAGE_CACHE_STALE_WHILE_REVALIDATE = env_int("DWZ_PAGE_CACHE_STALE", 300)

# Officers are logged out after this long without a request (sliding: every request pushes it on).
SESSION_COOKIE_AGE = 60 * env_int("DJANGO_SESSION_IDLE_MINUTES", 30)

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"
DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5-responsive.html"

SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", SECURE_HSTS_SECONDS > 0)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", SECURE_HSTS_SECONDS > 0)
# Behind a reverse proxy that terminates TLS and sets X-Forwarded-Proto and X-Forwarded-For.
BEHIND_PROXY = env_bool("DJANGO_BEHIND_PROXY", False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_PROXY else None
SECURE_CONTENT_TYPE_NOSNIFF = True

# Content-Security-Policy (django-csp): only our own files; no inline script, no eval, never in a frame.
# Bootstrap's CSS draws its icons (select arrow, checkboxes, navbar toggler) from data: SVGs.
CONTENT_SECURITY_POLICY = {
    "EXCLUDE_URL_PREFIXES": ["/health/"],
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
    },
}
# Features the site never uses are switched off for it and for anything it might embed.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    "accelerometer": [],
    "camera": [],
    "geolocation": [],
    "gyroscope": [],
    "magnetometer": [],
    "microphone": [],
    "payment": [],
    "usb": [],
}

# Errors (500) are mailed to ADMINS: DJANGO_ADMINS="Name <mail@example.org>, Other <other@example.org>".
ADMINS = [(name, address) for name, address in getaddresses(env_list("DJANGO_ADMINS", "")) if address]
SERVER_EMAIL = os.environ.get("DJANGO_SERVER_EMAIL", "dwzsite@localhost")
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", SERVER_EMAIL)
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "")
EMAIL_PORT = env_int("DJANGO_EMAIL_PORT", 587)
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_PASSWORD", "")
EMAIL_USE_TLS = env_bool("DJANGO_EMAIL_USE_TLS", EMAIL_PORT == 587)
EMAIL_USE_SSL = env_bool("DJANGO_EMAIL_USE_SSL", EMAIL_PORT == 465)
EMAIL_TIMEOUT = 10
# Links in mails sent by the background worker (no request to take the host from): the site's address.
SITE_URL = os.environ.get("DJANGO_SITE_URL", "http://localhost:8000")
# Following players and clubs (following/): one digest per subscription at most every so many minutes, at
# most so many mails per address in that time, confirmation mails per address and day.
FOLLOW_DIGEST_MINUTES = env_int("DJANGO_FOLLOW_DIGEST_MINUTES", 60)
FOLLOW_MAILS_PER_ADDRESS = env_int("DJANGO_FOLLOW_MAILS_PER_ADDRESS", 10)
FOLLOW_CONFIRMS_PER_DAY = env_int("DJANGO_FOLLOW_CONFIRMS_PER_DAY", 3)
# Follow form POSTs per client address and window (ratings/web/throttle.py).
FOLLOW_REQUEST_LIMIT = env_int("DJANGO_FOLLOW_REQUEST_LIMIT", 10)
FOLLOW_REQUEST_WINDOW = 60 * env_int("DJANGO_FOLLOW_REQUEST_WINDOW_MINUTES", 60)
# Without an SMTP server the mails (error reports included) go to the log, not to nowhere.
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)

# The operator the privacy page (/datenschutz/) names: who is responsible for the data (DSGVO Art. 13).
PRIVACY_OPERATOR_NAME = os.environ.get("DWZ_PRIVACY_OPERATOR_NAME", "")
PRIVACY_OPERATOR_ADDRESS = os.environ.get("DWZ_PRIVACY_OPERATOR_ADDRESS", "")
PRIVACY_OPERATOR_EMAIL = os.environ.get("DWZ_PRIVACY_OPERATOR_EMAIL", "")
PRIVACY_OFFICER = os.environ.get("DWZ_PRIVACY_OFFICER", "")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"require_debug_false": {"()": "django.utils.log.RequireDebugFalse"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        "mail_admins": {
            "level": "ERROR",
            "filters": ["require_debug_false"],
            "class": "django.utils.log.AdminEmailHandler",
        },
    },
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
    # Django's errors (a 500 above all) reach the log through the root logger and ADMINS by mail.
    "loggers": {"django": {"handlers": ["mail_admins"], "level": "WARNING"}},
}
