"""Which DWZ tournaments the league keeps (``settings.RATINGS_KEPT_TOURNAMENTS``) and which of them are still
being played (``settings.RATINGS_RUNNING_TOURNAMENTS``).

A division's tournament ends on the day of its last game so far (WO 2.2.3), so while the season goes on its
end date lies in the past; the officer's WO 6.2 lists in ``ratings`` would count it as overdue. ``ratings``
never imports ``leagues``: it reads this condition through the setting.
"""

from django.db.models import Exists, OuterRef, Q

from leagues.models import DivisionPart, Match


def running_division_tournaments() -> Q:
    """Tournaments of a division part whose division has a match not yet approved by its director."""
    open_match = Match.objects.filter(division__parts__tournament=OuterRef("pk"), approved_at__isnull=True)
    return Q(Exists(open_match))


def league_tournaments() -> Q:
    """Tournaments a division part keeps (``settings.RATINGS_KEPT_TOURNAMENTS``): the officer's pages of
    ``ratings`` refuse to change them, since the next approved match report would overwrite the change."""
    return Q(Exists(DivisionPart.objects.filter(tournament=OuterRef("pk"))))
