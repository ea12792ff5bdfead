"""Merging two records of one person (a typed-in newcomer who turns out to be on the DSB list).

One player keeps his key; the other's tournament entries, games, memberships, adjustments, official values and
FIDE data move over, the other record is deleted, and the merged history is recalculated from the earlier of
the two players' first events. The audit trail records the merge. A merge that cannot be right is refused with
a message: both in the same tournament, two different DSB ids or FIDE ids.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ratings.enums import AdjustmentKind, RatingChangeCause
from ratings.models import (
    Evaluation,
    FrozenListRow,
    Game,
    Membership,
    MergedKey,
    OfficialRating,
    Player,
    RatingAdjustment,
    Restpartie,
    Tournament,
    TournamentEntry,
)
from ratings.models.audit import AuditAction, AuditObjectType
from ratings.recalculation import (
    Changes,
    RecalculationReport,
    earliest,
    lock_ratings,
    player_first_event,
    recalculate_changes,
)
from ratings.signals import players_merged

from . import audit
from .announce import announce_rating_changes
from .background import recalculate_or_schedule
from .players import players_status_sync

if TYPE_CHECKING:
    from ratings.services.audit import Actor

# Player fields the kept record takes from the other one where it has none.
FILLED = ("dsb_id", "fide_id", "fide_elo", "fide_title", "fide_federation", "birth_year", "sex", "first_name")


@dataclass(slots=True)
class MergeResult:
    keep: Player
    report: RecalculationReport
    moved: dict[str, int] = field(default_factory=dict)
    filled: list[str] = field(default_factory=list)
    dry_run: bool = False

    def summary(self, drop_repr: str) -> str:
        """The message after a merge: who went into whom, how much was re-evaluated."""
        tournaments, changed = len(self.report.tournaments), len(self.report.rating_changes)
        return " ".join(
            (
                _("%(drop)s ist mit %(keep)s zusammengeführt.") % {"drop": drop_repr, "keep": str(self.keep)},
                ngettext("%(n)d Turnier neu ausgewertet,", "%(n)d Turniere neu ausgewertet,", tournaments)
                % {"n": tournaments},
                ngettext("%(n)d DWZ geändert.", "%(n)d DWZ geändert.", changed) % {"n": changed},
            )
        )


@dataclass(slots=True)
class MergeCheck:
    """What a merge would do, for the page that asks for confirmation."""

    problems: list[str]
    preview: MergeResult | None = None
    changes: list[tuple[Player | None, int | None, int | None]] = field(default_factory=list)
    tournaments: list[Tournament] = field(default_factory=list)


def merge_check(*, keep: Player, drop: Player) -> MergeCheck:
    """The conflicts, or a dry run of the merge: moved rows, re-evaluated tournaments, changed ratings."""
    problems = merge_conflicts(keep=keep, drop=drop)
    if problems:
        return MergeCheck(problems=problems)
    preview = players_merge(keep=keep, drop=drop, dry_run=True)
    names = Player.objects.in_bulk(list(preview.report.rating_changes))
    changes = [
        (names.get(pk, keep if pk == keep.pk else None), old, new)
        for pk, (old, new) in preview.report.rating_changes.items()
    ]
    tournaments = list(
        Tournament.objects.filter(pk__in=preview.report.tournaments).order_by("end_date", "pk")
    )
    return MergeCheck(problems=[], preview=preview, changes=changes, tournaments=tournaments)


class _Rollback(Exception):
    def __init__(self, result: MergeResult) -> None:
        self.result = result


def merge_conflicts(*, keep: Player, drop: Player) -> list[str]:
    """Why the two records cannot be merged (empty: they can)."""
    problems = []
    if keep.pk == drop.pk:
        problems.append(_("Ein Spieler kann nicht mit sich selbst zusammengeführt werden."))
    for name, label in (("dsb_id", _("DSB-Personen-ID")), ("fide_id", _("FIDE-ID"))):
        a, b = getattr(keep, name), getattr(drop, name)
        if a and b and a != b:
            problems.append(_("Verschiedene %(field)s: %(a)s und %(b)s.") % {"field": label, "a": a, "b": b})
    both = Tournament.objects.filter(entries__player=keep).filter(entries__player=drop).distinct()
    for t in both.order_by("end_date", "pk")[:20]:
        problems.append(
            _("Beide spielen im selben Turnier „%(name)s“ (%(date)s).")
            % {"name": t.name, "date": t.end_date.strftime("%d.%m.%Y")}
        )
    return problems


def players_merge(*, keep: Player, drop: Player, user: Actor = None, dry_run: bool = False) -> MergeResult:
    """Merge ``drop`` into ``keep``. ``dry_run`` does everything (the recalculation included) and rolls it
    back: the result shows whose DWZ would change and which tournaments would be re-evaluated."""
    try:
        with transaction.atomic():
            lock_ratings()
            result = _merge(keep=keep, drop=drop, user=user, dry_run=dry_run)
            if dry_run:
                result.dry_run = True
                raise _Rollback(result)
            return result
    except _Rollback as rollback:
        keep.refresh_from_db()
        drop.refresh_from_db()
        return rollback.result


def _merge(*, keep: Player, drop: Player, user: Actor, dry_run: bool) -> MergeResult:
    keep = Player.objects.get(pk=keep.pk)
    drop = Player.objects.get(pk=drop.pk)
    problems = merge_conflicts(keep=keep, drop=drop)
    if problems:
        raise ValidationError(problems)
    since = earliest(player_first_event(keep.pk), player_first_event(drop.pk))
    tournaments = set(
        TournamentEntry.objects.filter(player__in=[keep, drop]).values_list("tournament_id", flat=True)
    )
    before_keep = audit.stored_player_snapshot(player_id=keep.pk)
    before_drop = audit.stored_player_snapshot(player_id=drop.pk)
    moved: dict[str, int] = {}
    moved["entries"] = TournamentEntry.objects.filter(player=drop).update(player=keep)
    moved["games"] = Game.objects.filter(white=drop).update(white=keep) + Game.objects.filter(
        black=drop
    ).update(black=keep)
    moved["evaluations"] = Evaluation.objects.filter(player=drop).update(player=keep)
    Restpartie.objects.filter(player=drop).update(player=keep)
    # Memberships: a club both are current members of keeps the kept record's membership.
    keep_clubs = set(Membership.objects.current().filter(player=keep).values_list("club_id", flat=True))
    Membership.objects.current().filter(player=drop, club_id__in=keep_clubs).delete()
    moved["memberships"] = Membership.objects.filter(player=drop).update(player=keep)
    # Adjustments: his own start value wins; dated ones move (one Umstufung per date).
    if RatingAdjustment.objects.filter(player=keep, kind=AdjustmentKind.START).exists():
        RatingAdjustment.objects.filter(player=drop, kind=AdjustmentKind.START).delete()
    keep_dates = set(
        RatingAdjustment.objects.filter(player=keep, kind=AdjustmentKind.UMSTUFUNG).values_list(
            "date", flat=True
        )
    )
    RatingAdjustment.objects.filter(player=drop, kind=AdjustmentKind.UMSTUFUNG, date__in=keep_dates).delete()
    moved["adjustments"] = RatingAdjustment.objects.filter(player=drop).update(player=keep)
    keep_list_dates = set(OfficialRating.objects.filter(player=keep).values_list("as_of", flat=True))
    OfficialRating.objects.filter(player=drop, as_of__in=keep_list_dates).delete()
    OfficialRating.objects.filter(player=drop).update(player=keep)
    # His rows on frozen lists are the kept player's now (and stay hidden if either objected, below).
    FrozenListRow.objects.filter(player=drop).update(player=keep)
    filled = [name for name in FILLED if not getattr(keep, name) and getattr(drop, name)]
    if drop.publication_objection and not keep.publication_objection:
        filled.append("publication_objection")  # an objection to publication is never lost in a merge
    values = {name: getattr(drop, name) for name in filled}
    drop_pk, drop_repr = drop.pk, str(drop)
    # His old address answers with a redirect to the kept player: his key, and every key merged into him
    # before (a chain A → B → C resolves in one step), now point at ``keep``.
    MergedKey.objects.filter(player=drop).update(player=keep)
    MergedKey.objects.filter(key=keep.key).delete()  # the kept player's own key is his, not an alias
    MergedKey.objects.update_or_create(key=drop.key, defaults={"player": keep})
    players_merged.send(sender=players_merge, keep=keep.pk, drop=drop_pk)
    drop.delete()
    for name, value in values.items():
        setattr(keep, name, value)
    if filled:
        keep.full_clean(exclude=["key"])
        keep.save(update_fields=[*filled, "updated_at"])
    players_status_sync(player_ids=[keep.pk])
    changes = Changes(since=since, reset=[keep.pk], tournaments=sorted(tournaments))
    # The dry run shows whose DWZ would change: it replays the whole chain; the merge itself leaves a long
    # chain after the first tournament to the background, as a tournament save does.
    if dry_run or since is None:
        report = recalculate_changes(changes)
    else:
        report = recalculate_or_schedule(changes=changes, until=since, user=user)
    keep.refresh_from_db()
    announce_rating_changes(report=report, tournament_id=None, cause=RatingChangeCause.MERGE)  # none if dry
    audit.record(
        user=user,
        action=AuditAction.DELETE,
        object_type=AuditObjectType.PLAYER,
        object_id=drop_pk,
        object_repr=drop_repr,
        player_ref=drop_pk,
        changes={"merged_into": [None, keep.key]},
        snapshot=before_drop,
    )
    event = audit.record_player(player=keep, before=before_keep, user=user)
    if event is None:
        audit.record(
            user=user,
            action=AuditAction.UPDATE,
            object_type=AuditObjectType.PLAYER,
            object_id=keep.pk,
            object_repr=str(keep),
            player_ref=keep.pk,
            changes={"merged": [drop_repr, keep.key]},
            snapshot=audit.player_snapshot(player=keep),
        )
    return MergeResult(keep=keep, report=report, moved=moved, filled=filled)


def duplicate_candidates(
    *, limit: int = 200, players: QuerySet[Player] | None = None
) -> list[tuple[Player, Player, str]]:
    """Likely pairs of records of one person: same name and birth year, or the same FIDE id.

    ``players`` limits the search to pairs with at least one of them in that queryset (an officer's scope).
    """
    from ratings.folding import search_key

    qs = Player.objects.all()
    pairs: list[tuple[Player, Player, str]] = []
    seen: set[tuple[int, int]] = set()
    fide = (
        Player.objects.filter(fide_id__isnull=False)
        .values("fide_id")
        .order_by()
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
        .values_list("fide_id", flat=True)
    )
    groups: dict[tuple[str, object], list[Player]] = {}
    for p in qs.filter(fide_id__in=list(fide[:limit])).order_by("pk"):
        groups.setdefault(("fide", p.fide_id), []).append(p)
    rows = qs.filter(birth_year__isnull=False).values_list("pk", "surname", "first_name", "birth_year")
    by_name: dict[tuple[Any, ...], list[int]] = {}
    for pk, surname, first, year in rows:
        by_name.setdefault((search_key(surname), search_key(first), year), []).append(pk)
    name_pks = [pks for pks in by_name.values() if len(pks) > 1]
    players_by_pk = {p.pk: p for p in qs.filter(pk__in=[pk for pks in name_pks[:limit] for pk in pks])}
    for pks in name_pks[:limit]:
        groups.setdefault(("name", pks[0]), []).extend(players_by_pk[pk] for pk in pks if pk in players_by_pk)
    allowed = None if players is None else set(players.values_list("pk", flat=True))
    for (kind, _value), members in groups.items():
        members.sort(key=lambda p: (p.dsb_id is None, p.pk))  # the record from the list is the one to keep
        reason = _("gleiche FIDE-ID") if kind == "fide" else _("gleicher Name und Geburtsjahr")
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                key = (min(a.pk, b.pk), max(a.pk, b.pk))
                if key in seen or (allowed is not None and a.pk not in allowed and b.pk not in allowed):
                    continue
                seen.add(key)
                pairs.append((a, b, reason))
    return pairs[:limit]
