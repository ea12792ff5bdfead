"""Officer page "Turnier aus Datei": upload a TRF or DSB-XML file (told apart by the content) → what was
read → players → preview → save.

The upload waits in the session (the file's bytes, nothing else); only the final "save" writes, through
``ratings.services.trf_import.trf_save`` in one transaction. "Verwerfen" drops the pending upload.
"""

from __future__ import annotations

import base64
import dataclasses
import secrets
from collections import Counter

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from ratings import permissions
from ratings.formats.trf import TrfTournament, person_id
from ratings.models import Club, Organisation, Tournament
from ratings.selectors import officer as reads
from ratings.selectors.plausibility import file_digest
from ratings.selectors.trf_import import (
    Decision,
    Head,
    Match,
    TrfImportError,
    attach_stored_ratings,
    head_from_file,
    import_read,
    pending_games,
    problem_text,
    trf_match,
    trf_preview,
    trf_warnings,
)
from ratings.services.trf_import import TrfImportResult, trf_save
from ratings.web.officer.forms.trf import TrfHeadForm, TrfUploadForm

from .plausibility import confirmed, warnings_context

SESSION_KEY = "trf_upload"


def _pending(request: HttpRequest, token: str) -> dict:
    data = request.session.get(SESSION_KEY)
    if not data or not secrets.compare_digest(data.get("token", ""), token):
        raise Http404
    return data


@permissions.officer_required
@require_http_methods(["GET", "POST"])
def trf_upload(request: HttpRequest) -> HttpResponse:
    form = TrfUploadForm(request.POST or None, request.FILES or None)
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data["file"].read()
        order = form.cleaned_data["date_order"]
        try:
            import_read(data, date_order=order)
        except TrfImportError as exc:
            errors = exc.messages
            if exc.ambiguous_date:
                form.add_error("date_order", _("Bitte das Datumsformat der Datei wählen."))
        else:
            token = secrets.token_urlsafe(16)
            request.session[SESSION_KEY] = {
                "token": token,
                "name": form.cleaned_data["file"].name[:100],
                "data": base64.b64encode(data).decode("ascii"),
                "date_order": order,
            }
            return redirect("ratings:trf-review", token)
    return render(request, "ratings/officer/trf_upload.html", {"form": form, "errors": errors})


def _head_form(request: HttpRequest, head: Head, data=None) -> TrfHeadForm:
    initial = {
        "name": head.name,
        "place": head.place,
        "start_date": head.start_date,
        "end_date": head.end_date,
        "rated": True,
        "time_control": head.time_control,
    }
    return TrfHeadForm(
        data,
        initial=initial,
        instance=Tournament(),
        clubs=list(permissions.manageable_clubs(request.user).order_by("zps")),
        organisations=list(permissions.manageable_organisations(request.user).order_by("code")),
        is_staff=request.user.is_staff,
        user=request.user,
    )


def _choice(m: Match) -> str:
    """The initial choice of a line: a certain match, "new" without candidates, else open."""
    if m.player is not None and m.certain:
        return f"player:{m.player.pk}"
    return "" if m.candidates else "new"


def _decisions(
    request: HttpRequest, matches: list[Match], club: Club | None
) -> tuple[dict[int, Decision], list[str], bool]:
    """The officer's choices per line: a candidate, another player by key, or a new player (joining his club
    from the file's ZPS-Mitgliedsnummer, else ``club``). The flag: a new player has no club."""
    post = request.POST
    out: dict[int, Decision] = {}
    errors: list[str] = []
    without_club = False
    keys = {m.trf.start_rank: (post.get(f"k-{m.trf.start_rank}") or "").strip() for m in matches}
    by_key = reads.players_by_key(keys=[k for k in keys.values() if k])
    for m in matches:
        rank = m.trf.start_rank
        choice = post.get(f"p-{rank}", _choice(m))
        if keys[rank]:
            player = by_key.get(keys[rank].upper())
            if player is None:
                errors.append(
                    _("Zeile %(rank)s: kein Spieler mit dem Schlüssel „%(key)s“.")
                    % {"rank": rank, "key": keys[rank]}
                )
            else:
                out[rank] = Decision(player_id=player.pk)
        elif choice == "new":
            pid = person_id(m.trf.person_id)
            own = pid is not None and pid.kind == "member"
            out[rank] = Decision(create=True, club_id=None if own or club is None else club.pk)
            without_club = without_club or (club is None and not own)
        elif choice.startswith("player:") and choice[7:].isdecimal() and len(choice) < 30:
            pk = int(choice[7:])
            if pk in {c.pk for c in m.candidates}:
                out[rank] = Decision(player_id=pk)
            else:
                errors.append(_("Zeile %(rank)s: ungültige Auswahl.") % {"rank": rank})
        else:
            errors.append(
                _("Zeile %(rank)s (%(name)s): bitte einen Spieler wählen oder „neu anlegen“.")
                % {"rank": rank, "name": m.trf.name}
            )
    for rank, decision in out.items():
        if post.get(f"nm-{rank}"):  # ticked: not a member of a DSB club (WO 3.4.3)
            out[rank] = dataclasses.replace(decision, member=False)
    return out, errors, without_club


def _summary(tournament) -> dict:
    _games, notes = pending_games(tournament)
    warnings = [problem_text(w) for w in tournament.warnings]
    return {
        "players": len(tournament.players),
        "rounds": tournament.rounds,
        "games": len(tournament.games),
        "rated_games": len(tournament.rated_games),
        "forfeits": len(tournament.forfeits),
        "byes": sorted(Counter(b.code for b in tournament.byes).items()),
        "bye_count": len(tournament.byes),
        "notes": notes,
        "warnings": warnings,
        "note_count": len(warnings) + len(notes),
        "encoding": tournament.encoding,
        "dropped": [p.name for p in tournament.dropped],
    }


