"""URLs: public pages (filled in by their issue)."""

urlpatterns: list = []
