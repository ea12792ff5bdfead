"""Tournaments from TRF files, the write: :func:`trf_save` creates the new players with their start values
from the file (DWZ from the GER line, else FIDE Elo as a take-over), then saves head, participants, games
and byes through ``tournament_create`` in one transaction. Reading, matching and the preview before it are
reads (``ratings.selectors.trf_import``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from ratings.enums import AdjustmentKind
from ratings.formats.trf import (
    TrfPlayer,
    TrfTournament,
    person_id,
)
from ratings.models import Club, Game, Membership, Player, RatingAdjustment, Tournament
from ratings.models.audit import AuditAction, AuditEvent, AuditObjectType
from ratings.models.officer import TournamentMode
from ratings.models.player import is_player_key
from ratings.models.tournament import TournamentEntry
from ratings.recalculation import RecalculationReport, lock_ratings, rebuild_spans

# TRF code pairs (white, black) → dwzsite result; W/L (unrated wins) become forfeits: points, no rating.
from ratings.selectors.trf_import import (
    Decision,
    Head,
    TrfImportError,
    file_start_state,
    file_tiebreaks,
    new_player,
    pending_games,
    tournament_from_head,
)

from . import audit
from .tournaments import tournament_create

if TYPE_CHECKING:
    from ratings.services.audit import Actor


class _Keys:
    """New player keys: the DSB id of the file, else FIDE-<id>, else <ZPS>-T<n> or TRF-<n>; never a used one.

    Used keys are read once (the candidates and every key with a generated prefix), not per player."""

    def __init__(self, players: Sequence[TrfPlayer], clubs: Iterable[Club]) -> None:
        candidates = set()
        for p in players:
            pid = person_id(p.person_id)
            if pid and pid.kind in ("nu", "pkz", "member"):
                candidates.add(pid.value)
            if p.fide_id:
                candidates.add(f"FIDE-{p.fide_id}")
        prefixes = Q(key__startswith="TRF-")
        for club in clubs:
            prefixes |= Q(key__startswith=f"{club.zps}-T")
        used = Player.objects.filter(Q(key__in=candidates) | prefixes).values_list("key", flat=True)
        self.used = {k.upper() for k in used}
        self.next: dict[str, int] = {}

    def take(self, p: TrfPlayer, club: Club | None) -> str:
        pid = person_id(p.person_id)
        candidates = [pid.value] if pid and pid.kind in ("nu", "pkz", "member") else []
        if p.fide_id:
            candidates.append(f"FIDE-{p.fide_id}")
        key = next((k for k in candidates if is_player_key(k) and k.upper() not in self.used), None)
        if key is None:
            prefix = f"{club.zps}-T" if club else "TRF-"
            n = self.next.get(prefix, 1)
            while f"{prefix}{n}".upper() in self.used:
                n += 1
            self.next[prefix] = n + 1
            key = f"{prefix}{n}"
        self.used.add(key.upper())
        return key


def _club_for_new(
    p: TrfPlayer, decision: Decision, clubs: Mapping[int, Club]
) -> tuple[Club | None, str | None]:
    """The club of a new player and his member number (from a ZPS-Mitgliedsnummer in the GER line)."""
    pid = person_id(p.person_id)
    if decision.club_id is not None:
        club = clubs[decision.club_id]
        number = pid.member_number if pid and pid.kind == "member" and pid.zps == club.zps else None
        return club, number
    if pid and pid.kind == "member":
        member_club = next((c for c in clubs.values() if c.zps == pid.zps), None)
        if member_club is None:
            raise TrfImportError(
                [
                    _(
                        "Verein %(zps)s (Spieler %(name)s) ist unbekannt. Bitte zuerst die DSB-Liste "
                        "importieren (import_dsb_list)."
                    )
                    % {"zps": pid.zps, "name": p.name}
                ]
            )
        return member_club, pid.member_number
    return None, None


# --- saving --------------------------------------------------------------------------------------------


@dataclass
class TrfImportResult:
    tournament: Tournament
    report: RecalculationReport
    created: list[Player]
    notes: list[str]


def trf_save(
    *,
    tournament: TrfTournament,
    head: Head,
    decisions: Mapping[int, Decision],
    user: Actor = None,
    source_digest: str = "",
) -> TrfImportResult:
    """Create the new players and save the tournament, all in one transaction. Every line needs a decision.
    ``source_digest`` (of the file's bytes) is stored: the same file imported again is a likely duplicate."""
    open_lines = [p for p in tournament.players if p.start_rank not in decisions]
    if open_lines:
        raise TrfImportError(
            [
                _("Spieler %(rank)s (%(name)s) ist keinem Spieler zugeordnet.")
                % {"rank": p.start_rank, "name": p.name}
                for p in open_lines
            ]
        )
    if head.end_date is None:
        raise TrfImportError([_("Das Turnierende fehlt (Satz 052 oder 132).")])
    chosen = [d.player_id for d in decisions.values() if d.player_id is not None]
    doubles = sorted({pk for pk in chosen if chosen.count(pk) > 1})
    if doubles:
        names = ", ".join(p.name for p in Player.objects.filter(pk__in=doubles))
        raise TrfImportError(
            [_("Derselbe Spieler ist mehreren Zeilen zugeordnet: %(names)s.") % {"names": names}]
        )
    try:
        return _save(
            tournament=tournament,
            head=head,
            decisions=decisions,
            chosen=chosen,
            user=user,
            source_digest=source_digest,
        )
    except ValidationError as exc:
        raise TrfImportError(list(exc.messages)) from None


def _save(
    *,
    tournament: TrfTournament,
    head: Head,
    decisions: Mapping[int, Decision],
    chosen: list[int],
    user: Actor,
    source_digest: str,
) -> TrfImportResult:
    with transaction.atomic():
        lock_ratings()
        stored = Player.objects.in_bulk(chosen)
        missing = set(chosen) - set(stored)
        if missing:
            raise TrfImportError([_("Ein zugeordneter Spieler existiert nicht mehr.")])
        club_ids = {d.club_id for d in decisions.values() if d.club_id is not None}
        member_zps = {
            pid.zps
            for p in tournament.players
            if decisions[p.start_rank].create and (pid := person_id(p.person_id)) and pid.kind == "member"
        }
        clubs = {c.pk: c for c in Club.objects.filter(Q(pk__in=club_ids) | Q(zps__in=member_zps))}
        by_rank: dict[int, Player] = {}
        new_lines = [p for p in tournament.players if decisions[p.start_rank].create]
        keys = _Keys(new_lines, clubs.values())
        created: list[Player] = []
        homes: dict[int, tuple[Club | None, str | None]] = {}
        for p in tournament.players:
            d = decisions[p.start_rank]
            if not d.create:
                by_rank[p.start_rank] = stored[d.player_id]
                continue
            club, number = _club_for_new(p, d, clubs)
            player = new_player(p, keys.take(p, club))
            state = file_start_state(p)
            # Without history a player's replayed DWZ is his start value (what adjustment_save would
            # write); the tournament's recalculation below starts from it.
            player.dwz, player.index = state.dwz, state.index if state.dwz is not None else None
            player.full_clean(validate_unique=False)  # keys are unique by construction, DSB ids below
            created.append(player)
            by_rank[p.start_rank] = player
            homes[p.start_rank] = (club, number)
        taken_ids = [p.dsb_id for p in created if p.dsb_id is not None]
        if taken_ids and Player.objects.filter(dsb_id__in=taken_ids).exists():
            raise TrfImportError([_("Ein neuer Spieler hat eine DSB-Personen-ID, die schon vergeben ist.")])
        Player.objects.bulk_create(created, batch_size=500)
        numbers_taken: dict[int, set[str]] = {}
        memberships: list[Membership] = []
        starts: list[RatingAdjustment] = []
        for p in new_lines:
            player = by_rank[p.start_rank]
            club, number = homes[p.start_rank]
            if club is not None:
                memberships.append(_membership(player, club, number, numbers_taken))
            state = file_start_state(p)
            if state.dwz is not None or state.fide_elo is not None:
                starts.append(
                    RatingAdjustment(
                        player=player,
                        kind=AdjustmentKind.START,
                        dwz=state.dwz,
                        index=state.index if state.dwz is not None else None,
                        fide_elo=state.fide_elo if state.dwz is None else None,
                        reason=_("Startwert aus TRF-Datei „%(name)s“") % {"name": head.name},
                        author=audit.stored_user(user=user),
                    )
                )
        Membership.objects.bulk_create(memberships, batch_size=500)
        RatingAdjustment.objects.bulk_create(starts, batch_size=500)
        # They came with their start value as their DWZ (no replay for them yet): their spans likewise.
        rebuild_spans(players=[p.pk for p in created])
        _audit_created(created, memberships, user)
        t = tournament_from_head(head)
        t.tiebreaks = file_tiebreaks(tournament.head)
        t.source_digest = source_digest
        entries = [
            TournamentEntry(
                player=by_rank[p.start_rank],
                start_rank=p.start_rank,
                file_rank=p.rank or None,
                member=decisions[p.start_rank].member,
            )
            for p in tournament.players
        ]
        games, notes = pending_games(tournament)
        rows = [
            Game(
                round=g.round,
                white=by_rank[g.white],
                black=by_rank[g.black] if g.black else None,
                result=g.result,
            )
            for g in games
        ]
        report = tournament_create(
            tournament=t, entries=entries, games=rows, mode=TournamentMode.SWISS, user=user
        )
        return TrfImportResult(tournament=t, report=report, created=created, notes=notes)


def _audit_created(players: list[Player], memberships: list[Membership], user: Actor) -> None:
    """One audit row per new player, as ``audit.record_player`` writes it, in one insert."""
    clubs_of: dict[int, list[str]] = defaultdict(list)
    for m in memberships:
        clubs_of[m.player_id].append(f"{m.club.zps}-{m.member_number}")
    known = user if user is not None and user.is_authenticated else None
    rows = []
    for player in players:
        after = {f: audit._json(getattr(player, f)) for f in audit.PLAYER_FIELDS}
        after["memberships"] = clubs_of.get(player.pk, [])
        rows.append(
            AuditEvent(
                user=known,
                username=known.get_username() if known is not None else "",
                action=AuditAction.CREATE,
                object_type=AuditObjectType.PLAYER,
                object_id=player.pk,
                object_repr=str(player)[:250],
                player_ref=player.pk,
                changes={k: [None, v] for k, v in after.items()},
                snapshot=after,
            )
        )
    AuditEvent.objects.bulk_create(rows, batch_size=500)


def _membership(player: Player, club: Club, number: str | None, taken: dict[int, set[str]]) -> Membership:
    """A membership with the file's member number if free, else the next free four-digit one."""
    if club.pk not in taken:
        taken[club.pk] = set(Membership.objects.filter(club=club).values_list("member_number", flat=True))
    numbers = taken[club.pk]
    if number is None or number in numbers:
        n = len(numbers) + 1
        while f"{n:04d}" in numbers:
            n += 1
        number = f"{n:04d}"
    numbers.add(number)
    return Membership(player=player, club=club, member_number=number)
