"""The officer's inbox of complaints (issue 30 §3): open, in progress, done with a note; each change through
``services.complaints`` (audited, the reporter mailed when done)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings import permissions
from ratings.models import ComplaintStatus
from ratings.selectors import complaints
from ratings.services.complaints import complaint_update


class ComplaintUpdateForm(forms.Form):
    status = forms.ChoiceField(label=gettext_lazy("Status"), choices=ComplaintStatus.choices)
    note = forms.CharField(
        label=gettext_lazy("Notiz (geht beim Abschluss an den Melder)"),
        required=False,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 3, "class": "form-control"}),
    )


@permissions.officer_required
def inbox(request: HttpRequest) -> HttpResponse:
    status = request.GET.get("status", "")
    if status not in ComplaintStatus.values:
        status = ""
    rows = list(complaints.inbox(user=request.user, status=status or None)[:200])
    return render(
        request,
        "ratings/officer/complaints.html",
        {"rows": rows, "status": status, "statuses": ComplaintStatus.choices},
    )


@permissions.officer_required
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    complaint = complaints.complaint_for(user=request.user, pk=pk)
    if complaint is None:
        raise Http404(_("Diese Reklamation gibt es nicht oder sie ist nicht an Sie gerichtet."))
    form = ComplaintUpdateForm(
        request.POST or None, initial={"status": complaint.status, "note": complaint.note}
    )
    if request.method == "POST" and form.is_valid():
        try:
            complaint_update(
                complaint=complaint,
                status=form.cleaned_data["status"],
                note=form.cleaned_data["note"],
                user=request.user,
            )
        except ValidationError as error:
            form.add_error(None, error)  # a dict of errors lands at its fields (the note)
        else:
            messages.success(request, _("Reklamation gespeichert."))
            return redirect("ratings:officer-complaint", pk=complaint.pk)
    trail = complaints.trail(complaint_id=complaint.pk)
    return render(
        request,
        "ratings/officer/complaint_detail.html",
        {"complaint": complaint, "form": form, "trail": trail},
    )
