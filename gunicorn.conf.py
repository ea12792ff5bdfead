"""gunicorn settings for dwzsite: ``gunicorn -c gunicorn.conf.py dwzsite.wsgi`` (docs/operations.md).

The worker timeout must stay above the rating lock's wait (``DWZ_LOCK_TIMEOUT``, default 20 s): a save
that waits for a running recalculation is then answered by the site ("Bitte gleich noch einmal", 503,
input kept) instead of gunicorn killing the worker mid-request.
"""

import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "2"))
timeout = max(60, 2 * int(os.environ.get("DWZ_LOCK_TIMEOUT", "20")) + 20)
graceful_timeout = 30
accesslog = "-"
