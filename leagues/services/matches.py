"""Match reports: the captain's line-up and board results, the director's approval, his changes of the
sporting result and of a match's status. Every change of an approved match re-keeps the division's DWZ
tournament (``division_tournament_sync``); the match's board and match points come from the core."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from leagues import permissions
from leagues.core.table import match_score
from leagues.core.types import PLAYED_RESULTS
from leagues.models import Board, LeagueResult, Match, MatchStatus
from ratings.models import Player
from ratings.recalculation import lock_ratings

from .division_tournament import division_tournament_sync

SCORE_FIELDS = (
    "home_board_points_halves",
    "away_board_points_halves",
    "home_match_points",
    "away_match_points",
)
PK_MAX = 2**63 - 1  # the largest primary key the database stores (BigAutoField)


@dataclass(frozen=True)
class BoardReport:
    """One board as the captain reports it: players by primary key (None: the board was left empty)."""

    number: int
    home_player: int | None
    away_player: int | None
    result: str  # a LeagueResult value


def _validate(match: Match, boards: Sequence[BoardReport]) -> None:
    errors = []
    seen: dict[int, int] = {}
    numbers = set()
    for b in boards:
        label = _("Brett %(n)s") % {"n": b.number}
        if not 1 <= b.number <= match.division.boards or b.number in numbers:
            errors.append(_("%(board)s: kein Brett dieser Staffel.") % {"board": label})
        numbers.add(b.number)
        if b.result not in LeagueResult.values:
            errors.append(_("%(board)s: unbekanntes Ergebnis.") % {"board": label})
        for pk in (b.home_player, b.away_player):
            if pk is None or pk <= 0:
                continue
            if pk in seen:
                errors.append(
                    _("%(board)s: der Spieler sitzt schon an Brett %(other)s.")
                    % {"board": label, "other": seen[pk]}
                )
            seen[pk] = b.number
        if (b.home_player is None or b.away_player is None) and b.result in PLAYED_RESULTS:
            errors.append(
                _("%(board)s: ein leeres Brett ist kampflos, keine gespielte Partie.") % {"board": label}
            )
    errors.extend(_unknown_players(boards))
    if errors:
        raise ValidationError(errors)


def _unknown_players(boards: Sequence[BoardReport]) -> list[str]:
    """One query: a message per board naming an id no player has (ids out of the database's range too)."""
    ids = {pk for b in boards for pk in (b.home_player, b.away_player) if pk is not None}
    valid = [pk for pk in ids if 0 < pk <= PK_MAX]
    known = set(Player.objects.filter(pk__in=valid).values_list("pk", flat=True))
    return [
        _("Brett %(board)d: unbekannter Spieler") % {"board": b.number}
        for b in boards
        for pk in (b.home_player, b.away_player)
        if pk is not None and pk not in known
    ]


def _board_row(match: Match, b: BoardReport, stored: dict[int, Board]) -> Board:
    """The board to store: a board reported as it stands (same players, the stored sporting result) keeps
    its rated result (the director's change of the sporting result); otherwise a forfeit clears the side
    that did not play."""
    old = stored.get(b.number)
    if (
        old is not None
        and old.rated_result
        and (old.home_player_id, old.away_player_id, old.result) == (b.home_player, b.away_player, b.result)
    ):
        return Board(
            match=match,
            number=b.number,
            home_player_id=b.home_player,
            away_player_id=b.away_player,
            result=b.result,
            rated_result=old.rated_result,
        )
    home, away = b.home_player, b.away_player
    if b.result in (LeagueResult.HOME_WINS_FORFEIT, LeagueResult.DOUBLE_FORFEIT):
        away = None
    if b.result in (LeagueResult.AWAY_WINS_FORFEIT, LeagueResult.DOUBLE_FORFEIT):
        home = None
    return Board(match=match, number=b.number, home_player_id=home, away_player_id=away, result=b.result)


def _store_score(match: Match, boards: Sequence[Board] | None = None) -> None:
    """The match's board and match points from the core (None while it counts for nobody). ``match``: read
    under the lock with its division and changed in memory only by the caller's saves; ``boards``: its
    boards as just stored (None: read them). Writes only a score that changed."""
    score = match_score(match.as_core(boards), match.division.boards, match.division.match_points)
    values = {
        "home_board_points_halves": None if score is None else score.home_halves,
        "away_board_points_halves": None if score is None else score.away_halves,
        "home_match_points": None if score is None else score.home_match_points,
        "away_match_points": None if score is None else score.away_match_points,
    }
    if any(getattr(match, k) != v for k, v in values.items()):
        for k, v in values.items():
            setattr(match, k, v)
        match.save(update_fields=list(values))


def _fresh(match: Match) -> Match:
    """The caller's match as stored, with its division (one query)."""
    match.refresh_from_db(from_queryset=Match.objects.select_related("division"))
    return match


def _locked(match: Match) -> Match:
    """The match read again under the lock, with its division and season (one query; the row lock only on
    the match)."""
    return Match.objects.select_for_update(of=("self",)).select_related("division__season").get(pk=match.pk)


def match_report_save(*, match: Match, boards: Sequence[BoardReport], user) -> Match:
    """The captain's report (line-up and results): replaces the match's boards, marks it played and
    reported. Refused once approved (only the director changes it then)."""
    if not permissions.can_report(user, match):
        raise PermissionDenied(_("Diesen Spielbericht dürfen Sie nicht (mehr) ändern."))
    _validate(match, boards)
    with transaction.atomic():
        lock_ratings()
        locked = _locked(match)
        if locked.approved_at is not None and not permissions.is_director(user, match.division):
            raise PermissionDenied(_("Der Spielbericht ist schon bestätigt."))
        stored = {b.number: b for b in Board.objects.filter(match=locked)}
        Board.objects.filter(match=locked).delete()
        rows = [_board_row(locked, b, stored) for b in sorted(boards, key=lambda b: b.number)]
        Board.objects.bulk_create(rows)
        locked.status = MatchStatus.PLAYED
        locked.reported_at, locked.reported_by = timezone.now(), user
        locked.save(update_fields=["status", "reported_at", "reported_by"])
        _store_score(locked, rows)
        if locked.approved_at is not None:
            division_tournament_sync(division=locked.division, user=user)
    return locked


def match_approve(*, match: Match, user) -> Match:
    """The director approves the report: it goes into the DWZ tournament and the captains can no longer
    change it. (The public table shows a reported match at once, as league managers do; approval makes it
    final.)"""
    if not permissions.is_director(user, match.division):
        raise PermissionDenied(_("Nur der Staffelleiter bestätigt Spielberichte."))
    with transaction.atomic():
        lock_ratings()
        locked = _locked(match)
        if locked.approved_at is not None:
            raise ValidationError(_("Der Spielbericht ist schon bestätigt."))
        if locked.status == MatchStatus.SCHEDULED and locked.reported_at is None:
            raise ValidationError(
                _("Der Mannschaftskampf hat noch keinen Spielbericht: erst melden, dann bestätigen.")
            )
        locked.approved_at, locked.approved_by = timezone.now(), user
        locked.save(update_fields=["approved_at", "approved_by"])
        _store_score(locked)
        division_tournament_sync(division=locked.division, user=user)
    _copy_state(locked, match)
    return match


def _copy_state(locked: Match, match: Match) -> None:
    """The caller's match object as stored (its approval and score)."""
    for field in ("approved_at", "approved_by", "status", "reported_at", "reported_by_id", *SCORE_FIELDS):
        setattr(match, field, getattr(locked, field))


def match_reopen(*, match: Match, user) -> Match:
    """The director takes the approval back (the captains may correct the report again)."""
    if not permissions.is_director(user, match.division):
        raise PermissionDenied(_("Nur der Staffelleiter bestätigt Spielberichte."))
    with transaction.atomic():
        lock_ratings()
        match.approved_at, match.approved_by = None, None
        match.save(update_fields=["approved_at", "approved_by"])
        division_tournament_sync(division=match.division, user=user)
    return match


def board_result_change(*, board: Board, result: str, rated_result: str | None = None, user) -> Board:
    """The director changes a board's sporting result (e.g. an ineligible player's board scored as lost);
    the game keeps its real result for the DWZ (``rated_result``, by default the result stored so far)."""
    match = board.match
    if not permissions.is_director(user, match.division):
        raise PermissionDenied(_("Nur der Staffelleiter ändert Ergebnisse."))
    if result not in LeagueResult.values or (rated_result and rated_result not in LeagueResult.values):
        raise ValidationError(_("Unbekanntes Ergebnis."))
    with transaction.atomic():
        lock_ratings()
        real = rated_result if rated_result is not None else (board.rated_result or board.result)
        board.rated_result = "" if real == result else real
        board.result = result
        board.save(update_fields=["result", "rated_result"])
        _store_score(_fresh(match))
        if match.approved_at is not None:
            division_tournament_sync(division=match.division, user=user)
    return board


def match_status_set(*, match: Match, status: str, user) -> Match:
    """The director decides a match (a forfeit, a double forfeit, or played after all)."""
    if not permissions.is_director(user, match.division):
        raise PermissionDenied(_("Nur der Staffelleiter entscheidet über Mannschaftskämpfe."))
    if status not in MatchStatus.values or (status == MatchStatus.BYE) != (match.away_id is None):
        raise ValidationError(_("Unbekannter Status."))
    with transaction.atomic():
        lock_ratings()
        match.status = status
        match.save(update_fields=["status"])
        _store_score(_fresh(match))
        if match.approved_at is not None:
            division_tournament_sync(division=match.division, user=user)
    return match


def match_played_on_set(*, match: Match, played_on, user) -> Match:
    """The director records a postponed match's day (None: played as scheduled); an approved match moves
    the division's end date with it, and the chronological recalculation follows."""
    if not permissions.is_director(user, match.division):
        raise PermissionDenied(_("Nur der Staffelleiter entscheidet über Mannschaftskämpfe."))
    with transaction.atomic():
        lock_ratings()
        match.played_on = None if played_on == match.scheduled_date else played_on
        match.save(update_fields=["played_on"])
        if match.approved_at is not None:
            division_tournament_sync(division=match.division, user=user)
    return match
