"""The confirmation of plausibility warnings on the officer pages: nothing is saved while there are warnings
the officer has not confirmed; the page lists them all with one "Trotzdem speichern" button.

The button posts ``save=confirm:<fingerprint>``: it confirms exactly the warnings shown, so a change in
between that brings another warning asks again (``ratings.selectors.plausibility.fingerprint``)."""

from __future__ import annotations

from collections.abc import Sequence

from django.http import QueryDict

from ratings.selectors.plausibility import PlausibilityWarning, fingerprint

CONFIRM_PREFIX = "confirm:"


def confirmed(data: QueryDict, warnings: Sequence[PlausibilityWarning]) -> bool:
    """No warnings, or the posted confirmation is of these very warnings."""
    return not warnings or data.get("save", "") == CONFIRM_PREFIX + fingerprint(warnings)


def warnings_context(warnings: Sequence[PlausibilityWarning]) -> dict:
    """What ``ratings/officer/_plausibility.html`` shows."""
    return {"plausibility": list(warnings), "plausibility_confirm": CONFIRM_PREFIX + fingerprint(warnings)}
