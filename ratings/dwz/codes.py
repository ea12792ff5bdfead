"""Tournament identifiers (spec §9, §16): DSB codes ``YYWW-ZZZ-KKK`` and the 2026 portal's UUIDs.

Both are valid tournament codes. Only a DSB code carries the ``KKK`` that orders tournaments ending on the
same day (WO 2.2.3 / 4.3.3); a tournament with a UUID sorts like one without a code: after the DSB-coded ones
of its end date, in creation order.
"""

from __future__ import annotations

import re

# formats.md §4: YY (or a letter and a digit for the years after 2099), ISO week WW, ZZZ, KKK.
DSB_CODE = r"(?:[0-9]{2}|[A-Z][0-9])(?:0[1-9]|[1-4][0-9]|5[0-3])-[0-9A-Z]{3}-[0-9A-Z]{3}"
# The portal's ids: any UUID version (random v4 and time-ordered v7 seen), stored in lower case.
PORTAL_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
TOURNAMENT_CODE_RE = rf"^(?:{DSB_CODE}|{PORTAL_UUID})$"
DSB_CODE_LENGTH = 12
CODE_MAX_LENGTH = 36

_DSB = re.compile(DSB_CODE)
_UUID = re.compile(PORTAL_UUID, re.IGNORECASE)


def is_dsb_code(code: str | None) -> bool:
    return code is not None and _DSB.fullmatch(code) is not None


def order_suffix(code: str | None) -> str | None:
    """The ``KKK`` of a DSB code, the tie-break among tournaments of one end date; None for anything else."""
    return code[-3:] if code is not None and is_dsb_code(code) else None


def normalise_code(text: str) -> str:
    """What a user typed as a code, in the stored form: a UUID in lower case, anything else in upper case
    (then checked against ``TOURNAMENT_CODE_RE``)."""
    text = text.strip()
    return text.lower() if _UUID.fullmatch(text) else text.upper()
