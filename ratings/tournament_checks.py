"""What a tournament's save and its preview both check: the games are valid, and the tournament is still
there, at the version the officer's form was loaded at. No database access here: the caller reads."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ratings.enums import BYE_RESULTS, PAIRING_RESULTS
from ratings.models import Game


def games_validate(*, entered: Iterable[int], games: Iterable[Game]) -> None:
    """White ≠ black, both entered, a player at most once per round, byes without black.

    ``entered`` holds player pks; raises ``ValidationError`` listing every problem.
    """
    entered = set(entered)
    errors: list[str] = []
    seen: dict[int, set[int]] = defaultdict(set)
    for i, game in enumerate(games, start=1):
        label = _("Partie %(n)s (Runde %(round)s)") % {"n": i, "round": game.round}
        players = [game.white_id] + ([game.black_id] if game.black_id is not None else [])
        if game.result in BYE_RESULTS and game.black_id is not None:
            errors.append(_("%(game)s: ein Freilos hat keinen Schwarzspieler.") % {"game": label})
        if game.result in PAIRING_RESULTS and game.black_id is None:
            errors.append(_("%(game)s: Schwarz fehlt.") % {"game": label})
        if game.result not in BYE_RESULTS and game.result not in PAIRING_RESULTS:
            errors.append(
                _("%(game)s: unbekanntes Ergebnis %(result)s.") % {"game": label, "result": game.result}
            )
        if game.black_id is not None and game.white_id == game.black_id:
            errors.append(_("%(game)s: Weiß und Schwarz sind derselbe Spieler.") % {"game": label})
        for pk in players:
            if pk not in entered:
                errors.append(
                    _("%(game)s: Spieler %(pk)s ist nicht im Turnier gemeldet.") % {"game": label, "pk": pk}
                )
            if pk in seen[game.round]:
                errors.append(
                    _("%(game)s: Spieler %(pk)s spielt in dieser Runde mehrfach.") % {"game": label, "pk": pk}
                )
            seen[game.round].add(pk)
    if errors:
        raise ValidationError(errors)


class TournamentGone(Exception):
    """The tournament was deleted while the officer's save waited (nothing is written: a save must not
    bring a deleted tournament back)."""


class TournamentConflict(Exception):
    """The officer's form was loaded at ``version``; another save has changed the tournament since (the
    audit rows of versions after it tell who changed what)."""

    def __init__(self, *, tournament_id: int, version: int, current: int) -> None:
        super().__init__(f"tournament {tournament_id}: version {version} is outdated ({current})")
        self.tournament_id, self.version, self.current = tournament_id, version, current