def _row(request: HttpRequest, m: Match) -> dict:
    rank = m.trf.start_rank
    posted = request.method == "POST"
    return {
        "match": m,
        "choice": request.POST.get(f"p-{rank}", _choice(m)) if posted else _choice(m),
        "key": request.POST.get(f"k-{rank}", "") if posted else "",
        "non_member": posted and bool(request.POST.get(f"nm-{rank}")),
        "options": [
            {
                "value": f"player:{c.pk}",
                "label": f"{c.name} ({c.key}{', ' + str(c.birth_year) if c.birth_year else ''})",
            }
            for c in m.candidates
        ],
    }


@permissions.officer_required
@require_http_methods(["GET", "POST"])
def trf_review(request: HttpRequest, token: str) -> HttpResponse:
    pending = _pending(request, token)
    if request.method == "POST" and "abandon" in request.POST:
        request.session.pop(SESSION_KEY, None)
        messages.info(request, _("Hochgeladene Datei verworfen; nichts gespeichert."))
        return redirect("ratings:officer-dashboard")
    data = base64.b64decode(pending["data"])
    try:
        tournament = import_read(data, date_order=pending.get("date_order", ""))
    except TrfImportError:  # the same bytes were read on upload; only a changed reader gets here
        request.session.pop(SESSION_KEY, None)
        raise Http404 from None
    file_head = head_from_file(tournament)
    form = _head_form(request, file_head, request.POST if request.method == "POST" else None)
    matches = trf_match(tournament)
    context: dict = {
        "file_name": pending["name"],
        "token": token,
        "summary": _summary(tournament),
        "errors": [],
        "digest": file_digest(data),
    }
    if request.method == "POST":
        saved = _review_post(request, tournament, form, matches, file_head, context)
        if saved is not None:
            return saved
    else:
        attach_stored_ratings(matches, file_head)
    context.update(
        {
            "form": form,
            "rows": [_row(request, m) for m in matches],
            "open_count": sum(1 for m in matches if _choice(m) == ""),
            "new_count": sum(1 for m in matches if _choice(m) == "new"),
        }
    )
    return render(request, "ratings/officer/trf_review.html", context)


def _review_post(
    request: HttpRequest,
    tournament: TrfTournament,
    form: TrfHeadForm,
    matches: list[Match],
    file_head: Head,
    context: dict,
) -> HttpResponse | None:
    """The posted head and choices: saved (the redirect), or their messages and the preview in ``context``."""
    head = _posted_head(request, form, tournament) if form.is_valid() else file_head
    attach_stored_ratings(matches, head)
    club = form.cleaned_data.get("new_player_club") if form.is_valid() else None
    decisions, errors, without_club = _decisions(request, matches, club)
    if without_club and not request.user.is_staff:
        # A player without a membership would be outside every officer's scope afterwards.
        errors.append(_("Bitte den Verein für neue Spieler wählen."))
    context["errors"] = errors
    if not form.is_valid() or errors:
        return None
    if "save" in request.POST:
        digest = context["digest"]
        warnings = trf_warnings(tournament=tournament, head=head, decisions=decisions, digest=digest)
        if not confirmed(request.POST, warnings):
            context.update(warnings_context(warnings))
        else:
            try:
                result = trf_save(
                    tournament=tournament,
                    head=head,
                    decisions=decisions,
                    user=request.user,
                    source_digest=digest,
                )
            except TrfImportError as exc:
                errors += exc.messages
            else:
                request.session.pop(SESSION_KEY, None)
                return _saved(request, result)
    context["preview"] = trf_preview(tournament=tournament, head=head, decisions=decisions)
    return None


def _posted_head(request: HttpRequest, form: TrfHeadForm, tournament: TrfTournament) -> Head:
    """The head as the officer corrected it; a code of a tournament outside his scope is refused."""
    c = form.cleaned_data
    organiser = c["organiser"]
    head = Head(
        name=c["name"],
        end_date=c["end_date"],
        start_date=c["start_date"] or c["end_date"],
        place=c["place"],
        code=c["code"] or None,
        rounds=tournament.rounds or None,
        organiser_club=organiser if isinstance(organiser, Club) else None,
        organiser_organisation=organiser if isinstance(organiser, Organisation) else None,
        rated=c["rated"],
        time_control=c["time_control"],
    )
    existing = reads.tournament_by_code(code=head.code) if head.code else None
    if existing is not None and not permissions.can_manage_tournament(request.user, existing):
        raise PermissionDenied
    if existing is not None:  # replacing it is a correction: the WO 6.2 year
        permissions.check_correction_window(request.user, existing)
    return head


def _saved(request: HttpRequest, result: TrfImportResult) -> HttpResponse:
    created, changed = len(result.created), len(result.report.rating_changes)
    messages.success(
        request,
        _("Turnier „%(name)s“ aus der Datei gespeichert und ausgewertet.") % {"name": result.tournament.name}
        + " "
        + ngettext("%(count)s neuer Spieler.", "%(count)s neue Spieler.", created) % {"count": created}
        + " "
        + ngettext("%(count)s DWZ geändert.", "%(count)s DWZ geändert.", changed) % {"count": changed},
    )
    return redirect("ratings:tournament-detail", result.tournament.pk)
