"""URLs: api pages (filled in by their issue)."""

urlpatterns: list = []
