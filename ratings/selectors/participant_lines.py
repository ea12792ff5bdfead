"""Players named by pasted lines: a key (``C0501-0013``), a DSB person id (``NU4005017`` or a PKZ), a
FIDE id, or "Name, Vorname" (umlauts folded as in the search). Each line names one player or gets a
message."""

from __future__ import annotations

import re

from django.db.models import Q
from django.utils.translation import gettext as _

from ratings.folding import search_key
from ratings.models import Player
from ratings.models.player import is_player_key

MAX_LINES = 500


def _by_id(token: str) -> list[Player]:
    q = Q(key__iexact=token)
    if re.fullmatch(r"(?:NU)?\d{1,10}", token, flags=re.IGNORECASE):
        q |= Q(dsb_id__iexact=token)
    if token.isdecimal() and len(token) <= 10:
        q |= Q(fide_id=int(token))
    return list(Player.objects.filter(q)[:3])


def _by_name(text: str) -> list[Player]:
    surname, _sep, first = (part.strip() for part in text.partition(","))
    qs = Player.objects.filter(surname_key=search_key(surname))
    if first:
        qs = qs.filter(first_name_key=search_key(first))
    return list(qs[:3])


def players_from_lines(text: str) -> tuple[list[Player], list[str]]:
    """The players the lines name, in their order (each once), and a message per line that names none or
    more than one."""
    found: list[Player] = []
    errors: list[str] = []
    lines = [(k, line.strip()) for k, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if len(lines) > MAX_LINES:
        return [], [_("Höchstens %(n)s Zeilen auf einmal.") % {"n": MAX_LINES}]
    for k, line in lines:
        first_token = re.split(r"[\s;\t]+", line)[0].rstrip(",")
        if is_player_key(first_token) and any(ch.isdigit() for ch in first_token):
            matches = _by_id(first_token)
        else:
            matches = _by_name(line)
        if len(matches) == 1:
            if matches[0] not in found:
                found.append(matches[0])
        elif not matches:
            errors.append(_("Zeile %(row)s: „%(text)s“ nicht gefunden.") % {"row": k, "text": line[:80]})
        else:
            errors.append(
                _("Zeile %(row)s: „%(text)s“ ist nicht eindeutig (%(names)s); bitte die ID angeben.")
                % {"row": k, "text": line[:80], "names": "; ".join(f"{p.name} {p.key}" for p in matches)}
            )
    return found, errors
