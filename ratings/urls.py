"""URLs of the ratings app: one namespace, composed of the audiences' URL modules. German, stable paths."""

from ratings.api import urls as api
from ratings.web.accounts import urls as accounts
from ratings.web.officer import urls as officer
from ratings.web.public import urls as public

app_name = "ratings"

urlpatterns = [
    *public.urlpatterns,
    *accounts.urlpatterns,
    *officer.urlpatterns,
    *api.urlpatterns,
]
