from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("DWZ-Wertung")

    def ready(self) -> None:
        from ratings.web import converters

        converters.register()
        from ratings import generation

        generation.connect_signals(self)
        # The recalculation and the engine at start-up, together: the digest that certifies stored rows
        # (``recalculation._base.code_digest``) is then read from the source this process runs, not from
        # files a later deploy replaced under it.
        import ratings.recalculation  # with it ``_base`` (the digest) and ``_full``

        ratings.recalculation.connect_span_signals()
