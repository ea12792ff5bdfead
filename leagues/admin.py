"""Django admin of the league's data (issue 29). Seasons, divisions, teams and ranking lists are edited here:
none of them changes a rating by itself. What would (a division's settings that its DWZ tournament copies)
goes through ``leagues.services`` after the save; the values the stored match points are derived from
(boards, points) are read-only once the division has matches. Matches and their boards are read-only: they
are reported by the captains and approved or changed by the director on his page (``match_report_save``,
``match_approve``, ``board_result_change``), to which each match links. Roles are given by invitation
(``leagues.services.roles.role_invite``): the e-mail fields create the user if needed and send him the mail to
set his password."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from leagues.models import Board, Division, DivisionPart, Match, RankingEntry, RankingList, Season, Team
from leagues.services.division_tournament import division_tournament_sync
from leagues.services.ranking import ranking_snapshot
from leagues.services.roles import Role, role_invite

# A division's fields its DWZ tournament copies (name, time control, colours of the games, organiser).
TOURNAMENT_FIELDS = {"name", "time_control", "home_white_on_odd"}
# The fields the stored match points and board points are derived from.
SCORE_FIELDS = ["season", "boards", "points_win", "points_draw", "points_loss"]


def _invite(request, *, role: Role, target, email: str) -> None:
    if not email:
        return
    try:
        role_invite(role=role, target=target, email=email, user=request.user, request=request)
    except (ValidationError, PermissionDenied) as exc:
        text = "; ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)
        messages.error(request, _("Einladung an %(email)s: %(error)s") % {"email": email, "error": text})
    else:
        messages.success(request, _("Einladung an %(email)s verschickt.") % {"email": email})


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class DivisionInline(admin.TabularInline):
    model = Division
    fields = ["name", "level", "boards", "rounds", "cycles", "system", "director", "rating_officer"]
    autocomplete_fields = ["director", "rating_officer"]
    show_change_link = True
    extra = 0

    def get_readonly_fields(self, request, obj=None):
        return ["boards"] if obj is not None and Match.objects.filter(division__season=obj).exists() else []

    def has_delete_permission(self, request, obj=None):
        return False  # a division is deleted on its own page, where its matches are seen


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "organisation", "reference_date", "start_date", "end_date", "ranking_deadline"]
    list_select_related = ["organisation"]
    list_filter = [("organisation", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["name", "organisation__code", "organisation__name"]
    autocomplete_fields = ["organisation"]
    date_hierarchy = "reference_date"
    inlines = [DivisionInline]
    actions = None  # no bulk delete

    def has_delete_permission(self, request, obj=None):
        played = obj is not None and Match.objects.filter(division__season=obj).exists()
        return not played and super().has_delete_permission(request, obj)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and "organisation" in form.changed_data:  # the organiser of the divisions' tournaments
            for division in obj.divisions.all():
                division_tournament_sync(division=division, user=request.user)


class TeamInline(admin.TabularInline):
    model = Team
    fields = ["draw_number", "name", "club", "number", "captain"]
    autocomplete_fields = ["club", "captain"]
    show_change_link = True
    extra = 0


class DivisionPartInline(ReadOnlyInline):
    """The parts are made by the rating officer's split (``division_split``) on the division's page."""

    model = DivisionPart
    fields = readonly_fields = ("number", "from_date", "from_round", "tournament")


class DivisionForm(forms.ModelForm):
    invite_director = forms.EmailField(
        label=_("Staffelleiter einladen (E-Mail)"),
        required=False,
        help_text=_(
            "Legt den Benutzer an, falls nötig, und schickt ihm die E-Mail, sein Passwort zu setzen."
        ),
    )
    invite_rating_officer = forms.EmailField(label=_("Wertungsreferent einladen (E-Mail)"), required=False)


@admin.register(Division)
class DivisionAdmin(admin.ModelAdmin):
    form = DivisionForm
    list_display = [
        "name",
        "season",
        "level",
        "boards",
        "rounds",
        "director",
        "rating_officer",
        "manage_link",
    ]
    list_select_related = ["season", "season__organisation", "director", "rating_officer"]
    list_filter = ["season", "system"]
    search_fields = ["name", "season__name", "director__username", "director__email"]
    autocomplete_fields = ["season", "director", "rating_officer"]
    inlines = [TeamInline, DivisionPartInline]
    actions = None  # no bulk delete: a division's matches and tournaments are seen on its page first

    def get_readonly_fields(self, request, obj=None):
        return SCORE_FIELDS if obj is not None and obj.matches.exists() else []

    def has_delete_permission(self, request, obj=None):
        played = obj is not None and obj.matches.exists()
        return not played and super().has_delete_permission(request, obj)

    @admin.display(description=_("Leitung"))
    def manage_link(self, obj):
        url = reverse("leagues:division-manage", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, _("Seite des Staffelleiters"))

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and TOURNAMENT_FIELDS & set(form.changed_data):
            division_tournament_sync(division=obj, user=request.user)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        division = form.instance
        _invite(request, role=Role.DIRECTOR, target=division, email=form.cleaned_data.get("invite_director"))
        _invite(
            request,
            role=Role.RATING_OFFICER,
            target=division,
            email=form.cleaned_data.get("invite_rating_officer"),
        )


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "division", "club", "number", "captain", "captain_email", "withdrawn_on"]
    list_select_related = ["division", "division__season", "club", "captain"]
    list_filter = ["division__season", "division"]
    search_fields = ["name", "club__zps", "club__name", "captain_name", "captain_email"]
    autocomplete_fields = ["division", "club", "partner_clubs", "captain"]
    actions = ["invite_captains"]

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and Match.objects.filter(division=obj.division_id).exists():
            return ["division"]
        return []

    @admin.action(description=_("Mannschaftsführer einladen (an die eingetragene E-Mail)"))
    def invite_captains(self, request, queryset):
        for team in queryset.select_related("division"):
            if not team.captain_email:
                messages.warning(request, _("%(team)s: keine E-Mail eingetragen.") % {"team": team.name})
                continue
            _invite(request, role=Role.CAPTAIN, target=team, email=team.captain_email)


class RankingEntryInline(admin.TabularInline):
    model = RankingEntry
    fields = ["rank", "player", "team_number", "status", "dwz", "dwz_index", "exception_note", "membership"]
    readonly_fields = ["dwz", "dwz_index"]  # the snapshot at the reference date: the action below takes it
    autocomplete_fields = ["player"]
    raw_id_fields = ["membership"]
    extra = 0


class RankingListForm(forms.ModelForm):
    invite_officer = forms.EmailField(label=_("Vereinsspielleiter einladen (E-Mail)"), required=False)


@admin.register(RankingList)
class RankingListAdmin(admin.ModelAdmin):
    form = RankingListForm
    list_display = ["club", "season", "group", "officer", "submitted_at", "approved_at"]
    list_select_related = ["club", "season", "season__organisation", "officer"]
    list_filter = ["season", "group"]
    search_fields = ["club__zps", "club__name", "officer__username", "officer__email"]
    autocomplete_fields = ["season", "club", "partner_clubs", "officer"]
    inlines = [RankingEntryInline]
    actions = ["take_snapshot"]

    @admin.action(description=_("DWZ zum Stichtag übernehmen"))
    def take_snapshot(self, request, queryset):
        changed = sum(ranking_snapshot(ranking_list=ranking) for ranking in queryset)
        messages.success(request, _("DWZ zum Stichtag übernommen: %(n)s Einträge geändert.") % {"n": changed})

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        email = form.cleaned_data.get("invite_officer")
        _invite(request, role=Role.CLUB_OFFICER, target=form.instance, email=email)


class BoardInline(ReadOnlyInline):
    model = Board
    fields = readonly_fields = (
        "number",
        "home_player",
        "away_player",
        "result",
        "rated_result",
        "played_on",
        "game",
    )


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    """Read-only: reports, approvals and changes go through the services on the director's page."""

    list_display = ["__str__", "division", "date", "status", "approved_at", "manage_link"]
    list_select_related = ["division", "division__season", "home", "away"]
    list_filter = ["division__season", "division", "status", ("approved_at", admin.EmptyFieldListFilter)]
    search_fields = ["home__name", "away__name", "division__name"]
    date_hierarchy = "scheduled_date"
    inlines = [BoardInline]

    @admin.display(description=_("Leitung"))
    def manage_link(self, obj):
        url = reverse("leagues:match-manage", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, _("Seite des Staffelleiters"))

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
