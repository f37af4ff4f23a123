"""WSGI entry point (gunicorn atout.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "atout.settings")
application = get_wsgi_application()
