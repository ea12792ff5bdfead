from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("DWZ-Wertung")

    def ready(self) -> None:
        from ratings import converters

        converters.register()
