"""Django admin of the rating data. Every write that affects ratings goes through ``ratings.services``
(save_related / delete_model); derived data (evaluations, Restpartien, a player's DWZ/index) is read-only.

Django's autodiscover imports this module only: it imports the package's other modules, which register the
officer scopes and audit log (``officer``), the DSB list imports (``dsb_list``), the player merge (``merge``)
and the background jobs (``recalculation``)."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, TypeGuard

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models.functions import ExtractYear
from django.forms.models import BaseInlineFormSet
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ratings import services
from ratings.admin import complaints, dsb_list, officer, recalculation  # noqa: F401 - they register models
from ratings.admin import merge as admin_merge
from ratings.admin.base import ReadOnlyAdmin
from ratings.admin.reports import report_text
from ratings.models import (
    Club,
    Evaluation,
    Game,
    Membership,
    Organisation,
    Player,
    RatingAdjustment,
    RatingState,
    Restpartie,
    Tournament,
    TournamentEntry,
)
from ratings.selectors import plausibility
from ratings.services.privacy import player_publication_set
from ratings.tournament_checks import TournamentConflict, TournamentGone

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class YearFilter(admin.SimpleListFilter):
    title = _("Jahr")
    parameter_name = "year"
    field = "end_date"

    def lookups(self, request, model_admin):
        years = (
            model_admin.get_queryset(request)
            .annotate(y=ExtractYear(self.field))
            .order_by("-y")
            .values_list("y", flat=True)
            .distinct()
        )
        return [(str(y), str(y)) for y in years if y is not None]

    def queryset(self, request, queryset):
        value = (self.value() or "").strip()
        if value.isascii() and value.isdecimal() and len(value) <= 4:  # anything else is ignored
            return queryset.filter(**{f"{self.field}__year": int(value)})
        return queryset


def _report_message(request, report) -> None:
    if report is not None:
        messages.info(request, report_text(report))


@admin.register(Organisation)
class OrganisationAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "parent"]
    list_select_related = ["parent"]
    search_fields = ["code", "name"]
    list_filter = [("parent", admin.RelatedOnlyFieldListFilter)]
    autocomplete_fields = ["parent"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["zps", "club_name", "organisation"]
    list_select_related = ["organisation"]
    search_fields = ["zps", "name"]
    list_filter = [("organisation", admin.RelatedOnlyFieldListFilter)]
    autocomplete_fields = ["organisation"]

    @admin.display(description=_("Name"), ordering="name_sort")  # DIN 5007, as the public pages
    def club_name(self, obj: Club) -> str:
        return obj.name


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["club"]


START_VALUE_FIELDS = ("kind", "date", "dwz", "index", "fide_elo", "reason", "author")


class StartValueInline(admin.TabularInline):
    model = RatingAdjustment
    extra = 0
    fields = START_VALUE_FIELDS
    readonly_fields = START_VALUE_FIELDS
    can_delete = False
    verbose_name_plural = _("Wertungsänderungen (bearbeiten unter „Wertungsänderungen“)")

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["key", "player_name", "birth_year", "sex", "dwz", "index", "last_evaluated", "status"]
    search_fields = [
        "surname",
        "first_name",
        "key",
        "=dsb_id",
        "memberships__club__zps",
        "memberships__club__name",
    ]
    list_filter = [
        "status",
        "sex",
        "publication_objection",
        ("memberships__club", admin.RelatedOnlyFieldListFilter),
    ]
    readonly_fields = ["dwz", "index", "last_evaluated", "publication_objection", "created_at", "updated_at"]
    fieldsets = [
        (None, {"fields": ["key", ("surname", "first_name"), ("sex", "birth_year"), "status", "dsb_id"]}),
        # Set by the actions below (through ratings.services.privacy, audited), not by the form.
        (_("Datenschutz"), {"fields": ["publication_objection"]}),
        (_("FIDE"), {"fields": [("fide_id", "fide_elo", "fide_title", "fide_federation")]}),
        (
            _("DWZ (berechnet)"),
            {"fields": [("dwz", "index", "last_evaluated"), ("created_at", "updated_at")]},
        ),
    ]
    inlines = [MembershipInline, StartValueInline]
    actions = [admin_merge.merge_players_action, "publication_object", "publication_allow"]

    def _publication(self, request, queryset, *, objection: bool) -> None:
        changed = sum(
            player_publication_set(player=p, objection=objection, user=request.user) is not None
            for p in queryset
        )
        self.message_user(request, _("%(n)d Spieler geändert.") % {"n": changed})

    @admin.action(description=_("Widerspruch gegen Veröffentlichung vermerken"))
    def publication_object(self, request, queryset):
        self._publication(request, queryset, objection=True)

    @admin.action(description=_("Widerspruch gegen Veröffentlichung aufheben"))
    def publication_allow(self, request, queryset):
        self._publication(request, queryset, objection=False)

    @admin.display(description=_("Name"), ordering="name_sort")  # DIN 5007, as the public pages
    def player_name(self, obj: Player) -> str:
        return obj.name

    def get_urls(self):
        return admin_merge.urls(self) + super().get_urls()

    def save_model(self, request, obj, form, change):
        pass  # written by ``save_related``, inside the service, together with the membership inlines

    def save_related(self, request, form, formsets, change):
        def write():
            super(PlayerAdmin, self).save_model(request, form.instance, form, change)
            super(PlayerAdmin, self).save_related(request, form, formsets, change)

        _report_message(request, services.player_save(player=form.instance, user=request.user, write=write))

    def delete_model(self, request, obj):
        services.player_delete(player=obj, user=request.user)

    def delete_queryset(self, request, queryset):
        for player in queryset:
            self.delete_model(request, player)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["player", "club", "member_number", "status", "valid_from", "valid_until"]
    list_select_related = ["player", "club"]
    search_fields = ["player__surname", "player__first_name", "player__key", "club__zps", "member_number"]
    list_filter = [
        "status",
        ("valid_until", admin.EmptyFieldListFilter),
        ("club", admin.RelatedOnlyFieldListFilter),
    ]
    autocomplete_fields = ["player", "club"]

    def save_model(self, request, obj, form, change):
        _report_message(request, services.membership_save(membership=obj, user=request.user))

    def delete_model(self, request, obj):
        _report_message(request, services.membership_delete(membership=obj, user=request.user))

    def delete_queryset(self, request, queryset):
        for membership in queryset:
            self.delete_model(request, membership)


class EntryInline(admin.TabularInline):
    model = TournamentEntry
    extra = 0
    autocomplete_fields = ["player"]


def _is_id(value: str | None) -> TypeGuard[str]:
    """A posted primary key a database integer can hold ("²" passes isdigit but not int)."""
    return bool(value and value.isascii() and value.isdecimal() and len(value) <= 18)


class GameFormSet(BaseInlineFormSet):
    """Cross-row checks of the game grid: white ≠ black, a player at most once per round, byes without
    black, both players entered (the entries come from the entry inline of the same POST)."""

    def _entered(self) -> set[int]:
        entered: set[int] = set()
        if self.instance.pk:
            entered |= set(self.instance.entries.values_list("player_id", flat=True))
        prefix = "entries"
        try:
            total = min(int(self.data.get(f"{prefix}-TOTAL_FORMS", 0)), self.absolute_max)
        except ValueError:
            total = 0
        removed = set()
        for i in range(total):
            player = self.data.get(f"{prefix}-{i}-player")
            entry_id = self.data.get(f"{prefix}-{i}-id")
            if self.data.get(f"{prefix}-{i}-DELETE"):
                if _is_id(entry_id):
                    removed.add(int(entry_id))
                continue
            if _is_id(player):
                entered.add(int(player))
        if removed:
            entered -= set(TournamentEntry.objects.filter(pk__in=removed).values_list("player_id", flat=True))
            # a removed entry's player may still be entered by another row
            for i in range(total):
                player = self.data.get(f"{prefix}-{i}-player")
                if _is_id(player) and not self.data.get(f"{prefix}-{i}-DELETE"):
                    entered.add(int(player))
        return entered

    def clean(self):
        super().clean()
        games = [
            f.instance
            for f in self.forms
            if f.cleaned_data and not f.cleaned_data.get("DELETE") and f.cleaned_data.get("white")
        ]
        for game in games:
            game.white_id = game.white.pk
            game.black_id = game.black.pk if game.black else None
        entered = self._entered()
        try:
            services.games_validate(entered=entered, games=games)
        except ValidationError as exc:
            raise ValidationError(exc.messages) from exc
        self._check_plausibility(entered, games)

    def _check_plausibility(self, entered: set[int], games: list[Game]) -> None:
        """The plausibility warnings of "Speichern und auswerten" (ratings.selectors.plausibility), all of
        them, until the admin ticks "Auffälligkeiten geprüft" on the head (``confirm_warnings``)."""
        head = self.instance
        if head.start_date is None or head.end_date is None or self.data.get("confirm_warnings"):
            return  # an invalid head has its own errors
        players = list(Player.objects.filter(pk__in=entered).order_by("pk"))
        warnings = plausibility.tournament_warnings(tournament=head, players=players, games=games)
        if warnings:
            lines: list[StrOrPromise] = [
                f"{w.message} ({w.link_text}: {w.url})" if w.url else w.message for w in warnings
            ]
            lines.append(
                _(
                    "Nicht gespeichert: bitte prüfen und „Auffälligkeiten geprüft – trotzdem speichern“ "
                    "ankreuzen."
                )
            )
            raise ValidationError([str(line) for line in lines])


class GameInline(admin.TabularInline):
    model = Game
    formset = GameFormSet
    extra = 0
    fields = ["round", "board", "white", "black", "result"]
    autocomplete_fields = ["white", "black"]


class TournamentAdminForm(forms.ModelForm):
    """Optimistic locking as on the officer pages: the form posts the version it was loaded at."""

    loaded_version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    confirm_warnings = forms.BooleanField(
        label=_("Auffälligkeiten geprüft – trotzdem speichern"),
        required=False,
        help_text=_(
            "Nur nötig, wenn beim Speichern Auffälligkeiten gemeldet wurden (Turnierende, Bedenkzeit, "
            "Spieler, Dublette)."
        ),
    )

    class Meta:
        model = Tournament
        fields = "__all__"  # noqa: DJ007 - the admin lists its fields itself

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.initial["loaded_version"] = self.instance.version

    def clean(self):
        data = super().clean()
        loaded = data.get("loaded_version")
        stored = Tournament.objects.filter(pk=self.instance.pk).values_list("version", flat=True).first()
        if self.instance.pk and loaded is not None and loaded != stored:
            raise ValidationError(
                _("Nicht gespeichert: jemand anderes hat das Turnier inzwischen geändert. Bitte neu laden.")
            )
        return data


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentAdminForm
    list_display = ["name", "code", "start_date", "end_date", "rounds", "organiser", "rated"]
    list_select_related = ["organiser_club", "organiser_organisation"]
    search_fields = ["name", "code", "place", "organiser_club__zps", "organiser_club__name"]
    list_filter = ["rated", YearFilter, ("organiser_club", admin.RelatedOnlyFieldListFilter)]
    date_hierarchy = "end_date"
    autocomplete_fields = ["organiser_club", "organiser_organisation", "rating_officer"]
    readonly_fields = ["code_suffix", "created_at", "updated_at"]
    inlines = [EntryInline, GameInline]
    actions = ["recalculate_from_here"]

    @admin.display(description=_("Ausrichter"))
    def organiser(self, obj):
        return obj.organiser

    def save_model(self, request, obj, form, change):
        pass  # written by ``save_related``, inside the service, together with the entry and game inlines

    def save_related(self, request, form, formsets, change):
        try:
            report = services.tournament_admin_save(
                form=form,
                formsets=formsets,
                user=request.user,
                version=form.cleaned_data.get("loaded_version") if change else None,
            )
        except TournamentConflict:  # changed between the form's check and the lock: nothing written
            self.message_user(
                request,
                _("Nicht gespeichert: jemand anderes hat das Turnier inzwischen geändert. Bitte neu laden."),
                messages.ERROR,
            )
        else:
            _report_message(request, report)

    def get_deleted_objects(self, objs, request):
        # Entries, games and derived rows go with the tournament; their admins are read-only by design.
        to_delete, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        owned = {str(m._meta.verbose_name) for m in (TournamentEntry, Game, Evaluation, Restpartie)}
        return to_delete, counts, {p for p in perms_needed if str(p) not in owned}, protected

    def delete_model(self, request, obj):
        # Deleted meanwhile by someone else: what the admin wanted.
        with contextlib.suppress(TournamentGone):
            _report_message(request, services.tournament_delete(tournament=obj, user=request.user))

    def delete_queryset(self, request, queryset):
        for tournament in queryset.order_by("end_date"):
            with contextlib.suppress(TournamentGone):
                services.tournament_delete(tournament=tournament, user=request.user)

    @admin.action(description=_("Ab hier neu berechnen"))
    def recalculate_from_here(self, request, queryset):
        report = services.tournaments_recalculate_from(tournaments=list(queryset))
        self.message_user(
            request,
            ngettext(
                "%(n)d Turnier neu ausgewertet.", "%(n)d Turniere neu ausgewertet.", len(report.tournaments)
            )
            % {"n": len(report.tournaments)},
        )


@admin.register(TournamentEntry)
class TournamentEntryAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "start_rank", "player"]
    list_select_related = ["tournament", "player"]
    search_fields = ["tournament__name", "tournament__code", "player__surname", "player__key"]


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "round", "board", "white", "black", "result"]
    list_select_related = ["tournament", "white", "black"]
    search_fields = ["tournament__name", "tournament__code", "white__surname", "black__surname"]
    list_filter = ["result"]


@admin.register(Evaluation)
class EvaluationAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "player", "status", "dwz_old", "index_old", "n", "points", "expected",
                    "coefficient", "performance", "dwz_new", "index_new", "edition"]  # fmt: skip
    list_select_related = ["tournament", "player"]
    search_fields = [
        "player__surname",
        "player__first_name",
        "player__key",
        "tournament__name",
        "tournament__code",
    ]
    list_filter = [
        "edition",
        "status",
        YearFilter,
        ("player__memberships__club", admin.RelatedOnlyFieldListFilter),
    ]


@admin.register(Restpartie)
class RestpartieAdmin(ReadOnlyAdmin):
    list_display = ["player", "tournament", "opponent_rating", "score", "end_date"]
    list_select_related = ["player", "tournament"]
    search_fields = ["player__surname", "player__key", "tournament__name", "tournament__code"]
    list_filter = [YearFilter]


@admin.register(RatingAdjustment)
class RatingAdjustmentAdmin(admin.ModelAdmin):
    list_display = ["player", "kind", "date", "dwz", "index", "fide_elo", "author", "created_at"]
    list_select_related = ["player", "author"]
    search_fields = ["player__surname", "player__first_name", "player__key", "reason"]
    list_filter = ["kind"]
    autocomplete_fields = ["player"]
    readonly_fields = ["author", "created_at"]

    def save_model(self, request, obj, form, change):
        try:
            _report_message(request, services.adjustment_save(adjustment=obj, user=request.user))
        except ValidationError as exc:  # the form validated already; constraints are checked again here
            messages.error(request, "; ".join(exc.messages))
            raise

    def delete_model(self, request, obj):
        _report_message(request, services.adjustment_delete(adjustment=obj, user=request.user))

    def delete_queryset(self, request, queryset):
        for adjustment in queryset:
            services.adjustment_delete(adjustment=adjustment, user=request.user)


@admin.register(RatingState)
class RatingStateAdmin(ReadOnlyAdmin):
    list_display = ["pk", "last_recalculated_at"]
