"""The web layer of the ratings app, by audience: ``public`` (everybody), ``officer`` (Wertungsreferenten and
staff), ``accounts`` (login, password, lockout), and beside them what several audiences share (URL converters,
escaping, links, throttling, the audit display) and the health check. The JSON API (``ratings.api``) and the
Django admin (``ratings.admin``) are audiences of their own beside ``ratings.web``."""
