from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FollowingConfig(AppConfig):
    name = "following"
    verbose_name = _("Benachrichtigungen")

    def ready(self) -> None:
        from ratings.signals import players_merged, ratings_changed

        from .receivers import move_followers, queue_notices

        ratings_changed.connect(queue_notices, dispatch_uid="following.queue_notices")
        players_merged.connect(move_followers, dispatch_uid="following.move_followers")
