#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dwzsite.settings")
    # A checkout without any configuration is a development checkout: commands such as
    # `manage.py dwz_evaluate` then work as they are. Production sets DJANGO_SECRET_KEY (and so never
    # gets this default); an explicit DJANGO_DEBUG always wins.
    if "DJANGO_SECRET_KEY" not in os.environ:
        os.environ.setdefault("DJANGO_DEBUG", "True")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
