"""URLs: officer pages (filled in by their issue)."""

urlpatterns: list = []
