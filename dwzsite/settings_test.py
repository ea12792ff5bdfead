"""Test settings: the real settings plus plain static storage and a fast password hasher."""

import os

os.environ.setdefault("DJANGO_DEBUG", "True")

from .settings import *  # noqa: F403

STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"  # noqa: F405
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
# The plausibility warnings ask before every save of a tournament of 2024 without a time control; only the
# tests marked ``plausibility`` switch them on (tests/conftest.py). Commands the tests run in a subprocess
# get this module too.
PLAUSIBILITY_CHECKS = False
# The page cache is switched on by the tests of it (tests/dwzsite/test_page_cache.py); other tests write rows
# directly (not through the services that bump the generation) and read the page again.
PAGE_CACHE = False
