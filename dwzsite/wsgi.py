"""WSGI entry point (gunicorn dwzsite.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dwzsite.settings")
application = get_wsgi_application()
