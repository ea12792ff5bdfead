"""URLs of the league app: one namespace (``leagues``) composed of the audiences' URL modules, German paths
under ``ligen/``. The public pages and the API (``leagues/web/public/urls.py``, ``leagues/api/urls.py``) are
added beside these."""

from leagues.web.captain import urls as captain
from leagues.web.club import urls as club
from leagues.web.director import urls as director

app_name = "leagues"

urlpatterns = [
    *captain.urlpatterns,
    *director.urlpatterns,
    *club.urlpatterns,
]
