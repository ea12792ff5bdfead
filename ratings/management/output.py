"""Output helpers shared by the management commands."""

from __future__ import annotations

import os
import sys


def quiet_stdout(stream: object) -> None:
    """After a BrokenPipeError on ``stream``: if it is the process's stdout, point that at /dev/null, so the
    interpreter's final flush cannot fail again and print a traceback (Python docs, "Note on SIGPIPE")."""
    stdout = sys.stdout  # a name of its own: mypy narrows both operands of ``is`` to ``object``
    if stream is not stdout:
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
