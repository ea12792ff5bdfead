"""Invitations: a director (or staff) names a captain by e-mail; the user is created if needed and gets
Django's password-reset mail to set his password (as officers do)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.crypto import get_random_string
from django.utils.translation import gettext as _

from leagues import permissions
from leagues.models import Team


def captain_invite(*, team: Team, email: str, user, request=None) -> object:
    """Make the user of ``email`` the team's captain and send him the mail to set his password."""
    if not permissions.is_director(user, team.division):
        raise PermissionDenied(_("Nur der Staffelleiter lädt Mannschaftsführer ein."))
    email = email.strip().lower()
    validate_email(email)
    model = get_user_model()
    with transaction.atomic():
        captain = model.objects.filter(email__iexact=email).first()
        if captain is None:
            if model.objects.filter(username=email).exists():
                raise ValidationError(_("Den Benutzernamen gibt es schon."))
            # A random password: the reset mail (which skips unusable passwords) lets him choose his own.
            captain = model.objects.create_user(username=email, email=email, password=get_random_string(40))
        team.captain = captain
        team.captain_email = email
        team.save(update_fields=["captain", "captain_email"])
    form = PasswordResetForm({"email": email})
    if form.is_valid():
        form.save(
            request=request,
            use_https=bool(request and request.is_secure()),
            domain_override=None if request else "localhost",
            subject_template_name="registration/password_reset_subject.txt",
            email_template_name="registration/password_reset_email.txt",
        )
    return captain
