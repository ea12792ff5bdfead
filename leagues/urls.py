"""URLs of the league app: one namespace (``leagues``) composed of the audiences' URL modules, German paths
under ``ligen/``. The JSON API has its own namespace (``leagues-api``, ``leagues/api/urls.py``)."""

from leagues.web.captain import urls as captain
from leagues.web.club import urls as club
from leagues.web.director import urls as director
from leagues.web.public import urls as public

app_name = "leagues"

urlpatterns = [
    *public.urlpatterns,
    *captain.urlpatterns,
    *director.urlpatterns,
    *club.urlpatterns,
]
