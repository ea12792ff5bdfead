"""The league's read-only JSON API (``/api/divisions/<id>``), in the style of ``ratings.api``."""
